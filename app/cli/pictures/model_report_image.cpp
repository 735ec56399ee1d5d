// `quantscope-cli model --report ... --png`: the report's bar chart of SQNR per tensor drawn
// by the window's SqnrBarChart offscreen.
#include <cstdio>

#include "app/cli/pictures/offscreen_app.h"
#include "app/cli/pictures/widget_pictures.h"
#include "session/files/native_file.h"
#include "ui/modelfile/sqnr_bar_chart.h"

namespace qs::cli {
namespace {

void quietQt(QtMsgType type, const QMessageLogContext&, const QString& message) {
    if (type >= QtCriticalMsg) std::fprintf(stderr, "quantscope-cli model: Qt: %s\n", qPrintable(message));
}

}  // namespace

Result<QByteArray> WidgetPictures::modelReportImage(const analysis::ModelReport& report, const std::string& path) const {
    constexpr int kWidth = 1600, kHeight = 1000;
    const auto app = offscreenApplication(quietQt);
    ui::SqnrBarChart chart;
    chart.setResult(std::make_shared<const analysis::ModelReport>(report));
    chart.resize(kWidth, kHeight);
    QString error;
    const QByteArray bytes =
        chart.exporter().imageBytes(ui::PlotExporter::imageFormat(ui::displayPath(path)), kWidth, kHeight, 96, &error);
    if (bytes.isEmpty()) return Error{"DataError", error.toStdString()};
    return bytes;
}

}  // namespace qs::cli
