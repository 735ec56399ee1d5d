#include "core/modelfile/hdf5_dense_links.h"

#include <algorithm>
#include <set>

namespace qs::modelfile::hdf5 {
namespace {

// Indirect blocks nest one level per doubling of the block size: 64 levels cover any
// 64-bit heap; more is a hostile file.
constexpr int kMaxHeapDepth = 64;
// v2 B-trees of real files are a few levels deep.
constexpr int kMaxTreeDepth = 32;

int floorLog2(uint64_t v) { return v == 0 ? -1 : 63 - __builtin_clzll(v); }
// Bytes to store any count up to `v` (HDF5's H5VM_limit_enc_size).
size_t countBytes(uint64_t v) { return static_cast<size_t>(std::max(floorLog2(v), 0) / 8 + 1); }

// The fractal heap: only what locating managed and tiny objects needs.
class FractalHeap {
public:
    FractalHeap(const File& file, uint64_t address, Budget& budget, std::string what)
        : file_(file), budget_(budget), what_(std::move(what)) {
        Cursor c = file.at(address, what_);
        c.expect("FRHP");
        if (const uint8_t version = c.u8(); version != 0)
            fail(what_ + " has version " + std::to_string(version) + " (0 is known)");
        idLength_ = c.u16();
        if (c.u16() != 0) fail(what_ + " is filtered (compressed), which this reader does not decode");
        const uint8_t flags = c.u8();
        blockChecksums_ = (flags & 0x02) != 0;
        const uint32_t maxManaged = c.u32();
        c.length();                                  // next huge object ID
        c.address();                                 // huge object B-tree
        c.length();                                  // free space
        c.address();                                 // free space manager
        for (int i = 0; i < 8; ++i) c.length();      // managed, allocated, iterator, counts and sizes
        width_ = c.u16();
        startSize_ = c.length();
        maxDirectSize_ = c.length();
        const uint16_t maxHeapBits = c.u16();
        c.u16();  // starting rows
        root_ = c.address();
        rootRows_ = c.u16();
        if (width_ == 0 || startSize_ == 0 || (startSize_ & (startSize_ - 1)) != 0 || maxDirectSize_ < startSize_ ||
            (maxDirectSize_ & (maxDirectSize_ - 1)) != 0 || maxHeapBits == 0 || maxHeapBits > 64)
            fail(what_ + " has an invalid doubling table (width " + std::to_string(width_) + ", blocks of " +
                 std::to_string(startSize_) + " to " + std::to_string(maxDirectSize_) + " bytes)");
        offsetBytes_ = (maxHeapBits + 7) / 8;
        lengthBytes_ = std::min<size_t>((floorLog2(maxDirectSize_) + 7) / 8, countBytes(maxManaged));
        maxDirectRows_ = floorLog2(maxDirectSize_) - floorLog2(startSize_) + 2;
    }

    size_t idLength() const { return idLength_; }

    // The object a heap ID names.
    std::string_view object(std::string_view id) const {
        Cursor c(id, what_ + ": a heap ID");
        const uint8_t first = c.u8();
        if ((first & 0xC0) != 0) fail(what_ + ": a heap ID has version " + std::to_string(first >> 6));
        const int type = (first >> 4) & 0x03;
        if (type == 2) {  // tiny: the object is inside the ID
            const uint64_t length = idLength_ <= 18 ? (first & 0x0F) + 1u : (((first & 0x0Fu) << 8) | c.u8()) + 1u;
            return c.take(length);
        }
        if (type != 0) fail(what_ + " holds a link as a huge object, which this reader does not read");
        const uint64_t offset = c.uint(offsetBytes_);
        const uint64_t length = c.uint(lengthBytes_);
        if (rootRows_ == 0) return inDirectBlock(root_, 0, startSize_, offset, length);
        return inIndirectBlock(root_, 0, rootRows_, offset, length, 0);
    }

private:
    uint64_t rowSize(int row) const { return row <= 1 ? startSize_ : startSize_ << (row - 1); }

    std::string_view inDirectBlock(uint64_t address, uint64_t blockOffset, uint64_t size, uint64_t offset,
                                   uint64_t length) const {
        const std::string block = what_ + ": a direct block";
        Cursor c = file_.over(file_.span(address, size, block), block);
        c.expect("FHDB");
        c.skip(1);  // version
        c.address();
        c.uint(offsetBytes_);
        if (blockChecksums_) c.skip(4);
        const uint64_t at = offset - blockOffset;  // offsets count from the block's first byte
        if (at < c.position() || at > size || length > size - at)
            fail(what_ + ": an object (" + std::to_string(length) + " bytes at heap offset " + std::to_string(offset) +
                 ") lies outside its block");
        return file_.span(address + at, length, block);
    }

    std::string_view inIndirectBlock(uint64_t address, uint64_t blockOffset, int rows, uint64_t offset,
                                     uint64_t length, int depth) const {
        const std::string block = what_ + ": an indirect block";
        if (depth > kMaxHeapDepth || rows > 64) fail(block + " nests too deep");
        Cursor c = file_.at(address, block);
        c.expect("FHIB");
        c.skip(1);  // version
        c.address();
        c.uint(offsetBytes_);
        uint64_t start = blockOffset;
        for (int row = 0; row < rows; ++row) {
            const uint64_t size = rowSize(row);
            for (int column = 0; column < width_; ++column) {
                budget_.spend();
                const uint64_t child = c.address();
                if (offset < start || offset - start >= size) {
                    if (__builtin_add_overflow(start, size, &start)) fail(block + " spans more than 64 bits");
                    continue;
                }
                if (child == kUndefined) fail(what_ + ": heap offset " + std::to_string(offset) + " is in a block never written");
                if (row < maxDirectRows_) return inDirectBlock(child, start, size, offset, length);
                // A child indirect block has as many rows as doublings fit in its size.
                const int childRows = floorLog2(size) - floorLog2(startSize_ * width_) + 1;
                return inIndirectBlock(child, start, childRows, offset, length, depth + 1);
            }
        }
        fail(what_ + ": heap offset " + std::to_string(offset) + " lies past the heap's blocks");
    }

    const File& file_;
    Budget& budget_;
    std::string what_;
    size_t idLength_ = 0;
    bool blockChecksums_ = false;
    uint16_t width_ = 0;
    uint64_t startSize_ = 0, maxDirectSize_ = 0, root_ = kUndefined;
    int rootRows_ = 0, maxDirectRows_ = 0;
    size_t offsetBytes_ = 0, lengthBytes_ = 0;
};

// The version 2 B-tree indexing the links by name hash (type 5: hash, heap ID).
class NameIndex {
public:
    NameIndex(const File& file, uint64_t address, const FractalHeap& heap, Budget& budget, std::string what)
        : file_(file), heap_(heap), budget_(budget), what_(std::move(what)) {
        Cursor c = file.at(address, what_);
        c.expect("BTHD");
        c.skip(1);  // version
        if (const uint8_t type = c.u8(); type != 5)
            fail(what_ + " has type " + std::to_string(type) + " (5, link names, expected)");
        nodeSize_ = c.u32();
        recordSize_ = c.u16();
        depth_ = c.u16();
        c.skip(2);  // split and merge percentages
        root_ = c.address();
        rootCount_ = c.u16();
        if (recordSize_ != 4 + heap.idLength() || nodeSize_ < 10u + recordSize_ || depth_ > kMaxTreeDepth)
            fail(what_ + " has " + std::to_string(recordSize_) + "-byte records in " + std::to_string(nodeSize_) +
                 "-byte nodes, " + std::to_string(depth_) + " levels deep");
        // The widths of the child record counts, as HDF5 derives them from the node size.
        const uint64_t prefix = 10;  // signature, version, type, checksum
        uint64_t maxRecords = (nodeSize_ - prefix) / recordSize_;
        maxCountBytes_ = countBytes(maxRecords);
        uint64_t cumulative = maxRecords;
        totalBytes_.assign(depth_ + 1, 0);
        for (int level = 1; level <= depth_; ++level) {
            const uint64_t pointer = file.offsetSize + maxCountBytes_ + totalBytes_[level - 1];
            if (nodeSize_ < prefix + pointer) fail(what_ + ": its nodes are too small for their children");
            maxRecords = (nodeSize_ - prefix - pointer) / (recordSize_ + pointer);
            if (__builtin_mul_overflow(maxRecords + 1, cumulative, &cumulative) ||
                __builtin_add_overflow(cumulative, maxRecords, &cumulative))
                cumulative = UINT64_MAX;
            totalBytes_[level] = countBytes(cumulative);
        }
    }

    std::vector<Link> links() {
        std::vector<Link> out;
        if (root_ != kUndefined) node(root_, rootCount_, depth_, out);
        return out;
    }

private:
    void node(uint64_t address, uint64_t count, int depth, std::vector<Link>& out) {
        const std::string where = what_ + ": a node at " + byteAt(address);
        if (!seen_.insert(address).second) fail(where + " is reached twice");
        Cursor c = file_.over(file_.span(address, nodeSize_, where), where);
        c.expect(depth == 0 ? "BTLF" : "BTIN");
        c.skip(2);  // version, type
        for (uint64_t i = 0; i < count; ++i) {
            budget_.spend();
            c.skip(4);  // name hash
            Link link = readLink(file_, heap_.object(c.take(heap_.idLength())));
            out.push_back(std::move(link));
        }
        if (depth == 0) return;
        for (uint64_t i = 0; i <= count; ++i) {
            const uint64_t child = c.address();
            const uint64_t childCount = c.uint(maxCountBytes_);
            if (depth > 1) c.uint(totalBytes_[depth - 1]);
            node(child, childCount, depth - 1, out);
        }
    }

    const File& file_;
    const FractalHeap& heap_;
    Budget& budget_;
    std::string what_;
    uint32_t nodeSize_ = 0;
    uint16_t recordSize_ = 0, depth_ = 0, rootCount_ = 0;
    uint64_t root_ = kUndefined;
    size_t maxCountBytes_ = 1;
    std::vector<size_t> totalBytes_;
    std::set<uint64_t> seen_;
};

}  // namespace

std::vector<Link> readDenseLinks(const File& file, const LinkInfo& info, Budget& budget, const std::string& what) {
    if (info.nameIndex == kUndefined) fail(what + " keeps its links in a fractal heap without a name index");
    const FractalHeap heap(file, info.heap, budget, "the link heap of " + what);
    NameIndex index(file, info.nameIndex, heap, budget, "the link name index of " + what);
    return index.links();
}

}  // namespace qs::modelfile::hdf5
