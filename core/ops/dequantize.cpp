// Dequantize — spec section 2, from tensorflow/core/kernels/dequantize_op.cc and
// quantization_utils.h (QuantizedToFloatStruct / DEQUANTIZE_WITH_EIGEN). No range
// adjustment of any kind: feed it the output_min/output_max QuantizeV2 returned.
#include "core/ops/dequantize.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "core/ops/kernel_util.h"
#include "core/ops/rounding.h"

namespace qs {

namespace {

// The per-slice constants of the three formulas (spec 2.3).
struct DequantizeSlice {
    QuantizeMode mode;
    float halfRange = 0, scale = 0, min = 0;  // MIN_COMBINED: ((q + H) * S) + m
    float rangeScale = 0, offset = 0;         // MIN_FIRST:   q * rs + (rmr - lo * rs)
};

DequantizeSlice sliceConstants(float m, float M, const DequantizeAttrs& a) {
    const QTypeInfo info = qtypeInfo(a.T);
    const float hi = static_cast<float>(info.highest);
    const float lo = static_cast<float>(info.lowest);
    DequantizeSlice s{a.mode};
    switch (a.mode) {
        case QuantizeMode::MinCombined:
            s.halfRange = info.isSigned ? (hi - lo + 1.0f) / 2.0f : 0.0f;
            s.scale = (M - m) / (hi - lo);
            s.min = m;
            break;
        case QuantizeMode::MinFirst: {
            const double steps = std::ldexp(1.0, info.bits);
            s.rangeScale = static_cast<float>(static_cast<double>(M - m) / (steps - 1.0));
            const float rounded =
                (M == m) ? m : rounding::awayFromZero(m / s.rangeScale) * s.rangeScale;
            s.offset = rounded - lo * s.rangeScale;
            break;
        }
        case QuantizeMode::Scaled:
            if (!info.isSigned) {
                s.scale = M / hi;
            } else {
                const float minOut = static_cast<float>(info.lowest + (a.narrow_range ? 1 : 0));
                s.scale = std::max(m / minOut, M / hi);
            }
            break;
    }
    return s;
}

template <typename Code, bool kBf16, typename F>
QS_VECTOR_CLONES void dequantizeLoop(const Code* in, float* out, int64_t b, int64_t e, F f) {
    for (int64_t i = b; i < e; ++i) {
        const float v = f(static_cast<float>(in[i]));
        out[i] = kBf16 ? rounding::toBfloat16(v) : v;
    }
}

template <typename Code, bool kBf16>
void dequantizeRun(const Code* in, float* out, int64_t b, int64_t e, const DequantizeSlice& s) {
    // One loop per mode so each vectorises without a per-element switch.
    switch (s.mode) {
        case QuantizeMode::MinCombined: {
            const float h = s.halfRange, sc = s.scale, m = s.min;
            dequantizeLoop<Code, kBf16>(in, out, b, e, [=](float q) { return ((q + h) * sc) + m; });
            break;
        }
        case QuantizeMode::MinFirst: {
            const float rs = s.rangeScale, off = s.offset;
            dequantizeLoop<Code, kBf16>(in, out, b, e, [=](float q) { return (q * rs) + off; });
            break;
        }
        case QuantizeMode::Scaled: {
            const float sc = s.scale;
            dequantizeLoop<Code, kBf16>(in, out, b, e, [=](float q) { return q * sc; });
            break;
        }
    }
}

}  // namespace

Result<DequantizeDType> parseDequantizeDType(std::string_view s) {
    if (s == "float" || s == "float32") return DequantizeDType::Float;
    if (s == "bfloat16") return DequantizeDType::BFloat16;
    return invalidArgument("Output type must be bfloat16 or float, is '" + std::string(s) + "'");
}

float dequantizeValue(int64_t code, float min_range, float max_range,
                      const DequantizeAttrs& attrs) {
    // The same loop as the op, on one element, so curves can never disagree with it.
    const auto c = static_cast<int32_t>(code);
    float out = 0.0f;
    const DequantizeSlice s = sliceConstants(min_range, max_range, attrs);
    if (attrs.dtype == DequantizeDType::BFloat16) dequantizeRun<int32_t, true>(&c, &out, 0, 1, s);
    else dequantizeRun<int32_t, false>(&c, &out, 0, 1, s);
    return out;
}

template <typename Code>
Status dequantize(const TensorRef<Code>& input, const TensorRef<float>& min_range,
                  const TensorRef<float>& max_range, const DequantizeAttrs& attrs,
                  std::span<float> output, const Exec& exec) {
    if (attrs.dtype == DequantizeDType::BFloat16 && attrs.mode != QuantizeMode::MinCombined)
        return invalidArgument(
            "When output type is bfloat16, Mode string must be 'MIN_COMBINED', is '" +
            std::string(modeName(attrs.mode)) + "'");
    if (!(attrs.axis < input.rank()))
        return invalidArgument("Axis must be less than input dimension(" +
                               std::to_string(input.rank()) + "), got " +
                               std::to_string(attrs.axis));
    const int64_t slices = attrs.axis > -1 ? input.shape[static_cast<size_t>(attrs.axis)] : 1;
    for (const auto& [name, r] : {std::pair{"input_min_tensor", &min_range},
                                  std::pair{"input_max_tensor", &max_range}})
        if (numElements(r->shape) != slices)
            return invalidArgument(std::string(name) +
                                   " must have as many elements as input on the "
                                   "dequantization axis (" +
                                   std::to_string(attrs.axis) + "), got " +
                                   std::to_string(numElements(r->shape)) + ", expected " +
                                   std::to_string(slices));
    if (output.size() < input.data.size())
        return invalidArgument("output buffer is smaller than the input");

    SliceLayout layout = SliceLayout::perTensor(input.size());
    if (slices != 1) {
        if (attrs.mode == QuantizeMode::MinFirst)
            return unimplemented("MIN_FIRST mode is not implemented for Dequantize with axis != -1.");
        layout = SliceLayout::along(input.shape, static_cast<int>(attrs.axis));
    }
    std::vector<DequantizeSlice> consts;
    for (int64_t i = 0; i < slices; ++i)
        consts.push_back(sliceConstants(min_range.data[i], max_range.data[i], attrs));
    const Code* in = input.data.data();
    float* out = output.data();
    const bool bf16 = attrs.dtype == DequantizeDType::BFloat16;
    detail::forEachSliceRun(layout, exec, [&](int64_t slice, int64_t b, int64_t e) {
        const auto& s = consts[static_cast<size_t>(slice)];
        if (bf16) dequantizeRun<Code, true>(in, out, b, e, s);
        else dequantizeRun<Code, false>(in, out, b, e, s);
    });
    return okStatus();
}

#define QS_INSTANTIATE(Code)                                                              \
    template Status dequantize<Code>(const TensorRef<Code>&, const TensorRef<float>&,     \
                                     const TensorRef<float>&, const DequantizeAttrs&,     \
                                     std::span<float>, const Exec&);
QS_FOR_EACH_CODE_TYPE(QS_INSTANTIATE)
#undef QS_INSTANTIATE

}  // namespace qs
