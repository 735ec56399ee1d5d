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

template <typename T>
Status writeArray(const std::string& path, std::span<const T> values, const Shape& shape, const char* descr) {
    if (static_cast<int64_t>(values.size()) != numElements(shape))
        return invalidArgument("writeNpy " + path + ": " + std::to_string(values.size()) +
                               " values for shape " + shapeString(shape));
    const std::string header = npyHeader(descr, shape);
    const std::string_view parts[] = {
        header, {reinterpret_cast<const char*>(values.data()), values.size_bytes()}};
    return writeOutputFile(path, parts);
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

}  // namespace qs::data
