// Small pieces the analysis sweeps (bit_sweep, clip_sweep, calibration) share: the spec
// with a given per-tensor range, the op run over flat data, the data's finite extent, the
// mean squared error in one lean pass, and a golden-section minimiser.
#pragma once

#include <cmath>
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "core/analysis/explorer.h"
#include "core/analysis/quant_spec.h"
#include "core/status.h"
#include "core/tensor.h"

namespace qs::analysis {

// `base` quantizing per tensor with the range [lo, hi] given (QDQ: range_given = true;
// QuantizeV2: no axis, RangeSource::Given; TPU: lower/upper).
QuantSpec withRange(const QuantSpec& base, float lo, float hi);

// The op over flat data (shape {n}, so any axis is moot) into `out` (resized to n).
Result<QuantRun> runFlat(const QuantSpec& spec, std::span<const float> data,
                         std::vector<float>& out, const Exec& exec);

// The explorer's own numbers for `spec` over `data` (computeExplorer: the spec exactly as
// the explorer runs it, per channel, axis and ranges from the data included), without the
// per-element output and with the smallest histograms and curve: what the sweeps and the
// calibration show for "the current settings", so they equal the Statistics dock's.
Result<ExplorerResult> measureLikeExplorer(const QuantSpec& spec, const TensorRef<float>& data, const Exec& exec);

// Extent of the finite values (NaN and ±inf are left out): min, max and max |x|;
// count == 0 when there are none (then min = max = max_abs = 0).
struct FiniteExtent {
    float min = 0, max = 0;
    double max_abs = 0;
    int64_t count = 0;
};
FiniteExtent finiteExtent(std::span<const float> data);

// "<who>: the data has no values" for empty data, "<who>: the data has no finite values"
// when every value is NaN or infinite.
Status checkData(std::span<const float> data, std::string_view who);

// Mean of (x − y)² over the pairs where neither is NaN (the errorStats convention), summed
// in double in index order; NaN when no pair is left. x and y have the same length.
double meanSquaredError(std::span<const float> x, std::span<const float> y);

// The values a search evaluates the op on: all of `data` when it has at most `max` values
// (or max <= 0), else `max` of them, one from each of `max` equal blocks at a position
// drawn by a hash of the block index (deterministic; a stride alone could alias with
// periodic data such as a sampled sine). Sweeps over 1e7 values evaluate the op hundreds of
// times: on a 1e6 sample the curve moves by far less than its line width.
std::span<const float> searchSample(std::span<const float> data, int64_t max, std::vector<float>& storage);

// Golden-section search for a minimum of f on [a, b] (f unimodal there), until the bracket
// is narrower than tol; returns the abscissa of the best value seen.
template <typename F>
double goldenSectionMin(F&& f, double a, double b, double tol) {
    const double g = (std::sqrt(5.0) - 1.0) / 2.0;  // 0.618...
    double c = b - g * (b - a), d = a + g * (b - a);
    double fc = f(c), fd = f(d);
    for (int i = 0; i < 200 && b - a > tol; ++i) {
        if (fc <= fd) {  // the minimum is in [a, d]
            b = d;
            d = c;
            fd = fc;
            c = b - g * (b - a);
            fc = f(c);
        } else {  // in [c, b]
            a = c;
            c = d;
            fc = fd;
            d = a + g * (b - a);
            fd = f(d);
        }
    }
    return fc <= fd ? c : d;
}

// How many times goldenSectionMin(f, a, b, tol) evaluates f, known before it runs (so a
// search reports determinate progress).
inline int goldenSectionEvaluations(double a, double b, double tol) {
    const double g = (std::sqrt(5.0) - 1.0) / 2.0;
    int iterations = 0;
    for (double width = b - a; iterations < 200 && width > tol; ++iterations) width *= g;
    return iterations + 2;
}

}  // namespace qs::analysis
