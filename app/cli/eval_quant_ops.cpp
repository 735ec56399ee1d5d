// Evaluators for TF's quantization ops (QuantizeV2, Dequantize, QuantizeAndDequantize
// V1-V4, V4Grad): read a case, run the core op, and shape its outputs as the results file
// expects (flat row-major lists; output_min/max scalar or per slice as TF returns them).
#include <string>
#include <vector>

#include "app/cli/case_attrs.h"
#include "app/cli/evaluators.h"
#include "core/analysis/quant_spec.h"
#include "core/ops/dequantize.h"
#include "core/ops/quantize_and_dequantize.h"
#include "core/ops/quantize_v2.h"

namespace qs::cli {

namespace {

// The input tensor: "input" values with "shape".
TensorArg<float> inputTensor(const CaseReader& c, const char* key = "input") {
    TensorArg<float> t;
    t.values = c.floats(key);
    t.shape = c.shape();
    if (numElements(t.shape) != static_cast<int64_t>(t.values.size()))
        throw CaseFormatError{key, "has " + std::to_string(t.values.size()) +
                                       " values but shape " + shapeString(t.shape) + " needs " +
                                       std::to_string(numElements(t.shape))};
    return t;
}

// attrs.T, with TF's error for a type the op does not accept (the attribute table's).
Result<QType> qtypeAttr(const CaseReader& c) {
    if (!c.hasAttr("T")) throw CaseFormatError{"attrs.T", "is missing"};
    const Result<int64_t> t = findOpAttribute("T")->parse(c.attrString("T", ""), QuantOp::QuantizeV2);
    if (!t) return t.error();
    return static_cast<QType>(*t);
}

JsonOut rangeJson(const std::vector<float>& values, bool scalar) {
    if (scalar) return JsonOut(values.at(0));
    return JsonOut::list(values);
}

JsonOut evalQuantizeV2(const CaseReader& c) {
    const TensorArg<float> input = inputTensor(c);
    const TensorArg<float> mn = c.floatTensor("input_min");
    const TensorArg<float> mx = c.floatTensor("input_max");
    QuantSpec spec;
    spec.op = QuantOp::QuantizeV2;
    if (Status read = readCaseAttributes(c, spec); !read) return errorResult(read.error());
    const QuantizeV2Attrs a = quantizeV2Attrs(spec);

    std::vector<int32_t> codes(input.values.size());
    Result<QuantizeV2Ranges> r = quantizeV2<int32_t>(input.ref(), mn.ref(), mx.ref(), a, codes);
    if (!r) return errorResult(r.error());
    JsonOut out;
    out.set("output", JsonOut::list(std::vector<int64_t>(codes.begin(), codes.end())));
    out.set("output_min", rangeJson(r->output_min, r->scalar));
    out.set("output_max", rangeJson(r->output_max, r->scalar));
    return out;
}

JsonOut evalDequantize(const CaseReader& c) {
    const Shape shape = c.shape();
    const std::vector<int64_t> raw = c.ints("input");
    if (numElements(shape) != static_cast<int64_t>(raw.size()))
        throw CaseFormatError{"input", "has " + std::to_string(raw.size()) +
                                           " values but shape " + shapeString(shape) +
                                           " needs " + std::to_string(numElements(shape))};
    const TensorArg<float> mn = c.floatTensor("input_min");
    const TensorArg<float> mx = c.floatTensor("input_max");
    Result<QType> t = qtypeAttr(c);
    if (!t) return errorResult(t.error());
    const QTypeInfo info = qtypeInfo(*t);
    std::vector<int32_t> codes;
    for (size_t i = 0; i < raw.size(); ++i) {
        if (raw[i] < info.lowest || raw[i] > info.highest)
            throw CaseFormatError{"input[" + std::to_string(i) + "]",
                                  "= " + std::to_string(raw[i]) + " is outside " +
                                      std::string(info.name) + "'s range"};
        codes.push_back(static_cast<int32_t>(raw[i]));
    }
    Result<DequantizeDType> dtype = parseDequantizeDType(c.attrString("dtype", "float"));
    if (!dtype) return errorResult(dtype.error());
    DequantizeAttrs a;
    a.T = *t;
    a.dtype = *dtype;
    const std::string modeText = c.attrString("mode", "MIN_COMBINED");
    Result<QuantizeMode> mode = parseQuantizeMode(modeText);
    if (!mode) {
        if (a.dtype == DequantizeDType::BFloat16)  // the bfloat16 kernel words it differently
            return errorResult(invalidArgument(
                "When output type is bfloat16, Mode string must be 'MIN_COMBINED', is '" +
                modeText + "'"));
        return errorResult(mode.error());
    }
    a.mode = *mode;
    a.narrow_range = c.attrBool("narrow_range", false);
    a.axis = c.attrInt("axis", -1);
    std::vector<float> out(codes.size());
    const TensorRef<int32_t> in{std::span<const int32_t>(codes), shape};
    if (Status s = dequantize<int32_t>(in, mn.ref(), mx.ref(), a, out); !s)
        return errorResult(s.error());
    JsonOut r;
    r.set("output", JsonOut::list(out));
    return r;
}

// The explorer op of a QuantizeAndDequantize version. V1 is not an explorer op: it reads V2's
// attributes but has no round_mode.
QuantOp qdqOp(QdqVersion version) {
    for (const OpDescriptor& d : opDescriptors())
        if (d.family == OpFamily::Qdq && d.qdq_version == version) return d.op;
    return QuantOp::QuantizeAndDequantizeV2;
}

JsonOut evalQdq(const CaseReader& c, QdqVersion version) {
    const TensorArg<float> input = inputTensor(c);
    QuantSpec spec = defaultSpecFor(qdqOp(version));
    for (const OpAttribute& attribute : opAttributes()) {
        const AttrUse use = attribute.use(spec.op);
        if (!attribute.tf || use == AttrUse::Input) continue;  // V3's num_bits: below
        if (version == QdqVersion::V1 && attribute.name == "round_mode") continue;
        if (Status read = readCaseAttribute(c, attribute, spec); !read) return errorResult(read.error());
    }
    QdqAttrs a = qdqAttrs(spec);
    a.version = version;
    TensorArg<float> mn, mx;
    if (version == QdqVersion::V1 && (c.hasAttr("input_min") || !c.has("input_min"))) {
        // V1 takes its range as attributes.
        mn.values = {static_cast<float>(c.attrNumber("input_min", 0.0))};
        mx.values = {static_cast<float>(c.attrNumber("input_max", 0.0))};
    } else {
        mn = c.floatTensor("input_min");
        mx = c.floatTensor("input_max");
    }
    if (version == QdqVersion::V3) {
        const QJsonValue nb = c.has("num_bits") ? c.value("num_bits") : c.attr("num_bits");
        if (nb.isUndefined()) throw CaseFormatError{"num_bits", "is missing"};
        if (nb.isArray()) {
            const auto arr = nb.toArray();
            a.num_bits_shape = {static_cast<int64_t>(arr.size())};
            a.num_bits = arr.isEmpty() ? 0 : CaseReader::toInteger(arr.at(0), "num_bits[0]");
        } else {
            a.num_bits = CaseReader::toInteger(nb, "num_bits");
        }
    }
    std::vector<float> out(input.values.size());
    Result<QdqResult> r = quantizeAndDequantize(input.ref(), mn.ref(), mx.ref(), a, out);
    if (!r) return errorResult(r.error());
    JsonOut res;
    res.set("output", JsonOut::list(out));
    return res;
}

JsonOut evalQdqV4Grad(const CaseReader& c) {
    const TensorArg<float> input = inputTensor(c);
    TensorArg<float> grad;
    grad.values = c.floats("gradients");
    grad.shape = input.shape;
    if (grad.values.size() != input.values.size())
        throw CaseFormatError{"gradients", "has " + std::to_string(grad.values.size()) +
                                               " values but input has " +
                                               std::to_string(input.values.size())};
    const TensorArg<float> mn = c.floatTensor("input_min");
    const TensorArg<float> mx = c.floatTensor("input_max");
    std::vector<float> backprop(input.values.size());
    Result<QdqV4GradResult> r = quantizeAndDequantizeV4Grad(
        grad.ref(), input.ref(), mn.ref(), mx.ref(), c.attrInt("axis", -1), backprop);
    if (!r) return errorResult(r.error());
    JsonOut res;
    res.set("output", JsonOut::list(backprop));
    res.set("input_min_backprop", rangeJson(r->input_min_backprop, r->min_shape.empty()));
    res.set("input_max_backprop", rangeJson(r->input_max_backprop, r->max_shape.empty()));
    return res;
}

constexpr EvaluatorEntry kEntries[] = {
    {"QuantizeV2", evalQuantizeV2},
    {"Dequantize", evalDequantize},
    {"QuantizeAndDequantize", [](const CaseReader& c) { return evalQdq(c, QdqVersion::V1); }},
    {"QuantizeAndDequantizeV2", [](const CaseReader& c) { return evalQdq(c, QdqVersion::V2); }},
    {"QuantizeAndDequantizeV3", [](const CaseReader& c) { return evalQdq(c, QdqVersion::V3); }},
    {"QuantizeAndDequantizeV4", [](const CaseReader& c) { return evalQdq(c, QdqVersion::V4); }},
    {"QuantizeAndDequantizeV4Grad", evalQdqV4Grad},
};

}  // namespace

std::span<const EvaluatorEntry> quantOpEvaluators() { return kEntries; }

}  // namespace qs::cli
