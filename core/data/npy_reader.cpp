#include "core/data/npy_reader.h"

#include <bit>
#include <cstdint>
#include <cstring>
#include <limits>
#include <new>

#include "core/data/npy_header.h"
#include "core/data/read_util.h"

namespace qs::data {
namespace {

uint32_t bswap(uint32_t v) {
    return (v >> 24) | ((v >> 8) & 0xFF00u) | ((v << 8) & 0xFF0000u) | (v << 24);
}
uint64_t bswap(uint64_t v) {
    return (static_cast<uint64_t>(bswap(static_cast<uint32_t>(v))) << 32) | bswap(static_cast<uint32_t>(v >> 32));
}

// Converts count elements of the given width/byte order at src into floats at dst.
void convert(const char* src, float* dst, size_t count, int width, bool bigEndian) {
    if (width == 4 && !bigEndian) {
        std::memcpy(dst, src, count * 4);
    } else if (width == 4) {
        for (size_t i = 0; i < count; ++i) {
            uint32_t u;
            std::memcpy(&u, src + 4 * i, 4);
            dst[i] = std::bit_cast<float>(bswap(u));
        }
    } else {
        for (size_t i = 0; i < count; ++i) {
            uint64_t u;
            std::memcpy(&u, src + 8 * i, 8);
            if (bigEndian) u = bswap(u);
            dst[i] = static_cast<float>(std::bit_cast<double>(u));  // round to nearest
        }
    }
}

}  // namespace

Result<Dataset> readNpy(const std::string& path, const LoadOptions& options) {
    auto file = detail::MappedFile::open(path);
    if (!file) return file.error();
    const std::string_view bytes = file->bytes();
    const std::string where = path + ": ";
    auto header = parseNpyHeader(bytes, where);
    if (!header) return header.error();
    const size_t dataOffset = header->dataOffset;
    const std::string& descr = header->descr;
    const bool known = descr.size() == 3 && std::string_view("<>|=").find(descr[0]) != std::string_view::npos &&
                       descr[1] == 'f' && (descr[2] == '4' || descr[2] == '8');
    if (!known)
        return dataError(where + "dtype '" + descr +
                         "' is not supported (float32 '<f4' and float64 '<f8' are read, either byte order)");
    const int width = descr[2] - '0';
    const bool bigEndian = descr[0] == '>';

    const Shape& shape = header->shape;
    size_t count = 1;
    for (int64_t dim : shape) {
        if (dim != 0 && count > std::numeric_limits<size_t>::max() / 8 / static_cast<size_t>(dim))
            return dataError(where + "shape " + shapeString(shape) + " is too large");
        count *= static_cast<size_t>(dim);
    }
    const size_t need = count * static_cast<size_t>(width), have = bytes.size() - dataOffset;
    if (have < need)
        return dataError(where + "truncated data: shape " + shapeString(shape) + " of " +
                         (width == 4 ? "float32" : "float64") + " needs " + std::to_string(need) +
                         " bytes, the file has " + std::to_string(have));

    Dataset d;
    d.label = detail::baseName(path);
    d.shape = shape;
    try {
        d.values.resize(count);
    } catch (const std::bad_alloc&) {
        return dataError(where + "out of memory for " + std::to_string(count) + " values");
    }
    // Convert in chunks so progress is reported and cancellation is prompt.
    detail::Progress progress(options, path, need);
    constexpr size_t kChunk = size_t{1} << 18;  // 1-2 MB
    const char* src = bytes.data() + dataOffset;
    for (size_t i = 0; i < count; i += kChunk) {
        if (!progress.at(i * static_cast<size_t>(width))) return progress.cancelled();
        convert(src + i * static_cast<size_t>(width), d.values.data() + i, std::min(kChunk, count - i), width,
                bigEndian);
    }
    if (header->fortran && shape.size() > 1) {
        try {
            std::vector<float> rowMajor(d.values.size());
            fortranToRowMajor(reinterpret_cast<const char*>(d.values.data()), reinterpret_cast<char*>(rowMajor.data()),
                              shape, sizeof(float));
            d.values = std::move(rowMajor);
        } catch (const std::bad_alloc&) {
            return dataError(where + "out of memory transposing the Fortran-order array");
        }
    }
    if (!progress.finish()) return progress.cancelled();
    return d;
}

}  // namespace qs::data
