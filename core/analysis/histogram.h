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

// Counts values one at a time into the bins histogram() uses, with the very same
// arithmetic; counters of parts of the data merge into the histogram of the whole.
// The caller has checked the arguments as histogram() does.
class HistogramCounter {
public:
    HistogramCounter() = default;
    HistogramCounter(double lo, double hi, int bins)
        : lo_(lo), hi_(hi), scale_(bins / (hi - lo)), bins_(bins), counts_(static_cast<size_t>(bins), 0) {}
    void add(float f) {
        const double v = f;
        if (v < lo_) ++underflow_;        // includes -inf
        else if (v >= hi_) ++overflow_;   // includes +inf
        else if (v == v) {
            int64_t b = static_cast<int64_t>((v - lo_) * scale_);  // >= 0, so trunc == floor
            if (b >= bins_) b = bins_ - 1;
            ++counts_[static_cast<size_t>(b)];
        } else {
            ++nan_;
        }
    }
    void merge(const HistogramCounter& o) {
        for (size_t i = 0; i < counts_.size() && i < o.counts_.size(); ++i) counts_[i] += o.counts_[i];
        underflow_ += o.underflow_;
        overflow_ += o.overflow_;
        nan_ += o.nan_;
    }
    Histogram histogram() const {
        Histogram h;
        h.lo = lo_;
        h.hi = hi_;
        h.counts = counts_;
        h.underflow = underflow_;
        h.overflow = overflow_;
        h.nan_count = nan_;
        return h;
    }

private:
    double lo_ = 0, hi_ = 1, scale_ = 1;
    int64_t bins_ = 1;
    std::vector<int64_t> counts_;
    int64_t underflow_ = 0, overflow_ = 0, nan_ = 0;
};

// bins >= 1 and finite lo < hi, else InvalidArgument. The bin of x is
// floor((x - lo) * bins / (hi - lo)) in double, clamped to the last bin for x < hi that
// rounds up to bins; a value within an ulp of an inner edge may land in either neighbour.
Result<Histogram> histogram(std::span<const float> values, double lo, double hi, int bins);

}  // namespace qs::analysis
