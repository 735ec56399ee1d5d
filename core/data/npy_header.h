// The header of a NumPy .npy array (format versions 1.0, 2.0 and 3.0), shared by the
// explorer's .npy reader (core/data/npy_reader.h) and the model-file readers of .npy and
// .npz (core/modelfile): magic, version, header length and the Python dict literal
//   {'descr': '<f4', 'fortran_order': False, 'shape': (3, 4), }
// Nothing about the dtype is decided here beyond parsing it: npyElementType() reads a
// numeric descr, and each caller says which it accepts.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include "core/status.h"
#include "core/tensor.h"

namespace qs::data {

struct NpyHeader {
    std::string descr;       // as written: "<f4", "|i1", ">u2", "<c8", ...
    bool fortran = false;    // column-major data
    Shape shape;             // non-negative dims; {} for a 0-d array
    size_t dataOffset = 0;   // where the array's bytes start in the file
};

// Parses the header at the start of `bytes` (which need hold only the header: the data is
// not looked at). Errors are DataErrors prefixed with `where` ("PATH: "): no magic,
// unsupported version, truncated length or header, and the dict's syntax errors with the
// offset inside the header text.
Result<NpyHeader> parseNpyHeader(std::string_view bytes, const std::string& where);

// Where the data of the .npy starting `bytes` begins, as its header length field says (the
// header itself need not be in `bytes` yet): 0 when `bytes` lacks the magic, has a version
// other than 1-3 or is too short for the length field.
size_t npyDataOffset(std::string_view bytes);

// A plain numeric descr taken apart: kind 'f' (float), 'i' (signed), 'u' (unsigned) or 'b'
// (bool), width in bytes, and whether the bytes are big-endian ('>'; '<', '|' and '=' are
// read as little-endian, this machine's order). nullopt for anything else (strings,
// complex, datetimes, objects, odd widths).
struct NpyElementType {
    char kind = 'f';
    int width = 4;
    bool bigEndian = false;
};
std::optional<NpyElementType> npyElementType(std::string_view descr);

// Column-major (Fortran) element order to row-major: `count` elements of `width` bytes
// each, shaped `shape`, from `in` into `out` (distinct buffers of count × width bytes).
void fortranToRowMajor(const char* in, char* out, const Shape& shape, size_t width);

}  // namespace qs::data
