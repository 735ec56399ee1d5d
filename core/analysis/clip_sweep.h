// Clipping sweep: MSE of the current op against the clipping bound α, the op fed the
// symmetric range [−α, α], for the data as measured and for Gaussian / Laplace data in
// closed form (Banner et al., "Post-training 4-bit quantization", 2019 — ACIQ).
//
// The quantizer shown, per unit α (ClipGrid; all ops are linear in α, so clipGridOf reads
// it off the op's own SliceQuantizer at α = 1): step Δ = step·α, outermost levels
// +upper·α and −lower·α. Inputs beyond the outermost levels come back as those levels.
//   QDQ signed (range_given): TF scales by the positive side, scale = (2^(b−1)−1)/α, so
//     Δ = α/(2^(b−1)−1), upper = 1 and the code −2^(b−1) sits at −(α+Δ): lower = 1 + Δ/α
//     (narrow_range drops that code: lower = 1). 2^b levels, 2^(b−1)−1 above zero.
//   QDQ unsigned: the range becomes [0, α] (negatives clip to 0): lower = 0, Δ = α/(2^b−1).
//   QuantizeV2 MIN_COMBINED / MIN_FIRST qint8: Δ = 2α/255, upper = lower = 1.
//     SCALED: whatever the op's bound recomputation gives (read from the op).
//   TPU: Δ = 2α/(num_buckets−1), upper = lower = 1.
//   Textbook (ACIQ, textbookGrid): 2^M levels over [−α, α] with Δ = 2α/2^M (ACIQ's granular
//     term α²/(3·4^M)), clipping at ±α.
//
// Closed form (the granular term is Δ²/12, not weighted by the share inside, as in ACIQ):
//   MSE(α) = Δ²/12 + T(upper·α) + T(lower·α), T(c) = E[(X−c)²; X > c] (one tail) with
//   Gaussian(0, σ): T(c) = ½[(σ²+c²)·erfc(c/(σ√2)) − c·σ·√(2/π)·exp(−c²/(2σ²))]
//   Laplace(0, b):  T(c) = b²·exp(−c/b)                (c >= 0; c < 0: 2b²+c² − b²e^(c/b))
// so for the textbook grid the two tails give ACIQ's (σ²+α²)·erfc(α/(σ√2)) −
// α·σ·√(2/π)·exp(−α²/(2σ²)) and 2b²·exp(−α/b). Optimal α is found by golden-section search
// on the closed form (a 0.02 σ grid over (0, 100σ] first, so the bracket holds the minimum).
// Textbook α*/σ for M = 2..8: 1.711 2.152 2.559 2.936 3.287 3.615 3.924 and α*/b: 2.831
// 3.897 5.029 6.205 7.413 8.646 9.897. For signed QDQ: α*/σ 1.054 1.821 2.378 2.835 3.231
// 3.584 3.907 and α*/b 1.632 3.203 4.618 5.963 7.273 8.565 9.851.
//
// The data fit: σ = √(mean x²) and b = mean |x| (zero-mean fits, since the range is
// symmetric about 0; NaN and ±inf values are left out).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "core/analysis/progress.h"
#include "core/analysis/quant_spec.h"
#include "core/status.h"
#include "core/tensor.h"

namespace qs::analysis {

struct ClipGrid {
    double step = 0;   // Δ / α
    double upper = 1;  // highest level / α
    double lower = 1;  // −(lowest level) / α
};

ClipGrid textbookGrid(int bits);                   // Δ = 2α/2^bits, ±α
Result<ClipGrid> clipGridOf(const QuantSpec& spec);  // the op with range [−1, 1]

double gaussianTailMse(double c, double sigma);  // T(c) above
double laplaceTailMse(double c, double b);
double gaussianClipMse(double alpha, double sigma, const ClipGrid& grid);
double laplaceClipMse(double alpha, double b, const ClipGrid& grid);
// argmin over α of the closed form, for σ = 1 / b = 1 (so it is α*/σ and α*/b).
double optimalAlphaGaussian(const ClipGrid& grid);
double optimalAlphaLaplace(const ClipGrid& grid);

struct OptimalClipRow {
    int bits = 0;
    double textbook_gaussian = 0, textbook_laplace = 0;  // α*/σ, α*/b for 2^bits levels
    double op_gaussian = 0, op_laplace = 0;  // for the op at that width (NaN: no such width)
};
// bits in 1..32 and min_bits <= max_bits; the op's widths as specWithBits (bit_sweep.h) makes them.
Result<std::vector<OptimalClipRow>> optimalClipTable(const QuantSpec& base, int min_bits = 2,
                                                     int max_bits = 8);

struct ClipPoint {
    double alpha = 0;
    double mse = 0;            // measured: applySpec with [−α, α]
    double gaussian_mse = 0;   // closed form with the fitted σ
    double laplace_mse = 0;    // closed form with the fitted b
};

struct ClipSweepOptions {
    int points = 200;         // α_i = max|x| · i / points, i = 1..points
    double refine_tol = 1e-4; // golden-section bracket, relative to max|x|
    // The MSE curve and its minimum are measured on at most this many values (searchSample
    // in sweep_util.h; 0 = all). max|x| and the fits always use all the data.
    int64_t max_samples = 1'000'000;
};

struct ClipSweep {
    QuantSpec spec;            // the op swept (its range replaced by [−α, α])
    ClipGrid grid;
    double max_abs = 0;        // max |x| over the finite data
    double sigma = 0, laplace_b = 0;  // the fits
    std::vector<ClipPoint> points;
    double best_alpha = 0, best_mse = 0;  // measured minimum, refined between grid points
    double gaussian_alpha = 0, laplace_alpha = 0;  // closed-form optima (α* = ratio · σ or · b)
    int64_t samples_used = 0;  // values the MSE was measured on
};

// Errors: empty or all-NaN/inf data, data that is all zero (no α to sweep), points outside
// 3..100000, and the op's own errors. progress: after each α the op runs at (the grid, then
// the refinement); "Cancelled" when it returns false.
Result<ClipSweep> sweepClip(std::span<const float> data, const QuantSpec& base,
                            const ClipSweepOptions& options = {}, const Exec& exec = {},
                            const ProgressCallback& progress = {});

// The explorer's current settings as the clipping tab marks them: the spec exactly as the
// explorer runs it (per channel, ranges from the data), over all the data, so mse and
// clipped equal the Statistics dock's. alpha: where the mark sits on the α axis, the
// current range's max(|min|, |max|) when one range is given for the whole tensor; NaN when
// the ranges differ per channel or come from the data (the mark is then a level line).
struct CurrentSettings {
    double alpha = 0;
    double mse = 0;
    double sqnr_db = 0;
    int64_t clipped = 0;
    int64_t count = 0;
};
Result<CurrentSettings> currentSettings(const TensorRef<float>& data, const QuantSpec& spec, const Exec& exec = {});

// The clipping tab's result: the sweep (default options, over the flat data) plus the
// α*/σ, α*/b table for 2–8 bits of the op swept, and the current settings' mark.
struct ClipAnalysis {
    ClipSweep sweep;
    std::vector<OptimalClipRow> table;
    CurrentSettings current;
};
Result<ClipAnalysis> computeClipAnalysis(const TensorRef<float>& data, const QuantSpec& spec,
                                         const Exec& exec = {}, const ProgressCallback& progress = {});
// Flat data (shape {n}; any axis dropped).
Result<ClipAnalysis> computeClipAnalysis(std::span<const float> data, const QuantSpec& spec,
                                         const Exec& exec = {}, const ProgressCallback& progress = {});

}  // namespace qs::analysis
