// How many bytes of values a data set may take in memory before the explorer streams it from
// its file instead (core/data/npy_stream.h). The default is half the physical memory (or
// half of what the address-space limit, RLIMIT_AS, leaves when that is less), leaving room
// for the results, the other windows and the rest of the machine; QS_MEMORY_BUDGET overrides
// it (a setting for users, and how tests make a small file "larger than memory").
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace qs::data {

// Bytes of physical memory (0 when the system does not say).
int64_t physicalMemoryBytes();

// "512M", "2G", "1048576", "64k" (K/M/G/T, powers of 1024, case-insensitive) as bytes;
// nullopt for anything else (empty, negative, trailing text, overflow).
std::optional<int64_t> parseByteSize(std::string_view text);

// The budget: QS_MEMORY_BUDGET when set and valid, else half of min(physical memory,
// what RLIMIT_AS leaves of the address space), at least 1 MiB.
int64_t defaultMemoryBudget();

}  // namespace qs::data
