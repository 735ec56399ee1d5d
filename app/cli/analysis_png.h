// `quantscope-cli analyze --png`: the analysis drawn by the GUI's own view (BitSweepView,
// ClipSweepView, the calibration plot, the comparison plot) offscreen, so the picture is the
// tab the window shows.
#pragma once

#include <QByteArray>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "core/analysis/bit_sweep.h"
#include "core/analysis/clip_sweep.h"
#include "core/analysis/calibration.h"
#include "core/analysis/comparison.h"
#include "core/analysis/quant_spec.h"
#include "core/status.h"
#include "core/tensor.h"

namespace qs::cli {

struct PngRequest {
    enum class Kind { SweepBits, SweepClip, Calibrate, Compare } kind = Kind::SweepBits;
    std::string path;
    int width = 1600, height = 1000;
    const analysis::BitSweep* bits = nullptr;
    const analysis::ClipSweep* clip = nullptr;
    const std::vector<analysis::OptimalClipRow>* clip_table = nullptr;
    const analysis::CalibrationOptions* calibration = nullptr;
    const analysis::ComparisonAnalysis* comparison = nullptr;  // what the table was made from
    std::vector<QuantSpec> specs;  // calibrate: the one spec
};

// Builds the view on Qt's offscreen platform (unless QT_QPA_PLATFORM is set) and returns the
// picture's bytes (PNG, or JPEG/BMP by the path's suffix) for the caller to write. Errors: the
// analysis's own (calibrate is recomputed for the view's histogram).
Result<QByteArray> renderAnalysisPng(const PngRequest& request, const TensorRef<float>& data);

// `analyze` (a text command, in qs_cli without widgets) reaches renderAnalysisPng (in
// qs_cli_pictures, which links the widgets library) through this hook, which main()
// installs with installPictureOutputs(). Null in a program that links no pictures; `--png`
// then says so.
using AnalysisPngRenderer = Result<QByteArray> (*)(const PngRequest&, const TensorRef<float>&);
extern AnalysisPngRenderer analysisPngRenderer;
void installPictureOutputs();

}  // namespace qs::cli
