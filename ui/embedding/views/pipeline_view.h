// The pipeline_execution_with_tensor_core demonstration, per training step: top, the toy
// model's loss without and with pipelining (lines) and how many activations read stale rows
// (bars, right axis); bottom, the mean and max |difference| between the two runs'
// activations. A caption says what pipelining does (spec 5.5).
#pragma once

#include <optional>

#include "core/embedding/pipeline_demo.h"
#include "ui/plot/plot_frame.h"
#include "ui/plot/qcp_fwd.h"

namespace qs::ui {

class PipelineView : public PlotFrame {
    Q_OBJECT
public:
    explicit PipelineView(QWidget* parent = nullptr);
    ~PipelineView() override;

    void setDemo(const qs::embedding::PipelineDemoResult& demo);
    void clear();
    const std::optional<qs::embedding::PipelineDemoResult>& demo() const { return demo_; }

    // What pipelining means, in one sentence (spec 5.5).
    static QString explanation();

    // step,loss_sequential,loss_pipelined,activations,stale_activations,stale_rows,
    // mean_abs_difference,max_abs_difference.
    data::NumberColumns csvTable() const override;

    QCPAxisRect* differenceRect() const { return diffRect_; }
    QCPGraph* sequentialLoss() const { return sequential_; }
    QCPGraph* pipelinedLoss() const { return pipelined_; }
    QCPBars* staleBars() const { return stale_; }
    QCPGraph* meanDifference() const { return meanDiff_; }
    QCPGraph* maxDifference() const { return maxDiff_; }
    QCPTextElement* titleElement() const { return title_; }
    QCPTextElement* captionElement() const { return caption_; }

protected:
    void applySeriesStyle(const PlotPalette& palette) override;
    Readout readoutAt(const QPointF& pixel) const override;

private:
    std::optional<qs::embedding::PipelineDemoResult> demo_;
    QCPTextElement* title_ = nullptr;
    QCPTextElement* caption_ = nullptr;
    QCPAxisRect* diffRect_ = nullptr;
    QCPGraph* sequential_ = nullptr;
    QCPGraph* pipelined_ = nullptr;
    QCPBars* stale_ = nullptr;
    QCPGraph* meanDiff_ = nullptr;
    QCPGraph* maxDiff_ = nullptr;
};

}  // namespace qs::ui
