#include "core/modelfile/onnx_values.h"

#include <onnx/onnx_pb.h>

#include <algorithm>
#include <bit>
#include <cctype>
#include <charconv>
#include <climits>
#include <cstring>
#include <vector>

#include "core/data/dataset.h"

namespace qs::modelfile::onnx_values {
namespace {

static_assert(std::endian::native == std::endian::little, "ONNX stores little-endian values; so does this reader's output");

// An owned buffer of `count` elements of type Out, filled from `in` converted one by one.
template <typename Out, typename In, typename Convert>
Values convertAll(const In& in, Convert convert) {
    auto buffer = std::make_shared<std::vector<char>>(static_cast<size_t>(in.size()) * sizeof(Out));
    char* p = buffer->data();
    for (int i = 0; i < in.size(); ++i) {
        const Out v = convert(in.Get(i));
        std::memcpy(p + static_cast<size_t>(i) * sizeof(Out), &v, sizeof(Out));
    }
    return {std::string_view(buffer->data(), buffer->size()), buffer};
}

template <typename Out, typename In>
Values castAll(const In& in) {
    return convertAll<Out>(in, [](auto v) { return static_cast<Out>(v); });
}

Error countError(const char* field, int have, int64_t count) {
    return data::dataError(std::string(field) + " holds " + std::to_string(have) + " values, the shape needs " +
                           std::to_string(count));
}

// Parses a serialized message of at most 2 GiB (the listing has checked the file's size).
template <typename Message>
bool parse(Message& m, std::string_view bytes) {
    return bytes.size() <= static_cast<size_t>(INT_MAX) && m.ParseFromArray(bytes.data(), static_cast<int>(bytes.size()));
}

std::string lowercase(std::string s) {
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
    return s;
}

// A decimal count as external_data writes it ("0", "4096"); nullopt for anything else.
std::optional<uint64_t> decimal(const std::string& text) {
    uint64_t v = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (text.empty() || ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
    return v;
}

}  // namespace

ElementType elementType(int32_t dataType) {
    using T = onnx::TensorProto;
    switch (dataType) {
    case T::FLOAT: return {DType::Float32, "float32"};
    case T::FLOAT16: return {DType::Float16, "float16"};
    case T::BFLOAT16: return {DType::BFloat16, "bfloat16"};
    case T::DOUBLE: return {DType::Float64, "float64"};
    case T::INT8: return {DType::Int8, "int8"};
    case T::UINT8: return {DType::UInt8, "uint8"};
    case T::INT16: return {DType::Int16, "int16"};
    case T::UINT16: return {DType::UInt16, "uint16"};
    case T::INT32: return {DType::Int32, "int32"};
    case T::UINT32: return {DType::UInt32, "uint32"};
    case T::INT64: return {DType::Int64, "int64"};
    case T::UINT64: return {DType::UInt64, "uint64"};
    case T::BOOL: return {DType::Bool, "bool"};
    default: break;
    }
    // The types ONNX added after the 1.12 this is built with (onnx.proto, DataType).
    static const char* const later[] = {"float8e4m3fn", "float8e4m3fnuz", "float8e5m2", "float8e5m2fnuz",
                                        "uint4",        "int4",           "float4e2m1", "float8e8m0"};
    if (T::DataType_IsValid(dataType)) return {DType::Other, lowercase(T::DataType_Name(static_cast<T::DataType>(dataType)))};
    if (dataType >= 17 && dataType < 17 + static_cast<int32_t>(std::size(later))) return {DType::Other, later[dataType - 17]};
    return {DType::Other, "data_type " + std::to_string(dataType)};
}

Result<Values> decodeTypedFields(std::string_view message, DType dtype, int64_t count) {
    onnx::TensorProto t;
    if (!parse(t, message)) return data::dataError("its TensorProto does not parse");
    const auto check = [count](const char* field, int have) -> std::optional<Error> {
        if (have != count) return countError(field, have, count);
        return std::nullopt;
    };
    // int32_data holds every type of 16 bits or fewer, one element per entry (float16 and
    // bfloat16 as their bit patterns), as ONNX's TensorProto documents.
    const auto narrow = [&](auto zero) -> Result<Values> {
        using Out = decltype(zero);
        if (auto e = check("int32_data", t.int32_data_size())) return *e;
        return castAll<Out>(t.int32_data());
    };
    switch (dtype) {
    case DType::Float32:
        if (auto e = check("float_data", t.float_data_size())) return *e;
        return castAll<float>(t.float_data());
    case DType::Float64:
        if (auto e = check("double_data", t.double_data_size())) return *e;
        return castAll<double>(t.double_data());
    case DType::Int64:
        if (auto e = check("int64_data", t.int64_data_size())) return *e;
        return castAll<int64_t>(t.int64_data());
    case DType::UInt64:
        if (auto e = check("uint64_data", t.uint64_data_size())) return *e;
        return castAll<uint64_t>(t.uint64_data());
    case DType::UInt32:
        if (auto e = check("uint64_data", t.uint64_data_size())) return *e;
        return castAll<uint32_t>(t.uint64_data());
    case DType::Int32: return narrow(int32_t{});
    case DType::Int16: return narrow(int16_t{});
    case DType::UInt16: case DType::Float16: case DType::BFloat16: return narrow(uint16_t{});
    case DType::Int8: return narrow(int8_t{});
    case DType::UInt8: return narrow(uint8_t{});
    case DType::Bool:
        if (auto e = check("int32_data", t.int32_data_size())) return *e;
        return convertAll<uint8_t>(t.int32_data(), [](int32_t v) { return static_cast<uint8_t>(v != 0); });
    case DType::Other: break;
    }
    return data::dataError("its element type has no typed field this reader decodes");
}

Result<Values> decodeAttribute(std::string_view message, onnx_wire::Source source) {
    onnx::AttributeProto a;
    if (!parse(a, message)) return data::dataError("its AttributeProto does not parse");
    using onnx_wire::Source;
    switch (source) {
    case Source::AttrFloat: {
        google::protobuf::RepeatedField<float> one;
        one.Add(a.f());
        return castAll<float>(one);
    }
    case Source::AttrFloats: return castAll<float>(a.floats());
    case Source::AttrInt: {
        google::protobuf::RepeatedField<int64_t> one;
        one.Add(a.i());
        return castAll<int64_t>(one);
    }
    case Source::AttrInts: return castAll<int64_t>(a.ints());
    case Source::Tensor: case Source::AttrStrings: break;
    }
    return data::dataError("its attribute holds no numbers");
}

Result<Values> externalData(const onnx_wire::StoredTensor& tensor, int64_t expected, const Sidecars& sidecars) {
    std::optional<std::string> location;
    std::optional<uint64_t> offset = 0, length = static_cast<uint64_t>(expected);
    for (const auto& [key, value] : tensor.external_data) {
        if (key == "location") location = value;
        else if (key == "offset" && !(offset = decimal(value)))
            return data::dataError("external data offset '" + value + "' is not a byte count");
        else if (key == "length" && !(length = decimal(value)))
            return data::dataError("external data length '" + value + "' is not a byte count");
    }
    if (!location || location->empty()) return data::dataError("stored as external data, but without a location");
    auto file = sidecars(*location);
    if (!file) return data::dataError("external data: " + file.error().message);
    const SharedBytes sidecar = std::move(file).value();
    const std::string_view whole = sidecar->view();
    if (!inside(whole, *offset, *length))
        return data::dataError("external data '" + *location + "' holds " + std::to_string(whole.size()) +
                               " bytes, the tensor's lie at " + std::to_string(*offset) + " + " + std::to_string(*length));
    return Values{whole.substr(*offset, *length), sidecar};
}

}  // namespace qs::modelfile::onnx_values
