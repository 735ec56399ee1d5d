// A QCustomPlot drawn as SVG that keeps every layerable's clipping. Qt's own SVG paint engine
// (before Qt 6.7) drops the painter's clip, so a curve zoomed past its axis rect runs across
// the whole figure. Here each layerable (grid, axis, graph, item, legend...) is drawn into an
// SVG fragment of its own, exactly as QCustomPlot's layers draw it, and the fragments are
// joined into one SVG 1.1 document in layer order, each inside a <g> clipped to the
// layerable's clip rectangle (for a graph: its axis rect).
#pragma once

#include <QByteArray>

class QCustomPlot;

namespace qs::ui {

// The plot laid out at width x height and drawn as an SVG document; empty when Qt could not
// draw it. `title` names the document.
QByteArray clippedSvg(QCustomPlot* plot, int width, int height, const QString& title);

}  // namespace qs::ui
