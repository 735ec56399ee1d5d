// Fuzz target: TensorFlow checkpoint indexes (core/modelfile/checkpoint_reader.cpp and the
// LevelDB-table and protobuf-wire readers under it). The fuzz bytes are the .index; every
// shard it names is one fixed small shard that starts like the seed SavedModel's (a = 0.5,
// b = 2, c = 3 at offsets 0, 4, 8, so the seed's checksums hold and loads get through).
//
// Each input is read twice: as it is, and with the CRCs of its footer's index block and of
// the data blocks that block names rewritten to match. Almost every mutation inside a block
// breaks its checksum, where the reader (rightly) stops; the second read takes the mutation
// on to the block, entry and proto parsers behind the checksum.
#include <cstring>

#include "core/modelfile/crc32c.h"
#include "core/modelfile/proto_wire.h"
#include "core/modelfile/readers.h"
#include "tests/fuzz/model_checks.h"

namespace {

using qs::modelfile::readVarint;

qs::modelfile::SharedBytes fixedShard() {
    std::vector<char> bytes(631, '\0');
    const float values[] = {0.5f, 2.0f, 3.0f};
    std::memcpy(bytes.data(), values, sizeof values);
    return qs::modelfile::ownBytes(std::move(bytes));
}

// Rewrites the trailer CRC of the block at the handle read from `handle` (if it fits);
// returns the block's contents when it is stored uncompressed.
std::string_view repairBlock(std::string& table, std::string_view handle) {
    size_t pos = 0;
    const auto offset = readVarint(handle, pos);
    const auto size = offset ? readVarint(handle, pos) : std::nullopt;
    if (!size || *offset > table.size() || *size > table.size() - *offset || table.size() - *offset - *size < 5)
        return {};
    char* block = table.data() + *offset;
    const std::string_view typed(block, static_cast<size_t>(*size) + 1);
    const uint32_t crc = qs::modelfile::crc32c(typed);
    const uint32_t masked = ((crc >> 15) | (crc << 17)) + 0xa282ead8u;
    std::memcpy(block + *size + 1, &masked, 4);
    return block[*size] == 0 ? std::string_view(block, static_cast<size_t>(*size)) : std::string_view();
}

std::string withRepairedChecksums(std::string table) {
    if (table.size() < 48) return table;
    size_t pos = 0;
    const std::string_view footer(table.data() + table.size() - 48, 40);
    if (!readVarint(footer, pos) || !readVarint(footer, pos)) return table;  // the metaindex handle
    const std::string index(repairBlock(table, footer.substr(pos)));
    if (index.size() < 4) return table;
    uint32_t restarts;
    std::memcpy(&restarts, index.data() + index.size() - 4, 4);
    if (restarts > (index.size() - 4) / 4) return table;
    const std::string_view entries(index.data(), index.size() - 4 - 4 * size_t{restarts});
    for (pos = 0; pos < entries.size();) {  // the index's values are the data blocks' handles
        const auto shared = readVarint(entries, pos);
        const auto unshared = shared ? readVarint(entries, pos) : std::nullopt;
        const auto length = unshared ? readVarint(entries, pos) : std::nullopt;
        if (!length || *unshared > entries.size() - pos || *length > entries.size() - pos - *unshared) break;
        pos += static_cast<size_t>(*unshared);
        repairBlock(table, entries.substr(pos, static_cast<size_t>(*length)));
        pos += static_cast<size_t>(*length);
    }
    return table;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    static const qs::modelfile::SharedBytes shard = fixedShard();
    const std::string label = "fuzz.index";
    const qs::modelfile::Sidecars sidecars = [](const std::string&) -> qs::Result<qs::modelfile::SharedBytes> {
        return shard;
    };
    const std::string input(reinterpret_cast<const char*>(data), size);
    for (const std::string& index : {input, withRepairedChecksums(input)})
        qs::fuzz::checkModel(
            qs::modelfile::openCheckpoint(label, qs::modelfile::copyBytes(index), sidecars, "variables"), label);
    return 0;
}
