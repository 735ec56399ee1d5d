#include "core/data/npy_float.h"

#include <bit>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string_view>

#include "core/data/dataset.h"

namespace qs::data {
namespace {

uint32_t bswap(uint32_t v) {
    return (v >> 24) | ((v >> 8) & 0xFF00u) | ((v << 8) & 0xFF0000u) | (v << 24);
}
uint64_t bswap(uint64_t v) {
    return (static_cast<uint64_t>(bswap(static_cast<uint32_t>(v))) << 32) | bswap(static_cast<uint32_t>(v >> 32));
}

}  // namespace

Result<NpyFloatType> npyFloatType(const std::string& descr, const std::string& where) {
    const bool known = descr.size() == 3 && std::string_view("<>|=").find(descr[0]) != std::string_view::npos &&
                       descr[1] == 'f' && (descr[2] == '4' || descr[2] == '8');
    if (!known)
        return dataError(where + "dtype '" + descr +
                         "' is not supported (float32 '<f4' and float64 '<f8' are read, either byte order)");
    return NpyFloatType{descr[2] - '0', descr[0] == '>'};
}

Result<size_t> npyElementCount(const Shape& shape, const std::string& where) {
    size_t count = 1;
    for (int64_t dim : shape) {
        if (dim != 0 && count > std::numeric_limits<size_t>::max() / 8 / static_cast<size_t>(dim))
            return dataError(where + "shape " + shapeString(shape) + " is too large");
        count *= static_cast<size_t>(dim);
    }
    return count;
}

Status npyCheckDataBytes(const Shape& shape, size_t count, NpyFloatType type, size_t have,
                         const std::string& where) {
    const size_t need = count * static_cast<size_t>(type.width);
    if (have >= need) return okStatus();
    return dataError(where + "truncated data: shape " + shapeString(shape) + " of " +
                     (type.width == 4 ? "float32" : "float64") + " needs " + std::to_string(need) +
                     " bytes, the file has " + std::to_string(have));
}

void npyToFloat32(const char* src, float* dst, size_t count, NpyFloatType type) {
    if (type.width == 4 && !type.bigEndian) {
        std::memcpy(dst, src, count * 4);
    } else if (type.width == 4) {
        for (size_t i = 0; i < count; ++i) {
            uint32_t u;
            std::memcpy(&u, src + 4 * i, 4);
            dst[i] = std::bit_cast<float>(bswap(u));
        }
    } else {
        for (size_t i = 0; i < count; ++i) {
            uint64_t u;
            std::memcpy(&u, src + 8 * i, 8);
            if (type.bigEndian) u = bswap(u);
            dst[i] = static_cast<float>(std::bit_cast<double>(u));  // round to nearest
        }
    }
}

}  // namespace qs::data
