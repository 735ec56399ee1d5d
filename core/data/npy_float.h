// The .npy dtypes the explorer reads as float32 values (float32 and float64, either byte
// order) and their conversion, shared by the in-memory reader (npy_reader.h) and the streamed
// one (npy_stream.h), so a file gives the same floats whichever way it is opened.
#pragma once

#include <cstddef>
#include <string>

#include "core/status.h"
#include "core/tensor.h"

namespace qs::data {

struct NpyFloatType {
    int width = 4;  // bytes per element: 4 (float32) or 8 (float64)
    bool bigEndian = false;
};

// DataError "WHEREdtype 'descr' is not supported (...)" for anything but '<f4' / '<f8' and
// their other byte orders ('>', '|', '=').
Result<NpyFloatType> npyFloatType(const std::string& descr, const std::string& where);

// The number of elements of `shape`, refused (DataError naming the shape) when it times 8
// bytes would not fit a size_t: a header's shape is never trusted before it is checked.
Result<size_t> npyElementCount(const Shape& shape, const std::string& where);

// DataError "WHEREtruncated data: shape (…) of float32 needs N bytes, the file has M" when
// the `have` bytes after the header are fewer than `count` elements need (bytes after the
// array are allowed and ignored, as numpy.load does).
Status npyCheckDataBytes(const Shape& shape, size_t count, NpyFloatType type, size_t have,
                         const std::string& where);

// Converts `count` elements at `src` (any alignment) into float32 at `dst`; float64 rounds
// to nearest.
void npyToFloat32(const char* src, float* dst, size_t count, NpyFloatType type);

}  // namespace qs::data
