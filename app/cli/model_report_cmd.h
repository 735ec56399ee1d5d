// `quantscope-cli model FILE --report OUT.json [--csv OUT.csv] [--png OUT.png] --case CASE.json`:
// the whole-model quantization report (core/analysis/model_report.h) of an opened model under
// the op a case file describes. The `model` command (cmd_model.cpp) parses the options and
// opens the file, then calls runModelReport when --report is given.
#pragma once

#include <QByteArray>

#include "app/cli/cmd_common.h"
#include "core/analysis/model_report.h"
#include "core/modelfile/model_file.h"

namespace qs::cli {

// Reads --case (the case JSON `analyze`/`export` read), runs the report with calibration and
// writes --report (JSON, '-' for standard output), --csv and --png. Returns kExitOk, or
// kExitInput after one line on stderr (a malformed case, an unwritable output, no pictures).
int runModelReport(const modelfile::ModelFile& model, const ParsedArgs& args);

// The PNG (a bar chart of SQNR per tensor, the window's report chart) is drawn with the GUI's
// view in qs_cli_pictures and reached through this hook, as `analyze --png` is
// (installPictureOutputs sets it). Null in a program without pictures: --png then says so.
using ModelReportPngRenderer = Result<QByteArray> (*)(const analysis::ModelReport& report, const std::string& path);
extern ModelReportPngRenderer modelReportPngRenderer;

}  // namespace qs::cli
