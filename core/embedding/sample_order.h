// Order statistics of the range suggestions' sample (range_suggest.cpp) without sorting it:
// a sort of the small search sample, and the percentile suggestion's two quantiles read
// from the values between two of its order statistics.
#pragma once

#include <bit>
#include <cstdint>
#include <optional>
#include <span>
#include <utility>
#include <vector>

#include "core/tensor.h"

namespace qs::embedding {

// A key whose unsigned order is the value order of finite floats, -0 before +0: the radix
// sort (analysis::radixSort) and radixQuantiles (range_suggest.cpp) bin values by it.
inline uint32_t orderKey(float f) {
    const uint32_t u = std::bit_cast<uint32_t>(f);
    return (u & 0x80000000u) ? ~u : (u | 0x80000000u);
}

// The q-quantile (q in [0, 1]) with linear interpolation between the order statistics at
// ranks floor(q (n - 1)) and the next (numpy's default), by nth_element; reorders `values`
// (not empty). The reference the other methods equal.
double quantileBySelection(std::vector<float>& values, double q);

// Sorts finite values ascending with a radix sort of order-preserving keys: -0 comes
// before +0 (equal values, which a comparison sort leaves in any order).
void sortByValue(std::vector<float>& values);

// quantileBySelection(values, q) for q1 and q2, found with the help of `sorted`, a sorted sub-sample of `values`: each quantile lies,
// with overwhelming probability, between two of the sub-sample's order statistics around
// the same quantile; one pass counts the values below each bracket and gathers those
// inside, and a selection among the few inside gives the order statistics. Same results
// bit for bit. nullopt when a wanted rank fell outside its bracket or a statistic read is
// a zero (whose sign a selection leaves to chance): the caller then uses another method.
// `values` finite.
std::optional<std::pair<double, double>> bracketQuantiles(std::span<const float> values,
                                                          std::span<const float> sorted, double q1,
                                                          double q2, const Exec& exec = {});

}  // namespace qs::embedding
