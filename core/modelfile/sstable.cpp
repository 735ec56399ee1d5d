#include "core/modelfile/sstable.h"

#include <snappy.h>

#include <cstring>
#include <string>

#include "core/data/dataset.h"
#include "core/modelfile/bytes.h"
#include "core/modelfile/crc32c.h"
#include "core/modelfile/proto_wire.h"

namespace qs::modelfile {
namespace {

constexpr size_t kFooterSize = 48;          // two handles padded to 40 bytes, then the magic
constexpr uint64_t kMagic = 0xdb4775248b80fb57ull;
constexpr size_t kTrailerSize = 5;          // compression type, masked CRC-32C
constexpr uint8_t kNoCompression = 0, kSnappyCompression = 1;

uint32_t fixed32(const char* p) {
    uint32_t v;
    std::memcpy(&v, p, 4);  // little-endian, as the format stores it (and this machine is)
    return v;
}

struct BlockHandle {
    uint64_t offset = 0;
    uint64_t size = 0;
};

std::string handleText(const BlockHandle& h) {
    return "offset " + std::to_string(h.offset) + ", size " + std::to_string(h.size);
}

std::optional<BlockHandle> readHandle(std::string_view bytes, size_t& pos) {
    const auto offset = readVarint(bytes, pos);
    if (!offset) return std::nullopt;
    const auto size = readVarint(bytes, pos);
    if (!size) return std::nullopt;
    return BlockHandle{*offset, *size};
}

class TableReader {
public:
    TableReader(std::string_view file, const TableLimits& limits) : file_(file), limits_(limits) {}

    // A block's contents, uncompressed into `scratch` when they are compressed.
    Result<std::string_view> block(const BlockHandle& h, const std::string& what, std::string& scratch) {
        if (h.size > file_.size() || !inside(file_, h.offset, h.size + kTrailerSize))
            return data::dataError(what + " (" + handleText(h) + ") lies past the end of the table (" +
                                   std::to_string(file_.size()) + " bytes)");
        const std::string_view stored = file_.substr(h.offset, h.size);
        const char* trailer = file_.data() + h.offset + h.size;
        const auto type = static_cast<uint8_t>(trailer[0]);
        const uint32_t expected = unmaskCrc(fixed32(trailer + 1));
        if (crc32cExtend(crc32c(stored), {trailer, 1}) != expected)
            return data::dataError(what + " (" + handleText(h) + ") fails its checksum");
        if (type == kNoCompression) return charge(stored.size(), what) ? Result<std::string_view>(stored) : overBudget(what);
        if (type != kSnappyCompression)
            return data::dataError(what + " uses compression type " + std::to_string(type) +
                                   " (only none and Snappy are known)");
        size_t length = 0;
        if (!snappy::GetUncompressedLength(stored.data(), stored.size(), &length))
            return data::dataError(what + " is not valid Snappy data");
        if (length > limits_.maxBlockBytes)
            return data::dataError(what + " claims " + std::to_string(length) + " bytes uncompressed, more than " +
                                   std::to_string(limits_.maxBlockBytes) + " a block may have");
        if (!snappy::IsValidCompressedBuffer(stored.data(), stored.size()))
            return data::dataError(what + " is not valid Snappy data");
        if (!charge(length, what)) return overBudget(what);
        scratch.resize(length);
        if (!snappy::RawUncompress(stored.data(), stored.size(), scratch.data()))
            return data::dataError(what + " is not valid Snappy data");
        return std::string_view(scratch);
    }

    // Walks the entries of a block's contents.
    Status entries(std::string_view contents, const std::string& what, const TableVisitor& visit) {
        if (contents.size() < 4) return data::dataError(what + " is too short for a block (" + std::to_string(contents.size()) + " bytes)");
        const uint64_t restarts = fixed32(contents.data() + contents.size() - 4);
        if (restarts > (contents.size() - 4) / 4)
            return data::dataError(what + " claims " + std::to_string(restarts) + " restart points, more than it can hold");
        const size_t end = contents.size() - 4 - 4 * static_cast<size_t>(restarts);
        std::string key;  // rebuilt in place: each entry shares a prefix with the one before
        for (size_t pos = 0; pos < end;) {
            const size_t at = pos;
            const std::string_view data = contents.substr(0, end);
            const auto shared = readVarint(data, pos);
            const auto unshared = shared ? readVarint(data, pos) : std::nullopt;
            const auto valueLength = unshared ? readVarint(data, pos) : std::nullopt;
            if (!valueLength || *shared > key.size() || *unshared > end - pos || *valueLength > end - pos - *unshared)
                return data::dataError(what + ": the entry at byte " + std::to_string(at) + " is malformed");
            key.resize(static_cast<size_t>(*shared));
            key.append(data.substr(pos, static_cast<size_t>(*unshared)));
            pos += static_cast<size_t>(*unshared);
            const std::string_view value = data.substr(pos, static_cast<size_t>(*valueLength));
            pos += static_cast<size_t>(*valueLength);
            if (auto status = visit(key, value); !status) return status;
        }
        return okStatus();
    }

private:
    bool charge(uint64_t bytes, const std::string&) {
        total_ += bytes;
        return total_ <= limits_.maxTotalBytes;
    }
    Error overBudget(const std::string& what) const {
        return data::dataError(what + " takes the table past " + std::to_string(limits_.maxTotalBytes) +
                               " bytes of blocks (its index repeats blocks, or it is no real checkpoint index)");
    }

    std::string_view file_;
    TableLimits limits_;
    uint64_t total_ = 0;
};

}  // namespace

Status forEachTableEntry(std::string_view table, const TableVisitor& visit, const TableLimits& limits) {
    if (table.size() < kFooterSize)
        return data::dataError("too short for a table (" + std::to_string(table.size()) + " bytes; its footer alone has 48)");
    const std::string_view footer = table.substr(table.size() - kFooterSize);
    uint64_t magic;
    std::memcpy(&magic, footer.data() + 40, 8);
    if (magic != kMagic) return data::dataError("not a LevelDB-format table (its last 8 bytes are not the table magic)");
    size_t pos = 0;
    const std::string_view handles = footer.substr(0, 40);
    const auto metaindex = readHandle(handles, pos);
    const auto index = metaindex ? readHandle(handles, pos) : std::nullopt;
    if (!index) return data::dataError("the table's footer holds no valid block handles");

    TableReader reader(table, limits);
    std::string indexScratch, blockScratch;
    auto indexBlock = reader.block(*index, "the index block", indexScratch);
    if (!indexBlock) return indexBlock.error();
    size_t blockNumber = 0;
    return reader.entries(*indexBlock, "the index block", [&](std::string_view, std::string_view value) -> Status {
        size_t at = 0;
        const auto handle = readHandle(value, at);
        const std::string what = "data block " + std::to_string(blockNumber++);
        if (!handle) return data::dataError("the index block's entry for " + what + " is no block handle");
        auto contents = reader.block(*handle, what, blockScratch);
        if (!contents) return contents.error();
        return reader.entries(*contents, what, visit);
    });
}

}  // namespace qs::modelfile
