// Where the views' read-outs start: the histogram bin under the pointer (data and error
// histograms), or the whole index under it in any axis rect (channels, hosts).
#pragma once

#include <cmath>

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

// The whole index (a channel, a host) the bottom axis of the axis rect under `pixel` shows
// there, or -1 without a rect or outside [0, count); `rect` is that rect (or null). For an
// index, `r` is made valid on the rect's bottom and left axes at x = index.
inline long indexReadout(QCustomPlot* plot, const QPointF& pixel, size_t count, PlotReadout& r, QCPAxisRect*& rect) {
    rect = plot->axisRectAt(pixel);
    if (!rect) return -1;
    QCPAxis* kx = rect->axis(QCPAxis::atBottom);
    const long i = std::lround(kx->pixelToCoord(pixel.x()));
    if (i < 0 || i >= static_cast<long>(count)) return -1;
    r.valid = true;
    r.xAxis = kx;
    r.yAxis = rect->axis(QCPAxis::atLeft);
    r.x = static_cast<double>(i);
    return i;
}

}  // namespace qs::ui
