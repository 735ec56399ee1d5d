// An embedding table in a .npy file read in chunks, for tables larger than memory (a
// 100M x 128 float32 table is 51 GB): a data::FloatStream over the file's values with
// pread, plus the rows the feature lookups need. Deliberately minimal — 2-D, float32
// little-endian, C order — and self-contained; core/data's NpyFileStream (the explorer's,
// which also converts float64 and big-endian) can replace the opening once both are on main.
#pragma once

#include <memory>
#include <string>

#include "core/data/float_stream.h"
#include "core/status.h"
#include "core/tpu/lookup.h"

namespace qs::embedding {

class NpyTableStream final : public data::FloatStream {
public:
    // DataErrors naming the file: unreadable, a bad header (parseNpyHeader's message), a
    // dtype other than '<f4', Fortran order, a shape that is not [rows, dim] with rows,
    // dim >= 1, a header longer than 1 MiB, or fewer data bytes than the shape needs.
    static Result<std::shared_ptr<const NpyTableStream>> open(const std::string& path);
    ~NpyTableStream() override;
    NpyTableStream(const NpyTableStream&) = delete;
    NpyTableStream& operator=(const NpyTableStream&) = delete;

    int64_t size() const override { return rows_ * dim_; }
    // DataError "PATH: cannot read N bytes at offset X: <reason>" (X in the file).
    Status read(int64_t begin, std::span<float> out) const override;
    std::string name() const override { return path_; }
    int64_t rows() const { return rows_; }
    int64_t dim() const { return dim_; }

private:
    NpyTableStream(int fd, std::string path, int64_t offset, int64_t rows, int64_t dim)
        : fd_(fd), path_(std::move(path)), offset_(offset), rows_(rows), dim_(dim) {}
    int fd_;
    std::string path_;
    int64_t offset_, rows_, dim_;
};

// The rows `ids` of a streamed table as a small table: row k of the result is row ids[k]
// of the file (ids must be in [0, rows)).
Result<tpu::RowMatrix> readTableRows(const NpyTableStream& table, std::span<const int64_t> ids);

}  // namespace qs::embedding
