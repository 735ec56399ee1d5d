#include "core/model_analysis/lesson_check.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <numbers>

#include "core/analysis/error_stats.h"
#include "core/analysis/round_trip.h"
#include "core/analysis/scaled_r14.h"
#include "core/model_analysis/stored_quant.h"
#include "core/modelfile/model_file.h"

namespace qs::analysis {

namespace {

std::string fmt(const char* format, double a, double b = 0, double c = 0, double d = 0) {
    char buf[256];
    std::snprintf(buf, sizeof buf, format, a, b, c, d);
    return buf;
}

double param(const LessonCheck& c, const char* key, double def) {
    const auto it = c.params.find(key);
    return it == c.params.end() ? def : it->second;
}

Error checkError(const LessonCheck& c, const std::string& what) {
    return invalidArgument("lesson check \"" + c.kind + "\": " + what);
}

struct Run {
    std::vector<float> y;
    QuantRun info;
};
Result<Run> run(const QuantSpec& spec, std::span<const float> x, const Shape& shape, const Exec& exec) {
    Run r;
    r.y.resize(x.size());
    auto ran = applySpec(spec, {x, shape}, r.y, {}, exec);
    if (!ran) return ran.error();
    r.info = std::move(ran).value();
    return r;
}

Result<double> sqnrOf(const QuantSpec& spec, std::span<const float> x, const Shape& shape, const Exec& exec) {
    auto r = run(spec, x, shape, exec);
    if (!r) return r.error();
    auto s = errorStats(x, r->y);
    if (!s) return s.error();
    return s->sqnr_db;
}

LessonCheckResult judge(const LessonCheck& c, double measured, double expected, std::string text) {
    LessonCheckResult r;
    r.measured = measured;
    r.expected = expected;
    r.tolerance = c.relative ? c.tolerance * std::fabs(expected) : c.tolerance;
    switch (c.comparison) {
    case CheckComparison::AtLeast: r.passed = measured >= expected - r.tolerance; break;
    case CheckComparison::AtMost: r.passed = measured <= expected + r.tolerance; break;
    case CheckComparison::Near: r.passed = std::fabs(measured - expected) <= r.tolerance; break;
    }
    r.text = std::move(text);
    return r;
}

// --- the kinds ---------------------------------------------------------------------------

Result<LessonCheckResult> checkStep(const LessonCheck& c, std::span<const float> x, const Shape& shape,
                                    const QuantSpec& spec, const Exec& exec) {
    auto r = run(spec, x, shape, exec);
    if (!r) return r.error();
    const int64_t levels = distinctValues(r->y);
    if (levels < 2) return checkError(c, "the data hits fewer than two levels");
    const auto [lo, hi] = std::minmax_element(r->y.begin(), r->y.end());
    const double measured = (static_cast<double>(*hi) - *lo) / static_cast<double>(levels - 1);
    const double n = param(c, "levels", std::ldexp(1.0, wholeBitWidth(spec)));
    const double expected = (static_cast<double>(spec.max_range) - spec.min_range) / (n - 1);
    return judge(c, measured, expected,
                 fmt("step Δ %.6g (over %.0f levels) vs (max − min)/(%.0f − 1) = %.6g", measured,
                     static_cast<double>(levels), n, expected));
}

Result<LessonCheckResult> checkMse(const LessonCheck& c, std::span<const float> x, const Shape& shape,
                                   const QuantSpec& spec, const Exec& exec) {
    auto r = run(spec, x, shape, exec);
    if (!r) return r.error();
    auto s = errorStats(x, r->y);
    if (!s) return s.error();
    const double step = r->info.slices.at(0).step;
    const double expected = step * step / 12.0;
    return judge(c, s->mse, expected,
                 fmt("MSE %.4g vs Δ²/12 = %.4g (Δ = %.6g)", s->mse, expected, step));
}

Result<LessonCheckResult> checkSqnrSlope(const LessonCheck& c, std::span<const float> x, const Shape& shape,
                                         const QuantSpec& spec, const Exec& exec) {
    const BitWidthSource width = opDescriptor(spec.op).bit_width;
    if (width != BitWidthSource::NumBits && width != BitWidthSource::NumBuckets)
        return checkError(c, "needs an op with a free bit width (QuantizeAndDequantize or the TPU op)");
    const int from = static_cast<int>(param(c, "bits_from", 4)), to = static_cast<int>(param(c, "bits_to", 12));
    if (from < 2 || to > 16 || to - from < 1) return checkError(c, "bits_from/bits_to must span 2..16");
    double sb = 0, ss = 0, sbb = 0, sbs = 0;
    double first = 0, last = 0;
    for (int b = from; b <= to; ++b) {
        QuantSpec s = spec;
        s.num_bits = b;
        s.num_buckets = int64_t{1} << b;
        auto q = sqnrOf(s, x, shape, exec);
        if (!q) return q.error();
        if (b == from) first = *q;
        last = *q;
        sb += b;
        ss += *q;
        sbb += static_cast<double>(b) * b;
        sbs += b * *q;
    }
    const double n = to - from + 1;
    const double slope = (n * sbs - sb * ss) / (n * sbb - sb * sb);
    const double expected = 20.0 * std::log10(2.0);
    return judge(c, slope, expected,
                 fmt("SQNR slope %.3f dB/bit (%.1f dB at %.0f bits", slope, first, from) +
                     fmt(" … %.1f dB at %.0f bits) vs 20·log10(2) = 6.02", last, to));
}

// Closed-form MSE of the quantizer with step Δ that clips at lo < 0 < hi.
double closedFormMse(double lo, double hi, double step, double sigma, bool laplace) {
    auto tail = [&](double t) {  // E[(x − t)²; x > t] for t >= 0, symmetric density
        if (laplace) return 0.5 * 2.0 * sigma * sigma * std::exp(-t / sigma);
        const double z = t / sigma;
        const double q = 0.5 * std::erfc(z / std::sqrt(2.0));
        const double phi = std::exp(-0.5 * z * z) / std::sqrt(2.0 * std::numbers::pi);
        return (sigma * sigma + t * t) * q - t * sigma * phi;
    };
    auto above = [&](double t) {  // P(x > t)
        return laplace ? 0.5 * std::exp(-t / sigma) : 0.5 * std::erfc(t / (sigma * std::sqrt(2.0)));
    };
    const double inside = 1.0 - above(hi) - above(-lo);
    return tail(hi) + tail(-lo) + step * step / 12.0 * inside;
}

Result<LessonCheckResult> checkOptimalClip(const LessonCheck& c, std::span<const float> x, const Shape& shape,
                                           const QuantSpec& spec, const Exec& exec) {
    const double a0 = param(c, "alpha_from", 1.0), a1 = param(c, "alpha_to", 5.0);
    const double da = param(c, "alpha_step", 0.01), sigma = param(c, "sigma", 1.0);
    const bool laplace = param(c, "laplace", 0) != 0;
    if (!(a0 > 0 && a1 > a0 && da > 0 && (a1 - a0) / da <= 100000 && sigma > 0))
        return checkError(c, "needs 0 < alpha_from < alpha_to, alpha_step > 0 (at most 100000 steps), sigma > 0");
    double bestMeasured = 0, bestMeasuredMse = std::numeric_limits<double>::infinity();
    double bestTheory = 0, bestTheoryMse = std::numeric_limits<double>::infinity();
    const int steps = static_cast<int>(std::floor((a1 - a0) / da + 1e-9));
    for (int i = 0; i <= steps; ++i) {
        const double alpha = a0 + i * da;
        QuantSpec s = spec;
        s.min_range = static_cast<float>(-alpha);
        s.max_range = static_cast<float>(alpha);
        auto r = run(s, x, shape, exec);
        if (!r) return r.error();
        auto st = errorStats(x, r->y);
        if (!st) return st.error();
        if (st->mse < bestMeasuredMse) bestMeasuredMse = st->mse, bestMeasured = alpha;
        // The quantizer actually shown: its step and its two clip points.
        auto q = SliceQuantizer::make(s, s.min_range, s.max_range);
        if (!q) return q.error();
        const double lo = (*q)(-std::numeric_limits<float>::max()).output;
        const double hi = (*q)(std::numeric_limits<float>::max()).output;
        const double m = closedFormMse(lo, hi, q->info().step, sigma, laplace);
        if (m < bestTheoryMse) bestTheoryMse = m, bestTheory = alpha;
    }
    return judge(c, bestMeasured, bestTheory,
                 fmt("measured optimum α* = %.3f (MSE %.4g) vs closed form α* = %.3f (MSE %.4g)",
                     bestMeasured, bestMeasuredMse, bestTheory, bestTheoryMse));
}

Result<LessonCheckResult> checkRoundTrip(const LessonCheck& c, std::span<const float> x, const Shape& shape,
                                         const QuantSpec& spec, const Exec& exec) {
    const int n = static_cast<int>(param(c, "iterations", 10));
    const double perTrip = param(c, "steps_per_trip", 0);
    auto report = roundTrip(x, shape, spec, n, exec);
    if (!report) return report.error();
    // max |x_N − x_1|: the drift after the first round trip put every value on the grid.
    double drift = 0;
    for (size_t i = 0; i < report->last.size(); ++i)
        if (!std::isnan(report->last[i]) && !std::isnan(report->first[i]))
            drift = std::max(drift, std::fabs(static_cast<double>(report->last[i]) - report->first[i]));
    auto q = SliceQuantizer::make(spec, spec.min_range, spec.max_range);
    if (!q) return q.error();
    const double step = q->info().step;
    const double expected = (n - 1) * perTrip * step;
    const RoundTripStep& last = report->steps.back();
    return judge(c, drift, expected,
                 fmt("after %.0f round trips max|x_N − x_1| = %.6g vs %.6g; mean drift from x_0 %.3g",
                     static_cast<double>(n), drift, expected, last.mean_drift) +
                     (report->fixed_point_from > 0
                          ? fmt(" (unchanged from round trip %.0f on)", report->fixed_point_from)
                          : std::string(" (still moving)")));
}

Result<LessonCheckResult> checkScaledMax(const LessonCheck& c, std::span<const float> x, const Shape& shape,
                                         const QuantSpec& spec, const Exec& exec) {
    if (!c.params.count("expected")) return checkError(c, "needs the parameter \"expected\"");
    auto r = run(spec, x, shape, exec);
    if (!r) return r.error();
    const double measured = r->info.slices.at(0).output_max;
    std::string text = fmt("output_max %.9g vs %.9g", measured, param(c, "expected", 0));
    if (usesMode(spec.op) && spec.mode == QuantizeMode::Scaled)
        if (auto doc = scaledR14Params(spec.min_range, spec.max_range, spec.T))
            text += fmt(" (r1.4 documentation: ±%.9g, s = %.9g)", doc->output_max, doc->s);
    return judge(c, measured, param(c, "expected", 0), std::move(text));
}

Result<LessonCheckResult> checkNarrowLevels(const LessonCheck& c, std::span<const float> x, const Shape& shape,
                                            const QuantSpec& spec, const Exec& exec) {
    auto r = run(spec, x, shape, exec);
    if (!r) return r.error();
    const double measured = static_cast<double>(distinctValues(r->y));
    const double expected = std::ldexp(1.0, wholeBitWidth(spec)) - (spec.narrow_range ? 1 : 0);
    return judge(c, measured, expected,
                 fmt("%.0f distinct levels vs 2^%.0f", measured, wholeBitWidth(spec)) +
                     (spec.narrow_range ? " − 1 (narrow_range)" : "") + fmt(" = %.0f", expected));
}

Result<LessonCheckResult> checkTieBias(const LessonCheck& c, const QuantSpec& spec, const Exec& exec) {
    auto q = SliceQuantizer::make(spec, spec.min_range, spec.max_range);
    if (!q) return q.error();
    const SliceQuant& info = q->info();
    // In double: a lesson file's "ties" may be anything, and zero_code is INT64_MIN when the
    // range is degenerate (quant_spec.cpp), so neither an int64 difference nor a cast is safe
    // before the bounds check. [2, 1000002) is what truncates and evens into [2, 1000000].
    const double wanted = param(c, "ties", static_cast<double>(info.code_highest) - static_cast<double>(info.zero_code));
    if (!(wanted >= 2 && wanted < 1'000'002)) return checkError(c, "the range has fewer than two steps above zero");
    int64_t ties = static_cast<int64_t>(wanted);
    ties -= ties % 2;  // an even count: half to even then splits them exactly in half
    std::vector<float> x(static_cast<size_t>(ties)), y(x.size());
    for (int64_t k = 0; k < ties; ++k)
        x[k] = static_cast<float>(info.zero_output + (static_cast<double>(k) + 0.5) * info.step);
    QuantSpec one = spec;
    one.axis = -1;
    one.range_given = true;
    if (auto ran = applySpec(one, {x, Shape{ties}}, y, {}, exec); !ran) return ran.error();
    double sum = 0;
    for (int64_t k = 0; k < ties; ++k) sum += (static_cast<double>(x[k]) - y[k]) / info.step;
    const double measured = sum / static_cast<double>(ties);
    // V3 always rounds as its default (half to even); the TPU op has no round mode (ties go up).
    const OpDescriptor& op = opDescriptor(spec.op);
    const bool even = op.uses.round_mode == AttrUse::Fixed ? op.default_round_mode == RoundMode::HalfToEven
                      : op.uses.round_mode == AttrUse::Attr && spec.round_mode == RoundMode::HalfToEven;
    const double expected = even ? 0.0 : -0.5;
    return judge(c, measured, expected,
                 fmt("mean error on %.0f exact ties: %.4f Δ vs %.1f Δ", static_cast<double>(ties),
                     measured, expected) +
                     (even ? " (half to even: unbiased)" : " (ties all go up: biased by half a step)"));
}

Result<LessonCheckResult> checkPerChannel(const LessonCheck& c, std::span<const float> x, const Shape& shape,
                                          const QuantSpec& spec, const Exec& exec) {
    if (!usesAxis(spec.op) || spec.axis < 0 || shape.size() < 2)
        return checkError(c, "needs data of rank >= 2 and a spec with an axis");
    auto perChannel = sqnrOf(spec, x, shape, exec);
    if (!perChannel) return perChannel.error();
    QuantSpec whole = spec;
    whole.axis = -1;
    const auto [lo, hi] = std::minmax_element(x.begin(), x.end());
    whole.min_range = *lo;
    whole.max_range = *hi;
    auto perTensor = sqnrOf(whole, x, shape, exec);
    if (!perTensor) return perTensor.error();
    const double gain = *perChannel - *perTensor;
    return judge(c, gain, param(c, "expected", 0),
                 fmt("per channel %.1f dB vs per tensor %.1f dB: gain %.1f dB (expected ≥ %.1f dB)",
                     *perChannel, *perTensor, gain, param(c, "expected", 0)));
}

Result<LessonCheckResult> checkCombiner(const LessonCheck& c, std::span<const float> x, const Shape& shape,
                                        const QuantSpec& spec, const Exec& exec) {
    const int64_t bag = static_cast<int64_t>(param(c, "bag", 4));
    const int64_t n = static_cast<int64_t>(x.size());
    if (bag < 1 || bag > n) return checkError(c, "bag must lie in 1..the number of values");
    auto r = run(spec, x, shape, exec);
    if (!r) return r.error();
    const int64_t bags = n / bag;
    std::vector<float> means(static_cast<size_t>(bags)), qmeans(means.size());
    double sq = 0;
    for (int64_t b = 0; b < bags; ++b) {
        double sx = 0, sy = 0;
        for (int64_t i = b * bag; i < (b + 1) * bag; ++i) sx += x[i], sy += r->y[i];
        means[b] = static_cast<float>(sx / bag);
        const double e = sy / bag - sx / bag;  // mean of quantized rows − true mean
        sq += e * e;
        qmeans[b] = static_cast<float>(sy / bag);
    }
    // How often the combiner's result is not what quantizing the mean would give.
    std::vector<float> quantizedMean(means.size());
    if (auto ran = applySpec(spec, {means, Shape{bags}}, quantizedMean, {}, exec); !ran) return ran.error();
    int64_t differ = 0;
    for (int64_t b = 0; b < bags; ++b) differ += qmeans[b] != quantizedMean[b];
    const double step = r->info.slices.at(0).step;
    const double measured = std::sqrt(sq / static_cast<double>(bags)) / step;
    const double expected = 1.0 / std::sqrt(12.0 * static_cast<double>(bag));
    return judge(c, measured, expected,
                 fmt("RMS(mean of quantized rows − mean) = %.4f Δ vs 1/√(12·%.0f) = %.4f Δ; ", measured,
                     static_cast<double>(bag), expected) +
                     fmt("%.1f %% of bags differ from the quantized mean", 100.0 * differ / bags));
}

// The stored codes the check compares with: the named tensor of the model file, as integer
// codes of the data's size. Every failure names the file and the tensor.
Result<std::vector<int32_t>> loadStoredCodes(const LessonCheck& c, int64_t elements) {
    if (c.stored_model.empty() || c.stored_tensor.empty())
        return checkError(c, "needs \"stored_model\" and \"stored_tensor\" (a model file and the tensor of stored codes)");
    auto model = modelfile::openModel(c.stored_model);
    if (!model) return checkError(c, model.error().message);
    const int64_t index = (*model)->find(c.stored_tensor);
    if (index < 0) return checkError(c, c.stored_model + " has no tensor '" + c.stored_tensor + "'");
    auto tensor = (*model)->load(static_cast<size_t>(index));
    if (!tensor) return checkError(c, tensor.error().message);
    if (!hasStoredCodes(tensor->info))
        return checkError(c, "tensor '" + c.stored_tensor + "' of " + c.stored_model + " holds " +
                                 tensor->info.dtype_name + ", not integer codes (int8, uint8, int16, uint16)");
    std::vector<int32_t> codes = storedCodes(*tensor);
    if (static_cast<int64_t>(codes.size()) != elements)
        return checkError(c, "tensor '" + c.stored_tensor + "' of " + c.stored_model + " holds " +
                                 std::to_string(codes.size()) + " codes, the lesson's data " + std::to_string(elements) +
                                 " values");
    return codes;
}

Result<LessonCheckResult> checkStoredCodes(const LessonCheck& c, std::span<const float> x, const Shape& shape,
                                           const QuantSpec& spec, const Exec& exec) {
    auto stored = loadStoredCodes(c, static_cast<int64_t>(x.size()));
    if (!stored) return stored.error();
    std::vector<float> y(x.size());
    std::vector<int32_t> codes(x.size());
    if (auto ran = applySpec(spec, {x, shape}, y, codes, exec); !ran) return ran.error();
    int64_t differing = 0, largest = 0, first = -1;
    for (size_t i = 0; i < codes.size(); ++i) {
        const int64_t d = std::llabs(int64_t{codes[i]} - int64_t{(*stored)[i]});
        if (d == 0) continue;
        if (first < 0) first = static_cast<int64_t>(i);
        ++differing;
        largest = std::max(largest, d);
    }
    const double expected = param(c, "expected", 0);
    std::string text = fmt("%.0f of %.0f codes differ from the stored ones", static_cast<double>(differing),
                           static_cast<double>(codes.size()));
    if (differing > 0)
        text += fmt(" (by at most %.0f; first at element %.0f: op %.0f, stored %.0f)", static_cast<double>(largest),
                    static_cast<double>(first), codes[static_cast<size_t>(first)],
                    (*stored)[static_cast<size_t>(first)]);
    text += fmt(" vs %.0f expected", expected);
    return judge(c, static_cast<double>(differing), expected, std::move(text));
}

}  // namespace

const std::vector<std::string>& lessonCheckKinds() {
    static const std::vector<std::string> kinds{
        "step", "mse_vs_delta2_over_12", "sqnr_slope_per_bit", "optimal_clip", "round_trip_drift",
        "scaled_max", "narrow_range_levels", "tie_bias", "per_channel_gain", "tpu_combiner_order",
        "stored_codes_match"};
    return kinds;
}

Result<LessonCheckResult> runLessonCheck(const LessonCheck& c, std::span<const float> x,
                                         const Shape& shape, const QuantSpec& spec, const Exec& exec) {
    if (x.empty()) return checkError(c, "the data has no values");
    if (numElements(shape) != static_cast<int64_t>(x.size()))
        return checkError(c, "shape " + shapeString(shape) + " does not hold " + std::to_string(x.size()) + " values");
    if (!(c.tolerance >= 0)) return checkError(c, "tolerance must be >= 0");
    const std::string& k = c.kind;
    if (k == "step") return checkStep(c, x, shape, spec, exec);
    if (k == "mse_vs_delta2_over_12") return checkMse(c, x, shape, spec, exec);
    if (k == "sqnr_slope_per_bit") return checkSqnrSlope(c, x, shape, spec, exec);
    if (k == "optimal_clip") return checkOptimalClip(c, x, shape, spec, exec);
    if (k == "round_trip_drift") return checkRoundTrip(c, x, shape, spec, exec);
    if (k == "scaled_max") return checkScaledMax(c, x, shape, spec, exec);
    if (k == "narrow_range_levels") return checkNarrowLevels(c, x, shape, spec, exec);
    if (k == "tie_bias") return checkTieBias(c, spec, exec);
    if (k == "per_channel_gain") return checkPerChannel(c, x, shape, spec, exec);
    if (k == "tpu_combiner_order") return checkCombiner(c, x, shape, spec, exec);
    if (k == "stored_codes_match") return checkStoredCodes(c, x, shape, spec, exec);
    std::string valid;
    for (const auto& name : lessonCheckKinds()) {
        if (!valid.empty()) valid += ", ";
        valid += name;
    }
    return invalidArgument("lesson check: unknown kind \"" + k + "\" (valid: " + valid + ")");
}

}  // namespace qs::analysis
