// Error statistics of a quantizer: input x against output y, element by element. Sums are
// accumulated in double, in a fixed order (BlockedErrorSums: deterministic for any thread
// count), so 10M samples cost one pass plus a hash of the distinct levels.
//
// NaN: a pair where x or y is NaN is skipped and counted in `nan_pairs`; every other
// statistic is over the remaining `count` pairs. Infinities are not skipped: they propagate
// into the sums as IEEE arithmetic says (a saturating quantizer never produces them).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <optional>
#include <span>

#include "core/numeric/simd.h"
#include "core/status.h"

namespace qs::analysis {

struct ErrorStats {
    int64_t count = 0;       // pairs used
    int64_t nan_pairs = 0;   // pairs skipped because x or y is NaN
    double mse = 0;          // mean of (x - y)^2
    double rmse = 0;
    double max_abs_error = 0;
    double mean_error = 0;   // bias: mean of (x - y)
    double sqnr_db = 0;      // 10 log10(sum x^2 / sum (x-y)^2); +inf when the error is 0
    double cosine = 0;       // sum xy / (|x| |y|); NaN when x or y is all zeros
    double fraction_clipped = 0;  // share of x outside the range given (0 without a range)
    int64_t distinct_levels = 0;  // distinct y values (-0 and +0 count once)
};

struct ClipRange {
    double lo, hi;
};

// The running sums behind ErrorStats, in double, for callers that produce y on the fly
// instead of holding it (storage_quant.cpp). add() takes one pair where neither is NaN;
// the caller counts nan_pairs and clipped itself.
struct ErrorSums {
    int64_t count = 0, nan_pairs = 0, clipped = 0;
    double err = 0, err2 = 0, x2 = 0, y2 = 0, xy = 0, max_abs = 0;

    void add(double x, double y) {
        ++count;
        const double e = x - y;
        err += e;
        err2 += e * e;
        x2 += x * x;
        y2 += y * y;
        xy += x * y;
        const double a = std::fabs(e);
        if (a > max_abs || std::isnan(a)) max_abs = a;
    }
    // Adds o's sums to these (a caller merging partial sums does so in a fixed order).
    void merge(const ErrorSums& o) {
        count += o.count;
        nan_pairs += o.nan_pairs;
        clipped += o.clipped;
        err += o.err;
        err2 += o.err2;
        x2 += o.x2;
        y2 += o.y2;
        xy += o.xy;
        if (o.max_abs > max_abs || std::isnan(o.max_abs)) max_abs = o.max_abs;
    }
};

// The order every error sum is taken in, whatever the thread count: the pairs are cut into
// consecutive blocks of kStatsBlock positions (NaN pairs included); within a block the pair
// at position p is summed into lane p % kStatsLanes, in order; at the block's end the lanes
// are added in lane order (ErrorLanes::fold), and the blocks' sums are added in block order.
// Four independent chains instead of one let the adds overlap (one chain waits for each
// add's latency). A parallel pass (the explorer's fused pass) sums blocks on different threads
// and folds them in order, so it gives the very numbers errorStats gives.
inline constexpr int64_t kStatsBlock = int64_t{1} << 16;
inline constexpr int kStatsLanes = 4;

struct ErrorLanes {
    double err[kStatsLanes] = {}, err2[kStatsLanes] = {}, x2[kStatsLanes] = {}, y2[kStatsLanes] = {},
           xy[kStatsLanes] = {}, max_abs[kStatsLanes] = {};
    int64_t count[kStatsLanes] = {};
    int64_t nan_pairs = 0;

    // A NaN pair is counted and adds +0.0 everywhere, which leaves every sum's bits as they
    // are (a sum starting at +0.0 never becomes -0.0).
    void add(int lane, float xf, float yf) {
        const bool skip = std::isnan(xf) || std::isnan(yf);
        const double x = skip ? 0.0 : xf, y = skip ? 0.0 : yf, e = x - y;
        nan_pairs += skip;
        count[lane] += !skip;
        err[lane] += e;
        err2[lane] += e * e;
        x2[lane] += x * x;
        y2[lane] += y * y;
        xy[lane] += x * y;
        const double a = std::fabs(e);
        max_abs[lane] = (a > max_abs[lane] || std::isnan(a)) ? a : max_abs[lane];
    }
    // The pairs at block positions p0 .. p0 + n: the leading ones to a lane boundary, then
    // groups of kStatsLanes with fixed lanes (independent chains the compiler can vectorise).
    [[gnu::always_inline]] void addRun(int64_t p0, const float* x, const float* y, int64_t n) {
        int64_t k = 0;
        for (; k < n && (p0 + k) % kStatsLanes != 0; ++k) add(static_cast<int>((p0 + k) % kStatsLanes), x[k], y[k]);
        k = allFinite(x + k, y + k, n - k) ? addGroups<true>(k, x, y, n) : addGroups<false>(k, x, y, n);
        for (; k < n; ++k) add(static_cast<int>((p0 + k) % kStatsLanes), x[k], y[k]);
    }
    // Whether every x[k] and y[k] is finite: the largest magnitude's bits below infinity's
    // (an integer max, which vectorises; a float test would need an order).
    [[gnu::always_inline]] static bool allFinite(const float* x, const float* y, int64_t n) {
        uint32_t largest = 0;
        for (int64_t k = 0; k < n; ++k) {
            uint32_t a, b;
            std::memcpy(&a, x + k, sizeof a);
            std::memcpy(&b, y + k, sizeof b);
            a &= 0x7FFFFFFFu;
            b &= 0x7FFFFFFFu;
            largest = a > largest ? a : largest;
            largest = b > largest ? b : largest;
        }
        return largest < 0x7F800000u;
    }
    // add() for the groups of kStatsLanes pairs from x[k], lane l taking x[k + l]: the lanes
    // as one vector (GCC's vector extension: the same IEEE operations per lane, so the same
    // bits; AVX2 does a group in one instruction each, the baseline in two). Returns the
    // index after the last whole group. Left to the auto-vectoriser, the branchy max and
    // the 28 accumulators stayed scalar and spilled.
    // Finite: the caller has checked that every pair is finite (allFinite), so no pair is
    // skipped and no error is NaN: the masks and selects for NaN, half the work, go.
    template <bool Finite>
    [[gnu::always_inline]] int64_t addGroups(int64_t k, const float* x, const float* y, int64_t n) {
        static_assert(kStatsLanes == 4);
        using simd::f32x4, simd::f64x4, simd::i64x4;
        // Loaded and stored element by element: a vector whose address is taken (memcpy)
        // stays on the stack, and every add then waited for a store and a reload.
        f64x4 vErr = {err[0], err[1], err[2], err[3]}, vErr2 = {err2[0], err2[1], err2[2], err2[3]},
           vX2 = {x2[0], x2[1], x2[2], x2[3]}, vY2 = {y2[0], y2[1], y2[2], y2[3]},
           vXy = {xy[0], xy[1], xy[2], xy[3]}, vMax = {max_abs[0], max_abs[1], max_abs[2], max_abs[3]};
        i64x4 vCount = {count[0], count[1], count[2], count[3]}, vNan = {0, 0, 0, 0};
        const f64x4 zero = {0, 0, 0, 0};
        const i64x4 absMask = {INT64_MAX, INT64_MAX, INT64_MAX, INT64_MAX};
        const int64_t k0 = k;
        for (; k + kStatsLanes <= n; k += kStatsLanes) {
            f32x4 xf, yf;
            std::memcpy(&xf, x + k, sizeof xf);
            std::memcpy(&yf, y + k, sizeof yf);
            f64x4 xd = __builtin_convertvector(xf, f64x4), yd = __builtin_convertvector(yf, f64x4);
            if constexpr (!Finite) {
                const i64x4 skip = (xd != xd) | (yd != yd);  // -1 where x or y is NaN
                xd = skip ? zero : xd;
                yd = skip ? zero : yd;
                vNan -= skip;
                vCount += skip + 1;  // +1 where the pair counts
            }
            const f64x4 e = xd - yd;
            vErr += e;
            vErr2 += e * e;
            vX2 += xd * xd;
            vY2 += yd * yd;
            vXy += xd * yd;
            const f64x4 a = reinterpret_cast<f64x4>(reinterpret_cast<i64x4>(e) & absMask);
            if constexpr (Finite)
                vMax = a > vMax ? a : vMax;
            else
                vMax = ((a > vMax) | (a != a)) ? a : vMax;
        }
        if constexpr (Finite) vCount += (k - k0) / kStatsLanes;  // every pair counted (a register less in the loop)
        for (int l = 0; l < kStatsLanes; ++l) {
            err[l] = vErr[l];
            err2[l] = vErr2[l];
            x2[l] = vX2[l];
            y2[l] = vY2[l];
            xy[l] = vXy[l];
            max_abs[l] = vMax[l];
            count[l] = vCount[l];
        }
        nan_pairs += vNan[0] + vNan[1] + vNan[2] + vNan[3];
        return k;
    }
    ErrorSums fold() const {
        ErrorSums s;
        s.nan_pairs = nan_pairs;
        for (int l = 0; l < kStatsLanes; ++l) {
            s.count += count[l];
            s.err += err[l];
            s.err2 += err2[l];
            s.x2 += x2[l];
            s.y2 += y2[l];
            s.xy += xy[l];
            if (max_abs[l] > s.max_abs || std::isnan(max_abs[l])) s.max_abs = max_abs[l];
        }
        return s;
    }
};

// ErrorSums in that order, fed one pair at a time.
class BlockedErrorSums {
public:
    void add(float x, float y) {
        block_.add(static_cast<int>(filled_ % kStatsLanes), x, y);
        if (++filled_ == kStatsBlock) {
            total_.merge(block_.fold());
            block_ = {};
            filled_ = 0;
        }
    }
    // Pairs in a row: the same sums as add() for each, block boundaries included.
    void addRun(const float* x, const float* y, int64_t n) {
        while (n > 0) {
            const int64_t take = std::min(n, kStatsBlock - filled_);
            ErrorLanes lanes = block_;  // a local: its sums stay in registers
            lanes.addRun(filled_, x, y, take);
            block_ = lanes;
            filled_ += take;
            x += take;
            y += take;
            n -= take;
            if (filled_ == kStatsBlock) {
                total_.merge(block_.fold());
                block_ = {};
                filled_ = 0;
            }
        }
    }
    ErrorSums total() const {
        ErrorSums t = total_;
        t.merge(block_.fold());
        return t;
    }

private:
    ErrorSums total_;
    ErrorLanes block_;
    int64_t filled_ = 0;
};

// Every statistic but distinct_levels (left 0) from the sums, with errorStats' conventions.
ErrorStats statsFromSums(const ErrorSums& sums);

// x and y must have the same length (InvalidArgument otherwise). With count == 0 every
// mean/ratio is NaN. `clip` is the quantizer's representable range for fraction_clipped.
Result<ErrorStats> errorStats(std::span<const float> x, std::span<const float> y,
                              std::optional<ClipRange> clip = std::nullopt);

// Number of distinct values among the non-NaN entries (-0 == +0). Sorts a copy of the bit
// patterns with a 3-pass radix sort: O(n), no hashing.
int64_t distinctValues(std::span<const float> values);
// distinctValues of the y[i] whose pair has no NaN (neither x[i] nor y[i]): the distinct
// levels counted by sorting, where a DistinctCounter gave up. x and y the same size.
int64_t distinctPairOutputs(std::span<const float> x, std::span<const float> y);

}  // namespace qs::analysis
