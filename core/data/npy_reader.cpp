#include "core/data/npy_reader.h"

#include <cstdint>
#include <new>

#include "core/data/npy_float.h"
#include "core/data/npy_header.h"
#include "core/data/read_util.h"

namespace qs::data {
Result<Dataset> readNpy(const std::string& path, const LoadOptions& options) {
    auto file = detail::MappedFile::open(path);
    if (!file) return file.error();
    const std::string_view bytes = file->bytes();
    const std::string where = path + ": ";
    auto header = parseNpyHeader(bytes, where);
    if (!header) return header.error();
    const size_t dataOffset = header->dataOffset;
    const auto type = npyFloatType(header->descr, where);
    if (!type) return type.error();
    const int width = type->width;

    const Shape& shape = header->shape;
    const auto elements = npyElementCount(shape, where);
    if (!elements) return elements.error();
    const size_t count = *elements;
    if (Status s = npyCheckDataBytes(shape, count, *type, bytes.size() - dataOffset, where); !s) return s.error();
    const size_t need = count * static_cast<size_t>(width);

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
        npyToFloat32(src + i * static_cast<size_t>(width), d.values.data() + i, std::min(kChunk, count - i), *type);
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
