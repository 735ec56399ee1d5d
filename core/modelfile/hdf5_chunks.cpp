#include "core/modelfile/hdf5_chunks.h"

#include <algorithm>
#include <optional>
#include <set>

namespace qs::modelfile::hdf5 {
namespace {

uint64_t checkedProduct(const std::vector<uint64_t>& v, uint64_t start, const std::string& what) {
    uint64_t p = start;
    for (uint64_t d : v)
        if (__builtin_mul_overflow(p, d, &p)) fail(what + ": its chunk size overflows");
    return p;
}

class Assembler {
public:
    Assembler(const File& file, const Layout& layout, const Shape& dims, uint32_t elementSize, std::string what)
        : file_(file), chunk_(layout.chunk), dims_(dims), element_(elementSize), what_(std::move(what)) {
        if (chunk_.size() != dims_.size() || dims_.empty())
            fail(what_ + ": its chunks have " + std::to_string(chunk_.size()) + " dimensions, the data " +
                 std::to_string(dims_.size()));
        chunkBytes_ = checkedProduct(chunk_, element_, what_);
        const int64_t elements = numElements(dims_);
        uint64_t total = 0;
        if (elements < 0 || __builtin_mul_overflow(static_cast<uint64_t>(elements), element_, &total) ||
            total > file_.bytes.size())
            fail(what_ + ": shape " + shapeString(dims_) + " needs more bytes than the whole file holds (" +
                 std::to_string(file_.bytes.size()) + ")");
        out_.assign(total, 0);
        rowLimit_ = 2 * (static_cast<uint64_t>(elements) + file_.bytes.size());
    }

    uint64_t chunkBytes() const { return chunkBytes_; }
    const std::vector<uint64_t>& chunk() const { return chunk_; }
    const Shape& dims() const { return dims_; }

    // Copies the chunk whose first element is at `origin` from the file at `address`.
    void place(const std::vector<uint64_t>& origin, uint64_t address) {
        const size_t rank = dims_.size();
        for (size_t k = 0; k < rank; ++k)
            if (origin[k] >= static_cast<uint64_t>(dims_[k]))
                fail(what_ + ": a chunk starts outside the data (dimension " + std::to_string(k) + " at " +
                     std::to_string(origin[k]) + ")");
        const std::string_view stored = file_.span(address, chunkBytes_, what_ + ": a chunk");
        const uint64_t rowLength = chunk_[rank - 1];
        const uint64_t copyLength = std::min(rowLength, static_cast<uint64_t>(dims_[rank - 1]) - origin[rank - 1]);
        // Walk the chunk's rows (every index but the last), skipping those past the data's edge.
        std::vector<uint64_t> index(rank - 1, 0);
        for (uint64_t row = 0;; ++row) {
            if (++rowsVisited_ > rowLimit_) fail(what_ + ": its chunks overlap far more than the data holds");
            bool insideData = true;
            uint64_t target = 0;
            for (size_t k = 0; k + 1 < rank; ++k) {
                const uint64_t at = origin[k] + index[k];
                if (at >= static_cast<uint64_t>(dims_[k])) insideData = false;
                target = target * static_cast<uint64_t>(dims_[k]) + at;
            }
            if (insideData) {
                target = target * static_cast<uint64_t>(dims_[rank - 1]) + origin[rank - 1];
                std::copy_n(stored.data() + row * rowLength * element_, copyLength * element_,
                            out_.data() + target * element_);
            }
            size_t k = rank - 1;  // advance the row index, last dimension fastest
            while (k > 0) {
                --k;
                if (++index[k] < chunk_[k]) break;
                index[k] = 0;
                if (k == 0) return;
            }
            if (rank == 1) return;
        }
    }

    std::vector<char> take() { return std::move(out_); }

private:
    const File& file_;
    std::vector<uint64_t> chunk_;
    Shape dims_;
    uint64_t element_;
    std::string what_;
    uint64_t chunkBytes_ = 0;
    std::vector<char> out_;
    uint64_t rowsVisited_ = 0, rowLimit_ = 0;
};

// Version 1 B-tree of raw data chunks (node type 1): keys hold the chunk's size, filter
// mask and offsets (one per dimension plus the element offset); level 0 children are chunks.
void btreeNode(const File& file, Assembler& assembler, uint64_t address, int level, std::set<uint64_t>& seen,
               const std::string& what) {
    BTreeNode node = readBTreeNode(file, address, 1, level, seen, what + ": a chunk B-tree node");
    Cursor& c = node.entries;
    const size_t rank = assembler.dims().size();
    std::vector<uint64_t> origin(rank);
    for (int i = 0; i < node.count; ++i) {
        c.skip(8);  // chunk size and filter mask (no filters here: the size is the chunk's)
        for (size_t k = 0; k < rank; ++k) origin[k] = c.u64();
        c.skip(8);  // the element offset, always 0
        const uint64_t child = c.address();
        if (node.level == 0) assembler.place(origin, child);
        else btreeNode(file, assembler, child, node.level - 1, seen, what);
    }
}

// A fixed array ("FAHD" header, "FADB" data block) of unfiltered chunk addresses, one per
// chunk of the grid. Arrays large enough to be split into pages are refused.
Cursor fixedArrayEntries(const File& file, uint64_t address, uint64_t count, const std::string& what) {
    const std::string header = what + ": its fixed array chunk index";
    Cursor c = file.at(address, header);
    c.expect("FAHD");
    c.skip(1);  // version
    if (const uint8_t client = c.u8(); client != 0)
        fail(header + " lists filtered chunks (client " + std::to_string(client) + "), which this reader does not decode");
    if (const uint8_t entrySize = c.u8(); entrySize != file.offsetSize)
        fail(header + " has " + std::to_string(entrySize) + "-byte entries (addresses are " +
             std::to_string(file.offsetSize) + " bytes)");
    const uint8_t pageBits = c.u8();
    const uint64_t entries = c.length();
    const uint64_t block = c.address();
    if (entries < count) fail(header + " has " + std::to_string(entries) + " entries for " + std::to_string(count) + " chunks");
    if (pageBits < 64 && entries > (uint64_t{1} << pageBits))
        fail(header + " is split into pages, which this reader does not read");
    Cursor data = file.at(block, header + "'s data block");
    data.expect("FADB");
    data.skip(2);  // version, client
    data.address();  // the header
    return data;
}

}  // namespace

std::vector<char> readChunked(const File& file, const Layout& layout, const Shape& dims, uint32_t elementSize,
                              const std::string& what) {
    Assembler assembler(file, layout, dims, elementSize, what);
    const size_t rank = dims.size();
    if (layout.address == kUndefined) return assembler.take();  // nothing written yet: all zeros
    if (layout.index == Layout::Index::BTree1) {
        std::set<uint64_t> seen;
        btreeNode(file, assembler, layout.address, -1, seen, what);
    } else if (layout.index == Layout::Index::SingleChunk) {
        assembler.place(std::vector<uint64_t>(rank, 0), layout.address);
    } else {  // implicit or fixed array: every chunk of the grid, in row-major order
        std::vector<uint64_t> grid(rank), index(rank, 0), origin(rank);
        for (size_t k = 0; k < rank; ++k) grid[k] = (static_cast<uint64_t>(dims[k]) + layout.chunk[k] - 1) / layout.chunk[k];
        const uint64_t count = checkedProduct(grid, 1, what);
        if (count == 0) return assembler.take();
        std::optional<Cursor> entries;
        if (layout.index == Layout::Index::FixedArray) entries = fixedArrayEntries(file, layout.address, count, what);
        for (uint64_t i = 0; i < count; ++i) {
            for (size_t k = 0; k < rank; ++k) origin[k] = index[k] * layout.chunk[k];
            uint64_t address = 0;
            if (entries) {
                address = entries->address();
            } else if (__builtin_mul_overflow(i, assembler.chunkBytes(), &address) ||
                       __builtin_add_overflow(address, layout.address, &address)) {
                fail(what + ": its chunks lie past the end of the file");
            }
            if (address != kUndefined) assembler.place(origin, address);  // undefined: never written
            for (size_t k = rank; k-- > 0;) {
                if (++index[k] < grid[k]) break;
                index[k] = 0;
            }
        }
    }
    return assembler.take();
}

}  // namespace qs::modelfile::hdf5
