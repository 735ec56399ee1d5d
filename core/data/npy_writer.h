// Writing NumPy .npy files (format version 1.0), the counterpart of npy_reader.h for
// exports: little-endian arrays in C order, typed (uint8/uint16/uint32/float32) or as
// stored bytes of any of NumPy's plain element types (a model tensor's own codes). The header is
// laid out as numpy.save writes it ("{'descr': '<u1', 'fortran_order': False, 'shape':
// (2, 3), }" padded with spaces and a newline so the data starts at a multiple of 64).
// Files are written atomically (output_file.h: a failed write keeps the previous file).
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "core/status.h"
#include "core/tensor.h"

namespace qs::data {

// The array must hold numElements(shape) values (InvalidArgument otherwise). IO errors:
// DataError "cannot write PATH: <strerror text>".
Status writeNpy(const std::string& path, std::span<const uint8_t> values, const Shape& shape);
Status writeNpy(const std::string& path, std::span<const uint16_t> values, const Shape& shape);
Status writeNpy(const std::string& path, std::span<const uint32_t> values, const Shape& shape);
Status writeNpy(const std::string& path, std::span<const float> values, const Shape& shape);

// NumPy's plain element types, for arrays written from bytes already laid out
// little-endian and row-major (no alignment needed: a view into a mapped file will do).
enum class NpyElement { Bool, Int8, UInt8, Int16, UInt16, Float16, Int32, UInt32, Float32, Int64, UInt64, Float64 };
size_t npyElementSize(NpyElement e);
// `bytes` must hold numElements(shape) * npyElementSize(element) bytes (InvalidArgument
// otherwise).
Status writeNpyBytes(const std::string& path, NpyElement element, std::string_view bytes, const Shape& shape);

}  // namespace qs::data
