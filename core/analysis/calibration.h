// Calibration: ranges computed from the data, each with the error statistics of the current
// op fed that range (applySpec, per tensor, range given). The methods:
//
//   MinMax      [min x, max x] over the finite values.
//   Percentile  symmetric (default): [−a, a], a = the p-th percentile of |x|;
//               asymmetric: [P(100 − p) of x, P(p) of x]. Percentiles interpolate linearly
//               between order statistics (numpy's default): the value at rank p/100·(n−1)
//               of the sorted finite values (NaN and ±inf are left out).
//   MseOptimal  minimum measured MSE over the family [−t·A, t·A] (symmetric, A = max|x|) or
//               [t·min, t·max] (asymmetric), t in (0, 1]: a 100-point grid, then golden-
//               section between the best point's neighbours. The min-max range is a
//               candidate too, so the result is never worse than min-max.
//   KlDivergence  TensorRT's entropy calibration (Migacz, "8-bit Inference with TensorRT",
//               GTC 2017): a `bins`-bin histogram of |x| over [0, max|x|]; for every i from
//               T to bins − 1 (T = target bins = the op's levels / 2, 128 for 8 bits):
//                 P = the first i bins, the counts of bins >= i added to bin i−1;
//                 Q = the first i bins merged into T groups of i/T bins (the last group takes
//                     the remainder), each group's count spread evenly over its bins where
//                     P != 0 (zero where P is 0);
//                 both smoothed as MXNet's _smooth_distribution (eps = 1e-4: zero bins get
//                 eps, the others lose eps·zeros/nonzeros) and KL(P||Q) = Σ p·ln(p/q) of
//                 the normalised distributions.
//               The threshold is (m + 0.5)·bin width for the i = m of least KL (as the
//               slides); the range is [−threshold, threshold]. When T >= bins (16-bit ops
//               at 2048 bins) the method is not applicable: min-max is reported and `note`
//               says so.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/analysis/error_stats.h"
#include "core/analysis/histogram.h"
#include "core/analysis/progress.h"
#include "core/analysis/quant_spec.h"
#include "core/status.h"
#include "core/tensor.h"

namespace qs::analysis {

enum class CalibrationMethod { MinMax, Percentile, MseOptimal, KlDivergence };
std::string_view calibrationMethodName(CalibrationMethod m);  // "min-max", "percentile", ...

struct CalibrationOptions {
    double percentile = 99.99;  // in (0, 100]
    int bins = 2048;            // KL histogram bins, 2..65536 (the search is O(bins²))
    bool symmetric = true;      // percentile and MSE-optimal ranges symmetric about 0
    // The MSE-optimal search runs on at most this many values (searchSample in
    // sweep_util.h; 0 = all); every method's statistics are over all the data.
    int64_t max_search_samples = 1'000'000;
    bool operator==(const CalibrationOptions&) const = default;
};

struct Calibration {
    CalibrationMethod method = CalibrationMethod::MinMax;
    float min = 0, max = 0;  // the range found
    QuantSpec spec;          // base with that range given (what "apply" would set)
    ErrorStats stats;        // the op over the data with that range (clipped: SliceQuant::clips)
    std::string note;        // empty, or why the method fell back
};

// Percentile with linear interpolation (see above) of the finite values; p in [0, 100].
// Errors: no finite value, p out of range.
Result<double> percentileOf(std::span<const float> data, double p);

// TensorRT's KL threshold (above) for `target_bins` quantized bins over a `bins`-bin
// histogram of the finite |x|; candidates i = target_bins .. bins − 1 (the slides' range).
// With bins <= target_bins there is no candidate and max|x| is returned.
// Errors: no finite value, target_bins < 2, bins outside 2..65536; "Cancelled" when
// progress (called every few candidates) returns false.
Result<double> klThreshold(std::span<const float> data, int bins, int target_bins,
                           const ProgressCallback& progress = {});

// One Calibration per method, in the enum's order. Errors: empty or all-NaN/inf data,
// percentile outside (0, 100], bins outside 2..65536, and the op's own errors. progress:
// through the methods in turn (each run of the op, each group of KL candidates); "Cancelled"
// when it returns false.
Result<std::vector<Calibration>> calibrate(std::span<const float> data, const QuantSpec& base,
                                           const CalibrationOptions& options = {},
                                           const Exec& exec = {}, const ProgressCallback& progress = {});

// The calibration tab's result: every method's range over the data, and the data histogram
// they are drawn on (over the data and every range found, so each range's lines fall inside).
// `current`: the explorer's own settings (the spec exactly as the explorer runs it, per
// channel included) over the data, the table's "current" row: its statistics equal the
// Statistics dock's.
struct CalibrationAnalysis {
    std::vector<Calibration> methods;
    Histogram histogram;
    ErrorStats current;
    int64_t current_clipped = 0;
    // The current range fed to the op; current_per_slice: the slices have their own ranges
    // (per channel, or QDQ taking its range from the data), min/max are then channel 0's.
    float current_min = 0, current_max = 0;
    bool current_per_slice = false;
};
Result<CalibrationAnalysis> computeCalibration(const TensorRef<float>& data, const QuantSpec& spec,
                                               const CalibrationOptions& options, const Exec& exec = {},
                                               const ProgressCallback& progress = {});
// Flat data (shape {n}; any axis dropped).
Result<CalibrationAnalysis> computeCalibration(std::span<const float> data, const QuantSpec& spec,
                                               const CalibrationOptions& options, const Exec& exec = {},
                                               const ProgressCallback& progress = {});

}  // namespace qs::analysis
