// The width a plot's texts are laid out for: its own on screen, the file's while it is drawn
// for an export. QCustomPlot's toPainter() draws at the export's size without a replot, so
// the titles' line breaks and the legend's columns, set before each replot for the widget's
// width, would otherwise come from the screen: a window's 1600-pixel PNG kept the two-line
// title of its narrow plot, and differed from the CLI's file of the same view.
#pragma once

#include <QSize>

class QCustomPlot;

namespace qs::ui {

// Lays `plot` out for an export of `size` (logical pixels): its viewport becomes that size
// and the layout hooks (title wrap, legend columns) run for it. endExportLayout() returns
// the plot to its widget's size; the next replot lays it out for the screen again.
void beginExportLayout(QCustomPlot* plot, QSize size);
void endExportLayout(QCustomPlot* plot);

// The width to lay `plot`'s texts out for: the export's during one, else the widget's when
// it is on screen; 0 when neither (a hidden plot has no width of its own yet).
int layoutWidth(const QCustomPlot* plot);

}  // namespace qs::ui
