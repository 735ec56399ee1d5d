// QuantizeV2 — spec section 1, from tensorflow/core/kernels/quantize_op.cc and
// quantization_utils.h (FloatToQuantizedStruct). Every intermediate is float32 except the
// few scale factors TF computes in double and stores to float.
#include "core/ops/quantize_v2.h"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <string>

#include "core/ops/kernel_util.h"
#include "core/ops/rounding.h"

namespace qs {

namespace {

// std::min / std::max exactly as the kernels' Eigen cwiseMin/cwiseMax behave (spec 0.3):
// the first argument (the data) survives when it is NaN.
inline float minOf(float x, float bound) { return (bound < x) ? bound : x; }
inline float maxOf(float x, float bound) { return (x < bound) ? bound : x; }

// The per-element formulas. Each returns the rounded code as a float; runLoop casts it.
inline float minCombinedSigned(float x, const QuantizeV2SliceParams& p, float halfRange) {
    const float c = maxOf(minOf(x, p.adjusted_max), p.adjusted_min);
    return rounding::awayFromZero((c - p.adjusted_min) * p.scale - halfRange);
}
inline float minCombinedUnsigned(float x, const QuantizeV2SliceParams& p) {
    const float c = maxOf(minOf(x, p.adjusted_max), p.adjusted_min);
    return rounding::truncHalf((c - p.adjusted_min) * p.scale);
}
inline float minFirst(float x, const QuantizeV2SliceParams& p, float lb, float ub) {
    const float q = rounding::awayFromZero(x * p.scale) - p.min_first_offset;
    return minOf(maxOf(q, lb), ub);
}
template <bool kToEven>
inline float scaled(float x, const QuantizeV2SliceParams& p) {
    const float v = maxOf(minOf(x, p.output_max), p.output_min) * p.scale;
    return kToEven ? rounding::toEven(v) : rounding::awayFromZero(v);
}

float halfRangeOf(QType t) {
    const QTypeInfo info = qtypeInfo(t);
    if (!info.isSigned) return 0.0f;
    return static_cast<float>((static_cast<double>(info.highest) -
                               static_cast<double>(info.lowest) + 1) / 2.0);
}

// MIN_FIRST's saturation bounds: float-safe for qint32 (FloatToQuantizedStruct).
float minFirstLowerBound(QType t) {
    return std::max(static_cast<float>(qtypeInfo(t).lowest), -2.147483648e+09f);
}
float minFirstUpperBound(QType t) {
    return std::min(static_cast<float>(qtypeInfo(t).highest), +2.147483520e+09f);
}

// Runs the element formula `f` over [b, e) into `out`, casting to T as TF does (see
// rounding::toQint32 / toNarrowCode). Kept tiny so each instantiation is one vector loop.
template <typename Code, bool kQint32, typename F>
QS_VECTOR_CLONES void runLoop(const float* in, Code* out, int64_t b, int64_t e, float lowest,
                              float highest, F f) {
    for (int64_t i = b; i < e; ++i) {
        const float q = f(in[i]);
        out[i] = static_cast<Code>(kQint32 ? rounding::toQint32(q)
                                           : rounding::toNarrowCode(q, lowest, highest));
    }
}

template <typename Code, typename F>
void runLoop(const float* in, Code* out, int64_t b, int64_t e, QType t, F f) {
    const QTypeInfo info = qtypeInfo(t);
    if constexpr (sizeof(Code) == 4) {
        if (t == QType::QInt32) return runLoop<Code, true>(in, out, b, e, 0.0f, 0.0f, f);
    }
    runLoop<Code, false>(in, out, b, e, static_cast<float>(info.lowest),
                         static_cast<float>(info.highest), f);
}

template <typename Code>
void quantizeRun(const float* in, Code* out, int64_t b, int64_t e,
                 const QuantizeV2SliceParams& params, const QuantizeV2Attrs& a) {
    // A local copy captured by value: stores through an int8_t* may alias anything, so
    // reading the parameters through a reference would block vectorisation.
    const QuantizeV2SliceParams p = params;
    const bool isSigned = qtypeInfo(a.T).isSigned;
    switch (a.mode) {
        case QuantizeMode::MinCombined:
            if (isSigned) {
                const float h = halfRangeOf(a.T);
                runLoop(in, out, b, e, a.T, [p, h](float x) { return minCombinedSigned(x, p, h); });
            } else {
                runLoop(in, out, b, e, a.T, [p](float x) { return minCombinedUnsigned(x, p); });
            }
            break;
        case QuantizeMode::MinFirst: {
            const float lb = minFirstLowerBound(a.T), ub = minFirstUpperBound(a.T);
            runLoop(in, out, b, e, a.T, [p, lb, ub](float x) { return minFirst(x, p, lb, ub); });
            break;
        }
        case QuantizeMode::Scaled:
            if (a.round_mode == RoundMode::HalfToEven)
                runLoop(in, out, b, e, a.T, [p](float x) { return scaled<true>(x, p); });
            else
                runLoop(in, out, b, e, a.T, [p](float x) { return scaled<false>(x, p); });
            break;
    }
}

std::string modeString(QuantizeMode m) { return std::string(modeName(m)); }

Status validateAttrs(const QuantizeV2Attrs& a) {
    if (a.round_mode == RoundMode::HalfUp)
        return invalidArgument(
            "Round mode string must be 'HALF_AWAY_FROM_ZERO' or 'HALF_TO_EVEN', is 'HALF_UP'");
    if (a.round_mode == RoundMode::HalfToEven && a.mode != QuantizeMode::Scaled)
        return invalidArgument(
            "Round mode 'HALF_TO_EVEN' only supported for mode 'SCALED', but mode is '" +
            modeString(a.mode) + "'.");
    return okStatus();
}

// Shape checks of Compute (spec 1.2 items 4-5). Returns the number of slices.
Result<int64_t> validateShapes(const TensorRef<float>& input, const TensorRef<float>& minR,
                               const TensorRef<float>& maxR, int64_t axis) {
    const std::string prefix =
        "If axis is specified, %s must be a 1-D tensor whose size matches the axis dimension "
        "of the input and output tensors, but %s ";
    auto specified = [&](const char* which) {
        std::string s = prefix;
        for (int k = 0; k < 2; ++k) s.replace(s.find("%s"), 2, which);
        return s;
    };
    if (axis > -1) {
        if (!(input.rank() > axis))
            return invalidArgument(
                "Axis is on a zero-based index, so its value must always be less than number "
                "of input's dims, but given axis value was " +
                std::to_string(axis) + " and input's dims was " + std::to_string(input.rank()));
        const int64_t slices = input.shape[static_cast<size_t>(axis)];
        const std::pair<const char*, const TensorRef<float>*> ranges[] = {{"min_range", &minR},
                                                                          {"max_range", &maxR}};
        for (const auto& [name, r] : ranges) {
            if (r->rank() != 1)
                return invalidArgument(specified(name) + "dims are " + std::to_string(r->rank()));
            if (r->shape[0] != slices)
                return invalidArgument(specified(name) + "is a 1-D tensor of size " +
                                       std::to_string(r->shape[0]) +
                                       " and input's axis dimension is of size " +
                                       std::to_string(slices));
        }
        return slices;
    }
    for (const auto& [name, r] : {std::pair{"min_range", &minR}, std::pair{"max_range", &maxR}})
        if (numElements(r->shape) != 1)
            return invalidArgument(std::string("If axis is not specified, ") + name +
                                   " must contain a single float element, but it contains " +
                                   std::to_string(numElements(r->shape)) + " elements");
    return int64_t{1};
}

Status checkRangeOrder(float minRange, float maxRange) {
    if (maxRange < minRange)
        return invalidArgument("input_max_range must be larger than input_min_range.");
    return okStatus();
}

}  // namespace

QuantizeV2SliceParams quantizeV2SliceParams(float min_range, float max_range,
                                            const QuantizeV2Attrs& a) {
    QuantizeV2SliceParams p;
    p.requested_min = min_range;
    p.requested_max = max_range;
    // Spec 1.3: the range always contains 0 and is at least `eps` wide.
    const float rMin = std::min(0.0f, min_range);
    const float eps =
        std::max(1.0f, std::max(std::fabs(min_range), std::fabs(max_range))) *
        a.ensure_minimum_range;
    const float rMax = std::max(0.0f, std::max(max_range, rMin + eps));
    p.adjusted_min = rMin;
    p.adjusted_max = rMax;
    p.output_min = rMin;
    p.output_max = rMax;
    const QTypeInfo info = qtypeInfo(a.T);
    switch (a.mode) {
        case QuantizeMode::MinCombined:
            p.scale = static_cast<float>(
                (static_cast<double>(info.highest) - static_cast<double>(info.lowest)) /
                static_cast<double>(rMax - rMin));
            break;
        case QuantizeMode::MinFirst: {
            const double steps = std::ldexp(1.0, info.bits);
            p.scale = (rMax == rMin) ? 0.0f
                                     : static_cast<float>((steps - 1.0) /
                                                          static_cast<double>(rMax - rMin));
            const float minScaled = rounding::awayFromZero(rMin * p.scale);
            p.min_first_offset = minScaled - static_cast<float>(info.lowest);
            break;
        }
        case QuantizeMode::Scaled: {
            const float lo = static_cast<float>(info.lowest + (a.narrow_range ? 1 : 0));
            const float hi = static_cast<float>(info.highest);
            const float fromMin = (lo * rMin > 0) ? lo / rMin : FLT_MAX;
            const float fromMax = (hi * rMax > 0) ? hi / rMax : FLT_MAX;
            p.scale = std::min(fromMin, fromMax);
            p.output_min = lo / p.scale;
            p.output_max = hi / p.scale;
            break;
        }
    }
    return p;
}

int64_t quantizeV2Value(float x, const QuantizeV2SliceParams& p, const QuantizeV2Attrs& a) {
    auto one = [&](auto code) -> int64_t {
        using Code = decltype(code);
        quantizeRun<Code>(&x, &code, 0, 1, p, a);
        return static_cast<int64_t>(code);
    };
    switch (a.T) {
        case QType::QInt8: return one(int8_t{});
        case QType::QUInt8: return one(uint8_t{});
        case QType::QInt16: return one(int16_t{});
        case QType::QUInt16: return one(uint16_t{});
        case QType::QInt32: return one(int32_t{});
    }
    return 0;
}

template <typename Code>
Result<QuantizeV2Ranges> quantizeV2(const TensorRef<float>& input,
                                    const TensorRef<float>& min_range,
                                    const TensorRef<float>& max_range,
                                    const QuantizeV2Attrs& attrs, std::span<Code> output,
                                    const Exec& exec) {
    if (Status s = validateAttrs(attrs); !s) return s.error();
    Result<int64_t> slicesOr = validateShapes(input, min_range, max_range, attrs.axis);
    if (!slicesOr) return slicesOr.error();
    const int64_t slices = *slicesOr;
    if (output.size() < input.data.size())
        return invalidArgument("output buffer is smaller than the input");

    QuantizeV2Ranges ranges;
    SliceLayout layout = SliceLayout::perTensor(input.size());
    if (slices == 1) {
        // Per tensor — also a per-axis call on a size-1 axis (spec 1.7): scalar ranges.
        if (Status s = checkRangeOrder(min_range.data[0], max_range.data[0]); !s)
            return s.error();
        ranges.slices.push_back(quantizeV2SliceParams(min_range.data[0], max_range.data[0], attrs));
    } else {
        if (attrs.mode == QuantizeMode::MinFirst)
            return unimplemented("MIN_FIRST mode is not implemented for Quantize with axis != -1.");
        ranges.scalar = false;
        layout = SliceLayout::along(input.shape, static_cast<int>(attrs.axis));
        for (int64_t i = 0; i < slices; ++i) {
            if (Status s = checkRangeOrder(min_range.data[i], max_range.data[i]); !s)
                return s.error();
            ranges.slices.push_back(
                quantizeV2SliceParams(min_range.data[i], max_range.data[i], attrs));
        }
    }
    for (const auto& p : ranges.slices) {
        ranges.output_min.push_back(p.output_min);
        ranges.output_max.push_back(p.output_max);
    }
    const float* in = input.data.data();
    Code* out = output.data();
    detail::forEachSliceRun(layout, exec, [&](int64_t slice, int64_t b, int64_t e) {
        quantizeRun<Code>(in, out, b, e, ranges.slices[static_cast<size_t>(slice)], attrs);
    });
    return ranges;
}

#define QS_INSTANTIATE(Code)                                                               \
    template Result<QuantizeV2Ranges> quantizeV2<Code>(                                    \
        const TensorRef<float>&, const TensorRef<float>&, const TensorRef<float>&,         \
        const QuantizeV2Attrs&, std::span<Code>, const Exec&);
QS_FOR_EACH_CODE_TYPE(QS_INSTANTIATE)
#undef QS_INSTANTIATE

}  // namespace qs
