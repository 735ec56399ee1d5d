// quantscope-cli conformance FILE.json...
#include <cstdio>

#include "app/cli/case_runner.h"
#include "app/cli/cmd_common.h"
#include "app/cli/conformance_check.h"

namespace qs::cli {

namespace {

std::string oneLine(std::string s) {
    for (char& c : s)
        if (c == '\n' || c == '\r') c = ' ';
    return s;
}

int runConformance(const std::vector<std::string>& args, const PictureOutputs*) {
    const Result<ParsedArgs> parsed = parseArgs(args, {});
    if (!parsed)
        return reportInputError("conformance", parsed.error().message +
                                                   " (see 'quantscope-cli conformance --help')");
    if (parsed->positional.empty())
        return reportInputError("conformance",
                                "no input file (see 'quantscope-cli conformance --help')");

    // Everything is read, evaluated and checked before anything is printed: malformed
    // input anywhere gives its one line and exit code 2, nothing else.
    std::string report;
    int passed = 0, failed = 0;
    for (const std::string& path : parsed->positional) {
        const Result<FileRun> run = runFile(path);
        if (!run) return reportInputError("conformance", run.error().message);
        for (const CaseRun& c : run->cases) {
            std::optional<std::string> difference;
            try {
                difference = checkCase(c.object, c.result);
            } catch (const CaseFormatError& e) {
                return reportInputError("conformance", caseErrorMessage(path, c.index, c.name, e));
            }
            if (!difference) {
                ++passed;
                continue;
            }
            ++failed;
            report += oneLine("FAIL " + path + ":" + c.name + ": " + *difference) + "\n";
        }
    }
    report += std::to_string(passed) + " passed, " + std::to_string(failed) + " failed\n";
    const Status written = writeOutput({}, report);
    if (!written) return reportInputError("conformance", written.error().message);
    return failed ? kExitFailed : kExitOk;
}

}  // namespace

extern const Command conformanceCommand;
const Command conformanceCommand{
    "conformance",
    "Check every case of vectors files against its expected values",
    R"(Usage: quantscope-cli conformance FILE.json...

Evaluates every case of each FILE (as `eval` does) and checks it against the case's
expectations: each expected_<key> against the result's <key> with tolerance_<key> or else
the case's tolerance ({"mode": "exact"} when absent; {"mode": "atol", "atol": a,
"rtol": r} accepts |got - expected| <= a + r * |expected|), a constraint object such as
{"gt": 0} bounds the value, and expected_error needs an error of the same kind whose
message contains message_contains. Exact comparison of float32 results rounds the
expected decimal to float32 first.

Prints one line per failing case, naming the first difference:
  FAIL FILE:CASE: output[17]: got 0.5, expected 0.49803922 (exact)
then "N passed, N failed" as the last line.

Options:
  -h, --help   show this help

Exit codes: 0 all cases passed; 1 some case failed; 2 malformed input (one line on stderr
naming the file, the case and the field).
)",
    &runConformance,
};

}  // namespace qs::cli
