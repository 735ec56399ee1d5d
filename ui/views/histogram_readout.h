// The start of the data and error histograms' read-out: the bin under the pointer in the
// plot's main axis rect, with the read-out placed on the bar's top centre.
#pragma once

#include <QPointF>
#include <qcustomplot.h>

#include "core/analysis/histogram.h"
#include "ui/plot/readout_tracer.h"

namespace qs::ui {

// The bin of `h` (drawn on plot->xAxis/yAxis) under `pixel`, or -1 away from the main axis
// rect or outside the bins; for a bin, `r` is made valid and placed on the bar (the caller
// writes its text).
inline int histogramBinReadout(QCustomPlot* plot, const qs::analysis::Histogram& h, const QPointF& pixel,
                               PlotReadout& r) {
    if (plot->axisRectAt(pixel) != plot->axisRect()) return -1;
    const int bin = h.binAt(plot->xAxis->pixelToCoord(pixel.x()));
    if (bin < 0) return -1;
    r.valid = true;
    r.xAxis = plot->xAxis;
    r.yAxis = plot->yAxis;
    r.x = h.center(bin);
    r.y = static_cast<double>(h.counts[static_cast<size_t>(bin)]);
    return bin;
}

}  // namespace qs::ui
