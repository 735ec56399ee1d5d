// The transfer curve of the op for the result's curve channel: input x → output Q(x) (left
// axis) and → code (right axis, aligned so one step is one code), the identity line, and
// below it the error x − Q(x) along the curve (a sawtooth inside the range, ramps where it
// clips). Marked: the range the op used (output_min/output_max as TF returns it, or QDQ's
// effective range) with the requested range beside it when they differ, draggable handles
// on the requested range, the zero point (x = 0 → its code and output), the clipping knees,
// and — once zoomed in to a few dozen steps — every step edge (● the value taken at the
// edge, ○ the limit from below: where ties land). Draws only what the result holds.
#pragma once

#include <memory>
#include <optional>
#include <vector>

#include "core/analysis/explorer.h"
#include "core/analysis/view_data.h"
#include "ui/plot/qcp_fwd.h"
#include "ui/plot/result_plot.h"

namespace qs::ui {

class TransferView : public ResultPlot<qs::analysis::ExplorerResult> {
    Q_OBJECT
public:
    explicit TransferView(QWidget* parent = nullptr);
    ~TransferView() override;

    // Draws the result (null clears the view). A valid result also ends the stale state.

    // input,code,output,error: one row per point of the transfer curve (the CLI's header).
    data::NumberColumns csvTable() const override;

    RangeHandles* rangeHandles() const;
    QCPAxisRect* errorRect() const;
    // Plot parts also carry object names: "transferCurve", "identityLine", "errorCurve",
    // "stepEdges", "stepEdgesOpen", "zeroPoint", "clipKnees", "outputMinMarker", ...
    QCPGraph* curveGraph() const;
    QCPGraph* errorGraph() const;
    QCPGraph* edgeGraph() const;

protected:
    void draw() override;
    void applySeriesStyle(const PlotPalette& palette) override;
    Readout readoutAt(const QPointF& pixel) const override;
    void viewRangesChanged() override;

private:
    void buildPlot();
    void clear();
    void alignCodeAxis();
    void drawCurve(const qs::TransferCurve& curve);  // curve, error and step edges

    std::optional<qs::SliceQuantizer> quantizer_;  // the read-out runs the op itself
    std::vector<double> edgeX_;                    // sorted, to count edges in view
    qs::QuantSpec curveSpec_;                      // the drawn slice's op, per tensor
    bool zoomedCurve_ = false;                     // showing a curve resampled for the zoom

    struct Items;  // the plot items, defined in the .cpp
    std::unique_ptr<Items> items_;
    double outputPerCode_ = 0, outputAtCodeZero_ = 0;
};

}  // namespace qs::ui
