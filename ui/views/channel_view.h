// Per-channel view (when the spec has an axis): for each channel, top: the data's min…max
// (a whisker) and the range the op used for it (output_min / output_max dashes), with the
// channel whose transfer curve is shown highlighted; middle: the scale chosen per channel
// (log-scale toggle: one outlier channel dwarfs the rest); bottom: RMSE and max |error| per
// channel. A per-tensor result shows a note instead.
#pragma once

#include <memory>

#include "core/analysis/explorer.h"
#include "ui/plot/qcp_fwd.h"
#include "ui/plot/result_plot.h"

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

protected:
    void draw() override;
    void applySeriesStyle(const PlotPalette& palette) override;
    Readout readoutAt(const QPointF& pixel) const override;
    void logScaleChanged(bool on) override;

private:
    void setScaleHome();

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
