// The explorer's fused pass: one parallel walk over (x, Q(x)) that yields the error sums,
// the data and error histograms, the clip counts and the distinct output levels together,
// instead of a pass per statistic (the data's extremes depend on the data alone and are
// known before: dataRange, cached per data set). The error sums are taken per
// kStatsBlock block and folded in block order, the other results are order-free (counts,
// set unions), so every number equals the per-statistic function's (errorStats,
// histogram, ...) for any thread count.
// Used by explorer.cpp only; a header so the test can check the agreement directly.
#pragma once

#include <atomic>
#include <functional>
#include <limits>
#include <vector>

#include "core/analysis/error_stats.h"
#include "core/analysis/explorer.h"
#include "core/analysis/histogram.h"
#include "core/analysis/quant_spec.h"
#include "core/analysis/sweep_util.h"
#include "core/data/float_stream.h"
#include "core/numeric/distinct_counter.h"

namespace qs::analysis {

struct PassSetup {
    SliceLayout layout;
    const std::vector<SliceQuant>* slices = nullptr;  // one per slice of the layout
    double data_lo = 0, data_hi = 1;                  // the data histogram's window
    int data_bins = 1;
    bool count_data = true;  // false: the data histogram is known already (same data, same bins)
    double error_span = 1;                            // the error histogram is ±error_span
    int error_bins = 1;
    // false: the distinct outputs are known already (QuantRun::output_levels) and the
    // pass does not count them (PassTotals::distinct_levels is then left 0).
    bool count_levels = true;
};

// A counter of distinct outputs with the slice's output levels as its grid (the count is
// exact for any values; values on the grid are the fast case).
DistinctCounter levelCounter(const SliceQuant& q);

// The order-free results of one part of the data.
struct PassShare {
    HistogramCounter data, err;
    HistogramCounter clipped_data;  // the clipped x alone, in the data histogram's bins
    DistinctCounter levels;  // distinct Q(x) among the pairs without NaN
    int64_t below = 0, above = 0;  // x below / above its slice's clipping range (SliceQuant::clips)

    explicit PassShare(const PassSetup& s)
        : data(s.data_lo, s.data_hi, s.data_bins), err(-s.error_span, s.error_span, s.error_bins),
          clipped_data(s.data_lo, s.data_hi, s.data_bins),
          levels(s.count_levels ? levelCounter(s.slices->front()) : DistinctCounter()) {}
    // `later` covers data after this share's.
    void merge(const PassShare& later);
};

struct PassTotals {
    ErrorSums sums;
    PassShare share;
    int64_t distinct_levels = 0;  // -1: more than the counter holds and no values to sort
};

// The pass over values in memory (x and y of equal length, elements of the layout).
Result<PassTotals> fusedPass(const PassSetup& setup, std::span<const float> x,
                             std::span<const float> y, const Exec& exec,
                             const std::atomic<bool>* cancel);

// Per-channel rows (layout.depth > 1): each channel's values in index order, by one thread.
Result<std::vector<ChannelSummary>> channelSummaries(const PassSetup& setup, std::span<const float> x,
                                                     std::span<const float> y, const Exec& exec,
                                                     const std::atomic<bool>* cancel);

// Streamed data: the first scan (the data's extremes; each slice's when perSlice, as
// applySpec's scan finds them), then the fused pass with Q(x) from each slice's quantizer,
// or from applySpec(*chunkSpec) on each chunk when chunkSpec is given (a per-tensor spec
// whose range does not come from the data: the op is then elementwise).
struct StreamRanges {
    float lo = 0, hi = 0;
    FiniteExtent finite;  // the finite values'
    std::vector<float> slice_mins, slice_maxs;  // empty unless asked for
};
using Progress = std::function<bool(double fraction)>;
Result<StreamRanges> scanRanges(const data::FloatStream& data, const SliceLayout& layout,
                                bool perSlice, int64_t chunk, const Progress& progress);
struct StreamTotals {
    PassTotals totals;
    std::vector<ChannelSummary> channels;  // empty unless layout.depth > 1
};
Result<StreamTotals> fusedStreamPass(const PassSetup& setup, const data::FloatStream& data,
                                     const std::vector<SliceQuantizer>& quantizers,
                                     const QuantSpec* chunkSpec, int64_t chunk,
                                     const Exec& exec, const std::atomic<bool>* cancel,
                                     const Progress& progress);

}  // namespace qs::analysis
