#include "ui/plot/clipped_svg.h"

#include <functional>
#include <vector>

#include <QBuffer>
#include <QSvgGenerator>
#include <qcustomplot.h>

namespace qs::ui {

namespace {

// QCustomPlot's drawing steps are protected; its layers call them for each layerable, and
// so does this file, through member pointers taken in these access classes.
struct PlotAccess : QCustomPlot {
    using QCustomPlot::drawBackground;
    using QCustomPlot::mBackgroundBrush;
    using QCustomPlot::updateLayout;
};
struct LayerableAccess : QCPLayerable {
    using QCPLayerable::applyDefaultAntialiasingHint;
    using QCPLayerable::clipRect;
    using QCPLayerable::draw;
};

// One SVG document of `paint`'s drawing at width x height.
QByteArray fragment(int width, int height, const QString& title, const std::function<void(QCPPainter&)>& paint) {
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    QSvgGenerator generator;
    generator.setOutputDevice(&buffer);
    generator.setSize(QSize(width, height));
    generator.setViewBox(QRect(0, 0, width, height));
    generator.setResolution(96);
    generator.setTitle(title);
    QCPPainter painter;
    if (!painter.begin(&generator)) return {};
    painter.setMode(QCPPainter::pmNoCaching);
    paint(painter);
    if (!painter.end()) return {};
    return bytes;
}

// A document split where the drawing starts (after the generator's <defs>) and ends (</svg>).
struct Parts {
    QByteArray head, body;
};
bool split(const QByteArray& document, Parts& out) {
    const QByteArray defsEnd = "</defs>";
    const qsizetype start = document.indexOf(defsEnd);
    const qsizetype end = document.lastIndexOf("</svg>");
    if (start < 0 || end < start) return false;
    out.head = document.left(start + defsEnd.size());
    out.body = document.mid(start + defsEnd.size(), end - start - defsEnd.size());
    return true;
}

// Every fragment's generator numbers its gradients and patterns from 1: each fragment's ids
// get a prefix of their own so that they stay unique in the joined document.
QByteArray uniqueIds(QByteArray body, int n) {
    const QByteArray p = "f" + QByteArray::number(n) + "_";
    body.replace("id=\"", "id=\"" + p);
    body.replace("url(#", "url(#" + p);
    body.replace("href=\"#", "href=\"#" + p);
    return body;
}

QByteArray clipPath(int n, const QRect& r) {
    return "<defs><clipPath id=\"clip" + QByteArray::number(n) + "\"><rect x=\"" + QByteArray::number(r.x()) +
           "\" y=\"" + QByteArray::number(r.y()) + "\" width=\"" + QByteArray::number(r.width()) + "\" height=\"" +
           QByteArray::number(r.height()) + "\"/></clipPath></defs>\n";
}

}  // namespace

QByteArray clippedSvg(QCustomPlot* plot, int width, int height, const QString& title) {
    const QRect viewport(0, 0, width, height);
    const QRect oldViewport = plot->viewport();
    plot->setViewport(viewport);
    (plot->*&PlotAccess::updateLayout)();

    // The background as toPainter draws it; its document gives the head of the result.
    const QByteArray background = fragment(width, height, title, [&](QCPPainter& painter) {
        const QBrush& brush = plot->*&PlotAccess::mBackgroundBrush;
        if (brush.style() != Qt::NoBrush) painter.fillRect(viewport, brush);
        (plot->*&PlotAccess::drawBackground)(&painter);
    });
    Parts first;
    if (!split(background, first)) {
        plot->setViewport(oldViewport);
        return {};
    }
    // Clip paths are SVG 1.1 (Tiny 1.2, the generator's profile, has none).
    QByteArray out = first.head;
    out.replace("version=\"1.2\" baseProfile=\"tiny\"", "version=\"1.1\"");
    out += first.body;

    // Each visible layerable as QCPLayer::draw draws it, in layer order; consecutive ones
    // with the same clip share one group.
    int n = 0;
    QRect openClip;
    bool open = false;
    for (int l = 0; l < plot->layerCount(); ++l) {
        for (QCPLayerable* child : plot->layer(l)->children()) {
            if (!child->realVisibility()) continue;
            const QRect clip = (child->*&LayerableAccess::clipRect)().translated(0, -1);
            const QByteArray document = fragment(width, height, title, [&](QCPPainter& painter) {
                painter.setClipRect(clip);
                (child->*&LayerableAccess::applyDefaultAntialiasingHint)(&painter);
                (child->*&LayerableAccess::draw)(&painter);
            });
            Parts parts;
            if (!split(document, parts)) {
                plot->setViewport(oldViewport);
                return {};
            }
            ++n;
            const bool clipped = !clip.contains(viewport.translated(0, -1));
            if (open && (!clipped || clip != openClip)) {
                out += "</g>\n";
                open = false;
            }
            if (clipped && !open) {
                out += clipPath(n, clip);
                out += "<g clip-path=\"url(#clip" + QByteArray::number(n) + ")\">\n";
                openClip = clip;
                open = true;
            }
            out += uniqueIds(parts.body, n);
        }
    }
    if (open) out += "</g>\n";
    out += "</svg>\n";
    plot->setViewport(oldViewport);
    return out;
}

}  // namespace qs::ui
