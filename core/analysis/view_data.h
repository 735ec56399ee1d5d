// What the explorer's views draw, derived from an ExplorerResult without any new maths in
// the widgets: the transfer table (the CSV the CLI and the GUI both write), the error along
// the transfer curve as drawn, the step edges and clipping knees, the histogram split into
// in-range and clipped bins, and the statistics table. Pure C++ (no Qt), tested headless.
#pragma once

#include <string>
#include <vector>

#include "core/analysis/explorer.h"
#include "core/analysis/histogram.h"
#include "core/analysis/transfer_curve.h"

namespace qs::analysis {

// One row per point of the transfer curve: input x, the code, the output Q(x) and the
// error x − Q(x) (in double: both are float32, so the difference is exact in practice).
// CSV header: input,code,output,error.
struct TransferTable {
    std::vector<double> input, code, output, error;
};
TransferTable transferTable(const TransferCurve& curve);

struct XYSeries {
    std::vector<double> x, y;
};

// The error x − Q(x) along the curve as the curve is drawn. For a left-step curve Q is
// constant on [x[i], x[i+1]), so the error is a sawtooth: a straight rise over each step
// and a vertical drop at each edge (two points with the same x, in drawing order). For a
// curve of exact samples (more codes than samples) it is x[i] − output[i], joined by lines.
XYSeries transferErrorCurve(const TransferCurve& curve);

// An input where the code changes: Q(x) = `after` for x >= x_edge, `before` just below.
// Ties (x exactly between two levels) land on these edges, on the side the round mode says.
struct StepEdge {
    double x = 0;
    double before = 0, after = 0;
    double code_before = 0, code_after = 0;
};
// Empty unless curve.steps_resolved (otherwise the edges are not known one by one).
std::vector<StepEdge> stepEdges(const TransferCurve& curve);

// Where the curve stops changing at either end of the sampled window: the corner between
// the clip plateau and the staircase (x of the first / last code change, the plateau's
// output). A side has a knee only if its plateau is longer than two typical steps, so an
// unclamped curve (QDQ without a given range) has none.
struct ClipKnees {
    bool has_lower = false, has_upper = false;
    double lower_x = 0, lower_y = 0, upper_x = 0, upper_y = 0;
};
ClipKnees clipKnees(const TransferCurve& curve);

// The data histogram's bins split into the values the quantizer kept and those it clipped
// (each value against its own slice's range, SliceQuant::clips, counted by the explorer's
// pass into ExplorerResult::clipped_hist): one count of each per bin. is_clipped: the bin
// holds a clipped value (a bin is drawn in the clipped colour only then).
struct HistogramSplit {
    std::vector<double> centers, inside, clipped;
    std::vector<bool> is_clipped;
};
HistogramSplit splitClipped(const ExplorerResult& result);

// The statistics panel / statistics CSV: stable snake_case keys in display order. Values a
// run does not have are NaN (scale, zero point, Δ of a per-channel run, which differ per
// channel; SQNR is +inf for an exact quantizer).
struct StatRow {
    std::string key;
    double value = 0;
};
std::vector<StatRow> statisticsRows(const ExplorerResult& result);

// The statistics CSV ("Export statistics as CSV"): columns scope,channel, then the keys of
// statisticsRows. One row "tensor" with the whole-tensor figures, then per channel one row
// "channel",d with that channel's own figures (its step, scale, zero point, ranges, clipped
// count, data range). A figure a row does not have is left empty: the whole tensor's step
// when every channel has its own, a channel's clipped_below/above (it counts `clipped`).
struct StatisticsTable {
    std::vector<std::string> header;
    std::vector<std::vector<double>> rows;  // NaN: no value on this row (written empty)
    std::vector<std::string> scopes;        // "tensor" / "channel", one per row
};
StatisticsTable statisticsTable(const ExplorerResult& result);

// 2^bits levels where bits is ≥ 24 lose nothing in a double: levels() of the run's slice 0
// (code_highest − code_lowest + 1, from the integers).

// 1/√12: RMSE/Δ of an error uniform on ±Δ/2.
inline constexpr double kUniformRmseOverStep = 0.28867513459481287;

}  // namespace qs::analysis
