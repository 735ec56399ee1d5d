// errorStats' sums (core/analysis/error_stats.h) with vector code, for the feature analysis
// (feature_sim.cpp): the same order, so the same figures bit for bit.
#pragma once

#include <cstdint>
#include <span>

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

// errorStats(x, y) (no clip range) with its blocks summed in parallel. x and y the same size.
analysis::ErrorStats pairStats(std::span<const float> x, std::span<const float> y, const Exec& exec);

}  // namespace qs::embedding
