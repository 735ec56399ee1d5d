// Clipping sweep: MSE against the clipping bound α (the op fed [−α, α]) for the current
// data, the measured minimum marked "α* = …", and the closed-form MSE for Gaussian and
// Laplace data of the fitted σ and b, derived for the quantizer shown (not the textbook's
// 2^b levels over [−α, α]). Under the plot a table of α*/σ and α*/b for 2–8 bits —
// textbook, this op, and measured for the current width — and "Apply α*", which sets the
// explorer's range to [−α*, α*] (one undo step, through the model).
#pragma once

#include "session/explorer/analysis_service.h"
#include "ui/plot/qcp_fwd.h"
#include "ui/plot/result_plot.h"

class QLabel;
class QPushButton;
class QTableWidget;

namespace qs::ui {

class JobStatus;

class ClipSweepView : public ResultPlot<ClipAnalysisPtr::element_type> {
    Q_OBJECT
public:
    explicit ClipSweepView(QWidget* parent = nullptr);
    ~ClipSweepView() override;

    // alpha,mse,gaussian_mse,laplace_mse per sweep point.
    data::NumberColumns csvTable() const override;

    QCPGraph* measuredGraph() const { return measured_; }
    QCPGraph* gaussianGraph() const { return gaussian_; }
    QCPGraph* laplaceGraph() const { return laplace_; }
    QCPGraph* optimumGraph() const { return optimum_; }
    // The explorer's current settings: a point at the current α, or a level line when the
    // ranges differ per channel or come from the data (ClipAnalysis::current).
    QCPGraph* currentGraph() const { return current_; }
    QCPItemText* optimumLabel() const { return optimumText_; }
    QTableWidget* table() const { return table_; }
    QPushButton* applyButton() const { return apply_; }
    QLabel* fitLabel() const { return fit_; }
    JobStatus* status() const { return status_; }

signals:
    void applyRequested(float min, float max);

protected:
    void draw() override;
    void applySeriesStyle(const PlotPalette& palette) override;
    void logScaleChanged(bool on) override;

private:
    void fillTable();
    void setHomeY();

    QCPTextElement* title_ = nullptr;
    QCPGraph* measured_ = nullptr;
    QCPGraph* gaussian_ = nullptr;
    QCPGraph* laplace_ = nullptr;
    QCPGraph* optimum_ = nullptr;
    QCPGraph* current_ = nullptr;
    QCPItemText* optimumText_ = nullptr;
    QTableWidget* table_ = nullptr;
    QLabel* fit_ = nullptr;
    QPushButton* apply_ = nullptr;
    JobStatus* status_ = nullptr;
    double yLo_ = 1e-6, yHi_ = 1;
};

}  // namespace qs::ui
