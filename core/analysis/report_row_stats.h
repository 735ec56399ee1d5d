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
#include "core/analysis/model_report.h"
#include "core/analysis/quant_spec.h"

namespace qs::analysis::report_detail {

// Distinct float32 values (bit patterns, -0 == +0, NaN never added) in a small open-addressing
// set that grows from 64 slots. Quantized outputs have few levels, so the set stays in
// cache; past kMaxLevels distinct values it stops counting (an op with 2^32 levels over a
// large tensor would otherwise need a set as large as the tensor).
class LevelSet {
public:
    static constexpr int64_t kMaxLevels = 65536;

    void add(float v) {
        if (overflowed_) return;
        if (v == 0.0f) v = 0.0f;
        uint32_t key;
        std::memcpy(&key, &v, sizeof key);
        if (key == kEmpty) return;  // a NaN pattern: the caller never adds NaN
        if (table_.empty()) table_.assign(64, kEmpty);
        size_t i = hash(key) & (table_.size() - 1);
        while (table_[i] != kEmpty) {
            if (table_[i] == key) return;
            i = (i + 1) & (table_.size() - 1);
        }
        table_[i] = key;
        if (++size_ > kMaxLevels) {
            overflowed_ = true;
            table_ = {};
            return;
        }
        if (size_ * 2 > table_.size()) grow();
    }
    void merge(const LevelSet& o) {
        if (o.overflowed_) {
            overflowed_ = true;
            table_ = {};
        }
        for (uint32_t k : o.table_) {
            if (overflowed_) return;
            if (k != kEmpty) add(std::bit_cast<float>(k));
        }
    }
    // -1 when it stopped counting.
    int64_t count() const { return overflowed_ ? -1 : static_cast<int64_t>(size_); }

private:
    static constexpr uint32_t kEmpty = 0xFFFFFFFFu;
    static size_t hash(uint32_t k) { return (k * 0x9E3779B1u) ^ (k >> 15); }
    void grow() {
        std::vector<uint32_t> old(table_.size() * 2, kEmpty);
        old.swap(table_);
        for (uint32_t k : old) {
            if (k == kEmpty) continue;
            size_t i = hash(k) & (table_.size() - 1);
            while (table_[i] != kEmpty) i = (i + 1) & (table_.size() - 1);
            table_[i] = k;
        }
    }
    std::vector<uint32_t> table_;
    size_t size_ = 0;
    bool overflowed_ = false;
};

// A slice's outputs as code indices 0..levels-1, for counting levels in a bitmap instead of a
// hash set: the outputs of neighbouring codes lie about one step apart (far more than float
// rounding), so round((y - zero_output) / step) + (zero_code - code_lowest) gives each output
// its code back, and equal outputs the same index. For ops with more than 65536 levels or
// without a positive step, `usable` is false and outputs are hashed (LevelSet).
struct CodeIndex {
    double zero = 0, perStep = 0;
    int64_t zeroIndex = 0, levels = 0;
    bool usable = false;

    static CodeIndex of(const SliceQuant& q) {
        CodeIndex c;
        c.levels = q.levels();
        c.usable = c.levels > 0 && c.levels <= LevelSet::kMaxLevels && q.step > 0 && std::isfinite(q.step) &&
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
    LevelSet levels;              // outputs without an index

    void merge(const Partial& o) {
        sums.merge(o.sums);
        lo = std::min(lo, o.lo);
        hi = std::max(hi, o.hi);
        if (codes.size() < o.codes.size()) codes.resize(o.codes.size(), 0);
        for (size_t w = 0; w < o.codes.size(); ++w) codes[w] |= o.codes[w];
        levels.merge(o.levels);
    }
    // Distinct outputs, -1 when more than LevelSet counts.
    int64_t distinct() const {
        if (levels.count() < 0) return -1;
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
