#include "core/analysis/quant_spec.h"

#include "core/analysis/index_marks.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <mutex>
#include <optional>

namespace qs {

QuantizeV2Attrs quantizeV2Attrs(const QuantSpec& s) {
    QuantizeV2Attrs a;
    a.T = s.T;
    a.mode = s.mode;
    a.round_mode = s.round_mode;
    a.narrow_range = s.narrow_range;
    a.axis = s.axis;
    a.ensure_minimum_range = s.ensure_minimum_range;
    return a;
}

DequantizeAttrs dequantizeAttrs(const QuantSpec& s) {
    DequantizeAttrs a;
    a.T = s.T;
    a.mode = s.mode;
    a.narrow_range = s.narrow_range;
    a.axis = s.axis;
    return a;
}

QdqAttrs qdqAttrs(const QuantSpec& s) {
    QdqAttrs a;
    a.version = opDescriptor(s.op).qdq_version;
    a.signed_input = s.signed_input;
    a.num_bits = s.num_bits;
    a.range_given = s.range_given;
    a.round_mode = s.round_mode;
    a.narrow_range = s.narrow_range;
    a.axis = s.axis;
    return a;
}

namespace {

Result<tpu::QuantizationConfig> tpuConfig(const QuantSpec& s) {
    return tpu::makeQuantizationConfig(s.num_buckets, static_cast<double>(s.min_range),
                                       static_cast<double>(s.max_range));
}

// Per-slice min/max of the data (for per-channel ranges from data). Threads take ranges of
// slices; each slice is scanned by one thread in index order, so the result (down to which
// of -0.0 and +0.0 is kept) never depends on the split.
void sliceMinMax(const TensorRef<float>& input, const SliceLayout& l, std::vector<float>& mins,
                 std::vector<float>& maxs, const Exec& exec) {
    mins.assign(static_cast<size_t>(l.depth), std::numeric_limits<float>::infinity());
    maxs.assign(static_cast<size_t>(l.depth), -std::numeric_limits<float>::infinity());
    const float* data = input.data.data();
    const int64_t perSlice = std::max<int64_t>(1, l.pre * l.post);
    parallelFor(exec, l.depth, std::max<int64_t>(1, kParallelMinPerThread / perSlice), [&](int64_t d0, int64_t d1) {
        for (int64_t d = d0; d < d1; ++d) {
            // In registers: through mins[d] (which the compiler must assume the data may
            // alias) every element would cost a store and a reload.
            float lo = mins[static_cast<size_t>(d)], hi = maxs[static_cast<size_t>(d)];
            for (int64_t p = 0; p < l.pre; ++p) {
                const float* run = data + (p * l.depth + d) * l.post;
                for (int64_t i = 0; i < l.post; ++i) {
                    const float v = run[i];
                    lo = v < lo ? v : lo;
                    hi = v > hi ? v : hi;
                }
            }
            mins[static_cast<size_t>(d)] = lo;
            maxs[static_cast<size_t>(d)] = hi;
        }
    });
    for (size_t d = 0; d < mins.size(); ++d)
        if (mins[d] > maxs[d]) mins[d] = maxs[d] = 0.0f;  // empty or all-NaN slice
}

// A code (a float or double holding an integer) as int64_t, as x86's cvttsd2si converts it:
// NaN and values outside int64_t give INT64_MIN. A degenerate range makes codes NaN (the TPU
// formula's 0/0 when lower == upper): zero_code has shown, and exported, INT64_MIN for that,
// so it still does, now without the undefined conversion.
int64_t codeAsInt64(double code) {
    if (!(code >= -0x1p63 && code < 0x1p63)) return std::numeric_limits<int64_t>::min();
    return static_cast<int64_t>(code);
}

}  // namespace

std::string_view quantOpName(QuantOp op) { return opDescriptor(op).name; }
std::string_view quantOpKey(QuantOp op) { return opDescriptor(op).key; }

bool parseQuantOpKey(std::string_view key, QuantOp& op) {
    for (QuantOp o : kAllQuantOps)
        if (quantOpKey(o) == key) {
            op = o;
            return true;
        }
    return false;
}

std::span<const RoundMode> roundModesFor(QuantOp op) { return opDescriptor(op).round_modes; }
RoundMode defaultRoundMode(QuantOp op) { return opDescriptor(op).default_round_mode; }
bool usesMode(QuantOp op) { return opDescriptor(op).uses.mode != AttrUse::None; }
bool isQdq(QuantOp op) { return opDescriptor(op).family == OpFamily::Qdq; }
bool usesNarrowRange(QuantOp op) { return opDescriptor(op).uses.narrow_range != AttrUse::None; }
bool usesAxis(QuantOp op) { return opDescriptor(op).uses.axis != AttrUse::None; }

namespace {

// Position of a float on the line of all floats (adjacent floats differ by one).
int64_t floatOrdinal(float v) {
    int32_t bits = 0;
    std::memcpy(&bits, &v, sizeof bits);
    return bits >= 0 ? int64_t{bits} : -int64_t{bits & 0x7FFFFFFF};
}

}  // namespace

float clipEnd(float output, float requested, bool lower) {
    constexpr int64_t kRecomputedSlack = 4;  // float steps
    if (!std::isfinite(output) || !std::isfinite(requested)) return output;
    const bool outside = lower ? requested < output : requested > output;
    if (outside && std::llabs(floatOrdinal(output) - floatOrdinal(requested)) <= kRecomputedSlack) return requested;
    return output;
}

QuantSpec sliceSpec(const QuantSpec& spec, const SliceQuant& slice) {
    QuantSpec one = spec;
    one.axis = -1;
    one.min_range = slice.requested_min;
    one.max_range = slice.requested_max;
    return one;
}

Result<SliceQuantizer> SliceQuantizer::make(const QuantSpec& spec_in, float min, float max) {
    QuantSpec spec = spec_in;
    spec.axis = -1;  // one slice: the per-tensor form of the op
    const float probe = 0.0f;
    float probe_out = 0.0f;
    int32_t probe_code = 0;
    const TensorRef<float> one{std::span<const float>(&probe, 1), {1}};
    SliceQuantizer q;
    SliceQuant& info = q.info_;
    info.requested_min = min;
    info.requested_max = max;
    if (spec.op == QuantOp::QuantizeV2) {
        V2 v;
        v.attrs = quantizeV2Attrs(spec);
        v.dequant = dequantizeAttrs(spec);
        const auto ran = quantizeV2<int32_t>(one, scalarRef(min), scalarRef(max), v.attrs,
                                             std::span<int32_t>(&probe_code, 1));
        if (!ran) return ran.error();
        v.params = ran->slices.at(0);
        info.output_min = v.params.output_min;
        info.output_max = v.params.output_max;
        info.scale = v.params.scale;
        const QTypeInfo t = qtypeInfo(spec.T);
        // narrow_range drops the lowest code, in SCALED mode only (spec 1.6).
        info.code_lowest = t.lowest + (spec.narrow_range && spec.mode == QuantizeMode::Scaled ? 1 : 0);
        info.code_highest = t.highest;
        q.impl_ = v;
    } else if (isQdq(spec.op)) {
        Qdq v;
        QdqAttrs attrs = qdqAttrs(spec);
        if (attrs.version == QdqVersion::V3) attrs.round_mode = RoundMode::HalfToEven;
        const auto ran = quantizeAndDequantize(one, scalarRef(min), scalarRef(max), attrs,
                                               std::span<float>(&probe_out, 1));
        if (!ran) return ran.error();
        v.params = qdqSliceParams(min, max, attrs);
        v.round = attrs.round_mode;
        info.output_min = v.params.min;  // QDQ returns no range: show the one it quantized to
        info.output_max = v.params.max;
        info.scale = v.params.scale;
        // From the integers: q_min/q_max are float32, where 2^31 − 1 reads 2^31 (a 32-bit
        // grid then counted 2^32 + 1 codes).
        const int64_t bits = attrs.num_bits;
        info.code_lowest = spec.signed_input ? -(int64_t{1} << (bits - 1)) + (spec.narrow_range ? 1 : 0) : 0;
        info.code_highest = spec.signed_input ? (int64_t{1} << (bits - 1)) - 1 : (int64_t{1} << bits) - 1;
        q.impl_ = v;
    } else {
        const auto cfg = tpu::makeQuantizationConfig(spec.num_buckets, static_cast<double>(min),
                                                     static_cast<double>(max));
        if (!cfg) return cfg.error();
        const tpu::SimQuantF32 k = tpu::prepareF32(*cfg);
        info.output_min = k.lower;
        info.output_max = k.upper;
        info.scale = 1.0f / k.quantum;
        info.code_lowest = 0;
        info.code_highest = spec.num_buckets - 1;
        q.impl_ = k;
    }
    const ValuePoint lo = q(info.output_min), zero = q(0.0f);
    ValuePoint hi = q(info.output_max);
    // qint32's top wraps to its lowest code (TF's +2^31 → −2^31, spec 1.8): Δ then comes
    // from a point three quarters up the range, which Dequantize maps on the same line.
    if (!(hi.code > lo.code)) hi = q(info.output_min + 0.75f * (info.output_max - info.output_min));
    // Δ: QDQ and TPU multiply codes by one constant; Dequantize's is implicit in its formula.
    if (const auto* v = std::get_if<Qdq>(&q.impl_)) info.step = v->params.inv;
    else if (const auto* k = std::get_if<tpu::SimQuantF32>(&q.impl_)) info.step = k->quantum;
    else info.step = hi.code > lo.code ? (hi.output - lo.output) / (hi.code - lo.code) : 0.0;
    info.zero_code = codeAsInt64(zero.code);
    info.zero_output = static_cast<float>(zero.output);
    info.clip_min = clipEnd(info.output_min, info.requested_min, true);
    info.clip_max = clipEnd(info.output_max, info.requested_max, false);
    if (const auto* v = std::get_if<Qdq>(&q.impl_); v && !v->params.clamp) {
        // QDQ without a given range never clamps (its range is the data's): nothing clips.
        info.clip_min = -std::numeric_limits<float>::infinity();
        info.clip_max = std::numeric_limits<float>::infinity();
    }
    return q;
}

ValuePoint SliceQuantizer::operator()(float x) const {
    if (const auto* v = std::get_if<V2>(&impl_)) {
        const int64_t code = quantizeV2Value(x, v->params, v->attrs);
        return {static_cast<double>(code),
                dequantizeValue(code, v->params.output_min, v->params.output_max, v->dequant)};
    }
    if (const auto* v = std::get_if<Qdq>(&impl_))
        return {qdqCode(x, v->params, v->round), qdqValue(x, v->params, v->round)};
    const auto& k = std::get<tpu::SimQuantF32>(impl_);
    return {tpu::simulatedBucketF32(x, k), tpu::simulateQuantizationF32(x, k)};
}

float SliceQuantizer::value(float x) const {
    if (const auto* v = std::get_if<V2>(&impl_))
        return dequantizeValue(quantizeV2Value(x, v->params, v->attrs), v->params.output_min,
                               v->params.output_max, v->dequant);
    if (const auto* v = std::get_if<Qdq>(&impl_)) return qdqValue(x, v->params, v->round);
    return tpu::simulateQuantizationF32(x, std::get<tpu::SimQuantF32>(impl_));
}

SliceLayout sliceLayoutOf(const QuantSpec& spec, const Shape& shape) {
    if (usesAxis(spec.op) && spec.axis >= 0 && spec.axis < static_cast<int64_t>(shape.size()))
        return SliceLayout::along(shape, static_cast<int>(spec.axis));
    return SliceLayout::perTensor(numElements(shape));
}

bool rangesFromData(const QuantSpec& spec) {
    // Each slice's own range whenever an axis is set, also along an axis of size 1 (one
    // slice, but still "each channel's own min/max": the form disables the given range).
    return (spec.op == QuantOp::QuantizeV2 && spec.axis >= 0 &&
            spec.range_source == RangeSource::FromData) ||
           (isQdq(spec.op) && !spec.range_given);
}

Result<PreparedRun> prepareRun(const QuantSpec& spec, const Shape& shape,
                               std::span<const float> data_mins, std::span<const float> data_maxs) {
    if (numElements(shape) == 0)
        return invalidArgument("the data has no values (shape " + shapeString(shape) + ")");
    PreparedRun p;
    p.run.layout = sliceLayoutOf(spec, shape);
    const int64_t depth = p.run.layout.depth;
    const bool fromData = rangesFromData(spec);
    if (fromData && (static_cast<int64_t>(data_mins.size()) != depth ||
                     static_cast<int64_t>(data_maxs.size()) != depth))
        return invalidArgument("prepareRun needs one data min/max per slice");
    for (int64_t d = 0; d < depth; ++d) {
        const auto i = static_cast<size_t>(d);
        auto q = SliceQuantizer::make(spec, fromData ? data_mins[i] : spec.min_range,
                                      fromData ? data_maxs[i] : spec.max_range);
        if (!q) return q.error();
        p.run.slices.push_back(q->info());
        p.quantizers.push_back(std::move(*q));
    }
    return p;
}

namespace {

// Which codes the tiles used (x not NaN), for a type of 16 bits or fewer.
struct UsedCodes {
    int64_t lowest = 0;
    analysis::IndexMarks marks;  // code - lowest; not tracking: not asked, or qint32
    bool outside = false;        // a code outside the type's: the count cannot be told

    void mark(const float* x, const int32_t* codes, int64_t n) {
        outside = marks.markCodes(x, codes, n, static_cast<int32_t>(lowest)) || outside;
    }
};

// The distinct outputs of the codes used: each used code dequantized as the tiles were (the
// op is elementwise with scalar ranges, so a code always gives the same value), each value
// once. Unset when they cannot be told exactly that way (a code outside the type, a NaN).
std::optional<std::vector<float>> outputLevelsOf(const UsedCodes& codes, const TensorRef<float>& omin,
                                                 const TensorRef<float>& omax, const DequantizeAttrs& da) {
    if (!codes.marks.tracking() || codes.outside) return std::nullopt;
    std::vector<int32_t> list;
    for (int64_t i = 0; i < codes.marks.count(); ++i)
        if (codes.marks.marked(i)) list.push_back(static_cast<int32_t>(codes.lowest + i));
    std::vector<float> levels(list.size());
    const auto m = static_cast<int64_t>(list.size());
    if (!list.empty() && !dequantize<int32_t>({list, Shape{m}}, omin, omax, da, levels, Exec{1}))
        return std::nullopt;
    if (std::any_of(levels.begin(), levels.end(), [](float v) { return std::isnan(v); })) return std::nullopt;
    for (float& v : levels) v = v == 0.0f ? 0.0f : v;  // -0 and +0 are one level
    // Dequantize rises with the code, so the levels come sorted: checking is one cheap pass,
    // while sorting 60K levels anyway was a visible part of every 16-bit edit. The sort stays
    // for any range where they do not come sorted.
    if (!std::is_sorted(levels.begin(), levels.end())) std::sort(levels.begin(), levels.end());
    // Two codes may give the same float.
    levels.erase(std::unique(levels.begin(), levels.end()), levels.end());
    return levels;
}

// QuantizeV2 then Dequantize with scalar ranges, tile by tile: elementwise once the range is
// fixed, so each tile's codes go from one op to the other while in cache, instead of through
// a 4-byte-per-value buffer allocated, cleared, written and read again on every call. The
// codes each tile used are marked on the way: `levels` are then the distinct Q(x) over the
// x that are not NaN (the explorer's levels used), for types of 16 bits or fewer, found
// without a pass over the outputs. Only when `tellLevels`: the other callers would pay the
// marks (and a scan of 64K codes per call for 16-bit types) for nothing.
Status quantizeDequantizeInTiles(const QuantSpec& spec, std::span<const float> input,
                                 const TensorRef<float>& mn, const TensorRef<float>& mx,
                                 std::span<float> output, const Exec& exec, bool tellLevels,
                                 std::optional<std::vector<float>>& levels) {
    constexpr int64_t kTile = int64_t{1} << 14;
    const auto n = static_cast<int64_t>(input.size());
    const int64_t tiles = (n + kTile - 1) / kTile;
    const QuantizeV2Attrs qa = quantizeV2Attrs(spec);
    DequantizeAttrs da = dequantizeAttrs(spec);
    da.axis = -1;
    const QTypeInfo type = qtypeInfo(spec.T);
    const bool track = tellLevels && type.bits <= 16;
    auto noMarks = [&] {
        return track ? analysis::IndexMarks(type.highest - type.lowest + 1) : analysis::IndexMarks();
    };
    UsedCodes all{type.lowest, noMarks(), false};
    std::vector<float> outMin, outMax;  // the op's output range (the same for every tile)
    std::mutex m;
    std::optional<Error> failure;  // the op's errors depend on the range only: any tile's will do
    // Tiles claimed one at a time (a thread slowed by other work takes fewer).
    parallelClaim(exec, tiles, std::max<int64_t>(1, kParallelMinPerThread / kTile), [&](auto& claim) {
        std::vector<int32_t> codes(static_cast<size_t>(std::min(n, kTile)));
        UsedCodes mine{all.lowest, noMarks(), false};
        Status s = okStatus();
        std::vector<float> lo, hi;
        for (int64_t t; s && claim(t);) {
            const int64_t first = t * kTile, count = std::min(kTile, n - first);
            const std::span<int32_t> c(codes.data(), static_cast<size_t>(count));
            const TensorRef<float> part{input.subspan(static_cast<size_t>(first), static_cast<size_t>(count)),
                                        Shape{count}};
            auto ran = quantizeV2<int32_t>(part, mn, mx, qa, c, Exec{1});
            s = ran ? okStatus() : Status(ran.error());
            if (!s) break;
            lo = ran->output_min;
            hi = ran->output_max;
            s = dequantize<int32_t>({c, Shape{count}}, {lo, Shape{}}, {hi, Shape{}}, da,
                                    output.subspan(static_cast<size_t>(first), static_cast<size_t>(count)), Exec{1});
            mine.mark(part.data.data(), c.data(), count);
        }
        const std::lock_guard lock(m);
        if (!s) {
            if (!failure) failure = s.error();
            return;
        }
        all.marks.merge(mine.marks);
        all.outside = all.outside || mine.outside;
        if (!lo.empty()) outMin = lo, outMax = hi;
    });
    if (failure) return *failure;
    levels = outMin.empty() ? std::nullopt : outputLevelsOf(all, {outMin, Shape{}}, {outMax, Shape{}}, da);
    return okStatus();
}

}  // namespace

Result<QuantRun> applySpec(const QuantSpec& spec, const TensorRef<float>& input,
                           std::span<float> output, std::span<int32_t> codes, const Exec& exec,
                           bool tellLevels) {
    if (output.size() < input.data.size())
        return invalidArgument("output buffer is smaller than the input");
    // Nothing to explore (and an axis of a zero-element tensor may be any length, so no
    // per-slice allocation may trust it).
    if (input.size() == 0)
        return invalidArgument("the data has no values (shape " + shapeString(input.shape) + ")");
    QuantRun run;
    run.layout = sliceLayoutOf(spec, input.shape);
    const SliceLayout& l = run.layout;
    // The range inputs, per slice when an axis is set.
    std::vector<float> mins(static_cast<size_t>(l.depth), spec.min_range);
    std::vector<float> maxs(static_cast<size_t>(l.depth), spec.max_range);
    std::vector<float> dataMins, dataMaxs;
    const bool fromData = rangesFromData(spec);
    if (fromData) {
        sliceMinMax(input, l, dataMins, dataMaxs, exec);
        if (spec.op == QuantOp::QuantizeV2) {
            mins = dataMins;
            maxs = dataMaxs;
        }
    }
    const bool perAxis = usesAxis(spec.op) && spec.axis != -1;
    const Shape rangeShape = perAxis ? Shape{l.depth} : Shape{};
    const TensorRef<float> mn{std::span<const float>(mins.data(), perAxis ? mins.size() : 1),
                              rangeShape};
    const TensorRef<float> mx{std::span<const float>(maxs.data(), perAxis ? maxs.size() : 1),
                              rangeShape};

    if (spec.op == QuantOp::QuantizeV2 && !perAxis && codes.size() < input.data.size()) {
        if (Status s = quantizeDequantizeInTiles(spec, input.data, mn, mx, output, exec, tellLevels, run.output_levels);
            !s)
            return s.error();
    } else if (spec.op == QuantOp::QuantizeV2) {
        std::vector<int32_t> own;
        std::span<int32_t> c = codes;
        if (c.size() < input.data.size()) {
            own.resize(input.data.size());
            c = own;
        }
        QuantizeV2Attrs qa = quantizeV2Attrs(spec);
        const auto ran = quantizeV2<int32_t>(input, mn, mx, qa, c, exec);
        if (!ran) return ran.error();
        const TensorRef<int32_t> codeRef{std::span<const int32_t>(c.data(), input.data.size()),
                                         input.shape};
        DequantizeAttrs da = dequantizeAttrs(spec);
        if (ran->scalar) da.axis = -1;  // a size-1 axis runs per tensor, with scalar ranges
        const TensorRef<float> omin{std::span<const float>(ran->output_min),
                                    ran->scalar ? Shape{} : rangeShape};
        const TensorRef<float> omax{std::span<const float>(ran->output_max),
                                    ran->scalar ? Shape{} : rangeShape};
        if (Status s = dequantize<int32_t>(codeRef, omin, omax, da, output, exec); !s)
            return s.error();
    } else if (isQdq(spec.op)) {
        QdqAttrs qa = qdqAttrs(spec);
        if (qa.version == QdqVersion::V3) qa.num_bits_shape = {};
        const auto ran = quantizeAndDequantize(input, mn, mx, qa, output, exec);
        if (!ran) return ran.error();
    } else {
        const auto cfg = tpuConfig(spec);
        if (!cfg) return cfg.error();
        if (Status s = tpu::simulateQuantization(input.data, output.first(input.data.size()),
                                                 *cfg, exec);
            !s)
            return s.error();
    }

    // Each slice's quantizer, as the op used it (QDQ without a given range: the data's).
    for (int64_t d = 0; d < l.depth; ++d) {
        const auto i = static_cast<size_t>(d);
        const float lo = (isQdq(spec.op) && !spec.range_given) ? dataMins[i] : mins[i];
        const float hi = (isQdq(spec.op) && !spec.range_given) ? dataMaxs[i] : maxs[i];
        auto q = SliceQuantizer::make(spec, lo, hi);
        if (!q) return q.error();
        run.slices.push_back(q->info());
        if (!codes.empty() && spec.op != QuantOp::QuantizeV2) {
            for (int64_t b = d; b < l.blocks(); b += l.depth)
                for (int64_t k = b * l.post; k < (b + 1) * l.post; ++k)
                    codes[static_cast<size_t>(k)] =
                        static_cast<int32_t>((*q)(input.data[static_cast<size_t>(k)]).code);
        }
    }
    return run;
}

}  // namespace qs
