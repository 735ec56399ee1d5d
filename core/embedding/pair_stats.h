// errorStats' sums (core/analysis/error_stats.h) with vector code, for the feature analysis
// (feature_sim.cpp): the same order, so the same figures bit for bit.
#pragma once

#include <cstdint>
#include <mutex>
#include <span>
#include <vector>

#include "core/analysis/error_stats.h"
#include "core/analysis/index_marks.h"
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
int64_t distinctLevels(const analysis::IndexMarks& used, const SlotQuantizer& q);

// The level slots used, found by several threads: each marks a copy of its own (no cache
// line shared while counting) and merges it once; then the distinct levels among them.
// A pair with a NaN marks the spare slot past the levels, which distinctLevels skips.
class UsedSlots {
public:
    explicit UsedSlots(const SlotQuantizer& q) : q_(q), used_(q.spare_slot) {}
    analysis::IndexMarks threadCopy() const { return analysis::IndexMarks(q_.spare_slot); }
    void merge(const analysis::IndexMarks& copy) {  // from any thread
        const std::lock_guard lock(mutex_);
        used_.merge(copy);
    }
    int64_t distinctLevels() const { return embedding::distinctLevels(used_, q_); }

private:
    SlotQuantizer q_;
    analysis::IndexMarks used_;
    std::mutex mutex_;
};

// A feature's two activation statistics in one parallel pass over the float activations x:
// `stats` is errorStats(x, y) (no clip range), y the quantized activations; with a config,
// `after` is errorStats(x, after) for after = simulateQuantization(x), which it writes
// (quantization after the combine), its distinct levels counted from the buckets used.
// x, y and after (when a config is given) the same size; a config checkOccupancyConfig accepts.
struct ActivationStats {
    analysis::ErrorStats stats, after;
};
ActivationStats activationStats(std::span<const float> x, std::span<const float> y, std::span<float> after,
                                const tpu::QuantizationConfig* config, const Exec& exec);
// activationStats' `stats` alone: errorStats(x, y) (no clip range), its blocks in parallel.
analysis::ErrorStats pairStats(std::span<const float> x, std::span<const float> y, const Exec& exec);

}  // namespace qs::embedding
