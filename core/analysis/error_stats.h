// Error statistics of a quantizer: input x against output y, element by element. Sums are
// accumulated in double, in a fixed order (BlockedErrorSums: deterministic for any thread
// count), so 10M samples cost one pass plus a hash of the distinct levels.
//
// NaN: a pair where x or y is NaN is skipped and counted in `nan_pairs`; every other
// statistic is over the remaining `count` pairs. Infinities are not skipped: they propagate
// into the sums as IEEE arithmetic says (a saturating quantizer never produces them).
#pragma once

#include <cmath>
#include <cstdint>
#include <optional>
#include <span>

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
// consecutive blocks of kStatsBlock positions (NaN pairs included), each block is summed in
// order on its own and the blocks' sums are added in order. A parallel pass (the
// explorer's fused pass) sums blocks on different threads and folds them in order, so it
// gives the very numbers errorStats gives.
inline constexpr int64_t kStatsBlock = int64_t{1} << 16;

// ErrorSums in that order, fed one pair at a time (NaN pairs counted, not summed).
class BlockedErrorSums {
public:
    void add(float x, float y) {
        if (std::isnan(x) || std::isnan(y)) ++block_.nan_pairs;
        else block_.add(x, y);
        if (++filled_ == kStatsBlock) {
            total_.merge(block_);
            block_ = {};
            filled_ = 0;
        }
    }
    ErrorSums total() const {
        ErrorSums t = total_;
        t.merge(block_);
        return t;
    }

private:
    ErrorSums total_, block_;
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

}  // namespace qs::analysis
