// QuantizeAndDequantize V1-V4 and V4Grad — spec section 3, from
// tensorflow/core/kernels/quantize_and_dequantize_op.{h,cc} (newest validation).
// Unlike QuantizeV2 there is no zero inclusion and no epsilon; the clamp happens only when
// the range is given, and the dequantizing multiplier is range/q, not 1/scale.
#include "core/ops/quantize_and_dequantize.h"

#include <algorithm>
#include <atomic>
#include <cfloat>
#include <cmath>
#include <limits>
#include <string>

#include "core/ops/kernel_util.h"
#include "core/ops/rounding.h"

namespace qs {

namespace {

inline float minOf(float x, float bound) { return (bound < x) ? bound : x; }
inline float maxOf(float x, float bound) { return (x < bound) ? bound : x; }

template <RoundMode R>
inline float roundWith(float v) {
    if constexpr (R == RoundMode::HalfUp) return rounding::halfUp(v);
    else return rounding::toEven(v);
}

template <RoundMode R, bool kClamp>
QS_VECTOR_CLONES void qdqRun(const float* in, float* out, int64_t b, int64_t e, const QdqSliceParams& p) {
    const float lo = p.min, hi = p.max, scale = p.scale, inv = p.inv;
    for (int64_t i = b; i < e; ++i) {
        const float x = kClamp ? maxOf(minOf(in[i], hi), lo) : in[i];
        out[i] = roundWith<R>(x * scale) * inv;
    }
}

void qdqDispatch(const float* in, float* out, int64_t b, int64_t e, const QdqSliceParams& p,
                 RoundMode round) {
    if (round == RoundMode::HalfUp) {
        if (p.clamp) qdqRun<RoundMode::HalfUp, true>(in, out, b, e, p);
        else qdqRun<RoundMode::HalfUp, false>(in, out, b, e, p);
    } else {
        if (p.clamp) qdqRun<RoundMode::HalfToEven, true>(in, out, b, e, p);
        else qdqRun<RoundMode::HalfToEven, false>(in, out, b, e, p);
    }
}

Status checkNumBits(const QdqAttrs& a) {
    if (!(a.num_bits > 0 && a.num_bits < (a.signed_input ? 62 : 63)))
        return invalidArgument("num_bits is out of range: " + std::to_string(a.num_bits) +
                               (a.version == QdqVersion::V3 ? " with `signed_input_` "
                                                            : " with signed_input_ ") +
                               detail::tfBool(a.signed_input));
    return okStatus();
}

Status checkGivenRangeOrder(float min, float max) {
    if (!(min <= max))
        return invalidArgument("Invalid range: input_min " + detail::tfFloat(min) +
                               " > input_max " + detail::tfFloat(max));
    return okStatus();
}

// With an axis, min and max must be vectors (forward ops and V4Grad alike).
Status requireVectorRanges(const TensorRef<float>& mn, const TensorRef<float>& mx) {
    if (mn.rank() != 1)
        return invalidArgument(
            "Shape must be rank 1 for input_min_tensor when the axis is specified");
    if (mx.rank() != 1)
        return invalidArgument(
            "Shape must be rank 1 for input_max_tensor when the axis is specified");
    return okStatus();
}

// Per-axis given ranges: rank 1 and one value per slice.
Status checkPerAxisRanges(const TensorRef<float>& mn, const TensorRef<float>& mx, int64_t depth,
                          int64_t axis) {
    if (Status s = requireVectorRanges(mn, mx); !s) return s;
    for (const auto& [name, r] : {std::pair{"input_min_tensor", &mn}, std::pair{"input_max_tensor", &mx}})
        if (r->shape[0] != depth)
            return invalidArgument(std::string(name) + " has incorrect size, was " +
                                   std::to_string(r->shape[0]) + " expected " +
                                   std::to_string(depth) + " to match dim " +
                                   std::to_string(axis) + " of the input " +
                                   shapeString(r->shape));
    return okStatus();
}

// All of the kernel's checks, in the kernel's order (spec 3.2).
Status validate(const TensorRef<float>& input, const TensorRef<float>& mn,
                const TensorRef<float>& mx, const QdqAttrs& a) {
    const int64_t rank = input.rank();
    if (a.version == QdqVersion::V1) {
        if (Status s = checkNumBits(a); !s) return s;
        if (a.range_given) return checkGivenRangeOrder(mn.data[0], mx.data[0]);
        return okStatus();
    }
    if (a.version == QdqVersion::V3) {
        if (!(-rank <= a.axis && a.axis < rank))
            return invalidArgument("Axis requested is larger than input dimensions. Axis: " +
                                   std::to_string(a.axis) +
                                   " Input Dimensions: " + std::to_string(rank));
        if (a.axis < -1)  // TF passes the check above and then aborts in dim_size().
            return invalidArgument("Axis " + std::to_string(a.axis) +
                                   " is accepted by QuantizeAndDequantizeV3's check but "
                                   "TensorFlow then aborts (CHECK failure in dim_size); only -1 "
                                   "or 0 <= axis < rank work");
        if (!a.num_bits_shape.empty())
            return invalidArgument(
                "Invalid shape. The `num_bits` tensor should be a scalar. Got dimensions: " +
                std::to_string(a.num_bits_shape.size()));
        if (Status s = checkNumBits(a); !s) return s;
        if (a.range_given) {
            if (a.axis == -1) {
                if (mn.rank() != 0 || mx.rank() != 0)  // TF CHECK-fails in scalar<T>()
                    return invalidArgument(mn.rank() != 0 ? "input_min must be a scalar."
                                                          : "input_max must be a scalar.");
                return checkGivenRangeOrder(mn.data[0], mx.data[0]);
            }
            return checkPerAxisRanges(mn, mx, input.shape[static_cast<size_t>(a.axis)], a.axis);
        }
        return okStatus();
    }
    // V2 / V4: attribute checks at construction, then Compute.
    if (Status s = checkNumBits(a); !s) return s;
    if (a.round_mode != RoundMode::HalfUp && a.round_mode != RoundMode::HalfToEven)
        return invalidArgument("Round mode string must be 'HALF_UP' or 'HALF_TO_EVEN', is '" +
                               std::string(roundModeName(a.round_mode)) + "'");
    if (!(a.axis >= -1))
        return invalidArgument("Axis must be at least -1. Found " + std::to_string(a.axis));
    if (!(a.axis == -1 || a.axis < rank))
        return invalidArgument("Shape must be at least rank " + std::to_string(a.axis + 1) +
                               " but is rank " + std::to_string(rank));
    if (a.range_given) {
        if (mn.rank() != 0) return invalidArgument("input_min must be a scalar.");
        if (mx.rank() != 0) return invalidArgument("input_max must be a scalar.");
        if (a.axis == -1) return checkGivenRangeOrder(mn.data[0], mx.data[0]);
        return checkPerAxisRanges(mn, mx, input.shape[static_cast<size_t>(a.axis)], a.axis);
    }
    return okStatus();
}

// min/max of a contiguous run. 32 independent lanes let GCC keep them in vector
// registers (a single running min is a loop-carried reduction it will not vectorise
// without -ffast-math). NaNs are skipped: x < lo is false for them.
QS_VECTOR_CLONES void minMaxRun(const float* x, int64_t n, float& lo, float& hi) {
    constexpr int kLanes = 32;
    float l[kLanes], h[kLanes];
    for (int j = 0; j < kLanes; ++j) { l[j] = lo; h[j] = hi; }
    int64_t i = 0;
    for (; i + kLanes <= n; i += kLanes)
        for (int j = 0; j < kLanes; ++j) {
            l[j] = x[i + j] < l[j] ? x[i + j] : l[j];
            h[j] = x[i + j] > h[j] ? x[i + j] : h[j];
        }
    for (; i < n; ++i) {
        lo = x[i] < lo ? x[i] : lo;
        hi = x[i] > hi ? x[i] : hi;
    }
    for (int j = 0; j < kLanes; ++j) {
        lo = l[j] < lo ? l[j] : lo;
        hi = h[j] > hi ? h[j] : hi;
    }
}

// Per-slice min/max of the data (range not given): Eigen's minimum()/maximum().
void reduceSlices(const TensorRef<float>& input, const SliceLayout& l, const Exec& exec,
                  std::vector<float>& mins, std::vector<float>& maxs) {
    constexpr float kInf = std::numeric_limits<float>::infinity();
    mins.assign(static_cast<size_t>(l.depth), kInf);
    maxs.assign(static_cast<size_t>(l.depth), -kInf);
    const float* x = input.data.data();
    if (l.depth == 1) {  // per tensor: each thread reduces a chunk, then combine
        std::vector<float> los(static_cast<size_t>(std::max(exec.threads, 1)), kInf);
        std::vector<float> his(los.size(), -kInf);
        std::atomic<size_t> next{0};
        parallelFor(exec, input.size(), [&](int64_t b, int64_t e) {
            const size_t k = next.fetch_add(1);
            minMaxRun(x + b, e - b, los[k], his[k]);
        });
        for (size_t k = 0; k < los.size(); ++k) {
            mins[0] = los[k] < mins[0] ? los[k] : mins[0];
            maxs[0] = his[k] > maxs[0] ? his[k] : maxs[0];
        }
        return;
    }
    // Runs shorter than minMaxRun's lanes (channels last: one element per run) take the
    // plain loop; the same comparisons, so the same min/max.
    for (int64_t p = 0; p < l.pre; ++p)
        for (int64_t d = 0; d < l.depth; ++d) {
            const float* run = x + (p * l.depth + d) * l.post;
            float& lo = mins[static_cast<size_t>(d)];
            float& hi = maxs[static_cast<size_t>(d)];
            if (l.post >= 32) {
                minMaxRun(run, l.post, lo, hi);
                continue;
            }
            for (int64_t i = 0; i < l.post; ++i) {
                lo = run[i] < lo ? run[i] : lo;
                hi = run[i] > hi ? run[i] : hi;
            }
        }
}

}  // namespace

QdqSliceParams qdqSliceParams(float min, float max, const QdqAttrs& a) {
    const int64_t qMin = a.signed_input ? -(int64_t{1} << (a.num_bits - 1)) + (a.narrow_range ? 1 : 0)
                                        : 0;
    const int64_t qMax = a.signed_input ? (int64_t{1} << (a.num_bits - 1)) - 1
                                        : (int64_t{1} << a.num_bits) - 1;
    QdqSliceParams p;
    p.q_min = static_cast<float>(qMin);
    p.q_max = static_cast<float>(qMax);
    p.clamp = a.range_given;
    const float fromMin = (p.q_min * min > 0) ? p.q_min / min : FLT_MAX;
    const float fromMax = (p.q_max * max > 0) ? p.q_max / max : FLT_MAX;
    if (fromMin < fromMax) {
        p.scale = fromMin;
        p.inv = min / p.q_min;
        p.min = min;
        p.max = p.q_max * p.inv;
    } else {
        p.scale = fromMax;
        p.inv = max / p.q_max;
        p.max = max;
        p.min = p.q_min * p.inv;
    }
    return p;
}

float qdqCode(float x, const QdqSliceParams& p, RoundMode round) {
    const float c = p.clamp ? maxOf(minOf(x, p.max), p.min) : x;
    return round == RoundMode::HalfUp ? roundWith<RoundMode::HalfUp>(c * p.scale)
                                      : roundWith<RoundMode::HalfToEven>(c * p.scale);
}

Result<QdqResult> quantizeAndDequantize(const TensorRef<float>& input,
                                        const TensorRef<float>& input_min,
                                        const TensorRef<float>& input_max,
                                        const QdqAttrs& attrs_in, std::span<float> output,
                                        const Exec& exec) {
    QdqAttrs a = attrs_in;
    if (a.version == QdqVersion::V1 || a.version == QdqVersion::V3)
        a.round_mode = RoundMode::HalfToEven;  // fixed by the kernel
    if (a.version == QdqVersion::V1) {
        a.narrow_range = false;
        a.axis = -1;
    }
    if (Status s = validate(input, input_min, input_max, a); !s) return s.error();
    if (output.size() < input.data.size())
        return invalidArgument("output buffer is smaller than the input");

    const SliceLayout layout = a.axis == -1
                                   ? SliceLayout::perTensor(input.size())
                                   : SliceLayout::along(input.shape, static_cast<int>(a.axis));
    if (input.size() == 0) return QdqResult{};  // TF returns an empty tensor; the axis may be huge
    std::vector<float> mins, maxs;
    if (a.range_given) {
        mins.assign(input_min.data.begin(), input_min.data.begin() + layout.depth);
        maxs.assign(input_max.data.begin(), input_max.data.begin() + layout.depth);
    } else {
        reduceSlices(input, layout, exec, mins, maxs);
    }
    QdqResult result;
    for (int64_t d = 0; d < layout.depth; ++d)
        result.slices.push_back(qdqSliceParams(mins[static_cast<size_t>(d)],
                                               maxs[static_cast<size_t>(d)], a));
    const float* in = input.data.data();
    float* out = output.data();
    detail::forEachSliceRun(layout, exec, [&](int64_t slice, int64_t b, int64_t e) {
        qdqDispatch(in, out, b, e, result.slices[static_cast<size_t>(slice)], a.round_mode);
    });
    return result;
}

Result<QdqV4GradResult> quantizeAndDequantizeV4Grad(const TensorRef<float>& gradients,
                                                    const TensorRef<float>& input,
                                                    const TensorRef<float>& input_min,
                                                    const TensorRef<float>& input_max,
                                                    int64_t axis, std::span<float> backprop) {
    const int64_t rank = input.rank();
    if (!(axis >= -1))
        return invalidArgument("Axis must be at least -1. Found " + std::to_string(axis));
    if (!(axis == -1 || axis < rank))
        return invalidArgument("Axis should be -1 or 0 or a positive value less than " +
                               std::to_string(rank) + "but given axis value was " +
                               std::to_string(axis));
    if (gradients.shape != input.shape)
        return invalidArgument("gradient and input must be the same size");
    const int64_t depth = axis == -1 ? 1 : input.shape[static_cast<size_t>(axis)];
    if (input_min.rank() > 1)
        return invalidArgument("Input min tensor must have dimension 0 or 1. Received " +
                               std::to_string(input_min.rank()) + ".");
    if (input_max.rank() > 1)
        return invalidArgument("Input max tensor must have dimension 0 or 1. Received " +
                               std::to_string(input_max.rank()) + ".");
    if (axis != -1) {
        if (Status s = requireVectorRanges(input_min, input_max); !s) return s.error();
        if (input_min.shape[0] != depth)
            return invalidArgument("min has incorrect size, expected " + std::to_string(depth) +
                                   " was " + std::to_string(input_min.shape[0]));
        if (input_max.shape[0] != depth)
            return invalidArgument("max has incorrect size, expected " + std::to_string(depth) +
                                   " was " + std::to_string(input_max.shape[0]));
    } else {
        if (input_min.rank() != 0)
            return invalidArgument("input_min must be a scalar if axis is unspecified");
        if (input_max.rank() != 0)
            return invalidArgument("input_max must be a scalar if axis is unspecified");
    }
    if (backprop.size() < input.data.size())
        return invalidArgument("output buffer is smaller than the input");

    const SliceLayout layout = axis == -1 ? SliceLayout::perTensor(input.size())
                                          : SliceLayout::along(input.shape, static_cast<int>(axis));
    const float* g = gradients.data.data();
    const float* x = input.data.data();
    detail::forEachSliceRun(layout, Exec{}, [&](int64_t slice, int64_t b, int64_t e) {
        const float lo = input_min.data[static_cast<size_t>(slice)];
        const float hi = input_max.data[static_cast<size_t>(slice)];
        for (int64_t i = b; i < e; ++i)
            backprop[static_cast<size_t>(i)] = g[i] * ((x[i] >= lo && x[i] <= hi) ? 1.0f : 0.0f);
    });
    QdqV4GradResult r;
    r.min_shape = input_min.shape;
    r.max_shape = input_max.shape;
    r.input_min_backprop.assign(static_cast<size_t>(numElements(input_min.shape)), 0.0f);
    r.input_max_backprop.assign(static_cast<size_t>(numElements(input_max.shape)), 0.0f);
    return r;
}

}  // namespace qs
