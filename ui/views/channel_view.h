// Per-channel view (when the spec has an axis): for each channel, top: the data's min…max
// (a whisker) and the range the op used for it (output_min / output_max dashes), with the
// channel whose transfer curve is shown highlighted; middle: the scale chosen per channel
// (log-scale toggle: one outlier channel dwarfs the rest); bottom: RMSE and max |error| per
// channel. A per-tensor result shows a note instead.
//
// Readable with a thousand channels: the channels can be sorted worst first (by RMSE or max
// |error|) and cut to the worst N (the x axis then names each bar's channel); dashes, whiskers
// and bar outlines shrink with the pixels a channel gets, and the wheel zooms as in every
// view (double-click: all of them again).
#pragma once

#include <memory>

#include "core/analysis/explorer.h"
#include "ui/plot/qcp_fwd.h"
#include "ui/plot/result_plot.h"
#include "ui/views/channel_order.h"

class QComboBox;
class QSpinBox;

namespace qs::ui {

class ChannelView : public ResultPlot<qs::analysis::ExplorerResult> {
    Q_OBJECT
public:
    explicit ChannelView(QWidget* parent = nullptr);
    ~ChannelView() override;

    // channel,data_min,data_max,output_min,output_max,scale,step,zero_point,rmse,
    // max_abs_error,sqnr_db,clipped — one row per channel (empty when per tensor).
    data::NumberColumns csvTable() const override;

    QCPAxisRect* scaleRect() const { return scaleRect_; }
    QCPAxisRect* errorRect() const { return errorRect_; }
    QCPGraph* dataMinGraph() const { return dataMin_; }
    QCPGraph* dataMaxGraph() const { return dataMax_; }
    QCPGraph* outputMinGraph() const { return outMin_; }
    QCPGraph* outputMaxGraph() const { return outMax_; }
    QCPBars* scaleBars() const { return scale_; }
    QCPBars* rmseBars() const { return rmse_; }
    QCPGraph* maxErrorGraph() const { return maxAbs_; }

    // Which channels are drawn, left to right (the x coordinate is the position in this list).
    const std::vector<size_t>& shownChannels() const { return shown_; }
    // The order and the "worst N" (0: all channels); the controls above the plot show them.
    void setOrder(ChannelOrder order);
    void setWorstCount(int count);
    QComboBox* orderBox() const { return orderBox_; }
    QSpinBox* worstBox() const { return worstBox_; }

protected:
    void draw() override;
    void applySeriesStyle(const PlotPalette& palette) override;
    Readout readoutAt(const QPointF& pixel) const override;
    void logScaleChanged(bool on) override;
    void viewRangesChanged() override;

private:
    void setScaleHome();
    void labelChannelAxis();
    QWidget* createControls();

    QComboBox* orderBox_ = nullptr;
    QSpinBox* worstBox_ = nullptr;
    std::vector<size_t> shown_;
    double pixelsPerChannel_ = 20;  // the marks' sizes follow it (viewRangesChanged)

    QCPTextElement* title_ = nullptr;
    QCPAxisRect* scaleRect_ = nullptr;
    QCPAxisRect* errorRect_ = nullptr;
    QCPGraph* dataMid_ = nullptr;  // carries the whiskers (not drawn)
    QCPErrorBars* dataRange_ = nullptr;
    QCPGraph* dataMin_ = nullptr;
    QCPGraph* dataMax_ = nullptr;
    QCPGraph* outMin_ = nullptr;
    QCPGraph* outMax_ = nullptr;
    QCPBars* scale_ = nullptr;
    QCPBars* rmse_ = nullptr;
    QCPGraph* maxAbs_ = nullptr;
    QCPItemRect* band_ = nullptr;
    QCPItemText* bandText_ = nullptr;
    double scaleMin_ = 1, scaleMax_ = 1;
};

}  // namespace qs::ui
