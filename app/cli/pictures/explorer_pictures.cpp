// `quantscope-cli export --png/--svg/--pdf`: the explorer's view drawn by the GUI's own view
// class offscreen and written through its PlotExporter, so the files are what the window's
// Export writes.
#include <QApplication>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>

#include "app/cli/cmd_common.h"
#include "app/cli/pictures/offscreen_app.h"
#include "app/cli/pictures/widget_pictures.h"
#include "session/files/native_file.h"
#include "ui/plot/plot_frame.h"
#include "ui/views/channel_view.h"
#include "ui/views/error_histogram_view.h"
#include "ui/views/histogram_view.h"
#include "ui/views/transfer_view.h"

namespace qs::cli {

namespace {

constexpr const char* kCommand = "export";

// Qt's own diagnostics on stderr, tagged; QStandardPaths' note about an unset
// XDG_RUNTIME_DIR (it picks a private directory itself) says nothing about the export.
void qtMessage(QtMsgType type, const QMessageLogContext&, const QString& message) {
    if (type == QtDebugMsg || type == QtInfoMsg) return;
    if (message.contains(QLatin1String("XDG_RUNTIME_DIR"))) return;
    std::fprintf(stderr, "quantscope-cli export: Qt: %s\n", qPrintable(message));
}

// A new view of type V showing `result`.
template <typename V>
std::unique_ptr<V> viewShowing(const std::shared_ptr<const analysis::ExplorerResult>& result) {
    auto v = std::make_unique<V>();
    v->setResult(result);
    return v;
}

}  // namespace

int WidgetPictures::writeExplorerPictures(const ExplorerPictureRequest& out) const {
    const auto app = offscreenApplication(qtMessage);  // the views are widgets

    std::unique_ptr<ui::PlotFrame> frame;
    switch (out.view) {
        case ExplorerView::Transfer: frame = viewShowing<ui::TransferView>(out.result); break;
        case ExplorerView::Histogram: frame = viewShowing<ui::HistogramView>(out.result); break;
        case ExplorerView::ErrorHistogram: {
            auto v = viewShowing<ui::ErrorHistogramView>(out.result);
            if (out.error_log_scale) v->setLogScale(true);
            frame = std::move(v);
            break;
        }
        case ExplorerView::PerChannel: frame = viewShowing<ui::ChannelView>(out.result); break;
    }
    if (out.dark) frame->setTheme(ui::Theme::Dark);
    // Laid out at the logical size the image is rendered at (pixels · 96 / dpi).
    const int logicalW = std::max(1, static_cast<int>(std::lround(out.width * 96.0 / out.dpi)));
    const int logicalH = std::max(1, static_cast<int>(std::lround(out.height * 96.0 / out.dpi)));
    frame->resize(logicalW, logicalH);

    // Each output is drawn into memory, then written under its name exactly as given (bytes,
    // native_file.h); a failed write keeps the previous file.
    QString error;
    auto write = [&error](const std::string& path, const QByteArray& bytes) {
        if (bytes.isEmpty()) return reportInputError(kCommand, "cannot write " + path + ": " + error.toStdString());
        const Status s = writeFileOutput(path, bytes);
        return s ? kExitOk : reportInputError(kCommand, s.error().message);
    };
    const ui::PlotExporter exporter = frame->exporter();
    if (!out.png.empty()) {
        const QByteArray format = ui::PlotExporter::imageFormat(ui::displayPath(out.png));
        if (const int code = write(out.png, exporter.imageBytes(format, out.width, out.height, out.dpi, &error)))
            return code;
    }
    if (!out.svg.empty())
        if (const int code = write(out.svg, exporter.svgBytes(logicalW, logicalH, &error))) return code;
    if (!out.pdf.empty())
        if (const int code = write(out.pdf, exporter.pdfBytes(logicalW, logicalH, &error))) return code;
    return kExitOk;
}

}  // namespace qs::cli
