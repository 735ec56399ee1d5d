#include "app/cli/model_report_cmd.h"

#include "app/cli/case_spec.h"
#include "app/cli/picture_outputs.h"
#include "core/model_analysis/model_report.h"

namespace qs::cli {

namespace {

constexpr const char* kCommand = "model";

std::string valueOf(const ParsedArgs& args, std::string_view key) {
    const auto it = args.values.find(key);
    return it == args.values.end() ? std::string() : it->second;
}

}  // namespace

int runModelReport(const modelfile::ModelFile& model, const ParsedArgs& args, const PictureOutputs* pictures) {
    for (const char* key : {"--report", "--csv", "--png", "--case"})
        if (args.has(key) && valueOf(args, key).empty())
            return reportInputError(kCommand, std::string("empty value for ") + key);
    if (!args.has("--case")) return reportInputError(kCommand, "--report needs --case CASE.json");
    if (valueOf(args, "--report") == "-" && valueOf(args, "--csv") == "-")
        return reportInputError(kCommand, "--report - and --csv - would both write to standard output");
    if (args.has("--png") && !pictures)
        return reportInputError(kCommand, "--png: this program was built without picture outputs");
    const Result<QuantSpec> spec = readCaseSpec(valueOf(args, "--case"));
    if (!spec) return reportInputError(kCommand, spec.error().message);

    analysis::ModelReportOptions options;  // calibration on, every core
    auto report = analysis::computeModelReport(model, *spec, options);
    if (!report) return reportInputError(kCommand, report.error().kind + ": " + report.error().message);

    if (args.has("--png")) {
        const Result<QByteArray> picture = pictures->modelReportImage(*report, valueOf(args, "--png"));
        if (!picture) return reportInputError(kCommand, valueOf(args, "--png") + ": " + picture.error().message);
        if (Status s = writeFileOutput(valueOf(args, "--png"), *picture); !s)
            return reportInputError(kCommand, s.error().message);
    }
    if (Status s = writeOutput(valueOf(args, "--report"), analysis::modelReportJson(*report)); !s)
        return reportInputError(kCommand, s.error().message);
    if (args.has("--csv"))
        if (Status s = writeOutput(valueOf(args, "--csv"), data::csvText(analysis::modelReportTable(*report))); !s)
            return reportInputError(kCommand, s.error().message);
    return kExitOk;
}

}  // namespace qs::cli
