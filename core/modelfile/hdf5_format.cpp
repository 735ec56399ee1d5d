#include "core/modelfile/hdf5_format.h"

#include "core/modelfile/bytes.h"

namespace qs::modelfile::hdf5 {
namespace {

constexpr std::string_view kSignature = "\x89HDF\r\n\x1a\n";
// Far more than any real file needs (a Keras model with thousands of layers takes tens of
// thousands of steps), small enough that a hostile file is refused in milliseconds.
constexpr uint64_t kMaxSteps = uint64_t{1} << 22;

bool validWidth(uint8_t w) { return w == 2 || w == 4 || w == 8; }

// Version 1 messages: type (2), size (2), flags (1), reserved (3), data.
void readV1Messages(Cursor c, std::vector<Message>& out, Budget& budget) {
    while (c.remaining() >= 8) {
        budget.spend();
        Message m;
        m.type = c.u16();
        const uint16_t size = c.u16();
        m.flags = c.u8();
        c.skip(3);
        m.data = c.take(size);
        out.push_back(m);
    }
}

// Version 2 messages: type (1), size (2), flags (1), [creation order (2)], data. Fewer
// bytes left than a message header are a gap.
void readV2Messages(Cursor c, bool creationOrder, std::vector<Message>& out, Budget& budget) {
    const size_t headerSize = creationOrder ? 6 : 4;
    while (c.remaining() >= headerSize) {
        budget.spend();
        Message m;
        m.type = c.u8();
        const uint16_t size = c.u16();
        m.flags = c.u8();
        if (creationOrder) c.skip(2);
        m.data = c.take(size);
        out.push_back(m);
    }
}

}  // namespace

void fail(std::string what) { throw FormatError{std::move(what)}; }

std::string byteAt(uint64_t address) { return "byte " + std::to_string(address); }

uint64_t Cursor::uint(size_t width) {
    const std::string_view b = take(width);
    uint64_t v = 0;
    for (size_t i = 0; i < width; ++i) v |= uint64_t{static_cast<unsigned char>(b[i])} << (8 * i);
    return v;
}

uint64_t Cursor::address() {
    const uint64_t v = uint(offsetSize_);
    return offsetSize_ < 8 && v == (uint64_t{1} << (8 * offsetSize_)) - 1 ? kUndefined : v;
}

std::string_view Cursor::take(uint64_t n) {
    if (n > remaining()) fail(what_ + " ends early");
    const std::string_view v = bytes_.substr(pos_, n);
    pos_ += n;
    return v;
}

void Cursor::expect(std::string_view signature) {
    if (!startsWith(signature)) fail(what_ + ": no " + std::string(signature) + " signature");
    pos_ += signature.size();
}

void Budget::spend(uint64_t steps) {
    used_ += steps;
    if (used_ > kMaxSteps) fail("more structure than any model file holds (over " + std::to_string(kMaxSteps) + " objects, links and messages)");
}

Cursor File::at(uint64_t address, const std::string& what) const {
    if (address == kUndefined || base > bytes.size() || address > bytes.size() - base)
        fail(what + " (at " + byteAt(address) + ") lies past the end of the file (" + std::to_string(bytes.size()) +
             " bytes)");
    return over(bytes.substr(base + address), what);
}

std::string_view File::span(uint64_t address, uint64_t length, const std::string& what) const {
    if (address == kUndefined || base > bytes.size() || !inside(bytes.substr(base), address, length))
        fail(what + " (" + std::to_string(length) + " bytes at " + byteAt(address) +
             ") lies past the end of the file (" + std::to_string(bytes.size()) + " bytes)");
    return bytes.substr(base + address, length);
}

File readSuperblock(std::string_view bytes) {
    File file;
    file.bytes = bytes;
    uint64_t at = 0;
    while (bytes.substr(at, kSignature.size()) != kSignature) {
        at = at == 0 ? 512 : at * 2;
        if (at >= bytes.size()) fail("not an HDF5 file (no HDF5 signature at byte 0, 512, 1024, ...)");
    }
    file.base = at;
    Cursor c(bytes.substr(at + kSignature.size()), "the superblock");
    file.superblockVersion = c.u8();
    const std::string version = "superblock version " + std::to_string(file.superblockVersion);
    if (file.superblockVersion <= 1) {
        c.skip(3);  // free-space, root symbol table entry and shared header versions
        c.skip(1);
        file.offsetSize = c.u8();
        file.lengthSize = c.u8();
        c.skip(1);
        c.skip(4);  // group leaf and internal node K
        c.skip(4);  // consistency flags
        if (file.superblockVersion == 1) c.skip(4);  // indexed storage K, reserved
    } else if (file.superblockVersion <= 3) {
        file.offsetSize = c.u8();
        file.lengthSize = c.u8();
        c.skip(1);  // consistency flags
    } else {
        fail(version + " is not supported (0 to 3 are)");
    }
    if (!validWidth(file.offsetSize) || !validWidth(file.lengthSize))
        fail("the superblock declares " + std::to_string(file.offsetSize) + "-byte addresses and " +
             std::to_string(file.lengthSize) + "-byte lengths (2, 4 or 8 are valid)");
    c = file.over(c.rest(), "the superblock");
    // Base address, then (v0/1) free-space info / (v2/3) superblock extension, then end of
    // file. The stored base address is ignored: addresses count from where the superblock
    // is found, as the HDF5 library does when the two disagree.
    c.address();
    c.address();
    c.address();
    if (file.superblockVersion <= 1) {
        c.address();  // driver information block
        // The root group's symbol table entry: link name offset, object header address, ...
        c.address();
        file.rootHeader = c.address();
    } else {
        file.rootHeader = c.address();
    }
    if (file.rootHeader == kUndefined) fail("the superblock has no root group");
    return file;
}

BTreeNode readBTreeNode(const File& file, uint64_t address, uint8_t type, int level, std::set<uint64_t>& seen,
                        const std::string& what) {
    const std::string where = what + " at " + byteAt(address);
    if (!seen.insert(address).second) fail(where + " is reached twice");
    Cursor c = file.at(address, what);
    c.expect("TREE");
    if (const uint8_t found = c.u8(); found != type)
        fail(where + " has node type " + std::to_string(found) + " (" + std::to_string(type) + " expected)");
    const int nodeLevel = c.u8();
    if (level >= 0 && nodeLevel != level)
        fail(where + " has level " + std::to_string(nodeLevel) + ", its parent says " + std::to_string(level));
    const uint16_t count = c.u16();
    c.address();  // left sibling
    c.address();  // right sibling
    return {c, nodeLevel, count};
}

const Message* ObjectHeader::find(uint16_t type) const {
    for (const Message& m : messages)
        if (m.type == type) return &m;
    return nullptr;
}

ObjectHeader readObjectHeader(const File& file, uint64_t address, Budget& budget) {
    ObjectHeader header;
    header.address = address;
    const std::string where = "the object header at " + byteAt(address);
    Cursor c = file.at(address, where);
    bool v2 = false, creationOrder = false;
    if (c.startsWith("OHDR")) {
        c.skip(4);
        if (const uint8_t version = c.u8(); version != 2)
            fail(where + " has version " + std::to_string(version) + " (1 and 2 are known)");
        const uint8_t flags = c.u8();
        if (flags & 0x20) c.skip(16);  // access, modification, change and birth times
        if (flags & 0x10) c.skip(4);   // attribute storage phase change values
        const uint64_t chunkSize = c.uint(size_t{1} << (flags & 0x03));
        v2 = true;
        creationOrder = (flags & 0x04) != 0;
        readV2Messages(file.over(c.take(chunkSize), where), creationOrder, header.messages, budget);
    } else {
        if (const uint8_t version = c.u8(); version != 1)
            fail(where + " has version " + std::to_string(version) + " (1 and 2 are known)");
        c.skip(1);      // reserved
        c.skip(2);      // number of messages (the blocks say it again)
        c.skip(4);      // reference count
        const uint32_t size = c.u32();
        c.skip(4);      // padding to 8 bytes
        readV1Messages(file.over(c.take(size), where), header.messages, budget);
    }
    // Continuation messages add blocks; each block may add more. Blocks are read once.
    std::set<uint64_t> seen;
    for (size_t i = 0; i < header.messages.size(); ++i) {
        if (header.messages[i].type != kContinuation) continue;
        Cursor m = file.over(header.messages[i].data, where + ": continuation message");
        const uint64_t blockAddress = m.address();
        const uint64_t blockLength = m.length();
        if (!seen.insert(blockAddress).second) continue;
        const std::string blockWhat = "the continuation block of " + where;
        Cursor block = file.over(file.span(blockAddress, blockLength, blockWhat), blockWhat);
        if (v2) {
            block.expect("OCHK");
            if (block.remaining() < 4) fail(blockWhat + " ends early");
            readV2Messages(file.over(block.take(block.remaining() - 4), blockWhat), creationOrder, header.messages,
                           budget);
        } else {
            readV1Messages(block, header.messages, budget);
        }
    }
    return header;
}

}  // namespace qs::modelfile::hdf5
