// Everything the explorer shows for one (spec, data) pair, computed in one pure call: the
// op's output over the data, its error statistics, the data and error histograms, the
// per-channel summary and the transfer curve. The GUI runs it on a worker thread and the
// CLI's export runs the very same function, so pictures and CSVs agree.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include "core/analysis/error_stats.h"
#include "core/analysis/histogram.h"
#include "core/analysis/quant_spec.h"
#include "core/analysis/transfer_curve.h"
#include "core/data/float_stream.h"
#include "core/status.h"
#include "core/tensor.h"

namespace qs::analysis {

struct ExplorerResult;

struct ExplorerOptions {
    int histogram_bins = 200;
    int error_bins = 121;
    int curve_samples = 2001;
    int64_t channel = 0;  // the slice whose transfer curve is drawn (per-channel runs)
    Exec exec = Exec::allCores();
    const std::atomic<bool>* cancel = nullptr;  // set to abandon the computation
    // false: ExplorerResult::output stays empty (nothing per element is kept; the views
    // need only the statistics and histograms).
    bool keep_output = true;
    // The data's min/max (non-NaN) when the caller has it already: it depends on the data
    // alone, so the GUI finds it once per data set (dataRange) instead of on every edit.
    std::optional<std::pair<float, float>> data_range;
    // A histogram of this data the caller kept from an earlier result: used as it is when
    // its window and bins are the ones this result needs (the window holds the data and the
    // quantizer's range, so most edits keep it), saving the data histogram's count.
    std::optional<Histogram> data_histogram;
    // Streamed data: called with the fraction done; returning false cancels.
    std::function<bool(double fraction)> progress;
    // Streamed data: elements per chunk read (rounded to whole kStatsBlock blocks).
    int64_t stream_chunk = int64_t{1} << 22;
    // When set, called once the transfer curve is known, before the statistics are computed,
    // with the result so far: spec, run, curve and curve_channel (nothing else). The curve
    // needs no statistics, so the GUI draws the transfer view while the pass over the data
    // runs (on another thread: this is called on the computing one).
    std::function<void(ExplorerResult&& partial)> on_curve;
};

// Min/max of the non-NaN values (0, 0 when there are none), the first of equal extremes
// kept (-0.0 vs +0.0), as one scan in index order finds them; parallel.
std::pair<float, float> dataRange(std::span<const float> values, const Exec& exec = Exec::allCores());

struct ChannelSummary {
    float data_min = 0, data_max = 0;
    SliceQuant quant;
    ErrorStats stats;
    int64_t clipped = 0;  // elements the quantizer clipped (SliceQuant::clips)
};

struct ExplorerResult {
    QuantSpec spec;
    QuantRun run;
    std::vector<float> output;  // Q(x) for every element, as TF returns it (if kept)
    ErrorStats stats;           // over the whole tensor (fraction_clipped per slice range)
    float data_min = 0, data_max = 0;  // of the non-NaN values (±inf included)
    // The finite values: how many (-1: not counted, as when data_min/max are finite) and
    // their extent (= data_min/max when those are finite). 0: every value is NaN or ±inf.
    int64_t finite_count = -1;
    float finite_min = 0, finite_max = 0;

    // The transfer curve of options.channel, in the range that slice used.
    TransferCurve curve;
    int64_t curve_channel = 0;

    // Data histogram over [min(data, range), max(data, range)], with the clip points.
    Histogram data_hist;
    Histogram clipped_hist;  // the clipped values alone (each against its slice), same bins
    float clip_lo = 0, clip_hi = 0;         // slice 0 / per-tensor quantizer's range
    int64_t clipped_below = 0, clipped_above = 0;  // elements below/above their slice's range

    // Error x − Q(x) over ±error_span, with the counts a uniform error on ±Δ/2 would give
    // (the classic model) for the elements inside the range.
    Histogram error_hist;
    double step = 0;                     // Δ of slice 0 (the per-tensor step)
    double error_span = 0;
    std::vector<double> error_uniform_counts;  // one per bin

    std::vector<ChannelSummary> channels;  // one per slice when an axis is set, else empty
};

// Errors: the op's own (TF's kind and text), "Cancelled" when options.cancel was set.
// The op runs over the data once (applySpec); everything else comes from one fused
// parallel pass over (x, Q(x)) whose sums are folded in a fixed order, so the numbers are
// those of errorStats/histogram per statistic, for any thread count.
Result<ExplorerResult> computeExplorer(const QuantSpec& spec, const TensorRef<float>& data,
                                       const ExplorerOptions& options = {});

// The same result for data read in chunks (a file larger than memory): one scan for the
// ranges, then the fused pass with Q(x) computed chunk by chunk (SliceQuantizer, the op's
// own arithmetic); memory stays bounded by the chunks. `output` is never kept. The numbers
// equal computeExplorer's on the same values, except distinct_levels past 4M levels
// (then -1: not counted). Reports progress (two scans: 0..0.5, 0.5..1) and honours cancel.
Result<ExplorerResult> computeExplorerStream(const QuantSpec& spec, const data::FloatStream& data,
                                             const Shape& shape, const ExplorerOptions& options = {});

}  // namespace qs::analysis
