#include "core/modelfile/tensor_values.h"

#include <bit>
#include <cstring>

namespace qs::modelfile {
namespace {

template <typename T>
T readAt(const char* p, size_t i) {
    T v;
    std::memcpy(&v, p + i * sizeof(T), sizeof(T));
    return v;
}

// Stored element i as the integer it is (for quantized codes) — int64 holds all but the
// top half of uint64, which only a hostile file would quantize.
int64_t integerAt(DType t, const char* p, size_t i) {
    switch (t) {
    case DType::Int8: return readAt<int8_t>(p, i);
    case DType::UInt8: return readAt<uint8_t>(p, i);
    case DType::Bool: return readAt<uint8_t>(p, i) != 0;
    case DType::Int16: return readAt<int16_t>(p, i);
    case DType::UInt16: return readAt<uint16_t>(p, i);
    case DType::Int32: return readAt<int32_t>(p, i);
    case DType::UInt32: return readAt<uint32_t>(p, i);
    case DType::Int64: return readAt<int64_t>(p, i);
    case DType::UInt64: return static_cast<int64_t>(readAt<uint64_t>(p, i));
    default: return 0;
    }
}

float plainAt(DType t, const char* p, size_t i) {
    switch (t) {
    case DType::Float32: return readAt<float>(p, i);
    case DType::Float16: return halfToFloat(readAt<uint16_t>(p, i));
    case DType::BFloat16: return bfloat16ToFloat(readAt<uint16_t>(p, i));
    case DType::Float64: return static_cast<float>(readAt<double>(p, i));
    case DType::UInt64: return static_cast<float>(readAt<uint64_t>(p, i));
    default: return static_cast<float>(integerAt(t, p, i));
    }
}

// The axis a per-channel quantization runs along: the stored one, except that TFLite's
// converter writes a depthwise kernel's quantized_dimension (3) onto its 1-D bias as well,
// whose scales TFLite's kernels index by element. So a 1-D tensor with one scale per element
// is quantized along its only axis, whatever axis the file names.
int quantizationAxis(const TensorInfo& info) {
    const StoredQuantization& q = *info.quantization;
    if (info.shape.size() == 1 && static_cast<int64_t>(q.scale.size()) == info.shape[0]) return 0;
    return q.axis;
}

std::string shortName(const std::string& path) {
    const size_t slash = path.find_last_of('/');
    return slash == std::string::npos ? path : path.substr(slash + 1);
}

}  // namespace

float halfToFloat(uint16_t h) {
    const uint32_t sign = static_cast<uint32_t>(h & 0x8000u) << 16;
    const uint32_t exponent = (h >> 10) & 0x1Fu;
    uint32_t mantissa = h & 0x3FFu;
    uint32_t bits;
    if (exponent == 0x1F) {
        bits = sign | 0x7F800000u | (mantissa << 13);  // inf / nan (payload kept)
    } else if (exponent != 0) {
        bits = sign | ((exponent + 112) << 23) | (mantissa << 13);
    } else if (mantissa == 0) {
        bits = sign;
    } else {  // subnormal half: normalise
        int e = -1;
        do {
            ++e;
            mantissa <<= 1;
        } while ((mantissa & 0x400u) == 0);
        bits = sign | (static_cast<uint32_t>(112 - e) << 23) | ((mantissa & 0x3FFu) << 13);
    }
    return std::bit_cast<float>(bits);
}

float bfloat16ToFloat(uint16_t b) { return std::bit_cast<float>(static_cast<uint32_t>(b) << 16); }

Result<std::vector<float>> toFloat32(const TensorData& tensor) {
    const TensorInfo& info = tensor.info;
    const auto count = static_cast<size_t>(numElements(info.shape));
    const char* p = tensor.bytes.data();
    std::vector<float> out(count);
    if (info.dtype == DType::Float32) {
        if (count) std::memcpy(out.data(), p, count * sizeof(float));
        return out;
    }
    if (!info.quantization || !isInteger(info.dtype)) {
        for (size_t i = 0; i < count; ++i) out[i] = plainAt(info.dtype, p, i);
        return out;
    }
    const StoredQuantization& q = *info.quantization;
    const auto where = "tensor '" + info.name + "': ";
    if (q.scale.empty()) return data::dataError(where + "stored quantization without a scale");
    if (q.zero_point.size() != q.scale.size() && q.zero_point.size() > 1)
        return data::dataError(where + std::to_string(q.scale.size()) + " scales but " +
                               std::to_string(q.zero_point.size()) + " zero points");
    SliceLayout layout = SliceLayout::perTensor(static_cast<int64_t>(count));
    if (q.scale.size() > 1) {
        const int axis = quantizationAxis(info);
        if (axis < 0 || axis >= static_cast<int>(info.shape.size()))
            return data::dataError(where + "quantization axis " + std::to_string(axis) + " is outside shape " +
                                   shapeString(info.shape));
        if (info.shape[static_cast<size_t>(axis)] != static_cast<int64_t>(q.scale.size()))
            return data::dataError(where + std::to_string(q.scale.size()) + " scales for dimension " +
                                   std::to_string(axis) + " of shape " + shapeString(info.shape));
        layout = SliceLayout::along(info.shape, axis);
    }
    // Run by run: each contiguous run of `post` elements belongs to one channel, so the
    // channel is found once per run, not by a division per element.
    for (int64_t b = 0; b < layout.blocks(); ++b) {
        const auto c = static_cast<size_t>(b % layout.depth);
        const int64_t zero = q.zero_point.empty() ? 0 : q.zero_point[q.zero_point.size() > 1 ? c : 0];
        const float scale = q.scale[c];
        for (int64_t k = b * layout.post; k < (b + 1) * layout.post; ++k) {
            const auto i = static_cast<size_t>(k);
            int64_t difference;  // a file's zero point may be anything: no overflow on the way
            if (__builtin_sub_overflow(integerAt(info.dtype, p, i), zero, &difference))
                return data::dataError(where + "zero point " + std::to_string(zero) + " is out of range for its codes");
            out[i] = static_cast<float>(difference) * scale;
        }
    }
    return out;
}

Result<data::Dataset> toDataset(const ModelFile& model, size_t index) {
    auto tensor = model.load(index);
    if (!tensor) return tensor.error();
    auto values = toFloat32(*tensor);
    if (!values) return data::dataError(model.label() + ": " + values.error().message);
    data::Dataset set;
    set.values = std::move(values).value();
    set.shape = tensor->info.shape;
    set.label = shortName(model.label()) + " \u203a " + tensor->info.name;
    return set;
}

int channelAxis(std::string_view format, const TensorInfo& info) {
    const int rank = static_cast<int>(info.shape.size());
    if (info.quantization && info.quantization->perChannel()) return quantizationAxis(info);
    if (rank < 2) return -1;
    if (info.channel_axis && *info.channel_axis >= 0 && *info.channel_axis < rank) return *info.channel_axis;
    if (format == "tflite") {
        const bool depthwise = rank == 4 && info.shape[0] == 1;  // [1, H, W, C·multiplier]
        return depthwise ? 3 : 0;
    }
    // ONNX and safetensors (PyTorch's layouts: Linear [out, in], Conv [out, in, kH, kW]).
    if (format == "onnx" || format == "safetensors") return 0;
    return rank - 1;
}

}  // namespace qs::modelfile
