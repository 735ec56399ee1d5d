// A .npy file read in chunks instead of into memory: the explorer's way into arrays larger
// than the memory budget (core/data/memory_budget.h). Opening reads and checks only the
// header (core/data/npy_header.h); the values are read with pread when a FloatStream walk
// asks for them, so memory stays at the walk's two chunk buffers whatever the file's size.
//
// Accepted as readNpy accepts (npy_reader.h): float32 and float64 in either byte order
// (float64 rounds to float32 chunk by chunk), any C-order shape. A Fortran-order array with
// more than one non-trivial dimension is refused by name: its row-major order would need
// the whole array to transpose.
#pragma once

#include <memory>
#include <string>

#include "core/data/float_stream.h"
#include "core/data/npy_float.h"
#include "core/status.h"
#include "core/tensor.h"

namespace qs::data {

// What a .npy header says, checked against the file: shape, dtype, element count (whose
// bytes the file holds) and where the data starts.
struct NpyLayout {
    Shape shape;
    NpyFloatType type;
    int64_t count = 0;
    size_t dataOffset = 0;
    bool fortran = false;
};

class NpyFileStream final : public FloatStream {
public:
    // The header's layout, with every check of open() but the Fortran-order one: what a
    // loader needs to decide between reading the file into memory and streaming it.
    static Result<NpyLayout> inspect(const std::string& path);
    // DataErrors prefixed with the path: unreadable file, bad header (as parseNpyHeader
    // says), a header length beyond the file or over 1 MiB, unsupported dtype, a shape whose
    // bytes overflow or exceed the bytes after the header ("truncated data: ...").
    static Result<std::shared_ptr<const NpyFileStream>> open(const std::string& path);
    ~NpyFileStream() override;
    NpyFileStream(const NpyFileStream&) = delete;
    NpyFileStream& operator=(const NpyFileStream&) = delete;

    int64_t size() const override { return count_; }
    // DataError "PATH: cannot read N bytes at offset X: <reason>" (offset in the file) when
    // the file cannot be read or has become shorter; OutOfRange for a range past the end.
    Status read(int64_t begin, std::span<float> out) const override;
    std::string name() const override { return path_; }

    const Shape& shape() const { return layout_.shape; }
    const NpyLayout& layout() const { return layout_; }

private:
    NpyFileStream(int fd, std::string path, NpyLayout layout)
        : fd_(fd), path_(std::move(path)), layout_(std::move(layout)), count_(layout_.count) {}
    // Reads exactly out.size() bytes at `offset` of the file, retrying short reads.
    Status readBytes(size_t offset, std::span<char> out) const;

    int fd_;
    std::string path_;
    NpyLayout layout_;
    int64_t count_;
};

}  // namespace qs::data
