#include "core/analysis/error_stats.h"

#include "core/analysis/radix_sort.h"
#include "core/numeric/distinct_counter.h"

#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

namespace qs::analysis {

int64_t distinctValues(std::span<const float> values) {
    std::vector<uint32_t> keys;
    keys.reserve(values.size());
    for (float v : values) {
        if (std::isnan(v)) continue;
        if (v == 0.0f) v = 0.0f;  // -0 and +0 are the same level
        uint32_t bits;
        std::memcpy(&bits, &v, sizeof bits);
        keys.push_back(bits);  // equal floats <=> equal bits once NaN and -0 are gone
    }
    if (keys.empty()) return 0;
    radixSort(keys);
    int64_t distinct = 1;
    for (size_t i = 1; i < keys.size(); ++i) distinct += keys[i] != keys[i - 1];
    return distinct;
}

ErrorStats statsFromSums(const ErrorSums& sums) {
    ErrorStats s;
    s.count = sums.count;
    s.nan_pairs = sums.nan_pairs;
    const double nan = std::numeric_limits<double>::quiet_NaN();
    if (s.count == 0) {
        s.mse = s.rmse = s.max_abs_error = s.mean_error = s.sqnr_db = s.cosine = nan;
        s.fraction_clipped = nan;
        return s;
    }
    const double n = static_cast<double>(s.count);
    s.mse = sums.err2 / n;
    s.rmse = std::sqrt(s.mse);
    s.max_abs_error = sums.max_abs;
    s.mean_error = sums.err / n;
    // 10 log10(P / 0) is +inf for a lossless output; 0 / 0 (all-zero input and output) is
    // also reported as +inf: there is no error to measure.
    s.sqnr_db = sums.err2 == 0 ? std::numeric_limits<double>::infinity()
                               : 10.0 * std::log10(sums.x2 / sums.err2);
    const double norms = std::sqrt(sums.x2) * std::sqrt(sums.y2);
    s.cosine = norms == 0 ? nan : sums.xy / norms;
    s.fraction_clipped = static_cast<double>(sums.clipped) / n;
    return s;
}

Result<ErrorStats> errorStats(std::span<const float> x, std::span<const float> y,
                              std::optional<ClipRange> clip) {
    if (x.size() != y.size())
        return invalidArgument("error statistics need inputs of equal length, got " +
                               std::to_string(x.size()) + " and " + std::to_string(y.size()));
    BlockedErrorSums blocked;
    int64_t clipped = 0;
    DistinctCounter levels;  // distinct y among the counted pairs
    blocked.addRun(x.data(), y.data(), static_cast<int64_t>(x.size()));
    for (size_t i = 0; i < x.size(); ++i) {
        if (std::isnan(x[i]) || std::isnan(y[i])) continue;
        const double xi = x[i];
        if (clip && (xi < clip->lo || xi > clip->hi)) ++clipped;
        levels.add(y[i]);
    }
    ErrorSums sums = blocked.total();
    sums.clipped = clipped;
    ErrorStats s = statsFromSums(sums);
    if (s.count == 0) return s;
    // Past the counter's table (4M levels): sort the counted y values instead.
    s.distinct_levels = levels.overflowed() ? distinctPairOutputs(x, y) : levels.count();
    return s;
}

int64_t distinctPairOutputs(std::span<const float> x, std::span<const float> y) {
    std::vector<float> used;
    used.reserve(y.size());
    for (size_t i = 0; i < x.size(); ++i)
        if (!std::isnan(x[i]) && !std::isnan(y[i])) used.push_back(y[i]);
    return distinctValues(used);
}

}  // namespace qs::analysis
