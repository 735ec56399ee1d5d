#include "core/analysis/framework_schemes.h"

#include <algorithm>
#include <cctype>
#include <cfloat>
#include <cmath>
#include <cstring>
#include <limits>
#include <mutex>

#include "core/ops/rounding.h"

namespace qs::analysis {

namespace {

float roundWith(float t, RoundMode tie) {
    switch (tie) {
        case RoundMode::HalfToEven: return rounding::toEven(t);
        case RoundMode::HalfUp: return rounding::halfUp(t);
        case RoundMode::HalfAwayFromZero: return rounding::awayFromZero(t);
    }
    return rounding::toEven(t);
}

// "half to even" for TF's HALF_TO_EVEN.
std::string tieWords(RoundMode tie) {
    std::string words(roundModeName(tie));
    for (char& c : words) c = c == '_' ? ' ' : static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return words;
}

std::string num(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.9g", v);
    return buf;
}

struct CodeRange {
    int32_t qmin, qmax;
};
CodeRange codeRange(int bits, bool is_signed) {
    if (is_signed) return {-(1 << (bits - 1)), (1 << (bits - 1)) - 1};
    return {0, (1 << bits) - 1};
}

// The range every affine recipe starts from: extended to include 0 (all three frameworks).
void includeZero(float& min, float& max) {
    min = std::min(min, 0.0f);
    max = std::max(max, 0.0f);
}

int32_t clampCode(float z, int32_t lo, int32_t hi) {
    if (!(z > static_cast<float>(lo))) return lo;  // NaN too
    if (z > static_cast<float>(hi)) return hi;
    return static_cast<int32_t>(z);
}

bool sameFloat(float a, float b) { return a == b || (std::isnan(a) && std::isnan(b)); }

Error badArgument(const std::string& what) { return invalidArgument("compareSchemes: " + what); }

}  // namespace

int32_t affineCode(float x, const AffineRecipe& r) {
    const AffineParams& p = r.params;
    // PyTorch computes inv_scale = 1.0f / scale once and multiplies; ONNX and TFLite divide.
    const float t = r.divide ? x / p.scale : x * (1.0f / p.scale);
    const double q = static_cast<double>(roundWith(t, r.tie)) + p.zero_point;
    if (!(q > p.qmin)) return p.qmin;  // NaN becomes qmin (the frameworks leave it undefined)
    if (q > p.qmax) return p.qmax;
    return static_cast<int32_t>(q);
}

float affineValue(int32_t code, const AffineParams& p) {
    return static_cast<float>(code - p.zero_point) * p.scale;
}

AffineParams pytorchParams(float min, float max, int bits, bool is_signed) {
    const auto [qmin, qmax] = codeRange(bits, is_signed);
    includeZero(min, max);
    float scale = (max - min) / static_cast<float>(qmax - qmin);
    scale = std::max(scale, FLT_EPSILON);  // MinMaxObserver's eps
    const float zp = static_cast<float>(qmin) - rounding::toEven(min / scale);  // torch.round
    return {scale, clampCode(zp, qmin, qmax), qmin, qmax};
}

AffineParams onnxParams(float min, float max, int bits, bool is_signed) {
    const auto [qmin, qmax] = codeRange(bits, is_signed);
    includeZero(min, max);
    const float scale = (max - min) / static_cast<float>(qmax - qmin);
    if (!(scale > 0)) return {1.0f, clampCode(0, qmin, qmax), qmin, qmax};  // degenerate [0,0]
    float zp = static_cast<float>(qmin) - min / scale;
    zp = std::clamp(zp, static_cast<float>(qmin), static_cast<float>(qmax));  // saturate
    return {scale, static_cast<int32_t>(rounding::toEven(zp)), qmin, qmax};
}

AffineParams tfliteParams(float min, float max, int bits, bool is_signed) {
    const auto [qmin, qmax] = codeRange(bits, is_signed);
    includeZero(min, max);
    const float qminf = static_cast<float>(qmin), qmaxf = static_cast<float>(qmax);
    const float scale = (max - min) / (qmaxf - qminf);
    if (!(scale > 0)) return {1.0f, clampCode(0, qmin, qmax), qmin, qmax};
    // The Nudge of TF's FakeQuant functor: real 0.0 must land exactly on a code.
    const float zero_point_from_min = qminf - min / scale;
    int32_t zp;
    if (zero_point_from_min < qminf) zp = qmin;
    else if (zero_point_from_min > qmaxf) zp = qmax;
    else zp = static_cast<int32_t>(std::round(zero_point_from_min));
    return {scale, zp, qmin, qmax};
}

AffineParams tfliteSymmetricParams(float min, float max, int bits) {
    const int32_t qmax = (1 << (bits - 1)) - 1;
    const float m = std::max(std::fabs(min), std::fabs(max));
    const float scale = m / static_cast<float>(qmax);
    return {scale > 0 ? scale : 1.0f, 0, -qmax, qmax};
}

std::string codeTypeName(int bits, bool is_signed) {
    return (is_signed ? "int" : "uint") + std::to_string(bits);
}

std::string schemeLabel(const Scheme& s, int bits) {
    const std::string t = " (" + codeTypeName(bits, s.is_signed) + ")";
    switch (s.kind) {
        case SchemeKind::PyTorch: return "PyTorch fake_quantize_per_tensor_affine" + t;
        case SchemeKind::Onnx: return "ONNX QuantizeLinear/DequantizeLinear" + t;
        case SchemeKind::TfliteInt8: return "TFLite asymmetric" + t;
        case SchemeKind::TfliteSymmetric: return "TFLite symmetric weights (" + codeTypeName(bits, true) + ", zp 0)";
        case SchemeKind::ScaledR14:
            return std::string(kScaledR14Label) + " " + std::string(qtypeInfo(s.tf.T).name);
        case SchemeKind::Tf: {
            std::string l = std::string("TF ") + std::string(quantOpName(s.tf.op));
            switch (opDescriptor(s.tf.op).family) {
                case OpFamily::QuantizeV2:
                    l += std::string(" ") + std::string(modeName(s.tf.mode)) + " " +
                         std::string(qtypeInfo(s.tf.T).name);
                    break;
                case OpFamily::TpuSimulated: l += " (" + std::to_string(int64_t{1} << bits) + " buckets)"; break;
                case OpFamily::Qdq:  // num_bits = bits, signed_input
                    l += " (" + codeTypeName(bits, s.tf.signed_input) + ")";
                    break;
            }
            return l;
        }
    }
    return {};
}

namespace {

QuantSpec tfSpecFor(const Scheme& s, float min, float max, int bits) {
    QuantSpec spec = s.tf;
    spec.min_range = min;
    spec.max_range = max;
    spec.range_given = true;
    spec.range_source = RangeSource::Given;
    spec.axis = -1;
    spec.num_bits = bits;
    if (opDescriptor(spec.op).bit_width == BitWidthSource::NumBuckets) spec.num_buckets = int64_t{1} << bits;
    return spec;
}

}  // namespace

Result<PreparedScheme> PreparedScheme::make(const Scheme& s, float min, float max, int bits) {
    if (bits < 2 || bits > 16) return badArgument("bits must lie in 2..16, got " + std::to_string(bits));
    if (!std::isfinite(min) || !std::isfinite(max) || min > max)
        return badArgument("the range [" + num(min) + ", " + num(max) + "] must be finite with min <= max");
    PreparedScheme p;
    p.scheme_ = s;
    p.bits_ = bits;
    switch (s.kind) {
        case SchemeKind::PyTorch:
            p.recipe_ = {pytorchParams(min, max, bits, s.is_signed), false, RoundMode::HalfToEven};
            break;
        case SchemeKind::Onnx:
            p.recipe_ = {onnxParams(min, max, bits, s.is_signed), true, RoundMode::HalfToEven};
            break;
        case SchemeKind::TfliteInt8:
            p.recipe_ = {tfliteParams(min, max, bits, s.is_signed), true, RoundMode::HalfAwayFromZero};
            break;
        case SchemeKind::TfliteSymmetric:
            p.recipe_ = {tfliteSymmetricParams(min, max, bits), true, RoundMode::HalfAwayFromZero};
            break;
        case SchemeKind::ScaledR14: {
            auto r = scaledR14Params(min, max, s.tf.T);
            if (!r) return r.error();
            p.r14_ = *r;
            break;
        }
        case SchemeKind::Tf: {
            auto q = SliceQuantizer::make(tfSpecFor(s, min, max, bits), min, max);
            if (!q) return q.error();
            p.tf_ = std::move(q).value();
            break;
        }
    }
    p.zero_ = p(0.0f);
    p.lowest_ = p(-FLT_MAX);
    p.highest_ = p(FLT_MAX);
    return p;
}

double PreparedScheme::step() const {
    if (tf_) return tf_->info().step;
    if (r14_) return 1.0 / static_cast<double>(r14_->s);
    return static_cast<double>(recipe_.params.scale);
}

float PreparedScheme::operator()(float x) const {
    if (tf_) return static_cast<float>((*tf_)(x).output);
    if (r14_) return scaledR14Value(scaledR14Code(x, *r14_), *r14_);
    return affineValue(affineCode(x, recipe_), recipe_.params);
}

int64_t PreparedScheme::code(float x) const {
    if (tf_) return static_cast<int64_t>((*tf_)(x).code);
    if (r14_) return scaledR14Code(x, *r14_);
    return affineCode(x, recipe_);
}

std::string_view diffReasonName(DiffReason r) {
    switch (r) {
        case DiffReason::None: return "none";
        case DiffReason::TieRule: return "tie rule";
        case DiffReason::DivideVsReciprocal: return "divide vs reciprocal";
        case DiffReason::ZeroPointNudge: return "zero-point nudging";
        case DiffReason::RangeAdjustment: return "range adjustment";
        case DiffReason::Clamp: return "clamp";
        case DiffReason::Other: return "other";
    }
    return "";
}

namespace {

// Both affine: swap one ingredient of b into a at a time.
Explanation explainAffine(float x, const PreparedScheme& A, const PreparedScheme& B, Explanation e,
                          bool text) {
    const AffineRecipe& a = A.recipe();
    const AffineRecipe& b = B.recipe();
    // Labels and texts only when asked: compareSchemes explains millions of elements.
    const std::string na = text ? A.label() : std::string();
    const std::string nb = text ? B.label() : std::string();
    auto valueWith = [&](const AffineRecipe& r) { return affineValue(affineCode(x, r), r.params); };
    auto explains = [&](const AffineRecipe& r) { return sameFloat(valueWith(r), e.b); };

    AffineRecipe r = a;
    r.tie = b.tie;
    if (a.tie != b.tie && explains(r)) {
        const float t = a.divide ? x / a.params.scale : x * (1.0f / a.params.scale);
        e.reason = DiffReason::TieRule;
        if (text) e.text = "x/scale = " + num(t) + " lies exactly halfway between two codes: " + na +
                 " rounds " + tieWords(a.tie) + " (→ " + num(e.a) + "), " + nb +
                 " rounds " + tieWords(b.tie) + " (→ " + num(e.b) + ")";
        return e;
    }
    r = a;
    r.divide = b.divide;
    if (a.divide != b.divide && explains(r)) {
        const float d = x / a.params.scale, m = x * (1.0f / a.params.scale);
        e.reason = DiffReason::DivideVsReciprocal;
        if (text) e.text = "in float32 x / scale = " + num(d) + " but x * (1/scale) = " + num(m) +
                 ": the division and the reciprocal multiply round to different codes (" +
                 num(e.a) + " vs " + num(e.b) + ")";
        return e;
    }
    r = a;
    r.params.qmin = b.params.qmin;
    r.params.qmax = b.params.qmax;
    if ((a.params.qmin != b.params.qmin || a.params.qmax != b.params.qmax) && explains(r)) {
        e.reason = DiffReason::Clamp;
        if (text) e.text = "the code ranges differ ([" + std::to_string(a.params.qmin) + ", " +
                 std::to_string(a.params.qmax) + "] vs [" + std::to_string(b.params.qmin) + ", " +
                 std::to_string(b.params.qmax) + "]): x is clamped by one scheme only";
        return e;
    }
    r = a;
    r.params.zero_point = b.params.zero_point;
    if (a.params.zero_point != b.params.zero_point && explains(r)) {
        e.reason = DiffReason::ZeroPointNudge;
        if (text) e.text = "the zero points differ (" + std::to_string(a.params.zero_point) + " vs " +
                 std::to_string(b.params.zero_point) + "): the two recipes round min/scale differently";
        return e;
    }
    if (a.params.scale != b.params.scale) {
        r = a;
        r.params.scale = b.params.scale;
        AffineRecipe both = r;
        both.params.zero_point = b.params.zero_point;
        if (explains(r) || explains(both)) {
            e.reason = DiffReason::RangeAdjustment;
            if (text) e.text = "the scales differ (" + num(a.params.scale) + " vs " + num(b.params.scale) +
                     "): the range was turned into a step differently";
            return e;
        }
    }
    e.reason = DiffReason::Other;
    if (text) e.text = "no single difference explains it (" + num(e.a) + " vs " + num(e.b) + ")";
    return e;
}

// How the TF op on one side turns the range into a step, for the op actually compared (a
// sentence naming every mode read as if all of them applied).
bool isTfSide(const PreparedScheme& s) {
    return s.scheme().kind == SchemeKind::Tf || s.scheme().kind == SchemeKind::ScaledR14;
}

std::string rangeAdjustmentText(const PreparedScheme& tf) {
    const QuantSpec& spec = tf.scheme().tf;
    if (tf.scheme().kind == SchemeKind::ScaledR14)
        return "SCALED as documented in r1.4 takes the scale from the larger magnitude of min and max";
    if (isQdq(spec.op))
        return std::string(quantOpName(spec.op)) +
               " keeps 0 on a level: it stretches one end of [min, max] so the step fits the other";
    if (usesMode(spec.op)) {
        switch (spec.mode) {
            case QuantizeMode::Scaled:
                return "SCALED keeps 0 on code 0: it recomputes one bound so both share the scale of the other";
            case QuantizeMode::MinCombined:
            case QuantizeMode::MinFirst:
                return std::string(modeName(spec.mode)) + " spreads 2^b−1 steps over [min, max] as given";
        }
    }
    return "the op turns the range into a step its own way";
}

// A TF op on either side: compare what the two quantizers expose.
Explanation explainWithTf(float x, const PreparedScheme& A, const PreparedScheme& B, Explanation e,
                          bool text) {
    // Labels and texts only when asked: compareSchemes explains millions of elements.
    const std::string na = text ? A.label() : std::string();
    const std::string nb = text ? B.label() : std::string();
    const bool outA = x < A.lowest() || x > A.highest();
    const bool outB = x < B.lowest() || x > B.highest();
    if (outA != outB) {
        e.reason = DiffReason::Clamp;
        if (text) e.text = "x = " + num(x) + " lies outside " + (outA ? na : nb) + "'s range [" +
                 num(outA ? A.lowest() : B.lowest()) + ", " + num(outA ? A.highest() : B.highest()) +
                 "] but inside the other's";
        return e;
    }
    const double sa = A.step(), sb = B.step();
    if (std::fabs(sa - sb) > 1e-6 * std::max(sa, sb)) {
        e.reason = DiffReason::RangeAdjustment;
        if (text) e.text = "the steps differ (Δ = " + num(sa) + " vs " + num(sb) + "): " +
                 rangeAdjustmentText(isTfSide(A) ? A : B);
        return e;
    }
    const float za = A.zeroOutput(), zb = B.zeroOutput();
    if (!sameFloat(za, zb)) {
        e.reason = DiffReason::ZeroPointNudge;
        if (text) e.text = "0.0 comes back as " + num(za) + " in " + na + " but " + num(zb) + " in " + nb +
                 ": one grid is shifted because its range is not nudged to put 0 on a level";
        return e;
    }
    const double mid = 0.5 * (static_cast<double>(e.a) + e.b);
    if (std::fabs(std::fabs(static_cast<double>(e.a) - e.b) - sa) <= 1e-3 * sa &&
        std::fabs(x - mid) <= 1e-4 * sa) {
        e.reason = DiffReason::TieRule;
        if (text) e.text = "x = " + num(x) + " lies halfway between two levels; the schemes break the tie "
                 "differently (" + num(e.a) + " vs " + num(e.b) + ")";
        return e;
    }
    e.reason = DiffReason::Other;
    if (text) e.text = "same step and zero but a different float32 arithmetic (" + num(e.a) + " vs " +
             num(e.b) + ")";
    return e;
}

}  // namespace

namespace {

Explanation explain(float x, const PreparedScheme& a, const PreparedScheme& b, bool text) {
    Explanation e;
    e.a = a(x);
    e.b = b(x);
    if (sameFloat(e.a, e.b)) {
        if (text) e.text = "same output (" + num(e.a) + ")";
        return e;
    }
    if (a.isAffine() && b.isAffine()) return explainAffine(x, a, b, std::move(e), text);
    return explainWithTf(x, a, b, std::move(e), text);
}

}  // namespace

Explanation explainDifference(float x, const PreparedScheme& a, const PreparedScheme& b) {
    return explain(x, a, b, true);
}

DiffReason diffReason(float x, const PreparedScheme& a, const PreparedScheme& b) {
    return explain(x, a, b, false).reason;
}

Result<SchemeComparison> compareSchemes(std::span<const float> data, float min, float max,
                                        int bits, std::span<const Scheme> schemes,
                                        const Exec& exec, const ProgressCallback& progress) {
    if (data.empty()) return badArgument("the data has no values");
    if (schemes.empty()) return badArgument("no schemes to compare");
    std::vector<PreparedScheme> prepared;
    SchemeComparison out;
    const int64_t n = static_cast<int64_t>(data.size());
    // One unit per scheme's run over the data and per pair's count.
    const int k = static_cast<int>(schemes.size());
    const double units = k + k * (k - 1) / 2;
    double done = 0;
    const ProgressPart reporter(&progress);
    for (const Scheme& s : schemes) {
        if (!reporter.step(done++, units)) return analysisCancelled("the framework comparison");
        auto p = PreparedScheme::make(s, min, max, bits);
        if (!p) return p.error();
        SchemeOutput o;
        o.label = p->label();
        o.output.resize(data.size());
        o.step = p->step();
        o.zero_output = p->zeroOutput();
        if (s.kind == SchemeKind::Tf) {
            // The tensor op itself (the same loops as the slice quantizer used to explain).
            const auto ran = applySpec(tfSpecFor(s, min, max, bits), {data, Shape{n}}, o.output, {}, exec);
            if (!ran) return ran.error();
        } else {
            const PreparedScheme& ps = *p;
            parallelFor(exec, n, [&](int64_t lo, int64_t hi) {
                for (int64_t i = lo; i < hi; ++i) o.output[i] = ps(data[i]);
            });
        }
        out.outputs.push_back(std::move(o));
        prepared.push_back(std::move(p).value());
    }
    for (int i = 0; i < k; ++i)
        for (int j = i + 1; j < k; ++j) {
            if (!reporter.step(done++, units)) return analysisCancelled("the framework comparison");
            PairDiff d;
            d.a = i;
            d.b = j;
            const auto& ya = out.outputs[i].output;
            const auto& yb = out.outputs[j].output;
            // Each chunk counts on its own; merging sums, maxima and the smallest index gives
            // the same result for any thread count.
            std::mutex merge;
            parallelFor(exec, n, [&](int64_t lo, int64_t hi) {
                PairDiff c;
                for (int64_t t = lo; t < hi; ++t) {
                    if (sameFloat(ya[t], yb[t])) continue;
                    ++c.differing;
                    if (c.first_index < 0) c.first_index = t;
                    c.max_abs_diff = std::max(c.max_abs_diff, std::fabs(static_cast<double>(ya[t]) - yb[t]));
                    ++c.by_reason[static_cast<size_t>(diffReason(data[t], prepared[i], prepared[j]))];
                }
                const std::lock_guard<std::mutex> lock(merge);
                d.differing += c.differing;
                if (c.first_index >= 0 && (d.first_index < 0 || c.first_index < d.first_index))
                    d.first_index = c.first_index;
                d.max_abs_diff = std::max(d.max_abs_diff, c.max_abs_diff);
                for (size_t r = 0; r < d.by_reason.size(); ++r) d.by_reason[r] += c.by_reason[r];
            });
            out.diffs.push_back(d);
        }
    if (!reporter.step(units, units)) return analysisCancelled("the framework comparison");
    return out;
}

Result<std::vector<AffineParams>> tflitePerAxis(const TensorRef<float>& input, int64_t axis,
                                                int bits, std::span<float> output) {
    if (bits < 2 || bits > 16) return invalidArgument("tflitePerAxis: bits must lie in 2..16");
    if (axis < 0 || axis >= input.rank())
        return invalidArgument("tflitePerAxis: axis " + std::to_string(axis) +
                               " is not an axis of shape " + shapeString(input.shape));
    if (output.size() < input.data.size())
        return invalidArgument("tflitePerAxis: output buffer is smaller than the input");
    if (input.size() == 0) return invalidArgument("tflitePerAxis: the data has no values");
    const SliceLayout l = SliceLayout::along(input.shape, static_cast<int>(axis));
    std::vector<float> lo(static_cast<size_t>(l.depth), 0.0f), hi(static_cast<size_t>(l.depth), 0.0f);
    for (int64_t i = 0; i < input.size(); ++i) {
        const int64_t c = l.sliceOf(i);
        const float v = input.data[i];
        if (v < lo[c]) lo[c] = v;
        if (v > hi[c]) hi[c] = v;
    }
    std::vector<AffineParams> params;
    for (int64_t c = 0; c < l.depth; ++c) params.push_back(tfliteSymmetricParams(lo[c], hi[c], bits));
    for (int64_t i = 0; i < input.size(); ++i) {
        const AffineRecipe r{params[l.sliceOf(i)], true, RoundMode::HalfAwayFromZero};
        output[i] = affineValue(affineCode(input.data[i], r), r.params);
    }
    return params;
}

}  // namespace qs::analysis
