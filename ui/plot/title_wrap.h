// Titles that fit their plot: a view's title joins its parts with "  ·  " (op, type, mode,
// rounding, axis…) and is one line as long as the plot is wide enough. On a narrower plot
// (a 1280-pixel screen with both side docks) it breaks between parts instead of running past
// both edges, where its first and last words were cut.
#pragma once

#include <QFontMetricsF>
#include <QString>

class QCustomPlot;
class QCPItemText;

namespace qs::ui {

// `text` broken into lines between its "  ·  " parts (or at spaces if a part alone is too
// wide) so that no line is wider than `width` in `metrics`; `text` itself if it fits.
QString wrapTitle(const QString& text, const QFontMetricsF& metrics, double width);

// Keeps every title (QCPTextElement) of `plot` wrapped to the plot's width, before each replot.
void keepTitlesWrapped(QCustomPlot* plot);
// Keeps a text box over the data (the stale box, a message) wrapped to its axis rect's width
// less a margin, before each replot: a long TF error stays inside the plot.
void keepBoxWrapped(QCustomPlot* plot, QCPItemText* box);

}  // namespace qs::ui
