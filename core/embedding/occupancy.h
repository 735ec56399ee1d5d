// Bucket occupancy of TPU simulated quantization: how many table values fall into each of
// the num_buckets buckets (bucket = the q of spec 5.2, computed with the float32 formula,
// so a value's bucket is exactly the one the lookup uses), and how many were clipped.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "core/status.h"
#include "core/tensor.h"
#include "core/tpu/simulated_quantization.h"

namespace qs::embedding {

struct BucketOccupancy {
    tpu::QuantizationConfig config;
    std::vector<int64_t> counts;  // counts[q] for q in [0, num_buckets), clipped values included
    int64_t below = 0;            // x < lower (counted in counts[0] too)
    int64_t above = 0;            // x > upper (counted in counts.back() too)
    int64_t nan = 0;              // NaN inputs (in no bucket)
    int64_t total = 0;            // values seen, NaN included
    int64_t empty_buckets = 0;    // buckets with count 0
    double entropy_bits = 0;      // Shannon entropy of the bucket distribution (bits)
    // The value each bucket reconstructs to (float32 formula): bucket q -> q*quantum + lower.
    std::vector<float> centers;
};

// Errors (InvalidArgument): num_buckets > 2^24 (a histogram that large is not a view),
// lower >= upper or non-finite bounds (the formula divides by zero or clips nonsensically:
// "lower must be < upper for an occupancy histogram"). Parallel over exec's threads, per-thread
// counts summed: the result does not depend on the thread count.
Result<BucketOccupancy> bucketOccupancy(std::span<const float> values,
                                        const tpu::QuantizationConfig& config,
                                        const Exec& exec = {});

// bucketOccupancy's checks of the config alone (its errors, in its order).
Status checkOccupancyConfig(const tpu::QuantizationConfig& config);

// The occupancy from counts gathered elsewhere (the workbench's fused table pass):
// `counts` has num_buckets + 1 slots, the last one counting NaN; empty buckets, entropy and
// centers are derived exactly as bucketOccupancy derives them.
BucketOccupancy occupancyFromCounts(const tpu::QuantizationConfig& config, std::vector<int64_t> counts,
                                    int64_t below, int64_t above, int64_t total);

}  // namespace qs::embedding
