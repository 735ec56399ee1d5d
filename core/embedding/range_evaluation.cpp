#include "core/embedding/range_evaluation.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "core/embedding/float_bounds.h"
#include "core/embedding/vector_quantize.h"
#include "core/numeric/block_reduce.h"
#include "core/numeric/simd.h"

namespace qs::embedding {

namespace {

// GCC vector extensions: 8 floats, one per lane, and the lanes' sums as doubles. Every clone
// runs the same IEEE operations per lane (-ffp-contract=off): the same bits everywhere.
using simd::f32x4, simd::f32x8, simd::f64x4, simd::i32x8;
// The eight lanes' double sums as two halves of four: a 64-byte vector has no register
// without AVX-512, so GCC kept it on the stack and every add waited for a store and a reload.
static_assert(kEvalLanes == 8);

// Lanes 0-3 and 4-7 of v as doubles.
[[gnu::always_inline]] inline void widen(const f32x8& v, f64x4& lo, f64x4& hi) {
    lo = __builtin_convertvector(__builtin_shufflevector(v, v, 0, 1, 2, 3), f64x4);
    hi = __builtin_convertvector(__builtin_shufflevector(v, v, 4, 5, 6, 7), f64x4);
}

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && !defined(QS_NO_CLONES)
#define QS_EVAL_CLONES __attribute__((target_clones("arch=x86-64-v4", "arch=x86-64-v3", "default")))
#else
#define QS_EVAL_CLONES
#endif

// Values quantized with every candidate while they are in L1 (8 KB), a multiple of the lanes.
constexpr int64_t kRun = 2048;
static_assert(kReduceBlock % kRun == 0 && kRun % kEvalLanes == 0);

struct Candidate {
    tpu::SimQuantF32 k;
    float clip_lo, clip_hi;  // x < clip_lo <=> double(x) < lower (float_bounds.h); same for upper
};

Candidate candidateOf(const tpu::QuantizationConfig& c) {
    return {tpu::prepareF32(c), floatAtLeast(c.lower), floatAtMost(c.upper)};
}

// Per lane: the sums of one block so far.
struct Lanes {
    double err2[kEvalLanes] = {};
    int64_t clipped = 0;
};

// One candidate over x[0, n), n a multiple of the lanes and x[0] in lane 0: err2 lane l adds
// (x - q(x))^2 of the values at l, l + 8, ... in order (q: simulateQuantizationF32).
QS_EVAL_CLONES void addCandidate(const float* x, int64_t n, const Candidate& c, bool countClipped, Lanes& lanes) {
    const vec::Quantizer8 quantizer(c.k);
    const f32x8 clipLo = f32x8{} + c.clip_lo, clipHi = f32x8{} + c.clip_hi;
    const double* a = lanes.err2;
    f64x4 acc0 = {a[0], a[1], a[2], a[3]}, acc1 = {a[4], a[5], a[6], a[7]};
    i32x8 clipped{};
    for (int64_t i = 0; i < n; i += kEvalLanes) {
        f32x8 v;
        std::memcpy(&v, x + i, sizeof v);
        f32x8 b, y;
        quantizer.apply(v, b, y);
        f64x4 v0, v1, y0, y1;
        widen(v, v0, v1);
        widen(y, y0, y1);
        const f64x4 e0 = v0 - y0, e1 = v1 - y1;
        acc0 += e0 * e0;
        acc1 += e1 * e1;
        if (countClipped) clipped -= (v < clipLo) | (v > clipHi);  // true is -1
    }
    for (int l = 0; l < 4; ++l) lanes.err2[l] = acc0[l], lanes.err2[l + 4] = acc1[l];
    for (int l = 0; l < kEvalLanes; ++l) lanes.clipped += clipped[l];
}

// x2 lane l adds x^2 of the values at l, l + 8, ... (n a multiple of the lanes).
QS_EVAL_CLONES void addSquares(const float* x, int64_t n, double* x2) {
    f64x4 acc0 = {x2[0], x2[1], x2[2], x2[3]}, acc1 = {x2[4], x2[5], x2[6], x2[7]};
    for (int64_t i = 0; i < n; i += kEvalLanes) {
        f32x8 v;
        std::memcpy(&v, x + i, sizeof v);
        f64x4 v0, v1;
        widen(v, v0, v1);
        acc0 += v0 * v0;
        acc1 += v1 * v1;
    }
    for (int l = 0; l < 4; ++l) x2[l] = acc0[l], x2[l + 4] = acc1[l];
}

// The scalar form of one value's terms (the tail of the sample, and the reference).
double squaredError(float x, const Candidate& c) {
    const double e = static_cast<double>(x) - static_cast<double>(tpu::simulateQuantizationF32(x, c.k));
    return e * e;
}
bool isClipped(float x, const Candidate& c) { return x < c.clip_lo || x > c.clip_hi; }

double foldLanes(const double* lanes) {
    double s = lanes[0];
    for (int l = 1; l < kEvalLanes; ++l) s += lanes[l];
    return s;
}

struct BlockSums {
    std::vector<RangeError> ranges;
    double x2 = 0;
};

// Adds `block` to `total` (blocks are added in block order).
void addBlock(SampleErrors& total, const BlockSums& block) {
    for (size_t j = 0; j < block.ranges.size(); ++j) {
        total.ranges[j].err2 += block.ranges[j].err2;
        total.ranges[j].clipped += block.ranges[j].clipped;
    }
    total.x2 += block.x2;
}

}  // namespace

SampleErrors evaluateRanges(std::span<const float> values, std::span<const tpu::QuantizationConfig> candidates,
                            const Exec& exec, bool all_figures) {
    std::vector<Candidate> cs;
    for (const tpu::QuantizationConfig& c : candidates) cs.push_back(candidateOf(c));
    const float* src = values.data();
    const auto partials = blockPartials<BlockSums>(
        exec, static_cast<int64_t>(values.size()), [&](int64_t b, int64_t e) {
            std::vector<Lanes> lanes(cs.size());
            alignas(64) double x2[kEvalLanes] = {};
            const int64_t whole = b + (e - b) / kEvalLanes * kEvalLanes;
            for (int64_t p = b; p < whole; p += kRun) {
                const int64_t n = std::min(kRun, whole - p);
                for (size_t j = 0; j < cs.size(); ++j) addCandidate(src + p, n, cs[j], all_figures, lanes[j]);
                if (all_figures) addSquares(src + p, n, x2);
            }
            for (int64_t i = whole; i < e; ++i) {  // the last few values, lane by lane
                const int l = static_cast<int>((i - b) % kEvalLanes);
                for (size_t j = 0; j < cs.size(); ++j) {
                    lanes[j].err2[l] += squaredError(src[i], cs[j]);
                    if (all_figures) lanes[j].clipped += isClipped(src[i], cs[j]);
                }
                if (all_figures) x2[l] += static_cast<double>(src[i]) * static_cast<double>(src[i]);
            }
            BlockSums s;
            for (const Lanes& l : lanes) s.ranges.push_back({foldLanes(l.err2), l.clipped});
            s.x2 = foldLanes(x2);
            return s;
        });
    SampleErrors total;
    total.ranges.resize(cs.size());
    for (const BlockSums& block : partials) addBlock(total, block);
    return total;
}

SampleErrors evaluateRangesReference(std::span<const float> values,
                                     std::span<const tpu::QuantizationConfig> candidates) {
    SampleErrors total;
    total.ranges.resize(candidates.size());
    const auto n = static_cast<int64_t>(values.size());
    for (int64_t b = 0; b < n; b += kReduceBlock) {
        BlockSums block;
        for (const tpu::QuantizationConfig& config : candidates) {
            const Candidate c = candidateOf(config);
            double lanes[kEvalLanes] = {};
            RangeError r;
            for (int64_t i = b; i < std::min(n, b + kReduceBlock); ++i) {
                const float x = values[static_cast<size_t>(i)];
                lanes[(i - b) % kEvalLanes] += squaredError(x, c);
                r.clipped += isClipped(x, c);
            }
            r.err2 = foldLanes(lanes);
            block.ranges.push_back(r);
        }
        double x2[kEvalLanes] = {};
        for (int64_t i = b; i < std::min(n, b + kReduceBlock); ++i) {
            const double x = values[static_cast<size_t>(i)];
            x2[(i - b) % kEvalLanes] += x * x;
        }
        block.x2 = foldLanes(x2);
        addBlock(total, block);
    }
    return total;
}

}  // namespace qs::embedding
