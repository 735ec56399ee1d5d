// Suggested QuantizationConfig bounds from the table's own distribution, each with the
// error the simulated quantization would have on the table at the given num_buckets.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "core/status.h"
#include "core/tensor.h"
#include "core/tpu/simulated_quantization.h"

namespace qs::embedding {

struct RangeSuggestion {
    std::string method;  // "min-max", "symmetric max |x|", "percentile 99.9", "MSE-optimal"
    double lower = 0, upper = 0;
    double mse = 0;               // of simulateQuantizationF32 over the values (NaN skipped)
    double sqnr_db = 0;
    double clipped_fraction = 0;  // share of values outside [lower, upper]
};

struct RangeSuggestOptions {
    int64_t num_buckets = 256;
    double percentile = 99.9;  // lower = the (100 - p)th, upper = the p-th percentile
    // Values used: all when the table has at most this many; otherwise a deterministic
    // stride sample of this many (a 1M x 128 table has 1.3e8 values; 4M samples give the
    // 99.99th percentile to within a few ulps of rank). 0 = always all.
    int64_t max_samples = 4'000'000;
};

// Always four suggestions, in the order above. MSE-optimal searches symmetric and
// asymmetric shrinkings of [min, max] (golden-section on the clip fraction) for the lowest
// MSE. Errors: InvalidArgument when there is no finite value, num_buckets < 2, percentile
// not in (50, 100].
Result<std::vector<RangeSuggestion>> suggestRanges(std::span<const float> values,
                                                   const RangeSuggestOptions& options = {},
                                                   const Exec& exec = {});

// suggestRanges' own checks of the options (num_buckets, percentile).
Status checkSuggestOptions(const RangeSuggestOptions& options);

// How the percentile suggestion finds its two order statistics: nth_element on a copy of
// the sample (suggestRanges, the reference) or a radix histogram and a selection in the
// bins that hold them (same values bit for bit; it falls back to nth_element when a
// statistic is a zero, whose sign nth_element leaves to chance).
enum class QuantileMethod { Select, Radix };

// Everything suggestRanges does after its scan of the values, for a caller that scanned
// them itself (the workbench's fused table pass, core/embedding/table_pass.h): `lowest` and
// `highest` are the finite extremes (first occurrence in index order, as std::min/max find
// them; lowest > highest when there is no finite value) and `sample` is suggestRanges'
// stride sample of max_samples values (index floor(i n / m), or every value when
// max_samples is 0 or >= n) with the non-finite ones removed, in index order.
Result<std::vector<RangeSuggestion>> suggestRangesFromSample(float lowest, float highest,
                                                             std::vector<float> sample,
                                                             const RangeSuggestOptions& options,
                                                             const Exec& exec,
                                                             QuantileMethod method = QuantileMethod::Radix);

}  // namespace qs::embedding
