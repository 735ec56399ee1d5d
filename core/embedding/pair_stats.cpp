#include "core/embedding/pair_stats.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <mutex>
#include <optional>
#include <vector>

#include "core/embedding/float_bounds.h"
#include "core/embedding/vector_quantize.h"
#include "core/numeric/distinct_counter.h"
#include "core/ops/kernel_util.h"  // QS_VECTOR_CLONES

namespace qs::embedding {

namespace {

using simd::f32x8, simd::i32x8;

}  // namespace

// The pairs from lane 0 on: ErrorLanes::addRun (its groups as one vector each) inlined into
// this function's AVX2 clone.
QS_VECTOR_CLONES void addPairRun(analysis::ErrorLanes& lanes, const float* x, const float* y, int64_t n) {
    lanes.addRun(0, x, y, n);
}

// The y values of pairs without a NaN into `counter`: DistinctCounter::addPairs inlined into
// this function's AVX2 clone (its first phase is vector code).
static QS_VECTOR_CLONES void addDistinctPairs(DistinctCounter& counter, const float* x,
                                              const float* y, int64_t n) {
    counter.addPairs(x, y, n);
}

// simulateQuantizationF32's steps eight values at a time.
QS_VECTOR_CLONES void quantizeWithSlots(const float* x, int64_t n, const SlotQuantizer& q, float* y,
                                        int32_t* slots, int64_t& clipped) {
    const vec::Quantizer8 quantizer(q.k);
    const f32x8 clipLo = f32x8{} + q.clip_lo, clipHi = f32x8{} + q.clip_hi;
    const f32x8 last = f32x8{} + q.last_slot;
    const i32x8 spare = i32x8{} + q.spare_slot;
    i32x8 clips{};
    int64_t i = 0;
    for (; i + 8 <= n; i += 8) {
        f32x8 v;
        std::memcpy(&v, x + i, sizeof v);
        f32x8 b, out;
        quantizer.apply(v, b, out);
        std::memcpy(y + i, &out, sizeof out);
        const i32x8 bad = (v != v) | (out != out);
        const f32x8 top = b < last ? b : last;  // std::min(b, last): b unless b > last
        const i32x8 s = bad ? spare : __builtin_convertvector(bad ? f32x8{} : top, i32x8);
        std::memcpy(slots + i, &s, sizeof s);
        clips -= ~bad & ((v < clipLo) | (v > clipHi));  // true is -1
    }
    for (int l = 0; l < 8; ++l) clipped += clips[l];
    for (; i < n; ++i) {
        const float b = tpu::simulatedBucketF32(x[i], q.k);
        y[i] = b * q.k.quantum + q.k.lower;
        const bool bad = std::isnan(x[i]) || std::isnan(y[i]);
        slots[i] = bad ? q.spare_slot : static_cast<int32_t>(std::min(b, q.last_slot));
        clipped += !bad && (x[i] < q.clip_lo || x[i] > q.clip_hi);
    }
}

SlotQuantizer slotQuantizer(const tpu::QuantizationConfig& config) {
    const int64_t slots = config.num_buckets + 2;
    return {tpu::prepareF32(config), floatAtLeast(config.lower), floatAtMost(config.upper),
            static_cast<float>(slots - 1), static_cast<int32_t>(slots)};
}

int64_t distinctLevels(const analysis::IndexMarks& used, const SlotQuantizer& q) {
    std::vector<float> levels;
    for (int64_t j = 0; j < q.spare_slot; ++j)
        if (used.marked(j)) levels.push_back(static_cast<float>(j) * q.k.quantum + q.k.lower);
    return analysis::distinctValues(levels);
}

ActivationStats activationStats(std::span<const float> x, std::span<const float> y, std::span<float> after,
                                const tpu::QuantizationConfig* config, const Exec& exec) {
    const auto n = static_cast<int64_t>(x.size());
    const int64_t blocks = (n + analysis::kStatsBlock - 1) / analysis::kStatsBlock;
    std::vector<analysis::ErrorSums> blockSums(static_cast<size_t>(blocks)), afterSums;
    DistinctCounter levels;  // distinct y among the counted pairs
    std::optional<SlotQuantizer> quantizer;
    std::optional<UsedSlots> used;
    if (config) {
        quantizer = slotQuantizer(*config);
        used.emplace(*quantizer);
        afterSums.resize(static_cast<size_t>(blocks));
    }
    std::mutex merge;
    parallelFor(exec, blocks, 1, [&](int64_t b0, int64_t b1) {
        DistinctCounter local;
        constexpr int64_t kStep = 4096;  // a multiple of the lanes
        std::vector<int32_t> slot(config ? kStep : 0);
        analysis::IndexMarks seen = used ? used->threadCopy() : analysis::IndexMarks();
        for (int64_t b = b0; b < b1; ++b) {
            const int64_t begin = b * analysis::kStatsBlock, end = std::min(n, begin + analysis::kStatsBlock);
            analysis::ErrorLanes lanes;
            addPairRun(lanes, x.data() + begin, y.data() + begin, end - begin);
            blockSums[static_cast<size_t>(b)] = lanes.fold();
            addDistinctPairs(local, x.data() + begin, y.data() + begin, end - begin);
            if (!config) continue;
            // The same x quantized after the combine, while the block is in cache.
            analysis::ErrorLanes afterLanes;
            for (int64_t p = begin; p < end; p += kStep) {
                const int64_t len = std::min(kStep, end - p);
                int64_t clipped = 0;  // errorStats is called without a clip range here
                quantizeWithSlots(x.data() + p, len, *quantizer, after.data() + p, slot.data(), clipped);
                addPairRun(afterLanes, x.data() + p, after.data() + p, len);
                seen.mark(slot.data(), len);
            }
            afterSums[static_cast<size_t>(b)] = afterLanes.fold();
        }
        if (used) used->merge(seen);
        const std::lock_guard lock(merge);
        levels.merge(local);
    });
    ActivationStats out;
    analysis::ErrorSums sums;
    for (const analysis::ErrorSums& b : blockSums) sums.merge(b);
    out.stats = analysis::statsFromSums(sums);
    if (out.stats.count > 0)
        out.stats.distinct_levels = levels.overflowed() ? analysis::distinctPairOutputs(x, y) : levels.count();
    if (config) {
        analysis::ErrorSums a;
        for (const analysis::ErrorSums& b : afterSums) a.merge(b);
        out.after = analysis::statsFromSums(a);
        if (out.after.count > 0) out.after.distinct_levels = used->distinctLevels();
    }
    return out;
}

analysis::ErrorStats pairStats(std::span<const float> x, std::span<const float> y, const Exec& exec) {
    return activationStats(x, y, {}, nullptr, exec).stats;
}

}  // namespace qs::embedding
