// quantscope-cli model: a minimal dispatcher for the whole-model report only. Branch h/cli
// writes the full `model` command (--list, --tensor ... --npy) in this same file; when both
// are merged, its version stays and its --report branch calls runModelReport
// (model_report_cmd.h) as this one does.
#include <array>
#include <string>
#include <vector>

#include "app/cli/cmd_common.h"
#include "app/cli/model_report_cmd.h"
#include "core/modelfile/model_file.h"

namespace qs::cli {
namespace {

constexpr std::array<OptionSpec, 4> kOptions{{
    {"", "--report", true},
    {"", "--csv", true},
    {"", "--png", true},
    {"", "--case", true},
}};

int run(const std::vector<std::string>& argv) {
    auto parsed = parseArgs(argv, kOptions);
    if (!parsed) return reportInputError("model", parsed.error().message);
    const ParsedArgs& args = *parsed;
    if (args.positional.size() != 1) return reportInputError("model", "give exactly one model file (see --help)");
    if (!args.has("--report")) return reportInputError("model", "give --report OUT.json --case CASE.json");
    auto model = modelfile::openModel(args.positional.front());
    if (!model) return reportInputError("model", model.error().message);
    return runModelReport(**model, args);
}

}  // namespace

extern const Command modelCommand{
    "model",
    "report every weight tensor of a model file under one op",
    "Usage: quantscope-cli model FILE --report OUT.json [--csv OUT.csv] [--png OUT.png]\n"
    "                                 --case CASE.json\n"
    "\n"
    "  --report OUT.json    the whole-model report: every float (or dequantized) weight tensor\n"
    "                       with at least 2 elements quantized by the op CASE.json describes,\n"
    "                       each with the range of its own data (the case's range is not used);\n"
    "                       per channel along each tensor's channel axis when the case sets an\n"
    "                       axis >= 0. Rows worst SQNR first: elements, min, max, mse, sqnr_db,\n"
    "                       clipped_fraction, levels_used of levels_available, the best\n"
    "                       calibration (min-max, percentile, MSE-optimal, KL) and its SQNR.\n"
    "                       Tensors left out are listed under \"skipped\" with the reason.\n"
    "  --csv OUT.csv        the rows as CSV: tensor,channel,shape,dtype,axis,elements,min,max,\n"
    "                       mse,sqnr_db,clipped_fraction,levels_used,levels_available,\n"
    "                       best_calibration,best_calibration_sqnr_db (channel empty on a\n"
    "                       tensor's own line)\n"
    "  --png OUT.png        a bar chart of SQNR per tensor (1600 x 1000)\n"
    "  --case CASE.json     one case in the test vectors' schema (see 'export --help')\n"
    "\n"
    "Exit codes: 0 written; 2 bad usage, an unreadable model or case, an unwritable output.\n",
    &run,
};

}  // namespace qs::cli
