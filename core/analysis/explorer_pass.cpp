#include "core/analysis/explorer_pass.h"

#include "core/numeric/simd.h"
#include "core/ops/kernel_util.h"

#include <algorithm>
#include <cstring>
#include <cmath>
#include <mutex>
#include <optional>

namespace qs::analysis {

namespace {

bool stop(const std::atomic<bool>* cancel) { return cancel && cancel->load(std::memory_order_relaxed); }

Error cancelledError() { return cancellation("the computation was superseded"); }

constexpr int64_t kTile = 1024;

const SliceQuant& sliceOfRun(const PassSetup& s, int64_t run) {
    return (*s.slices)[static_cast<size_t>(run % s.layout.depth)];
}

// The tile loops of fuseBlock, each its own function so that its accumulators live in
// registers (inlined into one function they were spilled: a load and a store per value),
// and each cloned for AVX2 where the CPU has it (the lanes' sums are then one vector; the
// same IEEE operations, no contraction, so the same bits).
struct ClipCounts {
    int64_t below = 0, above = 0;  // x below / above its slice's output range [qlo, qhi]

    // A value counts once: "above" only when not "below" (an op whose range comes out
    // inverted, unsigned QDQ fed [−1, −0.5] gives [−0, −0.5], would count it twice).
    void add(float v, float qlo, float qhi) {
        below += v < qlo;
        above += (v > qhi) & !(v < qlo);
    }
};
[[gnu::noinline]] QS_VECTOR_CLONES void addClipCounts(const float* x, int64_t n, float qlo, float qhi,
                                                      ClipCounts& c) {
    // Eight lanes at a time (GCC's vector extension), 32-bit counts per lane: a run here is
    // at most a tile.
    using simd::f32x8, simd::i32x8;
    const f32x8 lo = {qlo, qlo, qlo, qlo, qlo, qlo, qlo, qlo}, hi = {qhi, qhi, qhi, qhi, qhi, qhi, qhi, qhi};
    i32x8 below = {}, above = {};
    int64_t k = 0;
    for (; k + 8 <= n; k += 8) {
        f32x8 v;
        std::memcpy(&v, x + k, sizeof v);
        below -= v < lo;  // a true lane is -1
        above -= (v > hi) & ~(v < lo);
    }
    ClipCounts t;
    for (int l = 0; l < 8; ++l) {
        t.below += below[l];
        t.above += above[l];
    }
    for (; k < n; ++k) t.add(x[k], qlo, qhi);
    c.below += t.below;
    c.above += t.above;
}

// The sums of pairs at block positions p0 .. p0 + n (lane p % kStatsLanes).
[[gnu::noinline]] QS_VECTOR_CLONES void addPairs(const float* x, const float* y, int64_t n, int64_t p0,
                                                 ErrorLanes& sums) {
    ErrorLanes s = sums;
    s.addRun(p0, x, y, n);
    sums = s;
}

[[gnu::noinline]] QS_VECTOR_CLONES void addLevels(const float* x, const float* y, int64_t n, DistinctCounter& levels) {
    levels.addPairs(x, y, n);
}

// The histograms' loops, cloned like the others (the count itself is HistogramCounter's).
[[gnu::noinline]] QS_VECTOR_CLONES void addValues(const float* x, int64_t n, HistogramCounter& h) {
    h.addAll(x, n);
}
[[gnu::noinline]] QS_VECTOR_CLONES void addDifferences(const float* x, const float* y, int64_t n,
                                                       HistogramCounter& h) {
    h.addDifferences(x, y, n);
}

// Runs shorter than this (an axis near the end of the shape) take the slice per value.
constexpr int64_t kShortRun = 64;

// addClipCounts for x[0, n) = elements first .. first + n whose runs are short: each
// value's slice followed along, one loop for the whole tile.
[[gnu::noinline]] void addClipCountsShortRuns(const PassSetup& s, const float* x, int64_t first, int64_t n,
                                              ClipCounts& c) {
    const int64_t post = s.layout.post, depth = s.layout.depth;
    const SliceQuant* slices = s.slices->data();
    int64_t inRun = first % post, slice = (first / post) % depth;
    ClipCounts t = c;  // a local: in registers
    for (int64_t k = 0; k < n; ++k) {
        t.add(x[k], slices[slice].clip_min, slices[slice].clip_max);
        if (++inRun == post) {
            inRun = 0;
            slice = slice + 1 == depth ? 0 : slice + 1;
        }
    }
    c = t;
}

// The clipped values among x[0, n) (elements first .. first + n) into `clipped`, each
// against its own slice's range; called only for tiles that have some.
void addClippedValues(const PassSetup& s, const float* x, int64_t first, int64_t n, HistogramCounter& clipped) {
    for (int64_t k = 0; k < n; ++k) {
        const SliceQuant& q = sliceOfRun(s, (first + k) / s.layout.post);
        if (q.clips(x[k])) clipped.add(x[k]);
    }
}

// One block: x[0, n) and y[0, n) are the tensor's elements first .. first + n. The sums
// are the block's own, summed in index order; the rest goes into `share`. Tiles small
// enough for L1, each statistic its own tight loop over the tile.
ErrorSums fuseBlock(const PassSetup& s, const float* x, const float* y, int64_t first, int64_t n,
                    PassShare& share) {
    ErrorLanes sums;
    ClipCounts clips;
    const int64_t post = s.layout.post;
    for (int64_t tile = 0; tile < n; tile += kTile) {
        const int64_t count = std::min(n - tile, kTile);
        // Only the clip counts depend on the slice: they go run by run, the rest tile by tile
        // (so short runs, an axis of small stride, do not cut the tile loops short).
        const int64_t clippedBefore = clips.below + clips.above;
        if (post < kShortRun) {
            addClipCountsShortRuns(s, x + tile, first + tile, count, clips);
        } else {
            for (int64_t i = tile; i < tile + count;) {
                const int64_t run = (first + i) / post;
                const SliceQuant& q = sliceOfRun(s, run);
                const int64_t end = std::min(tile + count, (run + 1) * post - first);
                addClipCounts(x + i, end - i, q.clip_min, q.clip_max, clips);
                i = end;
            }
        }
        if (clips.below + clips.above > clippedBefore)
            addClippedValues(s, x + tile, first + tile, count, share.clipped_data);
        if (s.count_data) addValues(x + tile, count, share.data);
        addDifferences(x + tile, y + tile, count, share.err);
        addPairs(x + tile, y + tile, count, tile, sums);
        if (s.count_levels) addLevels(x + tile, y + tile, count, share.levels);
    }
    share.below += clips.below;
    share.above += clips.above;
    return sums.fold();
}

// One channel's running numbers, fed its values in index order.
struct ChannelAcc {
    BlockedErrorSums sums;
    DistinctCounter levels;

    // `grid`: count the levels with the slice's grid in front (4 bytes per level).
    ChannelAcc(const SliceQuant& q, bool grid) : levels(grid ? levelCounter(q) : DistinctCounter()) {}
    // The grid pays for itself only when the channel has values enough to fill it (16-bit
    // levels over a channel of 100 values would clear 256 KB for nothing).
    static bool gridWorthIt(const SliceQuant& q, int64_t channelValues) { return q.levels() <= 4 * channelValues; }
    float lo = std::numeric_limits<float>::infinity(), hi = -std::numeric_limits<float>::infinity();
    int64_t clipped = 0, count = 0;

    void add(float v, float w, float qlo, float qhi) {
        lo = v < lo ? v : lo;
        hi = v > hi ? v : hi;
        clipped += (v < qlo) || (v > qhi);
        sums.add(v, w);
        if (!std::isnan(v) && !std::isnan(w)) levels.add(w);
        ++count;
    }
    // `sortLevels` counts the channel's levels when the counter gave up (-1 if it cannot).
    ChannelSummary summary(const SliceQuant& q, const std::function<int64_t()>& sortLevels) const {
        ChannelSummary c;
        c.quant = q;
        c.data_min = lo > hi ? 0.0f : lo;  // empty or all-NaN channel
        c.data_max = lo > hi ? 0.0f : hi;
        c.clipped = clipped;
        c.stats = statsFromSums(sums.total());
        if (c.stats.count > 0) c.stats.distinct_levels = levels.overflowed() ? sortLevels() : levels.count();
        c.stats.fraction_clipped = c.stats.count == 0
                                       ? 0.0
                                       : static_cast<double>(clipped) / static_cast<double>(c.stats.count);
        return c;
    }
};

// Feeds channel d's elements among the tensor's [first, first + n) (x, y start at first).
void feedChannel(const PassSetup& s, int64_t d, const float* x, const float* y, int64_t first,
                 int64_t n, ChannelAcc& acc) {
    const SliceLayout& l = s.layout;
    const SliceQuant& q = (*s.slices)[static_cast<size_t>(d)];
    int64_t run = first / l.post;
    run += ((d - run % l.depth) + l.depth) % l.depth;  // the first run of channel d from here
    for (; run * l.post < first + n; run += l.depth) {
        const int64_t b = std::max(first, run * l.post), e = std::min(first + n, (run + 1) * l.post);
        for (int64_t i = b; i < e; ++i)
            acc.add(x[i - first], y[i - first], q.clip_min, q.clip_max);
    }
}

// Each slice's min/max over [first, first + n), as applySpec's per-slice scan finds them.
void sliceExtremes(const SliceLayout& l, const float* x, int64_t first, int64_t n,
                   std::vector<float>& mins, std::vector<float>& maxs) {
    for (int64_t i = 0; i < n;) {
        const int64_t run = (first + i) / l.post;
        const auto d = static_cast<size_t>(run % l.depth);
        const int64_t end = std::min(n, (run + 1) * l.post - first);
        float lo = mins[d], hi = maxs[d];
        for (; i < end; ++i) {
            lo = x[i] < lo ? x[i] : lo;
            hi = x[i] > hi ? x[i] : hi;
        }
        mins[d] = lo;
        maxs[d] = hi;
    }
}

}  // namespace

DistinctCounter levelCounter(const SliceQuant& q) {
    // Output of code c: zero_output + (c - zero_code)·step, near enough for a slot; when no
    // code maps x = 0 (zero_code outside the codes, possibly a sentinel), from output_min.
    const bool zeroInside = q.zero_code >= q.code_lowest && q.zero_code <= q.code_highest;
    const double lowest = zeroInside ? static_cast<double>(q.zero_output) +
                                           static_cast<double>(q.code_lowest - q.zero_code) * q.step
                                     : static_cast<double>(q.output_min);
    return DistinctCounter(lowest, q.step, q.levels());
}

void PassShare::merge(const PassShare& later) {
    data.merge(later.data);
    clipped_data.merge(later.clipped_data);
    err.merge(later.err);
    levels.merge(later.levels);
    below += later.below;
    above += later.above;
}

namespace {

// The fused pass over x, y (the tensor's elements offset .. offset + x.size(), offset a
// multiple of kStatsBlock): block sums folded into `sums` in block order, the rest (counts
// and sets, order-free) merged into `share`. Threads claim blocks one at a time.
Status fuseInto(const PassSetup& setup, std::span<const float> x, std::span<const float> y,
                int64_t offset, const Exec& exec, const std::atomic<bool>* cancel, ErrorSums& sums,
                PassShare& share) {
    const auto n = static_cast<int64_t>(x.size());
    const int64_t blocks = (n + kStatsBlock - 1) / kStatsBlock;
    std::vector<ErrorSums> blockSums(static_cast<size_t>(blocks));
    std::mutex m;
    std::vector<std::pair<int64_t, PassShare>> shares;
    parallelClaim(exec, blocks, 1, [&](auto& claim) {
        PassShare part(setup);
        int64_t firstBlock = blocks;  // the first this thread took
        for (int64_t k; !stop(cancel) && claim(k);) {
            firstBlock = std::min(firstBlock, k);
            const int64_t first = k * kStatsBlock, count = std::min(kStatsBlock, n - first);
            blockSums[static_cast<size_t>(k)] =
                fuseBlock(setup, x.data() + first, y.data() + first, offset + first, count, part);
        }
        const std::lock_guard lock(m);
        shares.emplace_back(firstBlock, std::move(part));
    });
    if (stop(cancel)) return cancelledError();
    std::sort(shares.begin(), shares.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    for (const auto& [k0, part] : shares) share.merge(part);
    for (const ErrorSums& b : blockSums) sums.merge(b);
    return okStatus();
}

}  // namespace

Result<PassTotals> fusedPass(const PassSetup& setup, std::span<const float> x,
                             std::span<const float> y, const Exec& exec,
                             const std::atomic<bool>* cancel) {
    PassTotals t{{}, PassShare(setup), 0};
    if (Status s = fuseInto(setup, x, y, 0, exec, cancel, t.sums, t.share); !s) return s.error();
    if (setup.count_levels)
        t.distinct_levels = t.share.levels.overflowed() ? distinctPairOutputs(x, y) : t.share.levels.count();
    return t;
}

Result<std::vector<ChannelSummary>> channelSummaries(const PassSetup& setup, std::span<const float> x,
                                                     std::span<const float> y, const Exec& exec,
                                                     const std::atomic<bool>* cancel) {
    const SliceLayout& l = setup.layout;
    std::vector<ChannelSummary> out(static_cast<size_t>(l.depth));
    const int64_t perSlice = std::max<int64_t>(1, l.pre * l.post);
    parallelFor(exec, l.depth, std::max<int64_t>(1, kParallelMinPerThread / perSlice), [&](int64_t d0, int64_t d1) {
        for (int64_t d = d0; d < d1 && !stop(cancel); ++d) {
            const SliceQuant& q = (*setup.slices)[static_cast<size_t>(d)];
            ChannelAcc acc(q, ChannelAcc::gridWorthIt(q, perSlice));
            feedChannel(setup, d, x.data(), y.data(), 0, static_cast<int64_t>(x.size()), acc);
            out[static_cast<size_t>(d)] = acc.summary((*setup.slices)[static_cast<size_t>(d)], [&] {
                std::vector<float> xs, ys;
                for (int64_t b = d; b < l.blocks(); b += l.depth)
                    for (int64_t i = b * l.post; i < (b + 1) * l.post; ++i) {
                        xs.push_back(x[static_cast<size_t>(i)]);
                        ys.push_back(y[static_cast<size_t>(i)]);
                    }
                return distinctPairOutputs(xs, ys);
            });
        }
    });
    if (stop(cancel)) return cancelledError();
    return out;
}

Result<StreamRanges> scanRanges(const data::FloatStream& data, const SliceLayout& layout,
                                bool perSlice, int64_t chunk, const Progress& progress) {
    StreamRanges r;
    const float inf = std::numeric_limits<float>::infinity();
    float lo = inf, hi = -inf;
    if (perSlice) {
        r.slice_mins.assign(static_cast<size_t>(layout.depth), inf);
        r.slice_maxs.assign(static_cast<size_t>(layout.depth), -inf);
    }
    data::ChunkOptions chunks;
    chunks.chunk_elements = chunk;
    chunks.progress = progress;
    float finiteLo = inf, finiteHi = -inf;
    int64_t finite = 0;
    Status s = data::forEachChunk(data, [&](int64_t first, std::span<const float> v) -> Status {
        for (float f : v) {
            lo = f < lo ? f : lo;
            hi = f > hi ? f : hi;
            // The finite values' extent too (the histogram's window when ±inf are present).
            const bool ok = std::isfinite(f);
            finite += ok;
            finiteLo = ok && f < finiteLo ? f : finiteLo;
            finiteHi = ok && f > finiteHi ? f : finiteHi;
        }
        if (perSlice)
            sliceExtremes(layout, v.data(), first, static_cast<int64_t>(v.size()), r.slice_mins, r.slice_maxs);
        return okStatus();
    }, chunks);
    if (!s) return s.error();
    if (lo > hi) lo = hi = 0.0f;
    r.lo = lo;
    r.hi = hi;
    r.finite.count = finite;
    r.finite.min = finite > 0 ? finiteLo : 0.0f;
    r.finite.max = finite > 0 ? finiteHi : 0.0f;
    for (size_t d = 0; d < r.slice_mins.size(); ++d)
        if (r.slice_mins[d] > r.slice_maxs[d]) r.slice_mins[d] = r.slice_maxs[d] = 0.0f;
    return r;
}

Result<StreamTotals> fusedStreamPass(const PassSetup& setup, const data::FloatStream& data,
                                     const std::vector<SliceQuantizer>& quantizers,
                                     const QuantSpec* chunkSpec, int64_t chunk,
                                     const Exec& exec, const std::atomic<bool>* cancel,
                                     const Progress& progress) {
    const SliceLayout& l = setup.layout;
    PassTotals t{{}, PassShare(setup), 0};
    // Every channel's counter lives through the whole stream: grids only while they all
    // fit in 64 MB together.
    std::vector<ChannelAcc> channels;
    if (l.depth > 1) {
        const int64_t perChannel = l.pre * l.post;
        double gridBytes = 0;
        for (const SliceQuant& q : *setup.slices) gridBytes += 4.0 * static_cast<double>(q.levels());
        for (const SliceQuant& q : *setup.slices)
            channels.emplace_back(q, gridBytes <= 64.0 * (1 << 20) && ChannelAcc::gridWorthIt(q, perChannel));
    }
    std::vector<float> y;
    data::ChunkOptions chunks;  // its chunks hold whole kStatsBlock blocks
    chunks.chunk_elements = std::max<int64_t>(1, chunk / kStatsBlock) * kStatsBlock;
    chunks.progress = [&](double f) { return !stop(cancel) && (!progress || progress(f)); };
    Status s = data::forEachChunk(data, [&](int64_t first, std::span<const float> x) -> Status {
        const auto n = static_cast<int64_t>(x.size());
        y.resize(x.size());
        std::optional<std::vector<float>> chunkLevels;  // the chunk's outputs, from its codes
        if (chunkSpec) {
            auto ran = applySpec(*chunkSpec, {x, Shape{n}}, y, {}, exec, /*tellLevels=*/true);
            if (!ran) return ran.error();
            chunkLevels = std::move(ran.value().output_levels);
        } else {
            parallelFor(exec, n, [&](int64_t b, int64_t e) {
                for (int64_t i = b; i < e;) {
                    const int64_t run = (first + i) / l.post;
                    const SliceQuantizer& q = quantizers[static_cast<size_t>(run % l.depth)];
                    const int64_t end = std::min(e, (run + 1) * l.post - first);
                    for (; i < end; ++i) y[static_cast<size_t>(i)] = q.value(x[static_cast<size_t>(i)]);
                }
            });
        }
        // The chunk starts on a block boundary: its blocks fold on in block order.
        // Where the op told the chunk's levels, they join the count as they are (a few
        // thousand values) and the pass skips counting the chunk's outputs.
        PassSetup chunkSetup = setup;
        chunkSetup.count_levels = setup.count_levels && !chunkLevels;
        if (Status f = fuseInto(chunkSetup, x, y, first, exec, cancel, t.sums, t.share); !f) return f;
        if (chunkLevels)
            for (float level : *chunkLevels) t.share.levels.add(level);
        if (!channels.empty())
            parallelFor(exec, l.depth, 1, [&](int64_t d0, int64_t d1) {
                for (int64_t d = d0; d < d1; ++d)
                    feedChannel(setup, d, x.data(), y.data(), first, n, channels[static_cast<size_t>(d)]);
            });
        return okStatus();
    }, chunks);
    if (!s) return s.error();
    t.distinct_levels = t.share.levels.overflowed() ? -1 : t.share.levels.count();
    StreamTotals out{std::move(t), {}};
    for (size_t d = 0; d < channels.size(); ++d)
        out.channels.push_back(channels[d].summary((*setup.slices)[d], [] { return int64_t{-1}; }));
    return out;
}

}  // namespace qs::analysis
