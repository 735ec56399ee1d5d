// CRC-32C (Castagnoli), as LevelDB tables and TensorFlow's checkpoints store it: "masked"
// so that a CRC of data holding CRCs does not degenerate (TF's crc32c::Mask/Unmask).
#pragma once

#include <cstdint>
#include <string_view>

namespace qs::modelfile {

uint32_t crc32c(std::string_view bytes, uint32_t initial = 0);
// The same without the CPU's crc32 instruction (what crc32c falls back to; for tests).
uint32_t crc32cPortable(std::string_view bytes, uint32_t initial = 0);
// crc32c(a + b) from crc32c(a), for a sequence of spans.
inline uint32_t crc32cExtend(uint32_t crc, std::string_view more) { return crc32c(more, crc); }
uint32_t unmaskCrc(uint32_t masked);

}  // namespace qs::modelfile
