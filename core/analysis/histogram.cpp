#include "core/analysis/histogram.h"

#include <cmath>
#include <string>

namespace qs::analysis {

int64_t Histogram::inRange() const {
    int64_t n = 0;
    for (int64_t c : counts) n += c;
    return n;
}

Result<Histogram> histogram(std::span<const float> values, double lo, double hi, int bins) {
    if (bins < 1) return invalidArgument("histogram needs at least 1 bin, got " + std::to_string(bins));
    if (!(std::isfinite(lo) && std::isfinite(hi) && lo < hi))
        return invalidArgument("histogram range must be finite with lo < hi");
    HistogramCounter counter(lo, hi, bins);
    for (float f : values) counter.add(f);
    return counter.histogram();
}

}  // namespace qs::analysis
