// quantscope-cli eval FILE.json... [-o OUT.json]
#include <array>

#include "app/cli/case_runner.h"
#include "app/cli/cmd_common.h"

namespace qs::cli {

namespace {

constexpr std::array<OptionSpec, 1> kOptions{{{"-o", "--output", true}}};

int runEval(const std::vector<std::string>& args, const PictureOutputs*) {
    const Result<ParsedArgs> parsed = parseArgs(args, kOptions);
    if (!parsed)
        return reportInputError("eval", parsed.error().message +
                                            " (see 'quantscope-cli eval --help')");
    if (parsed->positional.empty())
        return reportInputError("eval", "no input file (see 'quantscope-cli eval --help')");

    std::vector<FileRun> runs;
    for (const std::string& path : parsed->positional) {
        Result<FileRun> run = runFile(path);
        if (!run) return reportInputError("eval", run.error().message);
        runs.push_back(std::move(run).value());
    }
    const auto out = parsed->values.find("--output");
    const Status written = writeOutput(out == parsed->values.end() ? std::string() : out->second,
                                       resultsDocument(runs).dump(2) + "\n");
    if (!written) return reportInputError("eval", written.error().message);
    return kExitOk;
}

}  // namespace

extern const Command evalCommand;
const Command evalCommand{
    "eval",
    "Evaluate the cases of vectors files and write their results as JSON",
    R"(Usage: quantscope-cli eval FILE.json... [-o OUT.json]

Evaluates every case of each FILE ({"cases": [...]} in the schema of the test vectors:
name, op, attrs, shape, input, input_min, input_max, num_bits, gradients, params,
params_shards, ids, sp_indices, sp_values, sp_weights, dense_shape; expected_* and
tolerance* keys are ignored) and writes {"results": [...]}, one object per case in input
order: "name" and either the op's outputs ("output", plus "output_min"/"output_max",
"input_min_backprop"/"input_max_backprop" or "repr" where the op has them) or
"error": {"kind", "message"} with TensorFlow's error kind.

Tensors are flat row-major lists; ShardIds and lookups give a list of rows. Floats are
the shortest decimal that reads back as the same float32; NaN and infinities are the
strings "nan", "inf", "-inf"; integers are JSON integers.

Options:
  -o, --output OUT.json   write the results to OUT.json instead of standard output
  -h, --help              show this help

Exit codes: 0 done; 2 malformed input (not JSON, no "cases", an unknown op, a missing or
mistyped field: one line on stderr naming the file, the case and the field) or an output
that cannot be written (full disk, size limit: the previous OUT.json stays as it was).
)",
    &runEval,
};

}  // namespace qs::cli
