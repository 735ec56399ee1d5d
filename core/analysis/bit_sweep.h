// Bit-width sweep: the current op and data at every bit width from min_bits to max_bits,
// measured (MSE and SQNR = 10·log10(Σx²/Σ(x−Q(x))²), NaN pairs skipped) beside the
// granular-noise theory for the op's ACTUAL step.
//
// What "b bits" means per op (specWithBits):
//   QDQ V2/V3/V4  num_bits = b (any b TF accepts; the range, signedness, narrow_range stay).
//   TPU           num_buckets = 2^b.
//   QuantizeV2    T has fixed widths, so only b = 8, 16 (and 32 for signed) exist: qint8/
//                 qint16/qint32 keep a signed T signed, quint8/quint16 an unsigned one. Other b
//                 are skipped by the sweep (not sweepable), and specWithBits refuses them.
//
// Theory. Granular noise only (nothing clipped, PDF smooth relative to Δ): the error is
// uniform on ±Δ/2, power Δ²/12, so SQNR = 10·log10(P / (Δ²/12)) = theorySqnrDb(P, Δ) with
// Δ the op's real step (SliceQuant::step) and P the signal power E[x²]:
//   DataKind::Uniform  x uniform over the range fed to the op [lo, hi]: P = (lo²+lo·hi+hi²)/3.
//                      On [−1, 1]: P = 1/3 and SQNR = 20·log10(2/Δ) = 20·log10(range/Δ).
//                        signed QDQ, b bits: Δ = 1/(2^(b−1)−1) (TF scales by the positive
//                        side), so 2^b−1 levels span [−1, 1] and SQNR = 20·log10(2^b − 2);
//                        TPU, 2^b buckets: Δ = 2/(2^b−1), SQNR = 20·log10(2^b − 1);
//                        QuantizeV2 MIN_COMBINED qint8: Δ = 2/255, SQNR = 20·log10(255).
//                      The textbook 6.02·b = 20·log10(2^b) is 2^b cells of width range/2^b.
//   DataKind::Sine     a full-scale sine over [lo, hi]: centre c, amplitude A = (hi−lo)/2,
//                      P = c² + A²/2 (symmetric: 6.02·b + 1.76 dB with the textbook's
//                      Δ = 2A/2^b; signed QDQ: 20·log10(2^b − 2) + 1.76 dB).
//   DataKind::Other    P measured from the data (mean x² over the non-NaN values).
// theorySqnrUniform(levels) is the uniform case for `levels` levels spanning the range end
// to end (outermost levels at the range ends): Δ = range/(levels−1), 20·log10(levels − 1).
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "core/analysis/progress.h"
#include "core/analysis/quant_spec.h"
#include "core/status.h"
#include "core/tensor.h"

namespace qs::analysis {

enum class DataKind { Uniform, Sine, Other };

// 10·log10(signal_power / (delta²/12)).
double theorySqnrDb(double signal_power, double delta);
// Zero-mean uniform data over a range spanned end to end by `levels` levels: 20·log10(levels−1).
double theorySqnrUniform(double levels);

// The spec at b bits (see above). Errors: QuantizeV2 without a b-bit type, b < 1, and a
// TPU bucket count 2^b beyond 2^62.
Result<QuantSpec> specWithBits(const QuantSpec& base, int bits);

struct BitSweepRow {
    int bits = 0;
    QuantSpec spec;              // what was run (QuantizeV2: T; QDQ: num_bits; TPU: num_buckets)
    int64_t levels = 0;          // codes the op can produce (code_highest − code_lowest + 1)
    int64_t levels_in_range = 0; // levels inside the range fed to the op (signed QDQ on
                                 // [−1, 1]: 2^b − 1; TPU: 2^b; QuantizeV2 qint8: 256)
                                 // (per channel: channel 0's)
    int64_t levels_used = 0;     // distinct outputs over this data
    double step = 0;             // Δ; per channel the RMS of the channels' Δ over the elements
                                 // (the Δ whose Δ²/12 is the channels' mean granular noise)
    double mse = 0;
    double sqnr_db = 0;          // measured
    double theory_sqnr_db = 0;   // theorySqnrDb(signal_power, step)
    int64_t clipped = 0;         // values the op clipped (SliceQuant::clips, as the explorer)
    int64_t count = 0;           // values compared (NaN pairs skipped)
    int64_t wrapped = 0;         // values whose code passed qint32's top and wrapped to its
                                 // lowest (TF's +2^31 → −2^31): they come back as the min
};

struct BitSweep {
    DataKind kind = DataKind::Other;
    double signal_power = 0;     // the P of the theory (see the header comment)
    std::string theory;          // which theory the rows' theory_sqnr_db follows, in words
    std::string note;            // e.g. which bit widths QuantizeV2 could not run
    // Why the measured SQNR falls short of the theory, when it is clipping ("measured
    // saturates: 4.6 % of the values are clipped …"), or why it has no finite value
    // (±inf in the data); empty otherwise.
    std::string gap_note;
    std::vector<BitSweepRow> rows;
};

// The bit widths the op can be swept over: QDQ and TPU 2..16; QuantizeV2 the widths of its
// T (8, 16, 32 for a signed T, 8, 16 for an unsigned one).
std::pair<int, int> sweepBitRange(const QuantSpec& spec);

// Each width runs the spec exactly as the explorer does (computeExplorer: per channel along
// its axis, each channel's own range when the ranges come from the data), only the width
// changed, so the row at the explorer's width shows the Statistics dock's SQNR, MSE and
// clipped count. Errors: empty or all-NaN/inf data, bits outside 1 <= min_bits <= max_bits
// <= 32, a QuantizeV2 sweep with no 8/16/32 in range, and the op's own errors (TF's text).
// progress: after each bit width (progress.h); "Cancelled" when it returns false.
Result<BitSweep> sweepBits(const TensorRef<float>& data, const QuantSpec& base, int min_bits = 2,
                           int max_bits = 16, DataKind kind = DataKind::Other,
                           const Exec& exec = {}, const ProgressCallback& progress = {});
// Flat data (shape {n}): per tensor, any axis dropped.
Result<BitSweep> sweepBits(std::span<const float> data, const QuantSpec& base, int min_bits = 2,
                           int max_bits = 16, DataKind kind = DataKind::Other,
                           const Exec& exec = {}, const ProgressCallback& progress = {});

}  // namespace qs::analysis
