// Bit-width sweep: SQNR (dB) against bits for the current data and op, measured beside the
// granular-noise theory for the op's actual step (and the textbook 6.02·b line when the
// data is uniform or a sine), and below it the MSE against bits on a log axis. The caption
// says which levels the op uses (2^b − 1 of 2^b codes inside [−1, 1] for signed QDQ, …);
// for the TPU op the x axis is bits = log2(num_buckets).
#pragma once

#include "session/explorer/analysis_service.h"
#include "ui/plot/qcp_fwd.h"
#include "ui/plot/result_plot.h"

namespace qs::ui {

class JobStatus;

class BitSweepView : public ResultPlot<BitSweepPtr::element_type> {
    Q_OBJECT
public:
    explicit BitSweepView(QWidget* parent = nullptr);
    ~BitSweepView() override;

    // bits,levels,levels_in_range,levels_used,step,mse,sqnr_db,theory_sqnr_db,clipped per row.
    data::NumberColumns csvTable() const override;

    // The legend's name for the theory line, e.g. "theory: 20·log10(2^b − 2) (signed QDQ,
    // uniform data)" when the rows follow that closed form, else the general formula.
    static QString theoryName(const qs::analysis::BitSweep& sweep);
    // Which levels the op uses, in words (the caption).
    static QString levelsCaption(const qs::analysis::BitSweep& sweep);

    QCPGraph* sqnrGraph() const { return sqnr_; }
    QCPGraph* theoryGraph() const { return theory_; }
    QCPGraph* textbookGraph() const { return textbook_; }
    QCPGraph* mseGraph() const { return mse_; }
    QCPGraph* theoryMseGraph() const { return theoryMse_; }
    QCPAxisRect* mseRect() const { return mseRect_; }
    QString caption() const;
    JobStatus* status() const { return status_; }

protected:
    void draw() override;
    void applySeriesStyle(const PlotPalette& palette) override;

private:
    QCPTextElement* title_ = nullptr;
    QCPTextElement* caption_ = nullptr;
    QCPAxisRect* mseRect_ = nullptr;
    QCPGraph* sqnr_ = nullptr;
    QCPGraph* theory_ = nullptr;
    QCPGraph* textbook_ = nullptr;
    QCPGraph* mse_ = nullptr;
    QCPGraph* theoryMse_ = nullptr;
    JobStatus* status_ = nullptr;
};

}  // namespace qs::ui
