// An embedding table in a .npy file read in chunks, for tables larger than memory (a
// 100M x 128 float32 table is 51 GB): the explorer's NpyFileStream (core/data/npy_stream.h:
// header checks, pread, float64 and big-endian converted chunk by chunk) seen as a
// [rows, dim] table, plus the rows the feature lookups need.
#pragma once

#include <memory>
#include <string>

#include "core/data/npy_stream.h"
#include "core/status.h"
#include "core/tpu/lookup.h"

namespace qs::embedding {

class NpyTableStream final : public data::FloatStream {
public:
    // NpyFileStream::open's DataErrors (unreadable file, bad header, unsupported dtype,
    // Fortran order, truncated data), and "PATH: an embedding table needs 2-D data [rows,
    // dim], got shape S" for any other shape or an empty dimension.
    static Result<std::shared_ptr<const NpyTableStream>> open(const std::string& path);

    int64_t size() const override { return file_->size(); }
    // NpyFileStream::read's errors.
    Status read(int64_t begin, std::span<float> out) const override { return file_->read(begin, out); }
    std::string name() const override { return file_->name(); }
    int64_t rows() const { return file_->shape()[0]; }
    int64_t dim() const { return file_->shape()[1]; }

private:
    explicit NpyTableStream(std::shared_ptr<const data::NpyFileStream> file) : file_(std::move(file)) {}
    std::shared_ptr<const data::NpyFileStream> file_;
};

// The rows `ids` of a streamed table as a small table: row k of the result is row ids[k]
// of the file (ids must be in [0, rows)).
Result<tpu::RowMatrix> readTableRows(const NpyTableStream& table, std::span<const int64_t> ids);

}  // namespace qs::embedding
