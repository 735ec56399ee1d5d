#include "ui/plot/plot_exporter.h"

#include <algorithm>
#include <cmath>
#include <memory>

#include <QBuffer>
#include <QClipboard>
#include <QFileInfo>
#include <QGuiApplication>
#include <QImageWriter>
#include <QPageLayout>
#include <QPageSize>
#include <QPdfWriter>
#include <qcustomplot.h>

#include "core/data/csv_writer.h"
#include "session/files/native_file.h"
#include "ui/plot/clipped_svg.h"
#include "ui/plot/plot_frame.h"

namespace qs::ui {

namespace {

// The frame prepared for drawing off screen for as long as it lives: no read-out, zoom-
// dependent details up to date; afterwards the read-out as it was and the on-screen layout
// (toPainter leaves the layout at the export size).
class OffScreen {
public:
    OffScreen(const PlotFrame& frame, QSize size) : frame_(frame) { frame_.beginExport(size); }
    ~OffScreen() { frame_.endExport(); }
    OffScreen(const OffScreen&) = delete;
    OffScreen& operator=(const OffScreen&) = delete;

private:
    const PlotFrame& frame_;
};

// A vector export's size: the widget's when none (0) is given.
void widgetSizeUnlessGiven(const QCustomPlot* plot, int& width, int& height) {
    if (width > 0 && height > 0) return;
    width = plot->width();
    height = plot->height();
}

bool writeBytes(const QString& path, const QByteArray& bytes, QString* error) {
    return !bytes.isEmpty() && exportFile(path, bytes, error);
}

}  // namespace

QByteArray PlotExporter::imageFormat(const QString& path) {
    QByteArray format = QFileInfo(path).suffix().toLower().toLatin1();
    return QImageWriter::supportedImageFormats().contains(format) ? format : QByteArray("png");
}

QImage PlotExporter::renderImage(int width, int height, double dpi) const {
    if (width <= 0 || height <= 0) return {};
    if (!(dpi > 0)) dpi = 96;
    const double scale = dpi / 96.0;
    const int logicalW = std::max(1, static_cast<int>(std::lround(width / scale)));
    const int logicalH = std::max(1, static_cast<int>(std::lround(height / scale)));

    QImage image(width, height, QImage::Format_ARGB32_Premultiplied);
    // Drawn with the screen's DPI: QCustomPlot lays the text out with font metrics of the
    // screen, so a painter that sized the fonts for the file's DPI would draw them larger
    // than the layout made room for (titles and labels cut at the border). The painter's
    // scale makes the text dpi/96 times larger, with the layout; the file's DPI is set after.
    auto setDpi = [&image](double d) {
        const int dotsPerMeter = static_cast<int>(std::lround(d / 0.0254));
        image.setDotsPerMeterX(dotsPerMeter);
        image.setDotsPerMeterY(dotsPerMeter);
    };
    setDpi(frame_.plot()->logicalDpiY());
    image.fill(Qt::transparent);
    {
        OffScreen offScreen(frame_, QSize(logicalW, logicalH));
        QCPPainter painter(&image);
        painter.setRenderHint(QPainter::Antialiasing);
        painter.setRenderHint(QPainter::TextAntialiasing);
        if (scale > 1.0) painter.setMode(QCPPainter::pmNonCosmetic);
        painter.scale(double(width) / logicalW, double(height) / logicalH);
        frame_.plot()->toPainter(&painter, logicalW, logicalH);
        painter.end();
    }
    setDpi(dpi);
    return image;
}

QByteArray PlotExporter::imageBytes(const QByteArray& format, int width, int height, double dpi,
                                    QString* error) const {
    const QImage image = renderImage(width, height, dpi);
    if (image.isNull()) {
        if (error) *error = tr("Invalid image size %1 x %2").arg(width).arg(height);
        return {};
    }
    QImage out = image;
    if (format == "jpg" || format == "jpeg" || format == "bmp")
        out = image.convertToFormat(QImage::Format_RGB32);
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    if (!out.save(&buffer, format.constData())) {
        if (error) *error = tr("Could not encode the image as %1").arg(QString::fromLatin1(format));
        return {};
    }
    return bytes;
}

QByteArray PlotExporter::svgBytes(int width, int height, QString* error) const {
    QCustomPlot* plot = frame_.plot();
    widgetSizeUnlessGiven(plot, width, height);
    QByteArray bytes;
    {
        OffScreen offScreen(frame_, QSize(width, height));
        // Qt's SVG engine drops the painter's clip: each layerable gets a clipped group.
        bytes = clippedSvg(plot, width, height, QStringLiteral("QuantScope"));
    }
    if (!bytes.startsWith("<?xml")) {
        if (error) *error = tr("Could not draw the plot as SVG");
        return {};
    }
    return bytes;
}

QByteArray PlotExporter::pdfBytes(int width, int height, QString* error) const {
    QCustomPlot* plot = frame_.plot();
    widgetSizeUnlessGiven(plot, width, height);
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    // What QCustomPlot::savePdf draws (one page of width x height points), but into memory:
    // savePdf writes the named file itself and reports success whatever the disk did, so the
    // bytes are written and checked by the caller.
    auto writer = std::make_unique<QPdfWriter>(&buffer);
    writer->setCreator(QStringLiteral("QuantScope"));
    writer->setTitle(QStringLiteral("QuantScope plot"));
    // Fonts sized as on screen, as savePdf's QPrinter(ScreenResolution) sizes them.
    writer->setResolution(plot->logicalDpiX());
    QPageLayout layout(QPageSize(QSizeF(width, height), QPageSize::Point, QString(), QPageSize::ExactMatch),
                       QPageLayout::Portrait, QMarginsF(0, 0, 0, 0));
    layout.setMode(QPageLayout::FullPageMode);
    writer->setPageLayout(layout);

    bool ok = false;
    {
        OffScreen offScreen(frame_, QSize(width, height));
        {
            QCPPainter painter;
            if (painter.begin(writer.get())) {
                // savePdf's modes: vector, no cosmetic pens
                painter.setMode(QCPPainter::pmVectorized);
                painter.setMode(QCPPainter::pmNoCaching);
                painter.setMode(QCPPainter::pmNonCosmetic);
                painter.setWindow(0, 0, width, height);
                plot->toPainter(&painter, width, height);
                ok = painter.end();
            }
        }
        writer.reset();  // a PDF writer finishes the file when it goes
    }
    if (!ok || !bytes.startsWith("%PDF")) {
        if (error) *error = tr("Could not draw the plot as PDF");
        return {};
    }
    return bytes;
}

QByteArray PlotExporter::csvBytes() const {
    return QByteArray::fromStdString(data::csvText(frame_.csvTable()));
}

bool PlotExporter::exportImage(const QString& path, int width, int height, double dpi, QString* error) const {
    return writeBytes(path, imageBytes(imageFormat(path), width, height, dpi, error), error);
}

bool PlotExporter::exportSvg(const QString& path, int width, int height, QString* error) const {
    return writeBytes(path, svgBytes(width, height, error), error);
}

bool PlotExporter::exportPdf(const QString& path, int width, int height, QString* error) const {
    return writeBytes(path, pdfBytes(width, height, error), error);
}

bool PlotExporter::exportCsv(const QString& path, QString* error) const {
    return exportFile(path, csvBytes(), error);
}

void PlotExporter::copyToClipboard() const {
    const QCustomPlot* plot = frame_.plot();
    const double ratio = plot->devicePixelRatioF();
    const QImage image = renderImage(static_cast<int>(std::lround(plot->width() * ratio)),
                                     static_cast<int>(std::lround(plot->height() * ratio)), 96 * ratio);
    QGuiApplication::clipboard()->setImage(image);
}

}  // namespace qs::ui
