// The whole-model report as a horizontal bar chart: one bar per tensor, its SQNR in dB,
// worst at the top (the report's order), names on the left axis, a tick for the best
// calibration's SQNR beside each bar. Clicking a bar emits tensorClicked(name). The window's
// report panel and `quantscope-cli model --png` draw with it.
#pragma once

#include <QString>
#include <QStringList>

#include "core/model_analysis/model_report.h"
#include "ui/plot/qcp_fwd.h"
#include "ui/plot/result_plot.h"

namespace qs::ui {

class SqnrBarChart : public ResultPlot<qs::analysis::ModelReport> {
    Q_OBJECT
public:
    explicit SqnrBarChart(QWidget* parent = nullptr);
    ~SqnrBarChart() override;

    // rank,sqnr_db,best_calibration_sqnr_db — one row per tensor in the report's order (the
    // names are in the report's own CSV).
    data::NumberColumns csvTable() const override;

    QCPBars* sqnrBars() const { return bars_; }
    QCPGraph* calibrationMarks() const { return calibrated_; }
    // The bar length drawn for a row: its SQNR, or for a lossless row (+inf) a little past
    // the longest finite bar; NaN rows get no bar.
    double drawnSqnr(size_t row) const;
    // The most bars the home view shows (the worst ones, as many as fit one per line of
    // text, at least 8; scroll or zoom for the others).
    static constexpr int kHomeBars = 40;

signals:
    void tensorClicked(const QString& name);

protected:
    void draw() override;
    void applySeriesStyle(const PlotPalette& palette) override;
    Readout readoutAt(const QPointF& pixel) const override;

private:
    void barClicked(QCPAbstractPlottable* plottable, int dataIndex);
    // Puts the tensor names on the bars, every labelStep_-th one when they do not all fit.
    void labelBars();
    double barAreaHeight() const;  // pixels along the bars' axis

    QCPTextElement* title_ = nullptr;
    QCPBars* bars_ = nullptr;
    QCPGraph* calibrated_ = nullptr;
    double losslessAt_ = 0;
    QStringList names_;  // the bars' labels, in row order
    int labelStep_ = 0;  // the step labelBars last used (0: none yet)
    int labelRoom_ = 0;  // the width it gave each name, in pixels
};

}  // namespace qs::ui
