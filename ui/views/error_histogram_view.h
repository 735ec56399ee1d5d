// The histogram of the error x − Q(x) over ±Δ (the result's error span), with the classic
// model overlaid: an error uniform on ±Δ/2 (what the counts would be if it held, for the
// elements inside the range), and the ±Δ/2 lines. Log scale (action / setLogScale) shows
// the tails: clipping and the bins the model says are empty.
#pragma once

#include <memory>

#include "core/analysis/explorer.h"
#include "ui/plot/qcp_fwd.h"
#include "ui/plot/result_plot.h"

namespace qs::ui {

class ErrorHistogramView : public ResultPlot<qs::analysis::ExplorerResult> {
    Q_OBJECT
public:
    explicit ErrorHistogramView(QWidget* parent = nullptr);
    ~ErrorHistogramView() override;

    // bin_lo,bin_hi,count,uniform_count
    data::NumberColumns csvTable() const override;

    QCPBars* errorBars() const;
    QCPGraph* uniformGraph() const;
    QString infoText() const;  // the note in the corner (Δ, RMSE/Δ, clipped, errors off the plot)

protected:
    void draw() override;
    void applySeriesStyle(const PlotPalette& palette) override;
    Readout readoutAt(const QPointF& pixel) const override;

private:
    struct Items;  // the plot items, defined in the .cpp
    std::unique_ptr<Items> items_;
};

}  // namespace qs::ui
