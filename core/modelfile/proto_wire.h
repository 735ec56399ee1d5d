// The protobuf wire format, read field by field without generated code: enough for the few
// small messages a reader needs (a checkpoint's BundleEntryProto) when their .proto is not
// installed. Every read is bounds-checked; a malformed message ends the walk with failed().
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace qs::modelfile {

// LEB128 varint at `pos` of `bytes` (at most 10 bytes); advances `pos`. nullopt when it
// runs past the end or is longer than 64 bits allow.
std::optional<uint64_t> readVarint(std::string_view bytes, size_t& pos);

class WireReader {
public:
    enum class Type : uint8_t { Varint = 0, Fixed64 = 1, Bytes = 2, Fixed32 = 5 };
    struct Field {
        uint32_t number = 0;
        Type type = Type::Varint;
        uint64_t value = 0;      // Varint, Fixed64, Fixed32
        std::string_view bytes;  // Bytes (strings, sub-messages, packed fields)
    };

    explicit WireReader(std::string_view message) : message_(message) {}
    // The next field, or nullopt at the end or on malformed input (then failed() is true).
    // Groups (wire types 3 and 4, long deprecated) count as malformed.
    std::optional<Field> next();
    bool failed() const { return failed_; }

private:
    std::optional<Field> fail() {
        failed_ = true;
        return std::nullopt;
    }
    std::string_view message_;
    size_t pos_ = 0;
    bool failed_ = false;
};

}  // namespace qs::modelfile
