#include "core/embedding/table_pass.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

#include "core/embedding/float_bounds.h"
#include "core/numeric/block_reduce.h"
#include "core/numeric/simd.h"
#include "core/ops/kernel_util.h"  // QS_VECTOR_CLONES

namespace qs::embedding {

namespace {

constexpr int64_t kBlock = kReduceBlock;
constexpr int kLanes = 8;         // blocks run side by side, one per vector lane
constexpr int64_t kRun = 1024;    // elements of each block per step (8 x 4 KB: stays in L1)
constexpr int64_t kMaxLanedSlots = int64_t{1} << 16;
constexpr int64_t kPrefetch = 512;  // values ahead in each block
constexpr int kStats = 6;         // err, err2, x2, y2, xy, max_abs per block
static_assert(kBlock % kRun == 0 && kRun % 256 == 0);  // whole steps of quantizeRuns

// GCC vector extensions: 8 floats, and 4 / 8 doubles (four blocks' sums; a converted f32x8).
// In the AVX2 clone f32x8 and f64x4 are one register each; the baseline clone splits them into SSE
// halves. Same operations in every clone (-ffp-contract=off), so the same bits.
using simd::f32x8, simd::i32x8, simd::f64x4, simd::i64x4, simd::f64x8;

constexpr float kInf = std::numeric_limits<float>::infinity();

struct Consts {
    tpu::SimQuantF32 k{0.0f, 1.0f, 1.0f};
    // x < clip_lo <=> double(x) < config.lower, x > clip_hi <=> double(x) > config.upper:
    // storage_quant.cpp counts a value as clipped by comparing it with the double bounds.
    float clip_lo = 0, clip_hi = 0;
    int32_t last = 0, nan_slot = 0;  // num_buckets - 1, num_buckets
    int64_t lanes = 1, slots = 0;    // histogram copies, slots per copy
    bool quantized = false;
};

// The positions floor(i n / m) of suggestRanges' stride sample, stepped without division.
struct Stride {
    int64_t n = 0, m = 0, step = 0, step_rem = 0;
    int64_t i = 0, pos = 0, rem = 0;  // the next sample, its position, (i n) mod m
    Stride(int64_t n_, int64_t m_, int64_t from) : n(n_), m(m_), step(n_ / m_), step_rem(n_ % m_) {
        i = static_cast<int64_t>((static_cast<__int128>(from) * m + n - 1) / n);  // first pos >= from
        const __int128 t = static_cast<__int128>(i) * n;
        pos = static_cast<int64_t>(t / m);
        rem = static_cast<int64_t>(t % m);
    }
    // Copies the samples among values [from, from + len) (x points at `from`).
    void take(const float* x, int64_t from, int64_t len, float* sample) {
        for (; i < m && pos < from + len; ++i) {
            sample[i] = x[pos - from];
            pos += step;
            rem += step_rem;
            if (rem >= m) ++pos, rem -= m;
        }
    }
};

// Counts over a contiguous run: below/above lower/upper (float32, as the occupancy counts
// them), clipped (as storage counts them), NaN, the finite extremes and whether a zero
// occurs (its sign is settled by the caller, from the first zero in index order).
struct RunCounts {
    int64_t below = 0, above = 0, clipped = 0, nan = 0;
    float lo = kInf, hi = -kInf;
    bool zero = false;
};

QS_VECTOR_CLONES void scanRun(const float* x, int64_t len, const Consts& c, RunCounts& r) {
    const f32x8 lower = f32x8{} + c.k.lower, upper = f32x8{} + c.k.upper;
    const f32x8 clipLo = f32x8{} + c.clip_lo, clipHi = f32x8{} + c.clip_hi, inf = f32x8{} + kInf;
    i32x8 below{}, above{}, clipped{}, nan{}, zero{};
    f32x8 lo = f32x8{} + r.lo, hi = f32x8{} + r.hi;
    int64_t i = 0;
    for (; i + 8 <= len; i += 8) {
        f32x8 v;
        std::memcpy(&v, x + i, sizeof v);
        below -= v < lower;  // comparisons give -1 for true
        above -= v > upper;
        clipped -= (v < clipLo) | (v > clipHi);
        nan -= v != v;
        // NaN never compares true; an infinity is taken here and the run redone below.
        lo = v < lo ? v : lo;
        hi = v > hi ? v : hi;
        zero |= v == f32x8{};
    }
    if (i > 0) {
        bool infinite = false;
        for (int j = 0; j < 8; ++j) infinite = infinite || lo[j] == -inf[j] || hi[j] == inf[j];
        if (infinite) {  // rare: the finite extremes of the vector part, as the tail loop finds them
            lo = f32x8{} + r.lo, hi = f32x8{} + r.hi;
            for (int64_t k = 0; k < i; ++k)
                if (std::isfinite(x[k])) lo[0] = std::min(lo[0], x[k]), hi[0] = std::max(hi[0], x[k]);
        }
    }
    int64_t b = 0, a = 0, cl = 0, nn = 0;
    bool z = false;
    float l = r.lo, h = r.hi;
    for (int j = 0; j < 8; ++j) {
        b += below[j], a += above[j], cl += clipped[j], nn += nan[j];
        z = z || zero[j] != 0;
        l = std::min(l, lo[j]);
        h = std::max(h, hi[j]);
    }
    for (; i < len; ++i) {
        const float v = x[i];
        b += v < c.k.lower;
        a += v > c.k.upper;
        cl += v < c.clip_lo || v > c.clip_hi;
        nn += v != v;
        if (std::isfinite(v)) l = std::min(l, v), h = std::max(h, v);
        z = z || v == 0.0f;
    }
    r.below += b, r.above += a, r.clipped += cl, r.nan += nn;
    r.lo = l, r.hi = h;
    r.zero = r.zero || z;
}

// The quantized part for kLanes blocks side by side: x[lane] points at each block's current
// run of `len` values (a multiple of kStep). For every value: the bucket index with the
// lookup's float32 formula (simulatedBucketF32; trunc == floor as the argument is >= 0.5),
// counted into the histogram (NaN into nan_slot), and the reconstruction error sums of
// storage_quant.cpp's ErrorSums::add with the reconstruction float(code) * quantum + lower.
// A NaN value adds +0 to every sum (no change: a sum that starts at +0 is never -0) and
// nothing to max_abs. acc holds the sums, kStats x kLanes, carried from run to run.
//
// Two steps per kStep values of each block. First each block's values eight at a time, as
// they lie in memory: bucket, histogram slot and the pair (x, y) with NaN pairs zeroed, into
// L1 buffers. Then the double sums, four blocks in one vector of doubles: each block's sums
// stay a sequential chain in index order (storage_quant.cpp's order), and four blocks' pairs
// are an in-lane transpose apart. Six sums of four doubles are six AVX2 registers; the eight
// blocks' sums held at once (the kernel before) spilled them on every value without AVX-512.
constexpr int64_t kStep = 256;  // 8 blocks x 256 pairs x 8 bytes = 16 KB of buffers
QS_VECTOR_CLONES void quantizeRuns(const float* const* x, int64_t len, const Consts& c, double* acc,
                                     int64_t* hist) {
    const f32x8 lower = f32x8{} + c.k.lower, upper = f32x8{} + c.k.upper, quantum = f32x8{} + c.k.quantum;
    const f32x8 half = f32x8{} + 0.5f, zero{};
    const i32x8 last = i32x8{} + c.last, nanSlot = i32x8{} + c.nan_slot;
    const int64_t lane = c.lanes > 1 ? c.slots : 0;
    int64_t *h0 = hist, *h1 = h0 + lane, *h2 = h1 + lane, *h3 = h2 + lane;
    alignas(32) float xs[kLanes][kStep], ys[kLanes][kStep];
    alignas(32) int32_t tile[kStep];
    for (int64_t s = 0; s < len; s += kStep) {
        for (int l = 0; l < kLanes; ++l) {
            const float* in = x[l] + s;
            for (int64_t i = 0; i < kStep; i += 8) {
                if ((i & 15) == 0) __builtin_prefetch(in + i + kPrefetch);
                f32x8 v;
                std::memcpy(&v, in + i, sizeof v);
                const i32x8 ok = v == v;
                f32x8 cv = v < lower ? lower : v;
                cv = upper < cv ? upper : cv;
                f32x8 tq = (cv - lower) / quantum + half;
                tq = ok ? tq : zero;
                i32x8 q = __builtin_convertvector(tq, i32x8);
                q = q < last ? q : last;
                const f32x8 y = __builtin_convertvector(q, f32x8) * quantum + lower;
                const i32x8 slot = ok ? q : nanSlot;
                std::memcpy(tile + i, &slot, sizeof slot);
                const f32x8 xz = ok ? v : zero, yz = ok ? y : zero;
                std::memcpy(&xs[l][i], &xz, sizeof xz);
                std::memcpy(&ys[l][i], &yz, sizeof yz);
            }
            for (int64_t j = 0; j < kStep; j += 4) {
                ++h0[tile[j]];
                ++h1[tile[j + 1]];
                ++h2[tile[j + 2]];
                ++h3[tile[j + 3]];
            }
        }
        for (int g = 0; g < kLanes; g += 4) {
            f64x4 sums[kStats];
            for (int k = 0; k < kStats; ++k) std::memcpy(&sums[k], acc + k * kLanes + g, sizeof(f64x4));
            auto add = [&](const f64x4& xd, const f64x4& yd) {
                const f64x4 e = xd - yd;
                sums[0] += e;
                sums[1] += e * e;
                sums[2] += xd * xd;
                sums[3] += yd * yd;
                sums[4] += xd * yd;
                const f64x4 a = reinterpret_cast<f64x4>(reinterpret_cast<i64x4>(e) & 0x7FFFFFFFFFFFFFFFll);
                sums[5] = a > sums[5] ? a : sums[5];
            };
            for (int64_t i = 0; i < kStep; i += 8) {
                // In-lane 4 x 8 transposes: cols[t] holds pair i + t of blocks g..g+3 in its
                // low half and pair i + t + 4 in its high half (each half converts to
                // doubles in one instruction).
                auto transpose = [&](const float (*m)[kStep], f32x8* cols) {
                    // Four named loads: a loop of memcpy into an array became a copy through
                    // the stack in 16-byte halves, read back as 32 bytes (a failed store
                    // forward on every load).
                    f32x8 r[4];
                    std::memcpy(&r[0], &m[g][i], sizeof(f32x8));
                    std::memcpy(&r[1], &m[g + 1][i], sizeof(f32x8));
                    std::memcpy(&r[2], &m[g + 2][i], sizeof(f32x8));
                    std::memcpy(&r[3], &m[g + 3][i], sizeof(f32x8));
                    const f32x8 t0 = __builtin_shufflevector(r[0], r[1], 0, 8, 1, 9, 4, 12, 5, 13);
                    const f32x8 t1 = __builtin_shufflevector(r[0], r[1], 2, 10, 3, 11, 6, 14, 7, 15);
                    const f32x8 t2 = __builtin_shufflevector(r[2], r[3], 0, 8, 1, 9, 4, 12, 5, 13);
                    const f32x8 t3 = __builtin_shufflevector(r[2], r[3], 2, 10, 3, 11, 6, 14, 7, 15);
                    cols[0] = __builtin_shufflevector(t0, t2, 0, 1, 8, 9, 4, 5, 12, 13);
                    cols[1] = __builtin_shufflevector(t0, t2, 2, 3, 10, 11, 6, 7, 14, 15);
                    cols[2] = __builtin_shufflevector(t1, t3, 0, 1, 8, 9, 4, 5, 12, 13);
                    cols[3] = __builtin_shufflevector(t1, t3, 2, 3, 10, 11, 6, 7, 14, 15);
                };
                f32x8 xc[4], yc[4];
                transpose(xs, xc);
                transpose(ys, yc);
                for (int t = 0; t < 4; ++t) {
                    const f64x8 xw = __builtin_convertvector(xc[t], f64x8), yw = __builtin_convertvector(yc[t], f64x8);
                    add(__builtin_shufflevector(xw, xw, 0, 1, 2, 3), __builtin_shufflevector(yw, yw, 0, 1, 2, 3));
                }
                for (int t = 0; t < 4; ++t) {
                    const f64x8 xw = __builtin_convertvector(xc[t], f64x8), yw = __builtin_convertvector(yc[t], f64x8);
                    add(__builtin_shufflevector(xw, xw, 4, 5, 6, 7), __builtin_shufflevector(yw, yw, 4, 5, 6, 7));
                }
            }
            for (int k = 0; k < kStats; ++k) std::memcpy(acc + k * kLanes + g, &sums[k], sizeof(f64x4));
        }
    }
}

}  // namespace

struct TablePass::Partial {
    std::vector<int64_t> hist;  // lanes x slots
    RunCounts counts;
    int64_t first_zero = std::numeric_limits<int64_t>::max();  // index of the first zero seen
    bool first_zero_negative = false;
};

TablePass::TablePass(int64_t n, const std::optional<tpu::QuantizationConfig>& quantization,
                     int64_t max_samples)
    : n_(std::max<int64_t>(n, 0)), quantization_(quantization) {
    sample_size_ = max_samples <= 0 || max_samples >= n_ ? n_ : max_samples;
    sample_.assign(static_cast<size_t>(sample_size_), std::numeric_limits<float>::quiet_NaN());
    if (quantization_) blocks_.resize(static_cast<size_t>((n_ + kBlock - 1) / kBlock));
}

TablePass::~TablePass() = default;

TablePass::Partial& TablePass::acquire() {
    const std::lock_guard lock(mutex_);
    if (!free_.empty()) {
        Partial* p = free_.back();
        free_.pop_back();
        return *p;
    }
    auto p = std::make_unique<Partial>();
    if (quantization_) {
        const int64_t slots = quantization_->num_buckets + 1;
        p->hist.assign(static_cast<size_t>((slots <= kMaxLanedSlots ? 4 : 1) * slots), 0);
    }
    partials_.push_back(std::move(p));
    return *partials_.back();
}

void TablePass::release(Partial& p) {
    const std::lock_guard lock(mutex_);
    free_.push_back(&p);
}

void TablePass::add(int64_t begin, std::span<const float> values, const Exec& exec) {
    Consts c;
    if (quantization_) {
        c.quantized = true;
        c.k = tpu::prepareF32(*quantization_);
        c.clip_lo = floatAtLeast(quantization_->lower);
        c.clip_hi = floatAtMost(quantization_->upper);
        c.last = static_cast<int32_t>(quantization_->num_buckets - 1);
        c.nan_slot = static_cast<int32_t>(quantization_->num_buckets);
        c.slots = quantization_->num_buckets + 1;
        c.lanes = c.slots <= kMaxLanedSlots ? 4 : 1;
    }
    const int64_t size = static_cast<int64_t>(values.size());
    const float* data = values.data();
    float* sample = sample_.data();
    const int64_t blocks = (size + kBlock - 1) / kBlock;

    // Counts, extremes, zeros and samples of a run (values [from, from + len), at x).
    auto scan = [&](Partial& p, const float* x, int64_t from, int64_t len, Stride& stride) {
        const bool hadZero = p.counts.zero;
        p.counts.zero = false;
        scanRun(x, len, c, p.counts);
        if (p.counts.zero && from < p.first_zero) {
            for (int64_t i = 0; i < len && from + i < p.first_zero; ++i)
                if (x[i] == 0.0f) {
                    p.first_zero = from + i;
                    p.first_zero_negative = std::signbit(x[i]);
                    break;
                }
        }
        p.counts.zero = hadZero || p.counts.zero;
        stride.take(x, from, len, sample);
    };
    // One block on its own, element by element (storage_quant.cpp's loop).
    auto single = [&](Partial& p, int64_t j) {
        const float* x = data + j * kBlock;
        const int64_t from = begin + j * kBlock, len = std::min(kBlock, size - j * kBlock);
        Stride stride(n_, sample_size_, from);
        scan(p, x, from, len, stride);
        if (!c.quantized) return;
        analysis::ErrorSums s;
        const auto top = static_cast<float>(c.last);
        for (int64_t i = 0; i < len; ++i) {
            if (std::isnan(x[i])) {
                ++p.hist[static_cast<size_t>(c.nan_slot)];
                continue;
            }
            const auto code = static_cast<int32_t>(std::min(tpu::simulatedBucketF32(x[i], c.k), top));
            ++p.hist[static_cast<size_t>(code)];
            s.add(x[i], static_cast<float>(code) * c.k.quantum + c.k.lower);
        }
        blocks_[static_cast<size_t>(from / kBlock)] = s;
    };
    // kLanes whole blocks side by side.
    auto group = [&](Partial& p, int64_t j) {
        const float* x[kLanes];
        std::vector<Stride> strides;
        strides.reserve(kLanes);
        for (int l = 0; l < kLanes; ++l) {
            x[l] = data + (j + l) * kBlock;
            strides.emplace_back(n_, sample_size_, begin + (j + l) * kBlock);
        }
        alignas(32) double acc[kStats * kLanes] = {};
        for (int64_t s = 0; s < kBlock; s += kRun) {
            const float* run[kLanes];
            for (int l = 0; l < kLanes; ++l) run[l] = x[l] + s;
            quantizeRuns(run, kRun, c, acc, p.hist.data());
            for (int l = 0; l < kLanes; ++l)
                scan(p, run[l], begin + (j + l) * kBlock + s, kRun, strides[static_cast<size_t>(l)]);
        }
        for (int l = 0; l < kLanes; ++l) {
            analysis::ErrorSums& s = blocks_[static_cast<size_t>(begin / kBlock + j + l)];
            s.err = acc[0 * kLanes + l];
            s.err2 = acc[1 * kLanes + l];
            s.x2 = acc[2 * kLanes + l];
            s.y2 = acc[3 * kLanes + l];
            s.xy = acc[4 * kLanes + l];
            s.max_abs = acc[5 * kLanes + l];
        }
    };

    parallelFor(exec, blocks, 1, [&](int64_t jb, int64_t je) {
        Partial& p = acquire();
        int64_t j = jb;
        if (c.quantized)
            for (; j + kLanes <= je && (j + kLanes) * kBlock <= size; j += kLanes) group(p, j);
        for (; j < je; ++j) single(p, j);
        release(p);
    });
}

TablePass::Result TablePass::finish() {
    Partial m;
    if (quantization_) m.hist.assign(static_cast<size_t>(quantization_->num_buckets + 1), 0);
    for (const auto& p : partials_) {
        const size_t slots = m.hist.size();
        for (size_t i = 0; i < p->hist.size(); ++i) m.hist[i % slots] += p->hist[i];
        m.counts.below += p->counts.below;
        m.counts.above += p->counts.above;
        m.counts.clipped += p->counts.clipped;
        m.counts.nan += p->counts.nan;
        m.counts.lo = std::min(m.counts.lo, p->counts.lo);
        m.counts.hi = std::max(m.counts.hi, p->counts.hi);
        if (p->first_zero < m.first_zero) {
            m.first_zero = p->first_zero;
            m.first_zero_negative = p->first_zero_negative;
        }
    }
    Result r;
    r.nan = m.counts.nan;
    // A zero extreme is the first zero in index order (std::min/max keep the first of equals).
    const float firstZero = m.first_zero_negative ? -0.0f : 0.0f;
    r.lowest = m.counts.lo == 0.0f ? firstZero : m.counts.lo;
    r.highest = m.counts.hi == 0.0f ? firstZero : m.counts.hi;
    sample_.erase(std::remove_if(sample_.begin(), sample_.end(), [](float v) { return !std::isfinite(v); }),
                  sample_.end());
    r.sample = std::move(sample_);
    if (!quantization_) return r;

    analysis::ErrorSums t;
    for (const analysis::ErrorSums& b : blocks_) t.merge(b);
    t.count = n_ - m.counts.nan;
    t.nan_pairs = m.counts.nan;
    t.clipped = m.counts.clipped;
    analysis::ErrorStats stats = analysis::statsFromSums(t);
    if (stats.count > 0) {
        // Distinct reconstructed levels, from the codes used (as storage_quant.cpp counts them).
        const tpu::SimQuantF32 k = tpu::prepareF32(*quantization_);
        std::vector<float> levels;
        for (int64_t j = 0; j < quantization_->num_buckets; ++j)
            if (m.hist[static_cast<size_t>(j)] > 0) levels.push_back(static_cast<float>(j) * k.quantum + k.lower);
        stats.distinct_levels = analysis::distinctValues(levels);
    }
    r.reconstruction = stats;
    r.occupancy = occupancyFromCounts(*quantization_, std::move(m.hist), m.counts.below, m.counts.above, n_);
    return r;
}

}  // namespace qs::embedding
