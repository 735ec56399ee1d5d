#include "core/analysis/bit_sweep.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

#include "core/analysis/error_stats.h"
#include "core/analysis/sweep_util.h"

namespace qs::analysis {

namespace {

constexpr int kMaxSweepBits = 32;

// QuantizeV2's type of `bits` bits with base's signedness, if there is one.
bool qtypeWithBits(QType base, int bits, QType& out) {
    const bool isSigned = qtypeInfo(base).isSigned;
    for (QType t : kAllQTypes) {
        const QTypeInfo info = qtypeInfo(t);
        if (info.bits == bits && info.isSigned == isSigned) {
            out = t;
            return true;
        }
    }
    return false;
}

double meanSquare(std::span<const float> data) {
    double sum = 0;
    int64_t n = 0;
    for (float v : data) {
        if (std::isnan(v)) continue;
        sum += static_cast<double>(v) * v;
        ++n;
    }
    return n > 0 ? sum / static_cast<double>(n) : std::nan("");
}

// Levels of the slice's grid inside the range fed to the op.
int64_t levelsInRange(const SliceQuant& q) {
    const double lo = std::fmax(q.requested_min, q.output_min);
    const double hi = std::fmin(q.requested_max, q.output_max);
    if (!(q.step > 0) || !(hi >= lo)) return 0;
    // Δ and the bounds are float32 values: allow the count a small rounding slack.
    const double count = std::floor((hi - lo) / q.step + 1e-3) + 1;
    if (std::isnan(count)) return 0;
    // A range from data with ±inf is infinite: it holds every code the op has (and an
    // infinite count cast to an integer is undefined).
    return count >= static_cast<double>(q.levels()) ? q.levels() : static_cast<int64_t>(count);
}

double kindSignalPower(DataKind kind, const SliceQuant& q, double measured) {
    const double lo = q.requested_min, hi = q.requested_max;
    switch (kind) {
        case DataKind::Uniform: return (lo * lo + lo * hi + hi * hi) / 3.0;
        case DataKind::Sine: {
            const double c = (lo + hi) / 2, a = (hi - lo) / 2;
            return c * c + a * a / 2;
        }
        case DataKind::Other: break;
    }
    return measured;
}

std::string kindTheory(DataKind kind) {
    switch (kind) {
        case DataKind::Uniform:
            return "uniform over the op's range [lo, hi]: SQNR = 10·log10(P/(Δ²/12)), "
                   "P = (lo²+lo·hi+hi²)/3, Δ = the op's step";
        case DataKind::Sine:
            return "full-scale sine over the op's range: SQNR = 10·log10(P/(Δ²/12)), "
                   "P = c² + A²/2, Δ = the op's step";
        case DataKind::Other: break;
    }
    return "granular noise only (no clipping): SQNR = 10·log10(P/(Δ²/12)), P = measured "
           "mean x², Δ = the op's step";
}

}  // namespace

double theorySqnrDb(double signal_power, double delta) {
    return 10.0 * std::log10(signal_power / (delta * delta / 12.0));
}

double theorySqnrUniform(double levels) { return 20.0 * std::log10(levels - 1.0); }

Result<QuantSpec> specWithBits(const QuantSpec& base, int bits) {
    if (bits < 1)
        return invalidArgument("bit width must be at least 1, got " + std::to_string(bits));
    QuantSpec s = base;
    switch (opDescriptor(base.op).bit_width) {
        case BitWidthSource::NumBits: s.num_bits = bits; break;
        case BitWidthSource::NumBuckets:
            if (bits > 62)
                return invalidArgument("TPU simulated quantization: 2^" + std::to_string(bits) +
                                       " buckets is too many (at most 2^62)");
            s.num_buckets = int64_t{1} << bits;
            break;
        case BitWidthSource::TypeT:
            if (!qtypeWithBits(base.T, bits, s.T))
                return invalidArgument("QuantizeV2 has no " + std::to_string(bits) + "-bit " +
                                       (qtypeInfo(base.T).isSigned ? "signed" : "unsigned") +
                                       " type (T is qint8, quint8, qint16, quint16 or qint32)");
            break;
        case BitWidthSource::Fixed:
            return invalidArgument(std::string(quantOpName(base.op)) + " has a fixed bit width");
    }
    return s;
}

std::pair<int, int> sweepBitRange(const QuantSpec& spec) {
    if (opDescriptor(spec.op).bit_width != BitWidthSource::TypeT) return {2, 16};
    return {8, qtypeInfo(spec.T).isSigned ? 32 : 16};
}

namespace {

// Δ of every slice, as the RMS over the elements (each slice weighs its element count).
double rmsStep(const QuantRun& run) {
    if (run.slices.size() == 1) return run.slices.front().step;
    double sum = 0;
    for (const SliceQuant& q : run.slices) sum += q.step * q.step;
    return std::sqrt(sum / static_cast<double>(run.slices.size()));  // every slice holds as many
}

std::string percentText(double fraction) {
    char text[32];
    std::snprintf(text, sizeof text, "%.3g", 100.0 * fraction);
    return text;
}

// The values of a per-tensor QuantizeV2 qint32 run whose code wrapped: in float32, x·s at
// the top of the range rounds to 2^31, one past the largest qint32, and TF's cast turns it
// into the lowest code (spec 1.8), so the value comes back as the range's min.
int64_t wrappedCount(const QuantSpec& spec, const SliceQuant& slice, std::span<const float> x) {
    if (spec.op != QuantOp::QuantizeV2 || spec.T != QType::QInt32) return 0;
    auto quantizer = SliceQuantizer::make(spec, slice.requested_min, slice.requested_max);
    if (!quantizer) return 0;
    const auto& q = *quantizer;
    const double lowest = static_cast<double>(std::numeric_limits<int32_t>::min());
    if (q(slice.output_max).code != lowest) return 0;  // the top does not wrap: nothing does
    // Only values in the upper half can reach the top code.
    const float from = slice.output_min + 0.5f * (slice.output_max - slice.output_min);
    int64_t n = 0;
    for (float v : x) n += v > from && v > 0 && q(v).code == lowest;
    return n;
}

// Why the measured curve falls short of the theory (see BitSweep::gap_note).
std::string gapNote(const BitSweep& sweep) {
    bool anyFinite = false;
    for (const BitSweepRow& r : sweep.rows) anyFinite = anyFinite || std::isfinite(r.sqnr_db);
    if (!anyFinite)
        return "No finite SQNR at any width: ±inf in the data make the error x − Q(x) infinite "
               "(as in the Statistics dock).";
    std::string drop;
    for (size_t i = 1; i < sweep.rows.size(); ++i) {
        const BitSweepRow &a = sweep.rows[i - 1], &b = sweep.rows[i];
        if (b.wrapped > 0) {
            drop = "At " + std::to_string(b.bits) + " bits " + std::to_string(b.wrapped) + " values (" +
                   percentText(static_cast<double>(b.wrapped) / static_cast<double>(std::max<int64_t>(b.count, 1))) +
                   " %) at the top of the range wrap to the lowest code: in float32, x·s there rounds to "
                   "2^31, one past qint32's largest code, and TF's cast turns it into −2^31, so they come "
                   "back as the range's min (the op's own result; explore that width to see them).";
            break;
        }
        if (std::isfinite(a.sqnr_db) && std::isfinite(b.sqnr_db) && b.sqnr_db < a.sqnr_db - 1.0) {
            drop = "At " + std::to_string(b.bits) + " bits the measured SQNR falls below the " +
                   std::to_string(a.bits) + "-bit figure: the op computes its codes in float32, which holds "
                   "integers exactly only up to 2^24, so the widest codes round (the op's own result; "
                   "explore that width to see which values).";
            break;
        }
    }
    const BitSweepRow& widest = sweep.rows.back();
    if (widest.clipped == 0 || widest.count == 0) return drop;
    char floor[32];
    double best = -std::numeric_limits<double>::infinity();
    for (const BitSweepRow& r : sweep.rows)
        if (std::isfinite(r.sqnr_db)) best = std::max(best, r.sqnr_db);
    std::snprintf(floor, sizeof floor, "%.1f", best);
    return "Measured saturates near " + std::string(floor) + " dB: " +
           percentText(static_cast<double>(widest.clipped) / static_cast<double>(widest.count)) +
           " % of the values lie outside the range and are clipped; more bits refine the steps "
           "but not the clipping error (the theory counts granular noise only). Widen the "
           "range to close the gap." + (drop.empty() ? "" : " " + drop);
}

}  // namespace

Result<BitSweep> sweepBits(const TensorRef<float>& data, const QuantSpec& base, int min_bits,
                           int max_bits, DataKind kind, const Exec& exec,
                           const ProgressCallback& progress) {
    if (Status s = checkData(data.data, "bit sweep"); !s) return s.error();
    if (!(1 <= min_bits && min_bits <= max_bits && max_bits <= kMaxSweepBits))
        return invalidArgument("bit sweep: need 1 <= min_bits <= max_bits <= " +
                               std::to_string(kMaxSweepBits) + ", got min_bits=" +
                               std::to_string(min_bits) + " max_bits=" + std::to_string(max_bits));
    BitSweep sweep;
    sweep.kind = kind;
    sweep.theory = kindTheory(kind);
    const double measuredPower = meanSquare(data.data);
    std::string skipped;
    const ProgressPart reporter(&progress);
    const int widths = max_bits - min_bits + 1;
    for (int b = min_bits; b <= max_bits; ++b) {
        if (!reporter.step(b - min_bits, widths)) return analysisCancelled("the bit sweep");
        auto spec = specWithBits(base, b);
        if (!spec) {
            // A width T lacks is skipped; other ops' errors end the sweep.
            if (opDescriptor(base.op).bit_width != BitWidthSource::TypeT) return spec.error();
            skipped += std::string(skipped.empty() ? "" : ", ") + std::to_string(b);
            continue;
        }
        auto measured = measureLikeExplorer(*spec, data, exec);
        if (!measured) return measured.error();
        const ExplorerResult& m = *measured;
        const SliceQuant& q = m.run.slices.at(0);
        BitSweepRow row;
        row.bits = b;
        row.spec = *spec;
        row.levels = q.levels();
        row.levels_in_range = levelsInRange(q);
        row.levels_used = m.stats.distinct_levels;
        row.step = rmsStep(m.run);
        row.mse = m.stats.mse;
        row.sqnr_db = m.stats.sqnr_db;
        row.clipped = m.clipped_below + m.clipped_above;
        row.count = m.stats.count;
        if (m.run.slices.size() == 1) row.wrapped = wrappedCount(*spec, q, data.data);
        // Per channel each slice has its own range: the power is the data's.
        sweep.signal_power = m.run.slices.size() == 1 ? kindSignalPower(kind, q, measuredPower) : measuredPower;
        row.theory_sqnr_db = theorySqnrDb(sweep.signal_power, row.step);
        sweep.rows.push_back(std::move(row));
    }
    if (!reporter.step(widths, widths)) return analysisCancelled("the bit sweep");
    if (sweep.rows.empty())
        return invalidArgument("bit sweep: QuantizeV2 has no type of " + std::to_string(min_bits) +
                               ".." + std::to_string(max_bits) + " bits (only 8, 16 and 32)");
    if (!skipped.empty()) {
        std::string types;
        for (const BitSweepRow& r : sweep.rows)
            types += std::string(types.empty() ? "" : ", ") + std::string(qtypeInfo(r.spec.T).name);
        sweep.note = "QuantizeV2's T has fixed widths: one row per type (" + types + ")";
    }
    sweep.gap_note = gapNote(sweep);
    return sweep;
}

Result<BitSweep> sweepBits(std::span<const float> data, const QuantSpec& base, int min_bits,
                           int max_bits, DataKind kind, const Exec& exec,
                           const ProgressCallback& progress) {
    QuantSpec flat = base;
    flat.axis = -1;
    return sweepBits(TensorRef<float>{data, Shape{static_cast<int64_t>(data.size())}}, flat, min_bits, max_bits,
                     kind, exec, progress);
}

}  // namespace qs::analysis
