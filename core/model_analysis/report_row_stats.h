// The figures of one report row, gathered in one pass over (x, Q(x)): error sums, clipped
// count, min/max and the distinct outputs (levels used). Internal to model_report.cpp (and
// separate only to keep that file to one job: driving the report).
#pragma once

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

#include "core/analysis/error_stats.h"
#include "core/analysis/quant_spec.h"
#include "core/model_analysis/model_report.h"
#include "core/numeric/distinct_counter.h"

namespace qs::analysis::report_detail {

// The report stops counting a row's distinct outputs past this many: an op with 2^32 levels
// over a large tensor would otherwise keep a set as large as the tensor.
inline constexpr int64_t kMaxCountedLevels = 65536;

// A slice's outputs as code indices 0..levels-1, for counting levels in a bitmap instead of a
// hash set: the outputs of neighbouring codes lie about one step apart (far more than float
// rounding), so round((y - zero_output) / step) + (zero_code - code_lowest) gives each output
// its code back, and equal outputs the same index. For ops with more than 65536 levels or
// without a positive step, `usable` is false and outputs are hashed (DistinctCounter).
struct CodeIndex {
    double zero = 0, perStep = 0;
    int64_t zeroIndex = 0, levels = 0;
    bool usable = false;

    static CodeIndex of(const SliceQuant& q) {
        CodeIndex c;
        c.levels = q.levels();
        c.usable = c.levels > 0 && c.levels <= kMaxCountedLevels && q.step > 0 && std::isfinite(q.step) &&
                   std::isfinite(q.zero_output) && q.zero_code >= q.code_lowest && q.zero_code <= q.code_highest;
        c.zero = q.zero_output;
        c.perStep = 1.0 / q.step;
        c.zeroIndex = q.zero_code - q.code_lowest;
        return c;
    }
    size_t words() const { return usable ? static_cast<size_t>((levels + 63) / 64) : 0; }
    // The index of output y, or -1 when it is none of the codes' (it is hashed instead).
    int64_t operator()(float y) const {
        const double k = (static_cast<double>(y) - zero) * perStep;
        if (!(std::fabs(k) < 1e9)) return -1;
        const int64_t i = static_cast<int64_t>(k + (k >= 0 ? 0.5 : -0.5)) + zeroIndex;
        return i >= 0 && i < levels ? i : -1;
    }
};

// What a run of elements adds to a row.
struct Partial {
    ErrorSums sums;  // with clipped and nan_pairs
    float lo = std::numeric_limits<float>::infinity();
    float hi = -std::numeric_limits<float>::infinity();
    std::vector<uint64_t> codes;  // a bit per code index seen (CodeIndex)
    DistinctCounter levels = DistinctCounter::upTo(kMaxCountedLevels);  // outputs without an index

    void merge(const Partial& o) {
        sums.merge(o.sums);
        lo = std::min(lo, o.lo);
        hi = std::max(hi, o.hi);
        if (codes.size() < o.codes.size()) codes.resize(o.codes.size(), 0);
        for (size_t w = 0; w < o.codes.size(); ++w) codes[w] |= o.codes[w];
        levels.merge(o.levels);
    }
    // Distinct outputs, -1 when more than the hashed outputs' cap.
    int64_t distinct() const {
        if (levels.overflowed()) return -1;
        int64_t n = levels.count();
        for (uint64_t w : codes) n += std::popcount(w);
        return n;
    }
};

// x against y over [0, n), clipping against [clipLo, clipHi], continuing p's sums in index
// order (so a channel's runs sum as errorStats over the channel's values would). The sums
// live in locals for the loop: the compiler cannot keep p's members in registers.
inline void accumulate(const float* x, const float* y, int64_t n, float clipLo, float clipHi, const CodeIndex& index,
                       Partial& p) {
    if (p.codes.size() < index.words()) p.codes.resize(index.words(), 0);
    uint64_t* bits = p.codes.data();
    ErrorSums s = p.sums;
    float lo = p.lo, hi = p.hi;
    for (int64_t i = 0; i < n; ++i) {
        const float xi = x[i], yi = y[i];
        if (std::isnan(xi) || std::isnan(yi)) {
            ++s.nan_pairs;
            if (!std::isnan(xi)) {
                lo = xi < lo ? xi : lo;
                hi = xi > hi ? xi : hi;
            }
            continue;
        }
        s.add(xi, yi);
        s.clipped += (xi < clipLo) | (xi > clipHi);
        lo = xi < lo ? xi : lo;
        hi = xi > hi ? xi : hi;
        const int64_t k = index.usable ? index(yi) : -1;
        if (k >= 0)
            bits[k >> 6] |= uint64_t{1} << (k & 63);
        else
            p.levels.add(yi);
    }
    p.sums = s;
    p.lo = lo;
    p.hi = hi;
}

inline ReportStats statsOf(const Partial& p, int64_t elements, int64_t levelsAvailable) {
    const ErrorStats e = statsFromSums(p.sums);
    ReportStats s;
    s.elements = elements;
    s.min = p.lo <= p.hi ? p.lo : 0.0f;
    s.max = p.lo <= p.hi ? p.hi : 0.0f;
    s.mse = e.mse;
    s.sqnr_db = e.sqnr_db;
    // Of the values compared (NaN pairs skipped), as the explorer and every other view count it.
    s.clipped_fraction = p.sums.count > 0 ? static_cast<double>(p.sums.clipped) / static_cast<double>(p.sums.count) : 0.0;
    s.levels_used = static_cast<double>(p.distinct());
    s.levels_available = levelsAvailable;
    s.nan_pairs = p.sums.nan_pairs;
    return s;
}

}  // namespace qs::analysis::report_detail
