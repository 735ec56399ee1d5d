#include "core/modelfile/onnx_links.h"

#include <cstring>
#include <optional>
#include <string>
#include <unordered_map>

#include "core/modelfile/tensor_values.h"

namespace qs::modelfile::onnx_links {
namespace {

using onnx_wire::Listing;
using onnx_wire::NodeUse;

// Names per graph, looked up from a node's graph outwards.
class Scopes {
public:
    explicit Scopes(const std::vector<int>& parents) : parents_(parents), names_(parents.size()) {}

    void define(int scope, const std::string& name, size_t index) {
        if (valid(scope)) names_[static_cast<size_t>(scope)].emplace(name, index);  // the first one wins
    }

    std::optional<size_t> find(int scope, const std::string& name) const {
        for (int s = scope, hops = 0; valid(s) && hops <= onnx_wire::kMaxGraphDepth + 1;
             s = parents_[static_cast<size_t>(s)], ++hops) {
            const auto& names = names_[static_cast<size_t>(s)];
            if (auto it = names.find(name); it != names.end()) return it->second;
        }
        return std::nullopt;
    }

private:
    bool valid(int scope) const { return scope >= 0 && static_cast<size_t>(scope) < names_.size(); }
    const std::vector<int>& parents_;
    std::vector<std::unordered_map<std::string, size_t>> names_;
};

bool isCodeType(DType t) {
    return t == DType::Int8 || t == DType::UInt8 || t == DType::Int16 || t == DType::UInt16 || t == DType::Int32;
}

template <typename T>
int64_t integerAt(const char* p, size_t i) {
    T v;
    std::memcpy(&v, p + i * sizeof(T), sizeof(T));
    return static_cast<int64_t>(v);
}

// A small listed tensor's values: floats for scales, integers for zero points.
std::optional<TensorData> loadSmall(size_t index, const std::function<Result<TensorData>(size_t)>& load,
                                    const std::vector<TensorInfo>& tensors) {
    const int64_t n = numElements(tensors[index].shape);
    if (n < 1 || n > kMaxQuantizationValues) return std::nullopt;
    auto data = load(index);
    if (!data) return std::nullopt;
    return std::move(data).value();
}

std::optional<std::vector<float>> scalesOf(const TensorData& t) {
    if (!isFloat(t.info.dtype)) return std::nullopt;
    auto values = toFloat32(t);
    if (!values) return std::nullopt;
    return std::move(values).value();
}

std::optional<std::vector<int64_t>> zeroPointsOf(const TensorData& t) {
    const auto n = static_cast<size_t>(numElements(t.info.shape));
    const char* p = t.bytes.data();
    std::vector<int64_t> out(n);
    for (size_t i = 0; i < n; ++i) {
        switch (t.info.dtype) {
        case DType::Int8: out[i] = integerAt<int8_t>(p, i); break;
        case DType::UInt8: out[i] = integerAt<uint8_t>(p, i); break;
        case DType::Int16: out[i] = integerAt<int16_t>(p, i); break;
        case DType::UInt16: out[i] = integerAt<uint16_t>(p, i); break;
        case DType::Int32: out[i] = integerAt<int32_t>(p, i); break;
        default: return std::nullopt;
        }
    }
    return out;
}

// x's stored quantization from one DequantizeLinear, or nullopt.
std::optional<StoredQuantization> quantizationOf(const NodeUse& dq, const TensorInfo& x, const Scopes& scopes,
                                                 std::vector<TensorInfo>& tensors,
                                                 const std::function<Result<TensorData>(size_t)>& load) {
    if (dq.inputs.size() < 2) return std::nullopt;
    const auto scaleIndex = scopes.find(dq.scope, dq.inputs[1]);
    if (!scaleIndex) return std::nullopt;
    const auto scaleTensor = loadSmall(*scaleIndex, load, tensors);
    if (!scaleTensor) return std::nullopt;
    auto scales = scalesOf(*scaleTensor);
    if (!scales) return std::nullopt;
    StoredQuantization q;
    q.scale = std::move(*scales);
    if (dq.inputs.size() > 2 && !dq.inputs[2].empty()) {
        const auto zeroIndex = scopes.find(dq.scope, dq.inputs[2]);
        if (!zeroIndex) return std::nullopt;  // computed at run time: unknown here
        const auto zeroTensor = loadSmall(*zeroIndex, load, tensors);
        if (!zeroTensor) return std::nullopt;
        auto zeros = zeroPointsOf(*zeroTensor);
        if (!zeros) return std::nullopt;
        q.zero_point = std::move(*zeros);
    }
    if (q.scale.size() == 1) return q;  // per tensor: axis 0
    if (scaleTensor->info.shape.size() != 1) return std::nullopt;  // blocked quantization: not one scale per slice
    const auto rank = static_cast<int64_t>(x.shape.size());
    int64_t axis = dq.axis.value_or(1);
    if (axis < 0) axis += rank;
    if (axis < 0 || axis >= rank) return std::nullopt;
    q.axis = static_cast<int>(axis);
    return q;
}

std::optional<int> channelAxisOf(const NodeUse& use, const TensorInfo& weight) {
    if (use.op_type == "Conv") return 0;
    if (use.op_type == "ConvTranspose") return 1;
    if (use.op_type == "MatMul" && weight.shape.size() == 2) return 1;
    if (use.op_type == "Gemm") return use.trans_b != 0 ? 0 : 1;
    return std::nullopt;
}

}  // namespace

void linkUses(std::vector<TensorInfo>& tensors, const std::vector<int>& scopes, const Listing& listing,
              const std::function<Result<TensorData>(size_t)>& load) {
    Scopes names(listing.parent_scope);
    for (size_t i = 0; i < tensors.size() && i < scopes.size(); ++i) names.define(scopes[i], tensors[i].name, i);
    // What a DequantizeLinear's output stands for: its x.
    Scopes dequantized(listing.parent_scope);
    for (const NodeUse& use : listing.uses) {
        if (use.op_type != "DequantizeLinear" || use.inputs.empty()) continue;
        const auto x = names.find(use.scope, use.inputs[0]);
        if (!x) continue;
        if (!use.output.empty()) dequantized.define(use.scope, use.output, *x);
        TensorInfo& info = tensors[*x];
        if (info.quantization || !isCodeType(info.dtype)) continue;
        info.quantization = quantizationOf(use, info, names, tensors, load);
    }
    for (const NodeUse& use : listing.uses) {
        if (use.inputs.size() < 2) continue;
        auto w = names.find(use.scope, use.inputs[1]);
        if (!w) w = dequantized.find(use.scope, use.inputs[1]);
        if (!w || tensors[*w].channel_axis) continue;
        tensors[*w].channel_axis = channelAxisOf(use, tensors[*w]);
    }
}

}  // namespace qs::modelfile::onnx_links
