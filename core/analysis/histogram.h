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
        : lo_(lo), hi_(hi), scale_(bins / (hi - lo)), bins_(bins),
          slots_(kCopies * (static_cast<size_t>(bins) + 3), 0) {}
    void add(float f) { addEach(1, [f](int64_t) { return f; }); }
    [[gnu::always_inline]] void addAll(const float* x, int64_t n) { addEach(n, [x](int64_t k) { return x[k]; }); }
    // x[k] - y[k] in float, as the explorer's error is.
    [[gnu::always_inline]] void addDifferences(const float* x, const float* y, int64_t n) {
        addEach(n, [x, y](int64_t k) { return x[k] - y[k]; });
    }
    void merge(const HistogramCounter& o) {
        for (size_t i = 0; i < slots_.size() && i < o.slots_.size(); ++i) slots_[i] += o.slots_[i];
    }
    Histogram histogram() const {
        Histogram h;
        h.lo = lo_;
        h.hi = hi_;
        if (slots_.empty()) return h;
        std::vector<int64_t> total(slots_.size() / kCopies, 0);
        for (size_t i = 0; i < slots_.size(); ++i) total[i % total.size()] += slots_[i];
        h.counts.assign(total.begin() + 1, total.end() - 2);
        h.underflow = total.front();
        h.overflow = total[total.size() - 2];
        h.nan_count = total.back();
        return h;
    }

private:
    // Without branches, and with the parameters in locals (a count's store could alias the
    // members): where values fall outside the bins at random (a quantizer's clipped tails
    // in the error histogram) a branch per value costs a misprediction each.
    // Inlined so that it takes its caller's instruction set (the explorer's AVX2 clones).
    template <typename Value>
    [[gnu::always_inline]] void addEach(int64_t n, Value value) {
        const double lo = lo_, hi = hi_, scale = scale_, last = static_cast<double>(bins_ - 1);
        const double over = static_cast<double>(bins_), nan = over + 1;
        // Indexed from -1 (underflow): bin b is tally[b], then overflow and NaN. Consecutive
        // values go to different copies of the counts: values falling in few bins (an error
        // histogram's centre) otherwise wait for each other's increment to be stored.
        const auto stride = static_cast<int64_t>(bins_) + 3;
        int64_t* tally = slots_.data() + 1;
        // Two phases per group: the slots (arithmetic only, so the compiler vectorises it),
        // then the counts (a load and a store each). Fused, the loop did neither well.
        constexpr int64_t kGroup = 256;
        int32_t slot[kGroup];
        for (int64_t g = 0; g < n; g += kGroup) {
            const int64_t m = n - g < kGroup ? n - g : kGroup;
            for (int64_t k = 0; k < m; ++k) {
                const double v = value(g + k);
                // In range, t >= 0, so truncation is the floor. Every select is on doubles
                // and the one conversion comes last: with the masks of mixed widths the
                // vectorised loop spent most of its time narrowing them.
                double t = (v - lo) * scale;
                t = t > 0.0 ? t : 0.0;  // NaN too, so that the conversion is always defined
                t = t < last ? t : last;
                t = v < lo ? -1.0 : t;
                t = v >= hi ? over : t;
                t = v != v ? nan : t;
                slot[k] = static_cast<int32_t>(t);
            }
            int64_t k = 0;
            static_assert(kCopies == 4);
            for (; k + 4 <= m; k += 4) {
                ++tally[slot[k]];
                ++tally[stride + slot[k + 1]];
                ++tally[2 * stride + slot[k + 2]];
                ++tally[3 * stride + slot[k + 3]];
            }
            for (; k < m; ++k) ++tally[slot[k]];
        }
    }

    double lo_ = 0, hi_ = 1, scale_ = 1;
    int64_t bins_ = 1;
    static constexpr size_t kCopies = 4;
    // kCopies copies of: underflow, the bins, overflow, NaN
    std::vector<int64_t> slots_;
};

// bins >= 1 and finite lo < hi, else InvalidArgument. The bin of x is
// floor((x - lo) * bins / (hi - lo)) in double, clamped to the last bin for x < hi that
// rounds up to bins; a value within an ulp of an inner edge may land in either neighbour.
Result<Histogram> histogram(std::span<const float> values, double lo, double hi, int bins);

}  // namespace qs::analysis
