// `quantscope-cli analyze --png`: the analysis drawn by the GUI's own view (BitSweepView,
// ClipSweepView, the calibration plot, the comparison plot) offscreen, so the picture is the
// tab the window shows.
#include <cstdio>

#include "app/cli/pictures/offscreen_app.h"
#include "app/cli/pictures/widget_pictures.h"
#include "session/files/native_file.h"
#include "ui/analysis/bit_sweep_view.h"
#include "ui/analysis/calibration_panel.h"
#include "ui/analysis/clip_sweep_view.h"
#include "ui/analysis/comparison_view.h"
#include "ui/plot/plot_frame.h"

namespace qs::cli {
namespace {

void quietQt(QtMsgType type, const QMessageLogContext&, const QString& message) {
    if (type >= QtCriticalMsg) std::fprintf(stderr, "quantscope-cli analyze: Qt: %s\n", qPrintable(message));
}

// Makes the view that draws `result` (owned by `owner`) and returns its plot frame.
template <typename View, typename T>
ui::PlotFrame* show(std::unique_ptr<QWidget>& owner, T result) {
    auto view = std::make_unique<View>();
    view->setResult(std::make_shared<const T>(std::move(result)));
    ui::PlotFrame* frame = view.get();
    owner = std::move(view);
    return frame;
}

}  // namespace

Result<QByteArray> WidgetPictures::analysisImage(const PngRequest& r, const TensorRef<float>& data) const {
    const auto app = offscreenApplication(quietQt);

    std::unique_ptr<QWidget> owner;
    ui::PlotFrame* frame = nullptr;
    switch (r.kind) {
        case PngRequest::Kind::SweepBits: frame = show<ui::BitSweepView>(owner, *r.bits); break;
        case PngRequest::Kind::SweepClip:
            frame = show<ui::ClipSweepView>(owner, analysis::ClipAnalysis{*r.clip, *r.clip_table});
            break;
        case PngRequest::Kind::Calibrate: {
            auto result = analysis::computeCalibration(data, r.specs.front(), *r.calibration, Exec::allCores());
            if (!result) return result.error();
            frame = show<ui::CalibrationPlot>(owner, std::move(result).value());
            break;
        }
        case PngRequest::Kind::Compare: frame = show<ui::ComparisonPlot>(owner, *r.comparison); break;
    }
    owner->resize(r.width, r.height);
    QString error;
    const QByteArray bytes =
        frame->exporter().imageBytes(ui::PlotExporter::imageFormat(ui::displayPath(r.path)), r.width, r.height, 96, &error);
    if (bytes.isEmpty()) return Error{"DataError", error.toStdString()};
    return bytes;
}

}  // namespace qs::cli
