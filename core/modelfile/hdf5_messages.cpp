#include "core/modelfile/hdf5_messages.h"

namespace qs::modelfile::hdf5 {
namespace {

// HDF5 allows 32 dimensions.
constexpr int kMaxRank = 32;

std::string className(uint8_t cls) {
    static const char* const names[] = {"integer", "float",     "time", "string", "bitfield", "opaque",
                                        "compound", "reference", "enum", "variable-length", "array"};
    return cls < std::size(names) ? std::string("hdf5 ") + names[cls] : "hdf5 class " + std::to_string(cls);
}

// An IEEE binary format of `size` bytes, as the floating-point properties describe it.
DType ieeeFloat(uint32_t size, uint16_t offset, uint16_t precision, uint8_t exponentBits, uint8_t mantissaBits,
                uint32_t bias) {
    if (offset != 0 || precision != size * 8) return DType::Other;
    if (size == 2 && exponentBits == 5 && mantissaBits == 10 && bias == 15) return DType::Float16;
    if (size == 2 && exponentBits == 8 && mantissaBits == 7 && bias == 127) return DType::BFloat16;
    if (size == 4 && exponentBits == 8 && mantissaBits == 23 && bias == 127) return DType::Float32;
    if (size == 8 && exponentBits == 11 && mantissaBits == 52 && bias == 1023) return DType::Float64;
    return DType::Other;
}

DType integer(uint32_t size, bool isSigned, uint16_t offset, uint16_t precision) {
    if (offset != 0 || precision != size * 8) return DType::Other;
    switch (size) {
        case 1: return isSigned ? DType::Int8 : DType::UInt8;
        case 2: return isSigned ? DType::Int16 : DType::UInt16;
        case 4: return isSigned ? DType::Int32 : DType::UInt32;
        case 8: return isSigned ? DType::Int64 : DType::UInt64;
        default: return DType::Other;
    }
}

std::string filterName(uint16_t id) {
    switch (id) {
        case 1: return "deflate";
        case 2: return "shuffle";
        case 3: return "fletcher32";
        case 4: return "szip";
        case 5: return "nbit";
        case 6: return "scaleoffset";
        case 32000: return "lzf";
        default: return "filter " + std::to_string(id);
    }
}

}  // namespace

Dataspace readDataspace(const File& file, std::string_view data) {
    Cursor c = file.over(data, "a dataspace message");
    const uint8_t version = c.u8();
    const uint8_t rank = c.u8();
    const uint8_t flags = c.u8();
    Dataspace space;
    if (version == 1) {
        c.skip(5);  // reserved
    } else if (version == 2) {
        const uint8_t type = c.u8();
        if (type > 2) fail("a dataspace message has type " + std::to_string(type) + " (0 to 2 are known)");
        space.null = type == 2;
    } else {
        fail("a dataspace message has version " + std::to_string(version) + " (1 and 2 are known)");
    }
    if (rank > kMaxRank) fail("a dataspace has " + std::to_string(rank) + " dimensions (HDF5 allows 32)");
    for (int i = 0; i < rank; ++i) {
        const uint64_t d = c.length();
        if (d > uint64_t{INT64_MAX}) fail("a dataspace has a dimension of " + std::to_string(d));
        space.dims.push_back(static_cast<int64_t>(d));
    }
    (void)flags;  // maximum dimensions and permutations follow; the shape is all we need
    return space;
}

Datatype readDatatype(std::string_view data) {
    Cursor c(data, "a datatype message");
    const uint8_t classAndVersion = c.u8();
    const uint8_t cls = classAndVersion & 0x0F;
    const uint32_t bits = c.uint(3);
    Datatype type;
    type.size = c.u32();
    type.bigEndian = (bits & 0x01) != 0;
    if (cls == 0) {  // fixed-point
        const uint16_t offset = c.u16(), precision = c.u16();
        type.dtype = integer(type.size, (bits & 0x08) != 0, offset, precision);
    } else if (cls == 1) {  // floating-point; bit 6 set with bit 0 is VAX order
        const uint16_t offset = c.u16(), precision = c.u16();
        c.skip(1);  // exponent location
        const uint8_t exponentBits = c.u8();
        c.skip(1);  // mantissa location
        const uint8_t mantissaBits = c.u8();
        const uint32_t bias = c.u32();
        type.dtype = (bits & 0x40) ? DType::Other : ieeeFloat(type.size, offset, precision, exponentBits, mantissaBits, bias);
    }
    type.name = type.dtype == DType::Other ? className(cls) : std::string(dtypeName(type.dtype));
    if (type.dtype == DType::Other && cls <= 1) type.name += " of " + std::to_string(type.size) + " bytes";
    return type;
}

Layout readLayout(const File& file, std::string_view data) {
    Cursor c = file.over(data, "a data layout message");
    const uint8_t version = c.u8();
    Layout layout;
    if (version < 3 || version > 4) {
        layout.refusal = "its data layout message has version " + std::to_string(version) +
                         " (3 and 4 are read; 1 and 2 come from HDF5 before 1.6)";
        return layout;
    }
    const uint8_t cls = c.u8();
    if (cls == 0) {
        layout.kind = Layout::Kind::Compact;
        layout.compact = c.take(c.u16());
    } else if (cls == 1) {
        layout.kind = Layout::Kind::Contiguous;
        layout.address = c.address();
        layout.size = c.length();
    } else if (cls == 2) {
        layout.kind = Layout::Kind::Chunked;
        uint8_t indexType = 0;
        if (version == 3) {
            const uint8_t rank = c.u8();
            layout.address = c.address();
            for (int i = 0; i < rank; ++i) layout.chunk.push_back(c.u32());
        } else {
            const uint8_t flags = c.u8();
            const uint8_t rank = c.u8();
            const uint8_t width = c.u8();
            if (width < 1 || width > 8) fail("a data layout message has " + std::to_string(width) + "-byte chunk sizes");
            for (int i = 0; i < rank; ++i) layout.chunk.push_back(c.uint(width));
            indexType = c.u8();
            if (indexType == 1 && (flags & 0x02)) {
                layout.refusal = "its single chunk is filtered (compressed), which this reader does not decode";
            } else if (indexType == 1) {
                layout.index = Layout::Index::SingleChunk;
            } else if (indexType == 2) {
                layout.index = Layout::Index::Implicit;
            } else if (indexType == 3) {
                layout.index = Layout::Index::FixedArray;
                c.skip(1);  // page bits (the array's header says them again)
            } else if (indexType == 4) {
                c.skip(5);
            } else if (indexType == 5) {
                c.skip(6);
            }
            layout.address = c.address();
        }
        // The last chunk dimension is the element size, not a dimension of the data.
        if (layout.chunk.empty()) fail("a chunked data layout message has no dimensions");
        layout.chunk.pop_back();
        for (uint64_t d : layout.chunk)
            if (d == 0) fail("a chunked data layout message has a chunk dimension of 0");
        if (indexType >= 4 && layout.refusal.empty()) {
            static const char* const names[] = {"", "", "", "fixed array", "extensible array", "version 2 B-tree"};
            layout.refusal = indexType <= 5 ? std::string("its chunks are indexed by a ") + names[indexType] +
                                                  " (this reader reads version 1 B-tree, single-chunk, implicit and fixed array indexes)"
                                            : "its chunk index type " + std::to_string(indexType) + " is unknown";
        }
    } else if (cls == 3) {
        layout.refusal = "it is a virtual dataset (its data lives in other files)";
    } else {
        fail("a data layout message has class " + std::to_string(cls) + " (0 to 3 are known)");
    }
    return layout;
}

std::vector<std::string> readFilters(std::string_view data) {
    Cursor c(data, "a filter pipeline message");
    const uint8_t version = c.u8();
    const uint8_t count = c.u8();
    if (version == 1) c.skip(6);
    else if (version != 2) fail("a filter pipeline message has version " + std::to_string(version) + " (1 and 2 are known)");
    std::vector<std::string> names;
    for (int i = 0; i < count; ++i) {
        const uint16_t id = c.u16();
        const bool named = version == 1 || id >= 256;
        const uint16_t nameLength = named ? c.u16() : 0;
        c.skip(2);  // flags
        const uint16_t values = c.u16();
        c.skip(nameLength);
        c.skip(uint64_t{4} * values);
        if (version == 1 && values % 2 == 1) c.skip(4);
        names.push_back(filterName(id));
    }
    return names;
}

Link readLink(const File& file, std::string_view data) {
    Cursor c = file.over(data, "a link message");
    if (const uint8_t version = c.u8(); version != 1)
        fail("a link message has version " + std::to_string(version) + " (1 is known)");
    const uint8_t flags = c.u8();
    const uint8_t type = (flags & 0x08) ? c.u8() : 0;
    if (flags & 0x04) c.skip(8);  // creation order
    if (flags & 0x10) c.skip(1);  // character set
    const uint64_t nameLength = c.uint(size_t{1} << (flags & 0x03));
    Link link;
    link.name = std::string(c.take(nameLength));
    link.hard = type == 0;
    if (link.hard) link.address = c.address();
    return link;
}

SymbolTable readSymbolTable(const File& file, std::string_view data) {
    Cursor c = file.over(data, "a symbol table message");
    SymbolTable table;
    table.btree = c.address();
    table.heap = c.address();
    return table;
}

LinkInfo readLinkInfo(const File& file, std::string_view data) {
    Cursor c = file.over(data, "a link info message");
    if (const uint8_t version = c.u8(); version != 0)
        fail("a link info message has version " + std::to_string(version) + " (0 is known)");
    const uint8_t flags = c.u8();
    if (flags & 0x01) c.skip(8);  // maximum creation index
    LinkInfo info;
    info.heap = c.address();
    info.nameIndex = c.address();
    return info;
}

}  // namespace qs::modelfile::hdf5
