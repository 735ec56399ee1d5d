// `quantscope-cli model FILE --report OUT.json [--csv OUT.csv] [--png OUT.png] --case CASE.json`:
// the whole-model quantization report (core/model_analysis/model_report.h) of an opened model under
// the op a case file describes. The `model` command (cmd_model.cpp) parses the options and
// opens the file, then calls runModelReport when --report is given.
#pragma once

#include "app/cli/cmd_common.h"
#include "core/modelfile/model_file.h"

namespace qs::cli {

// Reads --case (the case JSON `analyze`/`export` read), runs the report with calibration and
// writes --report (JSON, '-' for standard output), --csv and --png (the window's bar chart of
// SQNR per tensor, drawn by `pictures`: picture_outputs.h). Returns kExitOk, or kExitInput
// after one line on stderr (a malformed case, an unwritable output, no pictures).
int runModelReport(const modelfile::ModelFile& model, const ParsedArgs& args, const PictureOutputs* pictures);

}  // namespace qs::cli
