// ResultPlot<Result>: a PlotFrame that draws one computed result (an ExplorerResult, a bit
// sweep, a clipping analysis, a comparison). setResult() keeps the result and calls the
// view's draw(); a null result draws the empty view. The views only say how to draw.
#pragma once

#include <memory>
#include <utility>

#include "ui/plot/plot_frame.h"

namespace qs::ui {

template <typename Result>
class ResultPlot : public PlotFrame {
public:
    using ResultPtr = std::shared_ptr<const Result>;
    using PlotFrame::PlotFrame;

    void setResult(ResultPtr result) {
        result_ = std::move(result);
        draw();
    }
    // A fuller result with the same drawing: kept without drawing again (the transfer view
    // draws from a partial result, the curve sent ahead of the statistics, and then adopts
    // the complete one).
    void adoptResult(ResultPtr result) { result_ = std::move(result); }
    ResultPtr result() const { return result_; }

protected:
    // Draws result_ (null: no result).
    virtual void draw() = 0;

    ResultPtr result_;
};

}  // namespace qs::ui
