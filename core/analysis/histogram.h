// Fixed-width histogram over [lo, hi): bins + 1 edges lo + i * (hi - lo) / bins. Values
// below lo (and -inf) count as underflow, values >= hi (and +inf) as overflow, NaN apart.
#pragma once

#include <cmath>
#include <cstdint>
#include <span>
#include <vector>

#include "core/status.h"

namespace qs::analysis {

struct Histogram {
    double lo = 0, hi = 1;
    std::vector<int64_t> counts;
    int64_t underflow = 0, overflow = 0, nan_count = 0;

    int bins() const { return static_cast<int>(counts.size()); }
    double binWidth() const { return (hi - lo) / bins(); }
    double edge(int i) const { return lo + i * binWidth(); }  // 0 <= i <= bins()
    double center(int i) const { return lo + (i + 0.5) * binWidth(); }
    // The bin floor((x - lo) / binWidth()) for a point of the plot (a read-out), or -1 outside
    // the bins. Compared before the conversion: a point far off the bins, after zooming out,
    // would not fit an int.
    int binAt(double x) const {
        const double b = std::floor((x - lo) / binWidth());
        return b >= 0 && b < bins() ? static_cast<int>(b) : -1;
    }
    int64_t inRange() const;  // sum of counts
};

// bins >= 1 and finite lo < hi, else InvalidArgument. The bin of x is
// floor((x - lo) * bins / (hi - lo)) in double, clamped to the last bin for x < hi that
// rounds up to bins; a value within an ulp of an inner edge may land in either neighbour.
Result<Histogram> histogram(std::span<const float> values, double lo, double hi, int bins);

}  // namespace qs::analysis
