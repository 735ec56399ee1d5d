#include "core/model_analysis/stored_quant.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>

#include "core/analysis/framework_schemes.h"
#include "core/data/dataset.h"
#include "core/modelfile/tensor_values.h"

namespace qs::analysis {

namespace {

using modelfile::DType;
using modelfile::TensorData;
using modelfile::TensorInfo;

std::string num(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.9g", v);
    return buf;
}

QType qtypeOf(DType t) {
    switch (t) {
    case DType::UInt8: return QType::QUInt8;
    case DType::Int16: return QType::QInt16;
    case DType::UInt16: return QType::QUInt16;
    default: return QType::QInt8;
    }
}

// A rule: a Frameworks-tab scheme prepared per channel on that channel's range, or a fixed
// affine recipe (the file's own parameters).
struct RuleDef {
    std::string label;
    std::optional<Scheme> scheme;
    bool reciprocal = false;  // TFLite symmetric with x * (1/scale)
    std::optional<RoundMode> storedTie;  // the stored scale/zero point with this tie rule
};

std::vector<RuleDef> ruleDefs(QType T, bool isSigned, int bits, bool withStored) {
    std::vector<RuleDef> defs;
    const std::string tName(qtypeInfo(T).name);
    for (float emr : {QuantizeV2Attrs{}.ensure_minimum_range, 0.0f})
        for (bool narrow : {false, true}) {
            Scheme s;
            s.kind = SchemeKind::Tf;
            s.tf.op = QuantOp::QuantizeV2;
            s.tf.T = T;
            s.tf.mode = QuantizeMode::Scaled;
            s.tf.round_mode = RoundMode::HalfAwayFromZero;
            s.tf.narrow_range = narrow;
            s.tf.ensure_minimum_range = emr;
            defs.push_back({"TF QuantizeV2 SCALED " + tName + (narrow ? ", narrow_range" : "") +
                                (emr == 0 ? ", ensure_minimum_range 0" : ""),
                            s, false, std::nullopt});
        }
    {
        Scheme s;
        s.kind = SchemeKind::Tf;
        s.tf.op = QuantOp::QuantizeAndDequantizeV4;
        s.tf.signed_input = isSigned;
        s.tf.num_bits = bits;
        s.tf.narrow_range = true;
        s.tf.round_mode = RoundMode::HalfToEven;
        defs.push_back({"TF QuantizeAndDequantizeV4 narrow_range, " + std::to_string(bits) + " bits " +
                            (isSigned ? "signed" : "unsigned") + " (levels)",
                        s, false, std::nullopt});
    }
    for (SchemeKind k : {SchemeKind::PyTorch, SchemeKind::Onnx, SchemeKind::TfliteInt8, SchemeKind::TfliteSymmetric}) {
        if (k == SchemeKind::TfliteSymmetric && !isSigned) continue;
        Scheme s;
        s.kind = k;
        s.is_signed = isSigned;
        defs.push_back({schemeLabel(s, bits), s, false, std::nullopt});
    }
    if (isSigned) {
        Scheme s;
        s.kind = SchemeKind::TfliteSymmetric;
        defs.push_back({"TFLite symmetric weights, x · (1/scale) as its converter multiplies", s, true, std::nullopt});
    }
    if (withStored) {
        defs.push_back({"the file's scale and zero point, round half away from zero (TFLite)", {}, false,
                        RoundMode::HalfAwayFromZero});
        defs.push_back({"the file's scale and zero point, round half to even (ONNX)", {}, false, RoundMode::HalfToEven});
    }
    return defs;
}

struct Ranges {
    std::vector<float> min, max;
};
Ranges channelRanges(const std::vector<float>& x, const SliceLayout& l) {
    Ranges r{std::vector<float>(static_cast<size_t>(l.depth), std::numeric_limits<float>::infinity()),
             std::vector<float>(static_cast<size_t>(l.depth), -std::numeric_limits<float>::infinity())};
    for (size_t i = 0; i < x.size(); ++i) {
        if (!std::isfinite(x[i])) continue;
        const auto c = static_cast<size_t>(l.sliceOf(static_cast<int64_t>(i)));
        r.min[c] = std::min(r.min[c], x[i]);
        r.max[c] = std::max(r.max[c], x[i]);
    }
    for (size_t c = 0; c < r.min.size(); ++c)
        if (r.min[c] > r.max[c]) r.min[c] = r.max[c] = 0;  // no finite value: an empty range at 0
    return r;
}

// Counts where `codeOf(i, channel)` differs from the stored codes.
template <typename CodeOf>
void countDifferences(const StoredQuantComparison& cmp, StoredCodeRule& rule, CodeOf codeOf) {
    std::vector<bool> channelDiffers(static_cast<size_t>(cmp.channels), false);
    for (size_t i = 0; i < cmp.codes.size(); ++i) {
        const int64_t c = cmp.layout.sliceOf(static_cast<int64_t>(i));
        const int64_t d = std::llabs(codeOf(i, c) - int64_t{cmp.codes[i]});
        if (d == 0) continue;
        if (rule.differing++ == 0) rule.first_differing = static_cast<int64_t>(i);
        rule.max_code_diff = std::max(rule.max_code_diff, d);
        channelDiffers[static_cast<size_t>(c)] = true;
    }
    rule.channels_differing = std::count(channelDiffers.begin(), channelDiffers.end(), true);
}

StoredCodeRule runRule(const RuleDef& def, const StoredQuantComparison& cmp, const Ranges& ranges,
                       const modelfile::StoredQuantization* stored) {
    StoredCodeRule rule;
    rule.label = def.label;
    if (def.scheme && def.scheme->kind == SchemeKind::Tf) rule.tf = def.scheme->tf;
    if (def.storedTie) {
        std::vector<AffineRecipe> recipes;
        for (size_t c = 0; c < stored->scale.size(); ++c) {
            const int64_t zp = stored->zero_point.empty() ? 0 : stored->zero_point[stored->zero_point.size() > 1 ? c : 0];
            AffineParams p{stored->scale[c], static_cast<int32_t>(zp), cmp.is_signed ? -(1 << (cmp.bits - 1)) : 0,
                           cmp.is_signed ? (1 << (cmp.bits - 1)) - 1 : (1 << cmp.bits) - 1};
            recipes.push_back({p, true, *def.storedTie});
        }
        countDifferences(cmp, rule, [&](size_t i, int64_t c) {
            return int64_t{affineCode(cmp.input[i], recipes[recipes.size() > 1 ? static_cast<size_t>(c) : 0])};
        });
        return rule;
    }
    std::vector<PreparedScheme> prepared;
    prepared.reserve(static_cast<size_t>(cmp.channels));
    for (size_t c = 0; c < static_cast<size_t>(cmp.channels); ++c) {
        auto p = PreparedScheme::make(*def.scheme, ranges.min[c], ranges.max[c], cmp.bits);
        if (!p) {
            rule.error = (cmp.channels > 1 ? "channel " + std::to_string(c) + ": " : std::string()) + p.error().message;
            return rule;
        }
        prepared.push_back(std::move(p).value());
    }
    if (def.reciprocal) {
        std::vector<AffineRecipe> recipes;
        for (const auto& p : prepared) recipes.push_back({p.recipe().params, false, p.recipe().tie});
        countDifferences(cmp, rule, [&](size_t i, int64_t c) {
            return int64_t{affineCode(cmp.input[i], recipes[static_cast<size_t>(c)])};
        });
        return rule;
    }
    countDifferences(cmp, rule, [&](size_t i, int64_t c) { return prepared[static_cast<size_t>(c)].code(cmp.input[i]); });
    return rule;
}

Error tensorError(const TensorInfo& info, const std::string& what) {
    return data::dataError("tensor '" + info.name + "': " + what);
}

// Without a stored scale: code -> value by the scale the original implies, max|x| / max|code|
// (per channel when there are channels), so the dequantized view has the original's units.
std::vector<float> impliedDequantization(StoredQuantComparison& cmp) {
    const Ranges r = channelRanges(cmp.input, cmp.layout);
    std::vector<int32_t> maxCode(static_cast<size_t>(cmp.channels), 0);
    for (size_t i = 0; i < cmp.codes.size(); ++i) {
        auto& m = maxCode[static_cast<size_t>(cmp.layout.sliceOf(static_cast<int64_t>(i)))];
        m = std::max(m, std::abs(cmp.codes[i]));
    }
    std::vector<float> scale(maxCode.size());
    for (size_t c = 0; c < scale.size(); ++c)
        scale[c] = maxCode[c] > 0 ? std::max(std::fabs(r.min[c]), std::fabs(r.max[c])) / static_cast<float>(maxCode[c]) : 0.0f;
    std::vector<float> out(cmp.codes.size());
    for (size_t i = 0; i < out.size(); ++i)
        out[i] = static_cast<float>(cmp.codes[i]) * scale[static_cast<size_t>(cmp.layout.sliceOf(static_cast<int64_t>(i)))];
    cmp.dequantization = "no scale stored: code × the scale the original implies, max|x| / max|code|";
    if (scale.size() == 1) cmp.dequantization += " = " + num(scale[0]);
    return out;
}

}  // namespace

bool hasStoredCodes(const TensorInfo& info) {
    return info.dtype == DType::Int8 || info.dtype == DType::UInt8 || info.dtype == DType::Int16 ||
           info.dtype == DType::UInt16;
}

bool isStoredQuantized(const TensorInfo& info) { return hasStoredCodes(info) && info.quantization.has_value(); }

std::vector<int32_t> storedCodes(const TensorData& t) {
    if (!hasStoredCodes(t.info)) return {};
    const size_t n = t.bytes.size() / modelfile::dtypeSize(t.info.dtype);
    std::vector<int32_t> out(n);
    const char* p = t.bytes.data();
    auto read = [&](auto tag) {
        using T = decltype(tag);
        for (size_t i = 0; i < n; ++i) {
            T v;
            std::memcpy(&v, p + i * sizeof(T), sizeof(T));
            out[i] = v;
        }
    };
    switch (t.info.dtype) {
    case DType::Int8: read(int8_t{}); break;
    case DType::UInt8: read(uint8_t{}); break;
    case DType::Int16: read(int16_t{}); break;
    case DType::UInt16: read(uint16_t{}); break;
    default: break;
    }
    return out;
}

Result<StoredQuantComparison> compareStoredQuantization(const TensorData& stored, const TensorData* original,
                                                        const std::string& originalLabel, const std::atomic<bool>* cancel) {
    const TensorInfo& info = stored.info;
    if (!hasStoredCodes(info))
        return tensorError(info, "holds " + info.dtype_name + ", not int8, uint8, int16 or uint16 codes");
    if (!info.quantization && !original)
        return tensorError(info, "no scale is stored with its codes: give the float original to compare with");
    if (numElements(info.shape) <= 0) return tensorError(info, "has no elements");
    if (stored.bytes.size() != static_cast<size_t>(numElements(info.shape)) * modelfile::dtypeSize(info.dtype))
        return tensorError(info, "holds " + std::to_string(stored.bytes.size()) + " bytes, shape " +
                                     shapeString(info.shape) + " needs more");
    StoredQuantComparison cmp;
    cmp.tensor = info.name;
    cmp.shape = info.shape;
    cmp.dtype = info.dtype_name;
    const QType T = qtypeOf(info.dtype);
    cmp.bits = qtypeInfo(T).bits;
    cmp.is_signed = qtypeInfo(T).isSigned;
    cmp.layout = SliceLayout::perTensor(numElements(info.shape));
    if (info.quantization && info.quantization->perChannel()) {
        const int axis = info.quantization->axis;
        if (axis < 0 || axis >= static_cast<int>(info.shape.size()))
            return tensorError(info, "quantization axis " + std::to_string(axis) + " is outside shape " + shapeString(info.shape));
        cmp.axis = axis;
        cmp.layout = SliceLayout::along(info.shape, axis);
    }
    cmp.channels = cmp.layout.depth;
    cmp.codes = storedCodes(stored);
    const auto [lo, hi] = std::minmax_element(cmp.codes.begin(), cmp.codes.end());
    cmp.code_min = *lo;
    cmp.code_max = *hi;
    cmp.code_counts.assign(static_cast<size_t>(cmp.code_max - cmp.code_min + 1), 0);
    for (int32_t c : cmp.codes) ++cmp.code_counts[static_cast<size_t>(c - cmp.code_min)];

    if (original) {
        if (original->info.shape != info.shape)
            return tensorError(info, "has shape " + shapeString(info.shape) + " but the original '" + original->info.name +
                                         "' has " + shapeString(original->info.shape));
        if (!modelfile::isFloat(original->info.dtype))
            return tensorError(info, "the original '" + original->info.name + "' holds " + original->info.dtype_name +
                                         ", not floats");
        auto x = modelfile::toFloat32(*original);
        if (!x) return x.error();
        cmp.input = std::move(x).value();
        cmp.round_trip = false;
        cmp.input_source = "the float original " + (originalLabel.empty() ? "'" + original->info.name + "'" : originalLabel);
    }
    if (info.quantization) {
        auto v = modelfile::toFloat32(stored);
        if (!v) return v.error();
        cmp.dequantized = std::move(v).value();
        cmp.dequantization = "(code − zero_point) × scale with the stored scale and zero point";
    } else {
        cmp.dequantized = impliedDequantization(cmp);
    }
    if (cmp.round_trip) {
        cmp.input = cmp.dequantized;
        cmp.input_source = "the dequantized stored codes (a round-trip check: no float original given)";
    }

    const Ranges ranges = channelRanges(cmp.input, cmp.layout);
    const bool withStored = original && info.quantization &&
                            (info.quantization->scale.size() == 1 ||
                             static_cast<int64_t>(info.quantization->scale.size()) == cmp.channels);
    for (const RuleDef& def : ruleDefs(T, cmp.is_signed, cmp.bits, withStored)) {
        if (cancel && cancel->load()) return data::cancelledError("tensor '" + info.name + "': comparison cancelled");
        cmp.rules.push_back(runRule(def, cmp, ranges, info.quantization ? &*info.quantization : nullptr));
    }

    for (size_t r = 0; r < cmp.rules.size(); ++r) {
        const auto& rule = cmp.rules[r];
        if (rule.exact() && cmp.exact_rule < 0) cmp.exact_rule = static_cast<int>(r);
        if (rule.error.empty() && (cmp.best_rule < 0 || rule.differing < cmp.rules[static_cast<size_t>(cmp.best_rule)].differing))
            cmp.best_rule = static_cast<int>(r);
    }
    if (cmp.exact_rule >= 0) cmp.best_rule = cmp.exact_rule;
    const std::string per = cmp.axis >= 0 ? " per channel on axis " + std::to_string(cmp.axis) : std::string(" per tensor");
    if (cmp.exact_rule >= 0) {
        cmp.summary = cmp.rules[static_cast<size_t>(cmp.exact_rule)].label + per + " reproduces all " +
                      std::to_string(cmp.codes.size()) + " stored codes from " + cmp.input_source;
    } else if (cmp.best_rule >= 0) {
        const auto& b = cmp.rules[static_cast<size_t>(cmp.best_rule)];
        cmp.summary = "no rule reproduces the file exactly; closest: " + b.label + per + ", " +
                      std::to_string(b.differing) + " of " + std::to_string(cmp.codes.size()) +
                      " codes differ (by at most " + std::to_string(b.max_code_diff) + ")";
    } else {
        cmp.summary = "no rule could run on this tensor";
    }
    return cmp;
}

std::optional<QuantSpec> explorerSpecOf(const StoredQuantComparison& cmp, int rule) {
    if (rule < 0 || rule >= static_cast<int>(cmp.rules.size())) return std::nullopt;
    const StoredCodeRule& r = cmp.rules[static_cast<size_t>(rule)];
    if (!r.tf || !r.error.empty()) return std::nullopt;
    QuantSpec spec = *r.tf;
    if (cmp.axis >= 0) {
        spec.axis = cmp.axis;
        if (opDescriptor(spec.op).uses.range_source != AttrUse::None) spec.range_source = RangeSource::FromData;
        else spec.range_given = false;
        return spec;
    }
    const Ranges whole = channelRanges(cmp.input, SliceLayout::perTensor(static_cast<int64_t>(cmp.input.size())));
    spec.axis = -1;
    spec.range_source = RangeSource::Given;
    if (isQdq(spec.op)) spec.range_given = true;
    spec.min_range = whole.min[0];
    spec.max_range = whole.max[0];
    return spec;
}

CodePoints channelCodePoints(const StoredQuantComparison& cmp, int64_t channel, size_t maxPoints) {
    CodePoints out;
    if (channel < 0 || channel >= cmp.channels || maxPoints == 0) return out;
    const int64_t perChannel = static_cast<int64_t>(cmp.codes.size()) / cmp.channels;
    const int64_t stride = std::max<int64_t>(1, (perChannel + static_cast<int64_t>(maxPoints) - 1) / static_cast<int64_t>(maxPoints));
    int64_t seen = 0;
    for (size_t i = 0; i < cmp.codes.size(); ++i) {
        if (cmp.layout.sliceOf(static_cast<int64_t>(i)) != channel) continue;
        if (seen++ % stride != 0) continue;
        out.x.push_back(cmp.input[i]);
        out.code.push_back(cmp.codes[i]);
        out.value.push_back(cmp.dequantized[i]);
        out.error.push_back(cmp.dequantized[i] - cmp.input[i]);
    }
    return out;
}

}  // namespace qs::analysis
