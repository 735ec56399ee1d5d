// Thread-count independent parallel reductions: [0, n) is cut into fixed blocks of
// kReduceBlock elements, each block reduced on its own (by whichever thread owns the
// block's first element) and the per-block results combined in block order. Floating-point
// sums therefore come out bit-identical for every Exec.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "core/tensor.h"

namespace qs {

inline constexpr int64_t kReduceBlock = 1 << 16;

// partial = reduceBlock(begin, end) for every block; returns the partials in block order.
template <typename Partial, typename ReduceBlock>
std::vector<Partial> blockPartials(const Exec& exec, int64_t n, ReduceBlock&& reduceBlock) {
    const int64_t blocks = (n + kReduceBlock - 1) / kReduceBlock;
    std::vector<Partial> partials(static_cast<size_t>(blocks));
    parallelFor(exec, n, [&](int64_t b, int64_t e) {
        // The blocks whose first element lies in [b, e): each block belongs to one chunk.
        for (int64_t k = (b + kReduceBlock - 1) / kReduceBlock; k * kReduceBlock < e; ++k) {
            const int64_t begin = k * kReduceBlock;
            partials[static_cast<size_t>(k)] = reduceBlock(begin, std::min(n, begin + kReduceBlock));
        }
    });
    return partials;
}

}  // namespace qs
