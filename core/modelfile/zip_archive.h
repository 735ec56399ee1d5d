// A zip archive read from bytes in memory (a mapped file or an owned buffer), for the
// readers whose formats are zips: .npz (zip of .npy) and .keras (zip holding
// model.weights.h5). libzip does the central directory and the inflating; this class adds
// what a hostile archive needs:
//  - every read has a caller-given byte limit, checked against the declared size before
//    anything is allocated AND enforced while inflating (a zip bomb's declared size lies);
//  - only stored and deflated members are read, unencrypted;
//  - a stored member can be had as a view into the archive's own bytes (no copy: a big
//    stored .npz member stays memory-mapped), found through its local file header, whose
//    bounds are checked here.
// Errors are DataErrors "ARCHIVE: member 'NAME': what" (ARCHIVE is the label given to open).
// Thread-safe: reads of several members may run at once (libzip's handle is guarded).
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "core/modelfile/bytes.h"
#include "core/status.h"

namespace qs::modelfile {

struct ZipMember {
    std::string name;
    uint64_t size = 0;             // uncompressed, as the central directory declares it
    uint64_t compressed_size = 0;  // as declared
    uint16_t method = 0;           // zip's method code: 0 stored, 8 deflate, others refused on read
    bool encrypted = false;
    bool stored() const { return method == 0; }
    bool deflated() const { return method == 8; }
};

class ZipArchive {
public:
    // DataError "LABEL: not a zip archive (...)" when libzip cannot open the bytes.
    static Result<std::shared_ptr<const ZipArchive>> open(const std::string& label, SharedBytes bytes);
    ~ZipArchive();
    ZipArchive(const ZipArchive&) = delete;
    ZipArchive& operator=(const ZipArchive&) = delete;

    const std::string& label() const { return label_; }
    // In the central directory's order (directories included: their names end in '/').
    const std::vector<ZipMember>& members() const { return members_; }
    // The index of the member called `name`, or -1.
    int64_t find(std::string_view name) const;

    // Member `index` uncompressed into memory. Fails when its declared size exceeds `limit`,
    // when inflating yields more (or fewer) bytes than declared, on CRC errors, and for
    // methods other than stored/deflate or encrypted members.
    Result<SharedBytes> read(size_t index, uint64_t limit) const;
    // The first min(count, size) uncompressed bytes of member `index` (a header), inflating
    // no further than that.
    Result<std::vector<char>> readPrefix(size_t index, size_t count) const;
    // A stored member's bytes inside the archive (kept alive by bytes()). Fails for
    // compressed members and when the local header or the data lie outside the archive or
    // disagree with the central directory.
    Result<std::string_view> storedView(size_t index) const;
    // What storedView's views point into.
    const SharedBytes& bytes() const { return bytes_; }

private:
    ZipArchive(std::string label, SharedBytes bytes);
    Error memberError(size_t index, const std::string& what) const;
    // Reads up to `count` uncompressed bytes of member `index` into `out` (resized to what
    // was read); `probeBeyond` also tries one byte more, which then counts.
    Status inflate(size_t index, size_t count, bool probeBeyond, std::vector<char>& out) const;

    std::string label_;
    SharedBytes bytes_;
    struct Handle;
    std::unique_ptr<Handle> handle_;
    std::vector<ZipMember> members_;
    // Where each member's local file header starts, from our own reading of the central
    // directory (libzip does not tell); UINT64_MAX where it could not be read.
    std::vector<uint64_t> localHeaderOffsets_;
    mutable std::mutex mutex_;  // libzip's zip_t is not thread-safe
};

using ZipPtr = std::shared_ptr<const ZipArchive>;

}  // namespace qs::modelfile
