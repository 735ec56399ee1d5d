#include "core/modelfile/proto_wire.h"

#include <cstring>

namespace qs::modelfile {

std::optional<uint64_t> readVarint(std::string_view bytes, size_t& pos) {
    uint64_t value = 0;
    for (int shift = 0; shift < 64 && pos < bytes.size(); shift += 7) {
        const auto byte = static_cast<uint8_t>(bytes[pos++]);
        if (shift == 63 && byte > 1) return std::nullopt;  // more than 64 bits
        value |= static_cast<uint64_t>(byte & 0x7F) << shift;
        if ((byte & 0x80) == 0) return value;
    }
    return std::nullopt;
}

std::optional<WireReader::Field> WireReader::next() {
    if (failed_ || pos_ >= message_.size()) return std::nullopt;
    const auto key = readVarint(message_, pos_);
    if (!key || (*key >> 3) == 0 || (*key >> 3) > 0x1FFFFFFF) return fail();
    Field field;
    field.number = static_cast<uint32_t>(*key >> 3);
    switch (*key & 7) {
    case 0: {
        const auto v = readVarint(message_, pos_);
        if (!v) return fail();
        field.type = Type::Varint;
        field.value = *v;
        return field;
    }
    case 1:
    case 5: {
        const size_t width = (*key & 7) == 1 ? 8 : 4;
        if (message_.size() - pos_ < width) return fail();
        uint64_t v = 0;
        std::memcpy(&v, message_.data() + pos_, width);  // little-endian, as the wire format is
        pos_ += width;
        field.type = width == 8 ? Type::Fixed64 : Type::Fixed32;
        field.value = v;
        return field;
    }
    case 2: {
        const auto length = readVarint(message_, pos_);
        if (!length || *length > message_.size() - pos_) return fail();
        field.type = Type::Bytes;
        field.bytes = message_.substr(pos_, static_cast<size_t>(*length));
        pos_ += static_cast<size_t>(*length);
        return field;
    }
    default: return fail();
    }
}

}  // namespace qs::modelfile
