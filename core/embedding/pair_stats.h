// errorStats' sums (core/analysis/error_stats.h) with vector code, for the feature analysis
// (feature_sim.cpp): the same order, so the same figures bit for bit.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "core/analysis/error_stats.h"
#include "core/tensor.h"
#include "core/tpu/simulated_quantization.h"

namespace qs::embedding {

// lanes.addRun(p0, x, y, n) for a p0 that is a multiple of kStatsLanes.
void addPairRun(analysis::ErrorLanes& lanes, const float* x, const float* y, int64_t n);

// The simulated quantization of x[0, n) (simulateQuantizationF32, prepared in k) into y, with
// each value's level slot: its bucket index, at most `last_slot` (compared as floats), or
// `spare_slot` when x or its quantization is NaN; and the count of values that are not NaN and lie outside the
// double range [lo, hi] (through clip_lo = floatAtLeast(lo), clip_hi = floatAtMost(hi)).
struct SlotQuantizer {
    tpu::SimQuantF32 k;
    float clip_lo, clip_hi;
    float last_slot;  // at most 2^31 - 128 (a float below 2^31)
    int32_t spare_slot;
};
void quantizeWithSlots(const float* x, int64_t n, const SlotQuantizer& q, float* y, int32_t* slots,
                       int64_t& clipped);

// The slots of a config: a bucket index reaches num_buckets at most (float rounding of
// (upper - lower) / quantum), so last_slot = num_buckets + 1 and spare_slot = num_buckets + 2;
// the clip bounds are the config's. For configs checkOccupancyConfig accepts.
SlotQuantizer slotQuantizer(const tpu::QuantizationConfig& config);
// Distinct levels q * quantum + lower among the slots marked in used[0, last_slot].
int64_t distinctLevels(const std::vector<uint8_t>& used, const SlotQuantizer& q);

// errorStats(x, y) (no clip range) for y = simulateQuantization(x), which it writes: each
// block quantized and summed in one step, the blocks in parallel, the distinct levels counted
// from the buckets used. x and y the same size; a config checkOccupancyConfig accepts.
analysis::ErrorStats quantizedPairStats(std::span<const float> x, std::span<float> y,
                                        const tpu::QuantizationConfig& config, const Exec& exec);

// errorStats(x, y) (no clip range) with its blocks summed in parallel. x and y the same size.
analysis::ErrorStats pairStats(std::span<const float> x, std::span<const float> y, const Exec& exec);

}  // namespace qs::embedding
