#include "core/modelfile/tensor_values.h"

#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstring>

#include "core/modelfile/model_formats.h"

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

namespace {

// How a tensor's stored elements become float32: the quantization's layout, checked once.
struct Conversion {
    SliceLayout layout;  // per channel along the quantization axis (quantized integers)
    bool dequantize = false;
};

Result<Conversion> conversionOf(const TensorInfo& info) {
    Conversion c;
    c.layout = SliceLayout::perTensor(numElements(info.shape));
    if (info.dtype == DType::Float32 || !info.quantization || !isInteger(info.dtype)) return c;
    c.dequantize = true;
    const StoredQuantization& q = *info.quantization;
    const auto where = "tensor '" + info.name + "': ";
    if (q.scale.empty()) return data::dataError(where + "stored quantization without a scale");
    if (q.zero_point.size() != q.scale.size() && q.zero_point.size() > 1)
        return data::dataError(where + std::to_string(q.scale.size()) + " scales but " +
                               std::to_string(q.zero_point.size()) + " zero points");
    if (q.scale.size() > 1) {
        const int axis = quantizationAxis(info);
        if (axis < 0 || axis >= static_cast<int>(info.shape.size()))
            return data::dataError(where + "quantization axis " + std::to_string(axis) + " is outside shape " +
                                   shapeString(info.shape));
        if (info.shape[static_cast<size_t>(axis)] != static_cast<int64_t>(q.scale.size()))
            return data::dataError(where + std::to_string(q.scale.size()) + " scales for dimension " +
                                   std::to_string(axis) + " of shape " + shapeString(info.shape));
        c.layout = SliceLayout::along(info.shape, axis);
    }
    return c;
}

// Elements [begin, begin + out.size()) of the tensor as float32.
Status convertRange(const TensorData& tensor, const Conversion& c, int64_t begin, std::span<float> out) {
    const TensorInfo& info = tensor.info;
    const char* p = tensor.bytes.data();
    const auto n = static_cast<int64_t>(out.size());
    if (info.dtype == DType::Float32) {
        if (n) std::memcpy(out.data(), p + begin * static_cast<int64_t>(sizeof(float)), out.size() * sizeof(float));
        return okStatus();
    }
    if (!c.dequantize) {
        for (int64_t k = 0; k < n; ++k) out[static_cast<size_t>(k)] = plainAt(info.dtype, p, static_cast<size_t>(begin + k));
        return okStatus();
    }
    // Run by run: each contiguous run of `post` elements belongs to one channel, so the
    // channel is found once per run, not by a division per element.
    const StoredQuantization& q = *info.quantization;
    const SliceLayout& l = c.layout;
    for (int64_t i = begin; i < begin + n;) {
        const int64_t run = i / l.post;
        const auto ch = static_cast<size_t>(run % l.depth);
        const int64_t end = std::min(begin + n, (run + 1) * l.post);
        const int64_t zero = q.zero_point.empty() ? 0 : q.zero_point[q.zero_point.size() > 1 ? ch : 0];
        const float scale = q.scale[ch];
        for (; i < end; ++i) {
            int64_t difference;  // a file's zero point may be anything: no overflow on the way
            if (__builtin_sub_overflow(integerAt(info.dtype, p, static_cast<size_t>(i)), zero, &difference))
                return data::dataError("tensor '" + info.name + "': zero point " + std::to_string(zero) +
                                       " is out of range for its codes");
            out[static_cast<size_t>(i - begin)] = static_cast<float>(difference) * scale;
        }
    }
    return okStatus();
}

// A tensor's values converted chunk by chunk as they are read; the stored bytes (a view
// into the mapped file, or a decoded buffer) stay alive with the stream.
class TensorStream final : public data::FloatStream {
public:
    TensorStream(TensorData tensor, Conversion c, std::string name)
        : tensor_(std::move(tensor)), conversion_(std::move(c)), name_(std::move(name)) {}
    int64_t size() const override { return numElements(tensor_.info.shape); }
    Status read(int64_t begin, std::span<float> out) const override {
        if (begin < 0 || begin + static_cast<int64_t>(out.size()) > size())
            return data::dataError(name_ + ": elements " + std::to_string(begin) + " .. " +
                                   std::to_string(begin + static_cast<int64_t>(out.size())) + " are outside its " +
                                   std::to_string(size()));
        Status s = convertRange(tensor_, conversion_, begin, out);
        if (!s) return data::dataError(name_ + ": " + s.error().message);
        return s;
    }
    std::span<const float> inMemory() const override {
        if (tensor_.info.dtype != DType::Float32 ||
            reinterpret_cast<uintptr_t>(tensor_.bytes.data()) % alignof(float) != 0)
            return {};
        return {reinterpret_cast<const float*>(tensor_.bytes.data()), static_cast<size_t>(size())};
    }
    std::string name() const override { return name_; }

private:
    TensorData tensor_;
    Conversion conversion_;
    std::string name_;
};

}  // namespace

Result<std::vector<float>> toFloat32(const TensorData& tensor) {
    auto c = conversionOf(tensor.info);
    if (!c) return c.error();
    std::vector<float> out(static_cast<size_t>(numElements(tensor.info.shape)));
    if (Status s = convertRange(tensor, *c, 0, out); !s) return s.error();
    return out;
}

Result<data::Dataset> toDataset(const ModelFile& model, size_t index, std::optional<int64_t> stream_above_bytes) {
    auto tensor = model.load(index);
    if (!tensor) return tensor.error();
    data::Dataset set;
    set.shape = tensor->info.shape;
    set.label = shortName(model.label()) + " \u203a " + tensor->info.name;
    const double floatBytes = 4.0 * static_cast<double>(numElements(set.shape));
    if (stream_above_bytes && floatBytes > static_cast<double>(*stream_above_bytes)) {
        auto c = conversionOf(tensor->info);
        if (!c) return data::dataError(model.label() + ": " + c.error().message);
        set.stream = std::make_shared<const TensorStream>(std::move(tensor).value(), std::move(c).value(), set.label);
        return set;
    }
    auto values = toFloat32(*tensor);
    if (!values) return data::dataError(model.label() + ": " + values.error().message);
    set.values = std::move(values).value();
    return set;
}

int channelAxis(std::string_view format, const TensorInfo& info) {
    const int rank = static_cast<int>(info.shape.size());
    if (info.quantization && info.quantization->perChannel()) return quantizationAxis(info);
    if (rank < 2) return -1;
    if (info.channel_axis && *info.channel_axis >= 0 && *info.channel_axis < rank) return *info.channel_axis;
    const ModelFormat* row = modelFormatByKey(format);
    switch (row ? row->channels : ChannelLayout::Last) {
        case ChannelLayout::First: return 0;
        case ChannelLayout::Last: return rank - 1;
        case ChannelLayout::TfliteKernels: {
            const bool depthwise = rank == 4 && info.shape[0] == 1;  // [1, H, W, C·multiplier]
            return depthwise ? 3 : 0;
        }
    }
    return rank - 1;
}

}  // namespace qs::modelfile
