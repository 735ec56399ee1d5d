// What the bucket-occupancy view draws, derived from a BucketOccupancy without maths in the
// widget: each bucket's center, its bar split into values inside [lower, upper] and values
// clipped into it (bucket 0 takes everything below lower, the last bucket everything above
// upper), the bucket under an x, the home x range over the buckets and the suggested bounds.
// Pure C++.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "core/embedding/occupancy.h"
#include "core/embedding/range_suggest.h"

namespace qs::embedding {

// The width of a bucket, (upper − lower) / (num_buckets − 1); 1 with a single bucket.
double bucketQuantum(const BucketOccupancy& occupancy);
// Bucket q's center: the float32 center when the occupancy has it, else
// lower + q · (upper − lower) / (num_buckets − 1).
double bucketCenter(const BucketOccupancy& occupancy, size_t q);
// The bucket whose center is nearest x (q = round((x − lower) / quantum)); none outside.
std::optional<size_t> bucketAt(const BucketOccupancy& occupancy, double x);
// part / total in percent (0 when total is 0).
double percentOf(int64_t part, int64_t total);

struct OccupancyBars {
    std::vector<double> centers;
    std::vector<double> in_range;  // counts[q] minus what was clipped into bucket q
    std::vector<double> clipped;   // below (q = 0) and above (last q), at most counts[q]
    double max_count = 1;          // the largest count, at least 1
};
OccupancyBars occupancyBars(const BucketOccupancy& occupancy);

// [lower, upper] padded by max(quantum, 4 % of the width), widened to every finite
// suggested bound (padded the same).
struct XRange {
    double lo = 0, hi = 0;
};
XRange occupancyXRange(const BucketOccupancy& occupancy, const std::vector<RangeSuggestion>& suggestions);

}  // namespace qs::embedding
