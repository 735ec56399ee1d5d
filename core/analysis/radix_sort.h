// The one radix sort of 32-bit keys in the core: the distinct-value count of the statistics
// (error_stats.cpp, keys = float bits) and the embedding suggestions' sorted sample
// (sample_order.cpp, keys = order-preserving float keys) sort with it.
#pragma once

#include <cstdint>
#include <vector>

namespace qs::analysis {

// Sorts `keys` ascending: LSD radix sort, 11 bits per pass (3 passes), with one buffer of the
// same size.
void radixSort(std::vector<uint32_t>& keys);

}  // namespace qs::analysis
