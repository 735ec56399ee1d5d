#include "core/embedding/npy_table_stream.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>
#include <vector>

#include "core/data/dataset.h"
#include "core/data/npy_header.h"

namespace qs::embedding {

namespace {

constexpr int64_t kMaxHeaderBytes = int64_t{1} << 20;

// Reads exactly out.size() bytes at `offset`, retrying short reads.
Status readAt(int fd, const std::string& path, int64_t offset, char* out, int64_t bytes) {
    int64_t done = 0;
    while (done < bytes) {
        const ssize_t got = ::pread(fd, out + done, static_cast<size_t>(bytes - done), offset + done);
        if (got < 0 && errno == EINTR) continue;
        if (got <= 0)
            return data::dataError(path + ": cannot read " + std::to_string(bytes) + " bytes at offset " +
                                   std::to_string(offset) + ": " +
                                   (got < 0 ? std::string(std::strerror(errno)) : "the file ends first"));
        done += got;
    }
    return okStatus();
}

}  // namespace

Result<std::shared_ptr<const NpyTableStream>> NpyTableStream::open(const std::string& path) {
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return data::dataError("cannot open " + path + ": " + std::strerror(errno));
    auto fail = [fd](Error e) {
        ::close(fd);
        return e;
    };
    struct stat st {};
    if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) return fail(data::dataError(path + ": not a regular file"));
    const int64_t fileBytes = st.st_size;
    // The magic, version and length field first, then exactly the header they announce.
    std::string head(static_cast<size_t>(std::min<int64_t>(fileBytes, 16)), '\0');
    if (Status s = readAt(fd, path, 0, head.data(), static_cast<int64_t>(head.size())); !s) return fail(s.error());
    const auto offset = static_cast<int64_t>(data::npyDataOffset(head));
    if (offset > kMaxHeaderBytes) return fail(data::dataError(path + ": the .npy header is longer than 1 MiB"));
    if (offset > fileBytes) return fail(data::dataError(path + ": the .npy header runs past the end of the file"));
    if (offset > 0) {
        head.resize(static_cast<size_t>(offset));
        if (Status s = readAt(fd, path, 0, head.data(), offset); !s) return fail(s.error());
    }
    auto header = data::parseNpyHeader(head, path + ": ");
    if (!header) return fail(header.error());
    if (header->descr != "<f4")
        return fail(data::dataError(path + ": a streamed table must be float32 little-endian ('<f4'), got '" +
                                    header->descr + "'"));
    if (header->fortran) return fail(data::dataError(path + ": a streamed table must be in C order, not Fortran order"));
    if (header->shape.size() != 2 || header->shape[0] < 1 || header->shape[1] < 1)
        return fail(data::dataError(path + ": an embedding table needs 2-D data [rows, dim], got shape " +
                                    shapeString(header->shape)));
    const int64_t rows = header->shape[0], dim = header->shape[1];
    const int64_t available = (fileBytes - static_cast<int64_t>(header->dataOffset)) / 4;
    if (rows > available / dim)
        return fail(data::dataError(path + ": truncated data: shape " + shapeString(header->shape) + " needs " +
                                    std::to_string(rows) + " x " + std::to_string(dim) + " float32 values, the file holds " +
                                    std::to_string(available)));
    return std::shared_ptr<const NpyTableStream>(
        new NpyTableStream(fd, path, static_cast<int64_t>(header->dataOffset), rows, dim));
}

NpyTableStream::~NpyTableStream() { ::close(fd_); }

Status NpyTableStream::read(int64_t begin, std::span<float> out) const {
    const auto count = static_cast<int64_t>(out.size());
    if (begin < 0 || count > size() - begin)
        return Error{"OutOfRange", path_ + ": read past the end at element " + std::to_string(begin)};
    return readAt(fd_, path_, offset_ + begin * 4, reinterpret_cast<char*>(out.data()), count * 4);
}

Result<tpu::RowMatrix> readTableRows(const NpyTableStream& table, std::span<const int64_t> ids) {
    tpu::RowMatrix rows{static_cast<int64_t>(ids.size()), table.dim(), {}};
    rows.values.resize(ids.size() * static_cast<size_t>(table.dim()));
    for (size_t k = 0; k < ids.size(); ++k)
        if (Status s = table.read(ids[k] * table.dim(),
                                  std::span<float>(rows.values).subspan(k * static_cast<size_t>(table.dim()),
                                                                        static_cast<size_t>(table.dim())));
            !s)
            return s.error();
    return rows;
}

}  // namespace qs::embedding
