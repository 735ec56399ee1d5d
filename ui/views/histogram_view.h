// The data histogram with the quantizer's range drawn over it: bars inside the range in the
// curve colour, bars outside (the clipped mass) in the clip colour, solid lines at the clip
// points, draggable handles on the requested range, and the clipped count below/above with
// its share. For a per-channel run the clip points differ per channel: the lines show
// channel 0's (as the result does) and the count is over every channel's own range.
#pragma once

#include <memory>

#include "core/analysis/explorer.h"
#include "ui/plot/qcp_fwd.h"
#include "ui/plot/result_plot.h"

namespace qs::ui {

class HistogramView : public ResultPlot<qs::analysis::ExplorerResult> {
    Q_OBJECT
public:
    explicit HistogramView(QWidget* parent = nullptr);
    ~HistogramView() override;

    // bin_lo,bin_hi,count,clipped (clipped = 1 for a bin drawn as clipped).
    data::NumberColumns csvTable() const override;

    RangeHandles* rangeHandles() const;
    QCPBars* insideBars() const;
    QCPBars* clippedBars() const;
    QCPItemText* clippedText() const;

protected:
    void draw() override;
    void applySeriesStyle(const PlotPalette& palette) override;
    Readout readoutAt(const QPointF& pixel) const override;

private:
    struct Items;  // the plot items, defined in the .cpp
    std::unique_ptr<Items> items_;
};

}  // namespace qs::ui
