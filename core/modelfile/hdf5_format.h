// The low-level structures of HDF5 files, read straight from the file's bytes: the
// superblock, object headers (version 1 and the "OHDR" version 2, with their continuation
// blocks) and a bounds-checked cursor that every structure is read through.
//
// Only the subset Keras and h5py write is read (see hdf5_reader.cpp for the whole list).
// Every address and length comes from the file, so every read goes through Cursor or
// File::span, which check it against the file's size before touching a byte.
#pragma once

#include <cstdint>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace qs::modelfile::hdf5 {

// An address field of all ones: "not allocated" (a group without a heap, a dataset whose
// data was never written).
constexpr uint64_t kUndefined = ~uint64_t{0};

// Thrown by the checks of this reader and caught at its entry points (openHdf5, load),
// which turn it into a DataError naming the file: the nested structures would otherwise
// need a Result at every field. It never leaves the HDF5 reader.
struct FormatError {
    std::string what;
};
[[noreturn]] void fail(std::string what);

// Reads little-endian fields from a run of bytes; reading past its end fails with
// "WHAT ends early". Addresses and lengths have the widths the superblock declares.
class Cursor {
public:
    Cursor(std::string_view bytes, std::string what, uint8_t offsetSize = 8, uint8_t lengthSize = 8)
        : bytes_(bytes), what_(std::move(what)), offsetSize_(offsetSize), lengthSize_(lengthSize) {}

    uint64_t uint(size_t width);  // 1..8 bytes
    uint8_t u8() { return static_cast<uint8_t>(uint(1)); }
    uint16_t u16() { return static_cast<uint16_t>(uint(2)); }
    uint32_t u32() { return static_cast<uint32_t>(uint(4)); }
    uint64_t u64() { return uint(8); }
    // An address (kUndefined when all ones) / a length, in the file's widths.
    uint64_t address();
    uint64_t length() { return uint(lengthSize_); }
    std::string_view take(uint64_t n);
    void skip(uint64_t n) { take(n); }
    // Fails with "WHAT: no SIGNATURE signature" unless the next bytes are `signature`.
    void expect(std::string_view signature);
    bool startsWith(std::string_view s) const { return rest().substr(0, s.size()) == s; }

    size_t position() const { return pos_; }
    size_t remaining() const { return bytes_.size() - pos_; }
    std::string_view rest() const { return bytes_.substr(pos_); }
    const std::string& what() const { return what_; }

private:
    std::string_view bytes_;
    size_t pos_ = 0;
    std::string what_;
    uint8_t offsetSize_, lengthSize_;
};

// A cap on the work one open or load may do (object header messages, B-tree entries,
// group members), so that a small hostile file cannot make the reader loop for minutes.
class Budget {
public:
    void spend(uint64_t steps = 1);

private:
    uint64_t used_ = 0;
};

struct File {
    std::string_view bytes;  // the whole file
    uint64_t base = 0;       // where the superblock sits (after a user block): addresses count from here
    uint8_t superblockVersion = 0;
    uint8_t offsetSize = 8, lengthSize = 8;
    uint64_t rootHeader = kUndefined;

    // A cursor from `address` to the end of the file.
    Cursor at(uint64_t address, const std::string& what) const;
    // The bytes [address, address + length), or "WHAT (N bytes at byte A) lies past the end of the file".
    std::string_view span(uint64_t address, uint64_t length, const std::string& what) const;
    // A cursor over a message's data with this file's address widths.
    Cursor over(std::string_view data, std::string what) const { return {data, std::move(what), offsetSize, lengthSize}; }
};

// Finds the superblock (at byte 0, or 512, 1024, ... after a user block) and reads
// versions 0-3.
File readSuperblock(std::string_view bytes);

struct Message {
    uint16_t type = 0;
    uint8_t flags = 0;
    std::string_view data;
};

// Message types this reader knows (HDF5 spec IV.A.2).
enum MessageType : uint16_t {
    kDataspace = 0x01,
    kLinkInfo = 0x02,
    kDatatype = 0x03,
    kLink = 0x06,
    kLayout = 0x08,
    kFilters = 0x0B,
    kContinuation = 0x10,
    kSymbolTable = 0x11,
};
// A message flag: the data is a reference to a message stored elsewhere (shared).
constexpr uint8_t kSharedMessage = 0x02;

struct ObjectHeader {
    uint64_t address = 0;
    std::vector<Message> messages;  // every message of every block, continuation blocks in order
    const Message* find(uint16_t type) const;
};

// Reads the object header at `address`, following its continuation messages (each block
// once: a block listed twice cannot make it loop).
ObjectHeader readObjectHeader(const File& file, uint64_t address, Budget& budget);

// A version 1 B-tree node ("TREE"), up to its first key: node type 0 holds groups, 1
// raw data chunks. `level` is what its parent promised (-1 for the root node); a node seen
// before (kept in `seen`) fails, so a B-tree cannot loop.
struct BTreeNode {
    Cursor entries;     // at the first key: key, child, key, ..., key
    int level = 0;      // 0: children are the leaves (symbol table nodes or chunks)
    uint16_t count = 0; // children
};
BTreeNode readBTreeNode(const File& file, uint64_t address, uint8_t type, int level, std::set<uint64_t>& seen,
                        const std::string& what);

// "byte 1234" for messages about addresses.
std::string byteAt(uint64_t address);

}  // namespace qs::modelfile::hdf5
