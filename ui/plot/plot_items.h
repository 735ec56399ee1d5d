// Small builders for the marker items the views share. Includes qcustomplot.h: include this
// only from .cpp files of ui/plot and ui/views.
#pragma once

#include <vector>

#include <QVector>
#include <qcustomplot.h>

#include "ui/plot/theme.h"

namespace qs::ui::items {

inline QVector<double> qvec(const std::vector<double>& v) {
    return QVector<double>(v.begin(), v.end());
}

inline QCPItemStraightLine* line(QCustomPlot* plot, QCPAxis* x, QCPAxis* y, const QString& name) {
    auto* line = new QCPItemStraightLine(plot);
    line->setObjectName(name);
    line->setClipAxisRect(x->axisRect());
    for (QCPItemPosition* p : {line->point1, line->point2}) {
        p->setAxes(x, y);
        p->setAxisRect(x->axisRect());
    }
    line->setSelectable(false);
    return line;
}

inline void placeHorizontal(QCPItemStraightLine* line, double y) {
    line->point1->setCoords(0, y);
    line->point2->setCoords(1, y);
}

inline void placeVertical(QCPItemStraightLine* line, double x) {
    line->point1->setCoords(x, 0);
    line->point2->setCoords(x, 1);
}

// A text item in an axis rect; x and y position types chosen by the caller.
inline QCPItemText* label(QCustomPlot* plot, QCPAxis* x, QCPAxis* y, const QString& name,
                          QCPItemPosition::PositionType typeX, QCPItemPosition::PositionType typeY,
                          Qt::Alignment alignment) {
    auto* text = new QCPItemText(plot);
    text->setObjectName(name);
    text->setClipAxisRect(x->axisRect());
    text->position->setAxes(x, y);
    text->position->setAxisRect(x->axisRect());
    text->position->setTypeX(typeX);
    text->position->setTypeY(typeY);
    text->setPositionAlignment(alignment);
    text->setPadding(QMargins(6, 2, 6, 2));
    text->setSelectable(false);
    return text;
}

inline QCPTextElement* title(QCustomPlot* plot, const QFont& base) {
    plot->plotLayout()->insertRow(0);
    QFont font = base;
    font.setPointSizeF(font.pointSizeF() * 1.1);
    font.setBold(true);
    auto* title = new QCPTextElement(plot, QString(), font);
    title->setObjectName(QStringLiteral("title"));
    plot->plotLayout()->addElement(0, 0, title);
    return title;
}

// Names the view and its plot (tests find them by name) and adds the title row.
inline QCPTextElement* titledPlot(QWidget* view, QCustomPlot* plot, const QString& viewName, const QString& plotName) {
    view->setObjectName(viewName);
    plot->setObjectName(plotName);
    return title(plot, view->font());
}

// A text box hung from the top of the axis rect at ratio x (0 left, 0.5 centre), e.g. a
// caption or an info box over a histogram.
inline QCPItemText* topNote(QCustomPlot* plot, QCPAxis* x, QCPAxis* y, const QString& name, double ratioX,
                            Qt::Alignment horizontal, const QMargins& padding) {
    QCPItemText* text = label(plot, x, y, name, QCPItemPosition::ptAxisRectRatio, QCPItemPosition::ptAxisRectRatio,
                              horizontal | Qt::AlignTop);
    text->position->setCoords(ratioX, 0.0);
    text->setPadding(padding);
    return text;
}

// Histogram bars whose width is in plot coordinates (a bin's width), named for tests
// (`objectName`) and for the legend (`legendName`).
inline QCPBars* bars(QCPAxis* x, QCPAxis* y, const QString& objectName, const QString& legendName) {
    auto* b = new QCPBars(x, y);
    b->setObjectName(objectName);
    b->setName(legendName);
    b->setWidthType(QCPBars::wtPlotCoords);
    return b;
}

// Bars filled with `colour` as it looks at `alpha` (0..255) over `background` (opaque: see
// opaqueTint), outlined in `colour`.
inline void styleBars(QCPBars* bars, const QColor& colour, int alpha, const QColor& background) {
    bars->setBrush(opaqueTint(colour, alpha, background));
    bars->setPen(QPen(colour, 1));
    // Axis-aligned rectangles: antialiasing their fills only blurs the edges and made a
    // 200-bar histogram's redraw slow.
    bars->setAntialiased(false);
    bars->setAntialiasedFill(false);
}

// The start of every view's constructor: object names for the frame and its plot (tests find
// them by these), the main axes' labels, and the title row; returns the title.
inline QCPTextElement* frame(QWidget* view, QCustomPlot* plot, const QString& viewName, const QString& plotName,
                             const QString& xLabel, const QString& yLabel) {
    plot->xAxis->setLabel(xLabel);
    plot->yAxis->setLabel(yLabel);
    return titledPlot(view, plot, viewName, plotName);
}

// A further axis rect in a new row below the plot's others (a panel under the main one),
// named for tests.
inline QCPAxisRect* rectBelow(QCustomPlot* plot, const QString& name) {
    auto* rect = new QCPAxisRect(plot);
    rect->setObjectName(name);
    plot->plotLayout()->addElement(plot->plotLayout()->rowCount(), 0, rect);
    return rect;
}

// A line graph named for tests (`objectName`) and for the legend (`legendName`).
inline QCPGraph* graph(QCustomPlot* plot, QCPAxis* x, QCPAxis* y, const QString& objectName,
                       const QString& legendName) {
    QCPGraph* g = plot->addGraph(x, y);
    g->setObjectName(objectName);
    g->setName(legendName);
    return g;
}

// A graph of unconnected points (markers, or the anchor of error bars) named for tests; out
// of the legend unless `inLegend`.
inline QCPGraph* pointGraph(QCustomPlot* plot, QCPAxis* x, QCPAxis* y, const QString& objectName, bool inLegend) {
    QCPGraph* g = plot->addGraph(x, y);
    g->setObjectName(objectName);
    g->setLineStyle(QCPGraph::lsNone);
    if (!inLegend) g->removeFromLegend();
    return g;
}

// Bars drawn side by side in one group, each `width` wide.
inline QCPBarsGroup* groupBars(QCustomPlot* plot, std::initializer_list<QCPBars*> members, double width) {
    auto* group = new QCPBarsGroup(plot);
    for (QCPBars* b : members) {
        b->setWidth(width);
        b->setBarsGroup(group);
    }
    return group;
}

// A legend-only graph (no data) that names items drawn as QCPItems.
inline QCPGraph* legendEntry(QCustomPlot* plot, QCPAxis* x, QCPAxis* y, const QString& name) {
    QCPGraph* g = plot->addGraph(x, y);
    g->setObjectName(name);
    return g;
}

}  // namespace qs::ui::items
