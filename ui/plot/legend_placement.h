// A legend in a strip above the axis rect (PlotFrame::placeLegendOnTop) in as many columns as
// the plot's width holds: one column on a narrow plot, up to `maxColumns` on a wide one, so
// that entries are never cut and the legend never lies over the data it explains.
#pragma once

class QCustomPlot;

namespace qs::ui {

// Before each replot, sets the columns of `plot`'s legend (placed on top) to fit its width.
void keepLegendColumnsFitting(QCustomPlot* plot, int maxColumns);

}  // namespace qs::ui
