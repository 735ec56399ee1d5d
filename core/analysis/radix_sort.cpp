#include "core/analysis/radix_sort.h"

#include <array>
#include <cstddef>
#include <utility>

namespace qs::analysis {

void radixSort(std::vector<uint32_t>& keys) {
    std::vector<uint32_t> tmp(keys.size());
    constexpr int kBits = 11;
    constexpr uint32_t kMask = (1u << kBits) - 1;
    for (int shift = 0; shift < 32; shift += kBits) {
        std::array<size_t, size_t{1} << kBits> count{};
        for (uint32_t k : keys) ++count[(k >> shift) & kMask];
        size_t sum = 0;
        for (size_t& c : count) sum += std::exchange(c, sum);  // each bin's first slot
        for (uint32_t k : keys) tmp[count[(k >> shift) & kMask]++] = k;
        keys.swap(tmp);
    }
}

}  // namespace qs::analysis
