// Exports are what is on screen (fixture: explorer_window_test.h): a PNG at any pixel size and
// DPI is laid out again for that resolution (no title or label runs into the border), an SVG
// keeps every axis rect's clipping (a curve zoomed past its rect stays inside it), and the
// window and `quantscope-cli export` write the same files for the same view.
#include "tests/ui/explorer_window_test.h"

#include <QProcess>
#include <QXmlStreamReader>

#include "ui/views/channel_view.h"
#include "ui/views/error_histogram_view.h"
#include "ui/views/histogram_view.h"
#include "ui/views/transfer_view.h"

namespace {

// Pixels of `image` on its outermost rows and columns that are not `background`.
int borderPixelsOtherThan(const QImage& image, const QColor& background) {
    int n = 0;
    const QRgb bg = background.rgba();
    for (int x = 0; x < image.width(); ++x) n += (image.pixel(x, 0) != bg) + (image.pixel(x, image.height() - 1) != bg);
    for (int y = 1; y + 1 < image.height(); ++y) n += (image.pixel(0, y) != bg) + (image.pixel(image.width() - 1, y) != bg);
    return n;
}

// Dark (text) pixels in rows [top, bottom) of `image`.
int darkPixels(const QImage& image, int top, int bottom) {
    int n = 0;
    for (int y = top; y < bottom; ++y)
        for (int x = 0; x < image.width(); ++x) n += QColor(image.pixel(x, y)).lightness() < 100;
    return n;
}

struct SvgPolyline {
    QString stroke;         // inherited from its groups
    QString clip;           // the clip path of the nearest clipped group ("" none)
    QVector<QPointF> points;
};
struct SvgFigure {
    QHash<QString, QRectF> clips;  // clipPath id -> its rectangle
    QVector<SvgPolyline> polylines;
};

SvgFigure parseSvg(const QByteArray& svg) {
    SvgFigure out;
    QXmlStreamReader xml(svg);
    struct Scope {
        QString stroke, clip;
    };
    QVector<Scope> stack{{}};
    QString clipId;
    while (!xml.atEnd()) {
        xml.readNext();
        if (xml.isStartElement()) {
            const auto a = xml.attributes();
            Scope scope = stack.back();
            if (a.hasAttribute("stroke")) scope.stroke = a.value("stroke").toString();
            if (a.hasAttribute("clip-path"))
                scope.clip = a.value("clip-path").toString().mid(5).chopped(1);  // url(#id)
            stack.push_back(scope);
            if (xml.name() == QLatin1String("clipPath")) clipId = a.value("id").toString();
            if (xml.name() == QLatin1String("rect") && !clipId.isEmpty())
                out.clips[clipId] = QRectF(a.value("x").toDouble(), a.value("y").toDouble(),
                                           a.value("width").toDouble(), a.value("height").toDouble());
            if (xml.name() == QLatin1String("polyline")) {
                SvgPolyline line{scope.stroke, scope.clip, {}};
                for (const QString& pair : a.value("points").toString().split(' ', Qt::SkipEmptyParts)) {
                    const QStringList xy = pair.split(',');
                    if (xy.size() == 2) line.points << QPointF(xy[0].toDouble(), xy[1].toDouble());
                }
                out.polylines << line;
            }
        } else if (xml.isEndElement()) {
            if (xml.name() == QLatin1String("clipPath")) clipId.clear();
            stack.pop_back();
        }
    }
    return out;
}

}  // namespace

class TstPlotExport : public ExplorerWindowTest {
    Q_OBJECT

    // QuantizeV2 per channel on [2500, 8] (the review's case: a long title, two axis rects).
    void perChannelQuantizeV2() {
        useChannelData();
        model_->setOp(qs::QuantOp::QuantizeV2);
        model_->setAxis(1);
        QVERIFY(settle());
    }

private slots:
    void pngLaidOutAgainAtEveryDpi();
    void svgKeepsEveryAxisRectsClipping();
    void windowAndCliWriteTheSameFiles();
};

// The dialog's default (1600 x 1000 at 144 dpi) drew the text 1.5 times larger than the
// layout made room for: the title, the axis labels and the legend ran into the border.
void TstPlotExport::pngLaidOutAgainAtEveryDpi() {
    CHECK(perChannelQuantizeV2());
    const QColor background = plotPalette(Theme::Light).background;
    struct Size {
        int width, height;
        double dpi;
    };
    // Pixel sizes a user picks for each resolution: a screen, the dialog's default, print.
    const Size sizes[] = {{1600, 1000, 96}, {1600, 1000, 144}, {3300, 2100, 300}};
    const std::pair<const char*, PlotFrame*> views[] = {{"transfer", w_->transferView()},
                                                        {"histogram", w_->histogramView()},
                                                        {"error histogram", w_->errorHistogramView()},
                                                        {"per channel", w_->channelView()}};
    for (const auto& [name, view] : views) {
        for (const Size& s : sizes) {
            const QImage image = view->exporter().renderImage(s.width, s.height, s.dpi);
            QCOMPARE(image.size(), QSize(s.width, s.height));
            const QString what = QStringLiteral("%1 at %2x%3, %4 dpi").arg(name).arg(s.width).arg(s.height).arg(s.dpi);
            QVERIFY2(borderPixelsOtherThan(image, background) == 0, qPrintable(what + ": text on the border"));
            // The title is drawn, in the top twentieth.
            QVERIFY2(darkPixels(image, 1, s.height / 20) > 20 * s.dpi / 96, qPrintable(what + ": no title"));
        }
    }
}

// Qt's SVG engine dropped the painter's clip: the error trace, zoomed past its axis rect,
// ran diagonally across the figure. Every axis rect is a clip path now, and every curve
// point outside its rect lies in a group clipped to that rect.
void TstPlotExport::svgKeepsEveryAxisRectsClipping() {
    CHECK(perChannelQuantizeV2());
    TransferView* view = w_->transferView();
    view->plot()->replot();
    const QByteArray svg = view->exporter().svgBytes(view->plot()->width(), view->plot()->height());
    QVERIFY(svg.startsWith("<?xml"));
    const SvgFigure figure = parseSvg(svg);
    QVERIFY(!figure.clips.isEmpty());
    const QList<QCPAxisRect*> rects = view->plot()->axisRects();
    QVERIFY(rects.size() >= 2);
    for (QCPAxisRect* rect : rects) {
        bool found = false;
        for (const QRectF& clip : figure.clips) found = found || clip == QRectF(rect->rect().translated(0, -1));
        QVERIFY2(found, "an axis rect has no clip path");
    }
    const std::pair<QCPGraph*, QCPAxisRect*> series[] = {{view->curveGraph(), view->plot()->axisRect()},
                                                         {view->errorGraph(), view->errorRect()}};
    int outside = 0;
    for (const auto& [graph, rect] : series) {
        const QString stroke = graph->pen().color().name();
        const QRectF bounds = QRectF(rect->rect()).adjusted(-1, -2, 1, 1);
        int lines = 0;
        for (const SvgPolyline& line : figure.polylines) {
            if (line.stroke != stroke || line.points.size() <= 2) continue;  // not the legend's sample
            ++lines;
            for (const QPointF& p : line.points) {
                if (bounds.contains(p)) continue;
                ++outside;
                QVERIFY2(!line.clip.isEmpty() && figure.clips.value(line.clip) == QRectF(rect->rect().translated(0, -1)),
                         qPrintable(QStringLiteral("%1 point (%2, %3) outside its axis rect, unclipped")
                                        .arg(graph->name()).arg(p.x()).arg(p.y())));
            }
        }
        QVERIFY2(lines > 0, qPrintable(graph->name()));
    }
    QVERIFY(outside > 0);  // the case the review saw: the error trace past its rect's range
}

// `quantscope-cli export --session` of the window's own session draws the same views: the
// same PNG pixels at the dialog's default size and DPI and the same SVG, view by view.
void TstPlotExport::windowAndCliWriteTheSameFiles() {
    // Both in one locale (the fixture's is C): numbers in titles read "20,000" in each.
    QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedStates));
    const auto restoreLocale = qScopeGuard([] { QLocale::setDefault(QLocale::c()); });
    CHECK(perChannelQuantizeV2());
    const QString session = dir_->filePath(QStringLiteral("view.qscope"));
    QVERIFY(w_->saveSessionAs(session));
    const std::pair<const char*, PlotFrame*> views[] = {{"transfer", w_->transferView()},
                                                        {"histogram", w_->histogramView()},
                                                        {"error-histogram", w_->errorHistogramView()},
                                                        {"per-channel", w_->channelView()}};
    for (const auto& [name, view] : views) {
        const QString png = dir_->filePath(QStringLiteral("cli.png")), svg = dir_->filePath(QStringLiteral("cli.svg"));
        QProcess cli;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("LC_ALL"), QStringLiteral("en_US.UTF-8"));
        cli.setProcessEnvironment(env);
        cli.start(QStringLiteral(QS_CLI_PATH), {"export", "--session", session, "--view", name, "--png", png, "--svg",
                                                svg, "--width", "1600", "--height", "1000", "--dpi", "144"});
        QVERIFY(cli.waitForFinished(60000));
        QVERIFY2(cli.exitCode() == 0, cli.readAllStandardError().constData());

        const PlotExporter window = view->exporter();
        const QString windowPng = dir_->filePath(QStringLiteral("window.png"));
        QVERIFY(window.exportImage(windowPng, 1600, 1000, 144));
        const QImage fromCli(png), fromWindow(windowPng);
        QCOMPARE(fromCli.size(), fromWindow.size());
        QCOMPARE(fromCli.dotsPerMeterX(), fromWindow.dotsPerMeterX());
        QVERIFY2(fromCli.convertToFormat(QImage::Format_ARGB32) == fromWindow.convertToFormat(QImage::Format_ARGB32),
                 qPrintable(QStringLiteral("%1: the window's PNG differs from the CLI's").arg(name)));
        // The CLI's SVG is at the PNG's logical size (pixels · 96 / dpi).
        QFile svgFile(svg);
        QVERIFY(svgFile.open(QIODevice::ReadOnly));
        QVERIFY2(svgFile.readAll() == window.svgBytes(1067, 667),
                 qPrintable(QStringLiteral("%1: the window's SVG differs from the CLI's").arg(name)));
    }
}

QTEST_MAIN(TstPlotExport)
#include "tst_plot_export.moc"
