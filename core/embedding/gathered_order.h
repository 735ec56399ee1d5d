// The order the gathered rows' statistics of a feature are summed in (simulateFeature and
// simulateFeatureReference, feature_sim.h): a batch names a row once per id, and hot ids
// (Zipf) name the same row hundreds of times, so each distinct row is measured once and
// counted as often as the batch names it.
//  * the distinct ids are taken in ascending order, each with its multiplicity m;
//  * a row's pairs (value, simulated quantization) are summed as ErrorLanes does, the pair in
//    column c in lane c % kStatsLanes, and folded (ErrorLanes::fold);
//  * the rows' sums are added in that order, each multiplied by m (addRowSums).
// Integer counts and max |error| are the same as over every gathered pair; the double sums
// differ from summing every pair only by rounding.
#pragma once

#include <cmath>
#include <cstdint>
#include <span>
#include <vector>

#include "core/analysis/error_stats.h"

namespace qs::embedding {

struct IdCounts {
    std::vector<int64_t> ids;     // distinct, ascending
    std::vector<int64_t> counts;  // how often each occurs
};

// The distinct ids among `ids`, all valid rows of a table of `rows` rows: a bitmap of the
// rows, or a sort for tables over 2^27 rows.
IdCounts distinctIds(std::span<const int64_t> ids, int64_t rows);

// Adds one distinct row's sums (its clipped count included) `times` times to `total`.
inline void addRowSums(analysis::ErrorSums& total, const analysis::ErrorSums& row, int64_t times) {
    const auto m = static_cast<double>(times);
    total.count += times * row.count;
    total.nan_pairs += times * row.nan_pairs;
    total.clipped += times * row.clipped;
    total.err += m * row.err;
    total.err2 += m * row.err2;
    total.x2 += m * row.x2;
    total.y2 += m * row.y2;
    total.xy += m * row.xy;
    if (row.max_abs > total.max_abs || std::isnan(row.max_abs)) total.max_abs = row.max_abs;
}

}  // namespace qs::embedding
