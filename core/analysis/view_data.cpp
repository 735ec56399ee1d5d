#include "core/analysis/view_data.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace qs::analysis {

TransferTable transferTable(const TransferCurve& curve) {
    TransferTable t;
    const size_t n = curve.x.size();
    t.input = curve.x;
    t.code = curve.code;
    t.output = curve.output;
    t.error.resize(n);
    for (size_t i = 0; i < n; ++i) t.error[i] = curve.x[i] - curve.output[i];
    return t;
}

XYSeries transferErrorCurve(const TransferCurve& curve) {
    XYSeries s;
    const size_t n = std::min(curve.x.size(), curve.output.size());
    s.x.reserve(curve.steps_resolved ? 2 * n : n);
    s.y.reserve(s.x.capacity());
    for (size_t i = 0; i < n; ++i) {
        const double x = curve.x[i];
        if (curve.steps_resolved && i > 0 && curve.output[i] != curve.output[i - 1]) {
            // The end of the previous step: the error just below the edge.
            s.x.push_back(x);
            s.y.push_back(x - curve.output[i - 1]);
        }
        s.x.push_back(x);
        s.y.push_back(x - curve.output[i]);
    }
    return s;
}

std::vector<StepEdge> stepEdges(const TransferCurve& curve) {
    std::vector<StepEdge> edges;
    if (!curve.steps_resolved) return edges;
    const size_t n = std::min({curve.x.size(), curve.output.size(), curve.code.size()});
    for (size_t i = 1; i < n; ++i) {
        if (curve.output[i] == curve.output[i - 1] && curve.code[i] == curve.code[i - 1])
            continue;
        edges.push_back({curve.x[i], curve.output[i - 1], curve.output[i], curve.code[i - 1],
                         curve.code[i]});
    }
    return edges;
}

ClipKnees clipKnees(const TransferCurve& curve) {
    ClipKnees k;
    const size_t n = std::min(curve.x.size(), curve.output.size());
    std::vector<double> changes;  // x where the output changes
    for (size_t i = 1; i < n; ++i)
        if (curve.output[i] != curve.output[i - 1]) changes.push_back(curve.x[i]);
    if (changes.size() < 2) return k;
    std::vector<double> widths(changes.size() - 1);
    for (size_t i = 1; i < changes.size(); ++i) widths[i - 1] = changes[i] - changes[i - 1];
    std::nth_element(widths.begin(), widths.begin() + widths.size() / 2, widths.end());
    const double typical = widths[widths.size() / 2];
    if (changes.front() - curve.x.front() > 2 * typical) {
        k.has_lower = true;
        k.lower_x = changes.front();
        k.lower_y = curve.output.front();
    }
    if (curve.x[n - 1] - changes.back() > 2 * typical) {
        k.has_upper = true;
        k.upper_x = changes.back();
        k.upper_y = curve.output[n - 1];
    }
    return k;
}

HistogramSplit splitClipped(const ExplorerResult& r) {
    HistogramSplit s;
    const Histogram& all = r.data_hist;
    const int bins = all.bins();
    const bool haveClipped = r.clipped_hist.bins() == bins;
    s.centers.resize(bins);
    s.inside.assign(bins, 0.0);
    s.clipped.assign(bins, 0.0);
    s.is_clipped.assign(bins, false);
    for (int i = 0; i < bins; ++i) {
        const auto k = static_cast<size_t>(i);
        s.centers[k] = all.center(i);
        const int64_t clipped = haveClipped ? std::min(r.clipped_hist.counts[k], all.counts[k]) : 0;
        s.clipped[k] = static_cast<double>(clipped);
        s.inside[k] = static_cast<double>(all.counts[k] - clipped);
        s.is_clipped[k] = clipped > 0;
    }
    return s;
}

namespace {

// What one row of statistics is made of: the whole tensor's or one channel's.
struct RowSource {
    const ErrorStats& stats;
    const SliceQuant* quant;  // null: the slices differ (the tensor's row of a per-channel run)
    double step;              // NaN when quant is null
    double below, above, clipped;  // NaN: not counted (a channel counts only `clipped`)
    double levels_total;
    double data_min, data_max;
    double channels;
};

std::vector<StatRow> rowsOf(const RowSource& src) {
    constexpr double nan = std::numeric_limits<double>::quiet_NaN();
    const ErrorStats& s = src.stats;
    const SliceQuant* q = src.quant;
    const auto slice = [&](auto member) { return q ? static_cast<double>(q->*member) : nan; };
    return {
        {"count", static_cast<double>(s.count)},
        {"nan_pairs", static_cast<double>(s.nan_pairs)},
        {"mse", s.mse},
        {"rmse", s.rmse},
        {"max_abs_error", s.max_abs_error},
        {"bias", s.mean_error},
        {"sqnr_db", s.sqnr_db},
        {"cosine", s.cosine},
        {"clip_fraction", s.fraction_clipped},
        {"clipped_below", src.below},
        {"clipped_above", src.above},
        {"clipped", src.clipped},
        {"levels_used", static_cast<double>(s.distinct_levels)},
        {"levels_total", src.levels_total},
        {"step", src.step},
        {"rmse_over_step", src.step > 0 ? s.rmse / src.step : nan},
        {"scale", slice(&SliceQuant::scale)},
        {"zero_point", slice(&SliceQuant::zero_code)},
        {"zero_output", slice(&SliceQuant::zero_output)},
        {"output_min", slice(&SliceQuant::output_min)},
        {"output_max", slice(&SliceQuant::output_max)},
        {"requested_min", slice(&SliceQuant::requested_min)},
        {"requested_max", slice(&SliceQuant::requested_max)},
        {"data_min", src.data_min},
        {"data_max", src.data_max},
        {"channels", src.channels},
        // Both conventions, named: PyTorch and ONNX call the step Δ "scale"; TF's scale is
        // its inverse, codes per unit (docs/conventions.md).
        {"step_pytorch_onnx_scale", src.step},
        {"tf_scale_codes_per_unit", slice(&SliceQuant::scale)},
    };
}

}  // namespace

std::vector<StatRow> statisticsRows(const ExplorerResult& r) {
    constexpr double nan = std::numeric_limits<double>::quiet_NaN();
    const bool perTensor = r.run.slices.size() == 1;
    const double levelsTotal = r.run.slices.empty() ? nan : static_cast<double>(r.run.slices.front().levels());
    return rowsOf({r.stats, perTensor ? &r.run.slices.front() : nullptr, perTensor ? r.step : nan,
                   static_cast<double>(r.clipped_below), static_cast<double>(r.clipped_above),
                   static_cast<double>(r.clipped_below + r.clipped_above), levelsTotal, r.data_min, r.data_max,
                   static_cast<double>(r.channels.size())});
}

StatisticsTable statisticsTable(const ExplorerResult& r) {
    constexpr double nan = std::numeric_limits<double>::quiet_NaN();
    StatisticsTable t;
    t.header = {"scope", "channel"};
    std::vector<double> tensor;
    for (const StatRow& row : statisticsRows(r)) {
        t.header.push_back(row.key);
        tensor.push_back(row.value);
    }
    t.rows.push_back(std::move(tensor));
    t.scopes.push_back("tensor");
    for (const ChannelSummary& c : r.channels) {
        std::vector<double> row;
        for (const StatRow& v : rowsOf({c.stats, &c.quant, c.quant.step, nan, nan, static_cast<double>(c.clipped),
                                        static_cast<double>(c.quant.levels()), c.data_min, c.data_max, nan}))
            row.push_back(v.value);
        t.rows.push_back(std::move(row));
        t.scopes.push_back("channel");
    }
    return t;
}

}  // namespace qs::analysis
