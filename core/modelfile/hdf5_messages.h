// The object header messages a Keras weights file needs, decoded from their bytes:
// dataspace (shape), datatype (element type), data layout (where the bytes are), filter
// pipeline (compression), and the group messages (symbol table, link, link info).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/modelfile/dtype.h"
#include "core/modelfile/hdf5_format.h"
#include "core/tensor.h"

namespace qs::modelfile::hdf5 {

struct Dataspace {
    bool null = false;  // holds no elements at all (not even a scalar)
    Shape dims;         // empty for a scalar
};
Dataspace readDataspace(const File& file, std::string_view data);

struct Datatype {
    DType dtype = DType::Other;
    std::string name;        // dtypeName(dtype), or "hdf5 string", "hdf5 compound", ...
    uint32_t size = 0;       // bytes per element
    bool bigEndian = false;  // numbers stored big-endian (load() swaps them)
};
Datatype readDatatype(std::string_view data);

struct Layout {
    enum class Kind { Compact, Contiguous, Chunked };
    Kind kind = Kind::Contiguous;
    std::string_view compact;         // Compact: the data, inside the message
    uint64_t address = kUndefined;    // Contiguous: the data; Chunked: the chunk index
    uint64_t size = 0;                // Contiguous: bytes stored
    std::vector<uint64_t> chunk;      // Chunked: the chunk's dimensions (dataset rank of them)
    enum class Index { BTree1, SingleChunk, Implicit, FixedArray } index = Index::BTree1;
    // Non-empty when the layout is one this reader does not load (the tensor is still listed).
    std::string refusal;
};
Layout readLayout(const File& file, std::string_view data);

// The filters of a filter pipeline message, by name ("deflate", "shuffle", "filter 32001").
std::vector<std::string> readFilters(std::string_view data);

struct Link {
    std::string name;
    uint64_t address = kUndefined;  // the object header, for hard links
    bool hard = false;              // soft and external links are not followed
};
Link readLink(const File& file, std::string_view data);

struct SymbolTable {
    uint64_t btree = kUndefined;
    uint64_t heap = kUndefined;
};
SymbolTable readSymbolTable(const File& file, std::string_view data);

// Where a new-style group keeps its links when there are many (dense storage): a fractal
// heap holding the link messages and a version 2 B-tree indexing them by name. Both
// undefined when the links are link messages in the group's header (compact storage).
struct LinkInfo {
    uint64_t heap = kUndefined;
    uint64_t nameIndex = kUndefined;
};
LinkInfo readLinkInfo(const File& file, std::string_view data);

}  // namespace qs::modelfile::hdf5
