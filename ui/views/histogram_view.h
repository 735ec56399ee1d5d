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

    RangeHandles* rangeHandles() const { return handles_; }
    QCPBars* insideBars() const { return inside_; }
    QCPBars* clippedBars() const { return clipped_; }
    QCPItemText* clippedText() const { return clippedText_; }

protected:
    void draw() override;
    void applySeriesStyle(const PlotPalette& palette) override;
    Readout readoutAt(const QPointF& pixel) const override;

private:
    QCPTextElement* title_ = nullptr;
    QCPBars* inside_ = nullptr;
    QCPBars* clipped_ = nullptr;
    QCPGraph* clipLegend_ = nullptr;
    QCPGraph* handleLegend_ = nullptr;
    QCPItemStraightLine* clipLo_ = nullptr;
    QCPItemStraightLine* clipHi_ = nullptr;
    QCPItemText* clipLoText_ = nullptr;
    QCPItemText* clipHiText_ = nullptr;
    QCPItemText* clippedText_ = nullptr;
    RangeHandles* handles_ = nullptr;
};

}  // namespace qs::ui
