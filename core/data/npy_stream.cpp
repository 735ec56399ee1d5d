#include "core/data/npy_stream.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <vector>

#include "core/data/dataset.h"
#include "core/data/npy_header.h"
#include "core/data/read_util.h"

namespace qs::data {
namespace {

// No numeric array needs more: numpy itself refuses headers over 10,000 bytes by default.
constexpr size_t kMaxHeaderBytes = size_t{1} << 20;
// Non-float32 files are read through a scratch buffer of this many bytes per piece.
constexpr size_t kConvertBytes = size_t{1} << 20;

// Reads exactly out.size() bytes at `offset` (retries short reads and EINTR); an error text
// when the file cannot give them.
std::string preadAll(int fd, size_t offset, std::span<char> out) {
    size_t done = 0;
    while (done < out.size()) {
        const ssize_t got = ::pread(fd, out.data() + done, out.size() - done, static_cast<off_t>(offset + done));
        if (got < 0) {
            if (errno == EINTR) continue;
            return detail::errnoText(errno);
        }
        if (got == 0) return "the file ends at offset " + std::to_string(offset + done);
        done += static_cast<size_t>(got);
    }
    return {};
}

// A C-order walk of a Fortran-order array is the same walk when at most one dimension
// exceeds 1.
bool sameInBothOrders(const Shape& shape) {
    return std::count_if(shape.begin(), shape.end(), [](int64_t d) { return d > 1; }) <= 1;
}


// The layout of the open file `fd` of `fileSize` bytes, every header field checked.
Result<NpyLayout> readLayout(int fd, size_t fileSize, const std::string& path) {
    const std::string where = path + ": ";
    // The fixed part (magic, version, header length) says how long the header is; the header
    // is then read whole, bounded by the file and by kMaxHeaderBytes.
    std::string head(std::min<size_t>(fileSize, 12), '\0');
    if (std::string e = preadAll(fd, 0, head); !e.empty()) return dataError(where + "cannot read the header: " + e);
    const size_t dataOffset = npyDataOffset(head);
    if (dataOffset > kMaxHeaderBytes)
        return dataError(where + "the header claims " + std::to_string(dataOffset) +
                         " bytes; more than 1 MiB is not a numeric array's header");
    if (dataOffset > head.size()) {
        head.resize(std::min(dataOffset, fileSize));
        if (std::string e = preadAll(fd, 0, head); !e.empty())
            return dataError(where + "cannot read the header: " + e);
    }
    auto header = parseNpyHeader(head, where);  // also names a truncated header
    if (!header) return header.error();
    auto type = npyFloatType(header->descr, where);
    if (!type) return type.error();
    auto count = npyElementCount(header->shape, where);
    if (!count) return count.error();
    if (Status s = npyCheckDataBytes(header->shape, *count, *type, fileSize - header->dataOffset, where); !s)
        return s.error();
    return NpyLayout{header->shape, *type, static_cast<int64_t>(*count), header->dataOffset, header->fortran};
}

}  // namespace

Result<NpyLayout> NpyFileStream::inspect(const std::string& path) {
    auto opened = detail::openRegularFile(path);
    if (!opened) return opened.error();
    auto layout = readLayout(opened->fd, opened->size, path);
    ::close(opened->fd);
    return layout;
}

Result<std::shared_ptr<const NpyFileStream>> NpyFileStream::open(const std::string& path) {
    auto opened = detail::openRegularFile(path);
    if (!opened) return opened.error();
    const int fd = opened->fd;
    auto layout = readLayout(fd, opened->size, path);
    if (layout && layout->fortran && !sameInBothOrders(layout->shape))
        layout = dataError(path + ": a Fortran-order array of shape " + shapeString(layout->shape) +
                           " cannot be streamed (its row-major order needs the whole array in memory); "
                           "save it in C order, e.g. np.save(path, np.ascontiguousarray(a))");
    if (!layout) {
        ::close(fd);
        return layout.error();
    }
    ::posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);  // walks go front to back
    return std::shared_ptr<const NpyFileStream>(new NpyFileStream(fd, path, std::move(layout).value()));
}

NpyFileStream::~NpyFileStream() { ::close(fd_); }

Status NpyFileStream::readBytes(size_t offset, std::span<char> out) const {
    if (std::string e = preadAll(fd_, offset, out); !e.empty())
        return dataError(path_ + ": cannot read " + std::to_string(out.size()) + " bytes at offset " +
                         std::to_string(offset) + ": " + e);
    return okStatus();
}

Status NpyFileStream::read(int64_t begin, std::span<float> out) const {
    const auto n = static_cast<int64_t>(out.size());
    if (begin < 0 || n > count_ || begin > count_ - n)
        return Error{"OutOfRange", path_ + ": elements [" + std::to_string(begin) + ", " +
                                       std::to_string(begin + n) + ") are past the end (" +
                                       std::to_string(count_) + " elements)"};
    const NpyFloatType type = layout_.type;
    const size_t width = static_cast<size_t>(type.width);
    const size_t at = layout_.dataOffset + static_cast<size_t>(begin) * width;
    if (width == 4 && !type.bigEndian)  // the file's bytes are the floats: no copy
        return readBytes(at, std::span<char>(reinterpret_cast<char*>(out.data()), out.size() * 4));
    // Other types: read a bounded piece, convert, repeat.
    std::vector<char> scratch(std::min(out.size() * width, kConvertBytes));
    const size_t perPiece = scratch.size() / width;
    for (size_t i = 0; i < out.size(); i += perPiece) {
        const size_t k = std::min(perPiece, out.size() - i);
        if (Status s = readBytes(at + i * width, std::span<char>(scratch.data(), k * width)); !s) return s;
        npyToFloat32(scratch.data(), out.data() + i, k, type);
    }
    return okStatus();
}

}  // namespace qs::data
