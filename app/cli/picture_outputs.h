// The pictures of quantscope-cli: `analyze --png`, `model --report --png` and `export --png
// --svg --pdf`, drawn by the GUI's own views so that a picture is what the window shows.
// The views are widgets (qs_ui: Qt Widgets, QCustomPlot, Qt Svg), which quantscope-cli does
// not link: the commands (qs_cli) ask this interface for their pictures, implemented by
// WidgetPictures (app/cli/pictures/) in quantscope-cli-pictures, the same commands linked
// with the views. quantscope-cli hands every command line that asks for a picture to that
// program before the command runs (pictures_program.h), so the commands see no
// PictureOutputs there (null).
#pragma once

#include <QByteArray>
#include <memory>
#include <string>
#include <vector>

#include "core/analysis/bit_sweep.h"
#include "core/analysis/calibration.h"
#include "core/analysis/clip_sweep.h"
#include "core/analysis/comparison.h"
#include "core/analysis/explorer.h"
#include "core/analysis/quant_spec.h"
#include "core/model_analysis/model_report.h"
#include "core/status.h"
#include "core/tensor.h"

namespace qs::cli {

// `analyze --png`: the analysis tab (BitSweepView, ClipSweepView, the calibration plot, the
// comparison plot) for the analysis the command computed.
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

// The explorer's plot views that `export` writes.
enum class ExplorerView { Transfer, Histogram, ErrorHistogram, PerChannel };

// `export --png/--svg/--pdf`: one view of one result; an empty path is a picture not asked for.
struct ExplorerPictureRequest {
    ExplorerView view = ExplorerView::Transfer;
    std::shared_ptr<const analysis::ExplorerResult> result;
    bool dark = false;            // the session's theme
    bool error_log_scale = false;  // the session's error histogram on a log scale
    std::string png, svg, pdf;
    int width = 1200, height = 800;
    double dpi = 96;
};

class PictureOutputs {
public:
    virtual ~PictureOutputs() = default;

    // The analysis tab offscreen, as the bytes of the picture (PNG, or JPEG/BMP by the path's
    // suffix) for the caller to write. Errors: the analysis's own (calibrate is recomputed
    // for the view's histogram).
    virtual Result<QByteArray> analysisImage(const PngRequest& request, const TensorRef<float>& data) const = 0;
    // The report's bar chart of SQNR per tensor (the window's report chart), 1600 x 1000.
    virtual Result<QByteArray> modelReportImage(const analysis::ModelReport& report,
                                                const std::string& path) const = 0;
    // Draws the view and writes each picture asked for, in the order png, svg, pdf; a failed
    // write keeps the previous file. kExitOk, or kExitInput after one line on stderr.
    virtual int writeExplorerPictures(const ExplorerPictureRequest& request) const = 0;
};

}  // namespace qs::cli
