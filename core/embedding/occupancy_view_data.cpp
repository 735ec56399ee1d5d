#include "core/embedding/occupancy_view_data.h"

#include <algorithm>
#include <cmath>

namespace qs::embedding {

double bucketQuantum(const BucketOccupancy& o) {
    return o.config.num_buckets > 1 ? (o.config.upper - o.config.lower) / static_cast<double>(o.config.num_buckets - 1)
                                    : 1.0;
}

double bucketCenter(const BucketOccupancy& o, size_t q) {
    if (q < o.centers.size()) return o.centers[q];
    const double quantum = (o.config.upper - o.config.lower) / static_cast<double>(o.config.num_buckets - 1);
    return o.config.lower + static_cast<double>(q) * quantum;
}

std::optional<size_t> bucketAt(const BucketOccupancy& o, double x) {
    const double qd = std::floor((x - o.config.lower) / bucketQuantum(o) + 0.5);
    if (!(qd >= 0 && qd < static_cast<double>(o.counts.size()))) return std::nullopt;
    return static_cast<size_t>(qd);
}

double percentOf(int64_t part, int64_t total) {
    return total > 0 ? 100.0 * static_cast<double>(part) / static_cast<double>(total) : 0.0;
}

OccupancyBars occupancyBars(const BucketOccupancy& o) {
    const size_t n = o.counts.size();
    OccupancyBars bars;
    bars.centers.reserve(n);
    bars.in_range.reserve(n);
    bars.clipped.reserve(n);
    for (size_t q = 0; q < n; ++q) {
        int64_t clippedHere = 0;
        if (q == 0) clippedHere += o.below;
        if (q + 1 == n) clippedHere += o.above;
        clippedHere = std::min(clippedHere, o.counts[q]);
        bars.centers.push_back(bucketCenter(o, q));
        bars.in_range.push_back(static_cast<double>(o.counts[q] - clippedHere));
        bars.clipped.push_back(static_cast<double>(clippedHere));
        bars.max_count = std::max(bars.max_count, static_cast<double>(o.counts[q]));
    }
    return bars;
}

XRange occupancyXRange(const BucketOccupancy& o, const std::vector<RangeSuggestion>& suggestions) {
    const double pad = std::max(bucketQuantum(o), 0.04 * (o.config.upper - o.config.lower));
    XRange r{o.config.lower - pad, o.config.upper + pad};
    for (const auto& s : suggestions) {
        if (std::isfinite(s.lower)) r.lo = std::min(r.lo, s.lower - pad);
        if (std::isfinite(s.upper)) r.hi = std::max(r.hi, s.upper + pad);
    }
    return r;
}

}  // namespace qs::embedding
