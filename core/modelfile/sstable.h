// LevelDB's table format ("SSTable"), as TensorFlow writes a checkpoint's .index file, read
// without LevelDB: the 48-byte footer (metaindex and index block handles, magic
// 0xdb4775248b80fb57), the index block naming each data block, and the data blocks'
// prefix-compressed entries. Blocks are stored plain or Snappy-compressed and end in a type
// byte and a masked CRC-32C, which is checked (as TensorFlow does).
//
// Hostile tables cannot make it allocate or work beyond the limits below: a block's stated
// uncompressed size is checked before anything of that size is made, and the bytes
// decompressed over the whole table are capped (an index may point at one block many times).
#pragma once

#include <cstdint>
#include <functional>
#include <string_view>

#include "core/status.h"

namespace qs::modelfile {

struct TableLimits {
    uint64_t maxBlockBytes = uint64_t{64} << 20;   // one block, uncompressed
    uint64_t maxTotalBytes = uint64_t{256} << 20;  // all blocks read, uncompressed
};

// Calls `visit(key, value)` for every entry of the table's data blocks, in the table's order;
// the views live only during the call. Stops at the first error, from the table (a DataError
// saying what is wrong and where, without a file name: the caller adds it) or from `visit`.
using TableVisitor = std::function<Status(std::string_view key, std::string_view value)>;
Status forEachTableEntry(std::string_view table, const TableVisitor& visit, const TableLimits& limits = {});

}  // namespace qs::modelfile
