#include "core/modelfile/crc32c.h"

#include <array>
#include <cstring>

#if defined(__x86_64__)
#include <nmmintrin.h>
#endif

namespace qs::modelfile {
namespace {

// Slicing-by-8 tables for the reflected polynomial 0x82F63B78, for machines without SSE
// 4.2's crc32 instruction (which computes this very CRC, several times faster).
using Tables = std::array<std::array<uint32_t, 256>, 8>;

constexpr Tables makeTables() {
    Tables t{};
    for (uint32_t i = 0; i < 256; ++i) {
        uint32_t c = i;
        for (int k = 0; k < 8; ++k) c = (c & 1) ? (c >> 1) ^ 0x82F63B78u : c >> 1;
        t[0][i] = c;
    }
    for (size_t s = 1; s < 8; ++s)
        for (uint32_t i = 0; i < 256; ++i) t[s][i] = (t[s - 1][i] >> 8) ^ t[0][t[s - 1][i] & 0xFF];
    return t;
}
constexpr Tables kTables = makeTables();

constexpr uint32_t kMaskDelta = 0xa282ead8u;

#if defined(__x86_64__)
__attribute__((target("sse4.2"))) uint32_t crc32cInstruction(uint32_t c, const uint8_t* p, size_t n) {
    uint64_t wide = c;
    for (; n >= 8; p += 8, n -= 8) {
        uint64_t v;
        std::memcpy(&v, p, 8);
        wide = _mm_crc32_u64(wide, v);
    }
    c = static_cast<uint32_t>(wide);
    while (n--) c = _mm_crc32_u8(c, *p++);
    return c;
}
bool hasCrc32Instruction() {
    static const bool yes = __builtin_cpu_supports("sse4.2");
    return yes;
}
#endif

}  // namespace

uint32_t crc32c(std::string_view bytes, uint32_t initial) {
#if defined(__x86_64__)
    if (hasCrc32Instruction())
        return ~crc32cInstruction(~initial, reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
#endif
    return crc32cPortable(bytes, initial);
}

uint32_t crc32cPortable(std::string_view bytes, uint32_t initial) {
    uint32_t c = ~initial;
    const auto* p = reinterpret_cast<const uint8_t*>(bytes.data());
    size_t n = bytes.size();
    while (n >= 8) {
        const uint32_t lo = c ^ (uint32_t{p[0]} | uint32_t{p[1]} << 8 | uint32_t{p[2]} << 16 | uint32_t{p[3]} << 24);
        c = kTables[7][lo & 0xFF] ^ kTables[6][(lo >> 8) & 0xFF] ^ kTables[5][(lo >> 16) & 0xFF] ^ kTables[4][lo >> 24] ^
            kTables[3][p[4]] ^ kTables[2][p[5]] ^ kTables[1][p[6]] ^ kTables[0][p[7]];
        p += 8;
        n -= 8;
    }
    while (n--) c = (c >> 8) ^ kTables[0][(c ^ *p++) & 0xFF];
    return ~c;
}

uint32_t unmaskCrc(uint32_t masked) {
    const uint32_t rotated = masked - kMaskDelta;
    return (rotated >> 17) | (rotated << 15);
}

}  // namespace qs::modelfile
