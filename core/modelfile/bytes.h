// A read-only run of bytes that stays alive as long as anybody holds it: a memory-mapped
// file (the normal case: nothing is read until a tensor is loaded) or an owned buffer
// (fuzz targets, a zip member inflated into memory). Readers hand out sub-spans of it
// together with the shared owner, so a loaded tensor never copies what the file stores raw.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/status.h"

namespace qs::modelfile {

class Bytes {
public:
    virtual ~Bytes() = default;
    virtual std::string_view view() const = 0;
    size_t size() const { return view().size(); }
};
using SharedBytes = std::shared_ptr<const Bytes>;

// The file mmap'ed read-only (DataError "cannot open PATH: ..." when it cannot be).
Result<SharedBytes> mapFile(const std::string& path);
// An owned copy (tests and fuzz targets) / a buffer moved in (inflated zip members).
SharedBytes copyBytes(std::string_view bytes);
SharedBytes ownBytes(std::vector<char> bytes);
// Whether the bytes [offset, offset + length) lie inside `whole`.
// Overflow-safe: offset and length come from files.
bool inside(std::string_view whole, uint64_t offset, uint64_t length);

}  // namespace qs::modelfile
