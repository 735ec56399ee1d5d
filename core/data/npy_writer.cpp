#include "core/data/npy_writer.h"

#include <bit>
#include <string_view>

#include "core/data/dataset.h"
#include "core/data/output_file.h"

namespace qs::data {
namespace {

static_assert(std::endian::native == std::endian::little, "the .npy writer stores host bytes as little-endian");

// numpy's header: the dict, spaces, '\n'; magic (6) + version (2) + length (2) + header is a
// multiple of 64.
std::string npyHeader(const char* descr, const Shape& shape) {
    std::string dict = std::string("{'descr': '") + descr + "', 'fortran_order': False, 'shape': (";
    for (size_t i = 0; i < shape.size(); ++i) {
        if (i) dict += ", ";
        dict += std::to_string(shape[i]);
    }
    if (shape.size() == 1) dict += ',';
    dict += "), }";
    const size_t total = (10 + dict.size() + 1 + 63) / 64 * 64;
    dict.append(total - 10 - dict.size() - 1, ' ');
    dict += '\n';
    std::string out = "\x93NUMPY";
    out += '\x01';
    out += '\x00';
    out += static_cast<char>(dict.size() & 0xFF);
    out += static_cast<char>(dict.size() >> 8);
    return out + dict;
}

Status writeData(const std::string& path, std::string_view bytes, size_t count, const Shape& shape,
                 const char* descr) {
    if (static_cast<int64_t>(count) != numElements(shape))
        return invalidArgument("writeNpy " + path + ": " + std::to_string(count) +
                               " values for shape " + shapeString(shape));
    const std::string header = npyHeader(descr, shape);
    const std::string_view parts[] = {header, bytes};
    return writeOutputFile(path, parts);
}

template <typename T>
Status writeArray(const std::string& path, std::span<const T> values, const Shape& shape, const char* descr) {
    return writeData(path, {reinterpret_cast<const char*>(values.data()), values.size_bytes()},
                     values.size(), shape, descr);
}

struct ElementType {
    const char* descr;
    size_t size;
};
ElementType elementType(NpyElement e) {
    switch (e) {
    case NpyElement::Bool: return {"|b1", 1};
    case NpyElement::Int8: return {"|i1", 1};
    case NpyElement::UInt8: return {"|u1", 1};
    case NpyElement::Int16: return {"<i2", 2};
    case NpyElement::UInt16: return {"<u2", 2};
    case NpyElement::Float16: return {"<f2", 2};
    case NpyElement::Int32: return {"<i4", 4};
    case NpyElement::UInt32: return {"<u4", 4};
    case NpyElement::Float32: return {"<f4", 4};
    case NpyElement::Int64: return {"<i8", 8};
    case NpyElement::UInt64: return {"<u8", 8};
    case NpyElement::Float64: return {"<f8", 8};
    }
    return {"|u1", 1};
}

}  // namespace

Status writeNpy(const std::string& path, std::span<const uint8_t> values, const Shape& shape) {
    return writeArray(path, values, shape, "|u1");
}
Status writeNpy(const std::string& path, std::span<const uint16_t> values, const Shape& shape) {
    return writeArray(path, values, shape, "<u2");
}
Status writeNpy(const std::string& path, std::span<const uint32_t> values, const Shape& shape) {
    return writeArray(path, values, shape, "<u4");
}
Status writeNpy(const std::string& path, std::span<const float> values, const Shape& shape) {
    return writeArray(path, values, shape, "<f4");
}

size_t npyElementSize(NpyElement e) { return elementType(e).size; }

Status writeNpyBytes(const std::string& path, NpyElement element, std::string_view bytes, const Shape& shape) {
    const ElementType t = elementType(element);
    if (bytes.size() % t.size != 0)
        return invalidArgument("writeNpy " + path + ": " + std::to_string(bytes.size()) + " bytes are not a whole number of " +
                               std::to_string(t.size) + "-byte elements");
    return writeData(path, bytes, bytes.size() / t.size, shape, t.descr);
}

}  // namespace qs::data
