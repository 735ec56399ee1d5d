// Writing NumPy .npy files (format version 1.0), the counterpart of npy_reader.h for
// exports: little-endian uint8/uint16/uint32/float32 arrays in C order. The header is
// laid out as numpy.save writes it ("{'descr': '<u1', 'fortran_order': False, 'shape':
// (2, 3), }" padded with spaces and a newline so the data starts at a multiple of 64).
// Files are written atomically (output_file.h: a failed write keeps the previous file).
#pragma once

#include <cstdint>
#include <span>
#include <string>

#include "core/status.h"
#include "core/tensor.h"

namespace qs::data {

// The array must hold numElements(shape) values (InvalidArgument otherwise). IO errors:
// DataError "cannot write PATH: <strerror text>".
Status writeNpy(const std::string& path, std::span<const uint8_t> values, const Shape& shape);
Status writeNpy(const std::string& path, std::span<const uint16_t> values, const Shape& shape);
Status writeNpy(const std::string& path, std::span<const uint32_t> values, const Shape& shape);
Status writeNpy(const std::string& path, std::span<const float> values, const Shape& shape);

}  // namespace qs::data
