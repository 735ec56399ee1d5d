#include "core/modelfile/zip_archive.h"

#include <zip.h>

#include <algorithm>
#include <limits>
#include <new>

#include "core/data/dataset.h"

namespace qs::modelfile {
namespace {

constexpr uint64_t kUnknownOffset = std::numeric_limits<uint64_t>::max();
// Deflate cannot expand more than about 1032:1; a member declaring more than this many
// bytes per compressed byte (plus slack for tiny members) is lying.
constexpr uint64_t kMaxDeflateRatio = 1032;
constexpr uint64_t kDeflateSlack = 1024;

uint64_t le(std::string_view b, uint64_t at, int width) {
    uint64_t v = 0;
    for (int i = 0; i < width; ++i) v |= static_cast<uint64_t>(static_cast<unsigned char>(b[at + i])) << (8 * i);
    return v;
}

struct CentralEntry {
    std::string rawName;
    uint64_t localHeaderOffset = kUnknownOffset;
};

// The central directory's location: the end-of-central-directory record (searched from the
// end, past a comment of up to 64 KiB), then the zip64 one where the fields are saturated.
bool findCentralDirectory(std::string_view b, uint64_t& offset, uint64_t& count) {
    constexpr uint64_t kEocd = 22;
    if (b.size() < kEocd) return false;
    const uint64_t lowest = b.size() > kEocd + 0xFFFF ? b.size() - kEocd - 0xFFFF : 0;
    for (uint64_t at = b.size() - kEocd + 1; at-- > lowest;) {
        if (le(b, at, 4) != 0x06054b50u) continue;
        count = le(b, at + 10, 2);
        offset = le(b, at + 16, 4);
        if (count != 0xFFFF && offset != 0xFFFFFFFFu) return true;
        // zip64: the locator sits right before the record and points at the zip64 record.
        if (at < 20 || le(b, at - 20, 4) != 0x07064b50u) return false;
        const uint64_t z = le(b, at - 20 + 8, 8);
        if (!inside(b, z, 56) || le(b, z, 4) != 0x06064b50u) return false;
        count = le(b, z + 32, 8);
        offset = le(b, z + 48, 8);
        return true;
    }
    return false;
}

// The central directory as far as it reads cleanly (an entry that does not is the end):
// each entry's raw name and local header offset, the zip64 extra field applied.
std::vector<CentralEntry> readCentralDirectory(std::string_view b) {
    std::vector<CentralEntry> entries;
    uint64_t at = 0, count = 0;
    if (!findCentralDirectory(b, at, count)) return entries;
    for (uint64_t i = 0; i < count; ++i) {
        if (!inside(b, at, 46) || le(b, at, 4) != 0x02014b50u) break;
        const uint64_t nameLen = le(b, at + 28, 2), extraLen = le(b, at + 30, 2), commentLen = le(b, at + 32, 2);
        if (!inside(b, at + 46, nameLen + extraLen + commentLen)) break;
        CentralEntry e;
        e.rawName = std::string(b.substr(at + 46, nameLen));
        e.localHeaderOffset = le(b, at + 42, 4);
        if (e.localHeaderOffset == 0xFFFFFFFFu) {
            // zip64 extra (id 1): uncompressed, compressed, offset — each present only
            // where the 32-bit field is saturated.
            e.localHeaderOffset = kUnknownOffset;
            uint64_t x = at + 46 + nameLen;
            const uint64_t end = x + extraLen;
            while (x + 4 <= end) {
                const uint64_t id = le(b, x, 2), len = le(b, x + 2, 2);
                if (x + 4 + len > end) break;
                if (id == 1) {
                    uint64_t skip = (le(b, at + 24, 4) == 0xFFFFFFFFu ? 8 : 0) + (le(b, at + 20, 4) == 0xFFFFFFFFu ? 8 : 0);
                    if (skip + 8 <= len) e.localHeaderOffset = le(b, x + 4 + skip, 8);
                }
                x += 4 + len;
            }
        }
        entries.push_back(std::move(e));
        at += 46 + nameLen + extraLen + commentLen;
    }
    return entries;
}

}  // namespace

struct ZipArchive::Handle {
    zip_t* zip = nullptr;
    ~Handle() {
        if (zip) zip_discard(zip);
    }
};

ZipArchive::ZipArchive(std::string label, SharedBytes bytes)
    : label_(std::move(label)), bytes_(std::move(bytes)) {}
ZipArchive::~ZipArchive() = default;

Result<std::shared_ptr<const ZipArchive>> ZipArchive::open(const std::string& label, SharedBytes bytes) {
    const std::string_view b = bytes->view();
    // libzip opens an empty buffer as an empty archive; an empty file is not a zip.
    if (b.size() < 22) return data::dataError(label + ": not a zip archive (" + std::to_string(b.size()) + " bytes)");
    std::shared_ptr<ZipArchive> archive(new ZipArchive(label, std::move(bytes)));
    zip_error_t error;
    zip_error_init(&error);
    zip_source_t* source = zip_source_buffer_create(b.data(), b.size(), 0, &error);
    if (!source) {
        const std::string text = zip_error_strerror(&error);
        zip_error_fini(&error);
        return data::dataError(label + ": cannot read the zip archive (" + text + ")");
    }
    archive->handle_ = std::make_unique<Handle>();
    archive->handle_->zip = zip_open_from_source(source, ZIP_RDONLY, &error);
    if (!archive->handle_->zip) {
        zip_source_free(source);
        const std::string text = zip_error_strerror(&error);
        zip_error_fini(&error);
        return data::dataError(label + ": not a zip archive (" + text + ")");
    }
    zip_error_fini(&error);

    zip_t* zip = archive->handle_->zip;
    const zip_int64_t count = zip_get_num_entries(zip, 0);
    if (count < 0) return data::dataError(label + ": cannot list the zip archive");
    const std::vector<CentralEntry> central = readCentralDirectory(b);
    archive->members_.reserve(static_cast<size_t>(count));
    archive->localHeaderOffsets_.assign(static_cast<size_t>(count), kUnknownOffset);
    for (zip_int64_t i = 0; i < count; ++i) {
        const auto index = static_cast<zip_uint64_t>(i);
        zip_stat_t st;
        zip_stat_init(&st);
        if (zip_stat_index(zip, index, 0, &st) != 0)
            return data::dataError(label + ": zip member " + std::to_string(i) + ": " + zip_strerror(zip));
        ZipMember m;
        m.name = (st.valid & ZIP_STAT_NAME) && st.name ? st.name : "";
        m.size = (st.valid & ZIP_STAT_SIZE) ? st.size : 0;
        m.compressed_size = (st.valid & ZIP_STAT_COMP_SIZE) ? st.comp_size : 0;
        m.method = (st.valid & ZIP_STAT_COMP_METHOD) ? st.comp_method : 0xFFFF;
        m.encrypted = (st.valid & ZIP_STAT_ENCRYPTION_METHOD) && st.encryption_method != ZIP_EM_NONE;
        archive->members_.push_back(std::move(m));
        // libzip numbers members in central-directory order; take the offset only where our
        // own reading of that directory names the same member.
        const char* raw = zip_get_name(zip, index, ZIP_FL_ENC_RAW);
        if (static_cast<size_t>(i) < central.size() && raw && central[static_cast<size_t>(i)].rawName == raw)
            archive->localHeaderOffsets_[static_cast<size_t>(i)] = central[static_cast<size_t>(i)].localHeaderOffset;
    }
    return std::shared_ptr<const ZipArchive>(std::move(archive));
}

int64_t ZipArchive::find(std::string_view name) const {
    for (size_t i = 0; i < members_.size(); ++i)
        if (members_[i].name == name) return static_cast<int64_t>(i);
    return -1;
}

Error ZipArchive::memberError(size_t index, const std::string& what) const {
    const std::string name = index < members_.size() ? members_[index].name : std::to_string(index);
    return data::dataError(label_ + ": member '" + name + "': " + what);
}

Status ZipArchive::inflate(size_t index, size_t count, bool probeBeyond, std::vector<char>& out) const {
    const ZipMember& m = members_[index];
    if (m.encrypted) return memberError(index, "encrypted members are not read");
    if (!m.stored() && !m.deflated())
        return memberError(index, "compression method " + std::to_string(m.method) +
                                      " is not read (stored and deflate are)");
    if (m.compressed_size > bytes_->size())
        return memberError(index, "declares " + std::to_string(m.compressed_size) + " compressed bytes, the archive has " +
                                      std::to_string(bytes_->size()));
    if (m.deflated() && count > m.compressed_size * kMaxDeflateRatio + kDeflateSlack)
        return memberError(index, "declares " + std::to_string(m.size) + " bytes from " +
                                      std::to_string(m.compressed_size) + " compressed, more than deflate can produce");
    try {
        out.resize(count + (probeBeyond ? 1 : 0));
    } catch (const std::bad_alloc&) {
        return memberError(index, "out of memory for " + std::to_string(count) + " bytes");
    }
    std::lock_guard lock(mutex_);
    zip_file_t* file = zip_fopen_index(handle_->zip, index, 0);
    if (!file) return memberError(index, std::string("cannot read: ") + zip_strerror(handle_->zip));
    size_t got = 0;
    std::string failure;
    while (got < out.size()) {
        const zip_int64_t n = zip_fread(file, out.data() + got, out.size() - got);
        if (n < 0) {
            failure = zip_file_strerror(file);
            break;
        }
        if (n == 0) break;
        got += static_cast<size_t>(n);
    }
    zip_fclose(file);
    if (!failure.empty()) return memberError(index, "cannot read: " + failure);
    out.resize(got);
    return okStatus();
}

Result<SharedBytes> ZipArchive::read(size_t index, uint64_t limit) const {
    if (index >= members_.size()) return data::dataError(label_ + ": no zip member number " + std::to_string(index));
    const ZipMember& m = members_[index];
    const std::string declared = std::to_string(m.size);
    if (m.size > limit)
        return memberError(index, "declares " + declared + " bytes, more than the " + std::to_string(limit) +
                                      " allowed here");
    if (m.stored() && m.size != m.compressed_size)
        return memberError(index, "stored, but declares " + declared + " bytes and " +
                                      std::to_string(m.compressed_size) + " compressed");
    if (m.size > std::numeric_limits<size_t>::max() - 1) return memberError(index, "too large");
    std::vector<char> out;
    if (auto s = inflate(index, static_cast<size_t>(m.size), true, out); !s) return s.error();
    if (out.size() > m.size) return memberError(index, "inflates to more than the " + declared + " bytes it declares");
    if (out.size() < m.size)
        return memberError(index, "holds only " + std::to_string(out.size()) + " of the " + declared + " bytes it declares");
    return ownBytes(std::move(out));
}

Result<std::vector<char>> ZipArchive::readPrefix(size_t index, size_t count) const {
    if (index >= members_.size()) return data::dataError(label_ + ": no zip member number " + std::to_string(index));
    std::vector<char> out;
    const size_t want = static_cast<size_t>(std::min<uint64_t>(count, members_[index].size));
    if (auto s = inflate(index, want, false, out); !s) return s.error();
    return out;
}

Result<std::string_view> ZipArchive::storedView(size_t index) const {
    if (index >= members_.size()) return data::dataError(label_ + ": no zip member number " + std::to_string(index));
    const ZipMember& m = members_[index];
    if (!m.stored() || m.encrypted) return memberError(index, "not stored uncompressed");
    if (m.size != m.compressed_size)
        return memberError(index, "stored, but declares " + std::to_string(m.size) + " bytes and " +
                                      std::to_string(m.compressed_size) + " compressed");
    const std::string_view b = bytes_->view();
    const uint64_t at = localHeaderOffsets_[index];
    if (at == kUnknownOffset || !inside(b, at, 30) || le(b, at, 4) != 0x04034b50u)
        return memberError(index, "its local header is not where the central directory says");
    const uint64_t nameLen = le(b, at + 26, 2), extraLen = le(b, at + 28, 2);
    const uint64_t start = at + 30 + nameLen + extraLen;
    if (!inside(b, at + 30, nameLen + extraLen))
        return memberError(index, "its local header runs past the end of the archive");
    const char* raw = nullptr;
    {
        std::lock_guard lock(mutex_);
        raw = zip_get_name(handle_->zip, index, ZIP_FL_ENC_RAW);
    }
    if (!raw || b.substr(at + 30, nameLen) != raw)
        return memberError(index, "its local header names another member");
    if (le(b, at + 8, 2) != 0 || (le(b, at + 6, 2) & 1) != 0)
        return memberError(index, "its local header says compressed or encrypted, the central directory stored");
    if (!inside(b, start, m.size))
        return memberError(index, "its " + std::to_string(m.size) + " bytes at offset " + std::to_string(start) +
                                      " run past the end of the archive (" + std::to_string(b.size()) + " bytes)");
    // No CRC check here: that would read every byte, which a view exists to avoid.
    return b.substr(start, m.size);
}

}  // namespace qs::modelfile
