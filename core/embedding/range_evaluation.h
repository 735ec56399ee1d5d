// The error the float32 simulated quantization has on a sample of finite values, for several
// candidate ranges in one pass over the sample (the range suggestions' figures,
// range_suggest.h): each value is read once and quantized with every candidate while it is
// in L1, and the sum of x^2, the same for every candidate, is taken once.
//
// Summation order, the same for every thread count and every CPU the kernel is compiled for:
// the sample is cut into blocks of kReduceBlock values; within a block value i is added into
// lane i % kEvalLanes, each lane in index order; at a block's end its lanes are added in lane
// order, and the blocks' sums in block order.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "core/tensor.h"
#include "core/tpu/simulated_quantization.h"

namespace qs::embedding {

inline constexpr int kEvalLanes = 8;

struct RangeError {
    double err2 = 0;      // sum over the sample of (x - q(x))^2, in double
    int64_t clipped = 0;  // values outside [lower, upper] (compared with the double bounds)
};

struct SampleErrors {
    std::vector<RangeError> ranges;  // one per candidate, in order
    double x2 = 0;                   // sum of x^2
};

// q(x) = simulateQuantizationF32(x, prepareF32(candidate)). `values` must be finite;
// candidates must have num_buckets >= 2. With all_figures false only err2 is summed
// (clipped and x2 stay 0).
SampleErrors evaluateRanges(std::span<const float> values,
                            std::span<const tpu::QuantizationConfig> candidates, const Exec& exec = {},
                            bool all_figures = true);

// The same figures one value at a time in the order above (scalar code, no vectors): the
// reference the kernel is tested against.
SampleErrors evaluateRangesReference(std::span<const float> values,
                                     std::span<const tpu::QuantizationConfig> candidates);

}  // namespace qs::embedding
