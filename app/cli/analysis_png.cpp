#include "app/cli/analysis_png.h"

#include <QApplication>

#include "ui/analysis/analysis_service.h"
#include "ui/analysis/bit_sweep_view.h"
#include "ui/analysis/calibration_panel.h"
#include "ui/analysis/clip_sweep_view.h"
#include "ui/analysis/comparison_view.h"
#include "ui/model/native_file.h"
#include "ui/plot/plot_frame.h"

namespace qs::cli {
namespace {

void quietQt(QtMsgType type, const QMessageLogContext&, const QString& message) {
    if (type >= QtCriticalMsg) std::fprintf(stderr, "quantscope-cli analyze: Qt: %s\n", qPrintable(message));
}

}  // namespace

Result<QByteArray> renderAnalysisPng(const PngRequest& r, const TensorRef<float>& data) {
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
    static int argc = 1;
    static char arg0[] = "quantscope-cli";
    static char* argv[] = {arg0, nullptr};
    qInstallMessageHandler(quietQt);
    QApplication app(argc, argv);

    std::unique_ptr<QWidget> owner;
    ui::PlotFrame* frame = nullptr;
    const Exec exec = Exec::allCores();
    switch (r.kind) {
        case PngRequest::Kind::SweepBits: {
            auto view = std::make_unique<ui::BitSweepView>();
            view->setResult(std::make_shared<const analysis::BitSweep>(*r.bits));
            frame = view.get();
            owner = std::move(view);
            break;
        }
        case PngRequest::Kind::SweepClip: {
            auto view = std::make_unique<ui::ClipSweepView>();
            view->setResult(std::make_shared<const ui::ClipAnalysis>(ui::ClipAnalysis{*r.clip, *r.clip_table}));
            frame = view.get();
            owner = std::move(view);
            break;
        }
        case PngRequest::Kind::Calibrate: {
            auto result = ui::computeCalibration(data.data, r.specs.front(), *r.calibration, exec);
            if (!result) return result.error();
            auto plot = std::make_unique<ui::CalibrationPlot>();
            plot->setResult(std::make_shared<const ui::CalibrationAnalysis>(std::move(*result)));
            frame = plot.get();
            owner = std::move(plot);
            break;
        }
        case PngRequest::Kind::Compare: {
            auto result = ui::computeComparison(data, r.specs, exec);
            if (!result) return result.error();
            auto plot = std::make_unique<ui::ComparisonPlot>();
            plot->setResult(std::make_shared<const ui::ComparisonAnalysis>(std::move(*result)));
            frame = plot.get();
            owner = std::move(plot);
            break;
        }
    }
    owner->resize(r.width, r.height);
    QString error;
    const QByteArray bytes =
        frame->exporter().imageBytes(ui::PlotExporter::imageFormat(ui::displayPath(r.path)), r.width, r.height, 96, &error);
    if (bytes.isEmpty()) return Error{"DataError", error.toStdString()};
    return bytes;
}

}  // namespace qs::cli
