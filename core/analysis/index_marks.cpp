#include "core/analysis/index_marks.h"
#include "core/numeric/simd.h"

#include <algorithm>
#include <cstring>

#include "core/ops/kernel_util.h"  // QS_VECTOR_CLONES

namespace qs::analysis {

namespace {

using simd::u32x8, simd::u64x4;

bool isNan(const float* x, int64_t k) {
    uint32_t bits;
    std::memcpy(&bits, x + k, sizeof bits);
    return (bits & 0x7FFFFFFFu) > 0x7F800000u;
}

// Marks the values outside [run_lo, run_lo + run_len), 32 at a time: a value's index is
// index[k] (kCodes false; at most count, the spare) or codes[k] - lowest for the x[k] that
// are not NaN (kCodes true; an index outside [0, count) is reported, not marked). `stored`
// tells whether any value was outside the run. Returns whether a code was outside.
template <bool kCodes>
[[gnu::always_inline]] inline bool marksOutsideRun(const float* x, const int32_t* index, int64_t n,
                                                   uint32_t lowest, uint32_t count, uint32_t run_lo,
                                                   uint32_t run_len, uint8_t* used, bool& stored) {
    constexpr int kVectors = 4;
    u32x8 strays{};
    u64x4 any{};
    int64_t k = 0;
    for (; k + 8 * kVectors <= n; k += 8 * kVectors) {
        u32x8 need[kVectors], at[kVectors];
        for (int v = 0; v < kVectors; ++v) {
            u32x8 i;
            std::memcpy(&i, index + k + 8 * v, sizeof i);
            if constexpr (kCodes) {
                u32x8 bits;
                std::memcpy(&bits, x + k + 8 * v, sizeof bits);
                const u32x8 notNan = (bits & 0x7FFFFFFFu) <= 0x7F800000u;  // true is all ones
                // Unsigned, so a code far outside cannot overflow: below `lowest` it wraps past count.
                i -= lowest;
                const u32x8 inside = i < count;
                strays |= notNan & ~inside;
                need[v] = notNan & inside & ((i - run_lo) >= run_len);
            } else {
                need[v] = (i - run_lo) >= run_len;
            }
            at[v] = i;
        }
        const auto group = reinterpret_cast<u64x4>(need[0] | need[1] | need[2] | need[3]);
        if ((group[0] | group[1] | group[2] | group[3]) == 0) continue;
        any |= group;
        for (int v = 0; v < kVectors; ++v) {  // branch-free: the others mark the spare
            const u32x8 to = (at[v] & need[v]) | (count & ~need[v]);
            for (int j = 0; j < 8; ++j) used[to[j]] = 1;
        }
    }
    stored = (any[0] | any[1] | any[2] | any[3]) != 0 || k < n;
    bool outside = false;
    for (int j = 0; j < 8; ++j) outside = outside || strays[j] != 0;
    for (; k < n; ++k) {
        if (kCodes && isNan(x, k)) continue;
        const uint32_t i = static_cast<uint32_t>(index[k]) - (kCodes ? lowest : 0u);
        if (kCodes && i >= count)
            outside = true;
        else
            used[i] = 1;
    }
    return outside;
}

// Every code marked, in two phases per group as the other counters: each value's byte index
// without a branch (vectorised), then one store each; a NaN or a code outside marks the
// spare. With a branch per value (NaN, range) this cost a quarter of the explorer's edit.
[[gnu::noinline]] QS_VECTOR_CLONES bool markEveryCode(const float* x, const int32_t* codes, int64_t n,
                                                       uint32_t lowest, uint32_t count, uint8_t* used) {
    uint32_t strays = 0;
    constexpr int64_t kGroup = 256;
    uint32_t at[kGroup];
    for (int64_t g = 0; g < n; g += kGroup) {
        const int64_t m = std::min(kGroup, n - g);
        for (int64_t k = 0; k < m; ++k) {
            uint32_t bits;
            std::memcpy(&bits, x + g + k, sizeof bits);
            const uint32_t notNan = (bits & 0x7FFFFFFFu) <= 0x7F800000u;
            // Unsigned, so a code far outside cannot overflow: below `lowest` it wraps past count.
            const uint32_t i = static_cast<uint32_t>(codes[g + k]) - lowest;
            const uint32_t inside = i < count;
            strays |= notNan & (inside ^ 1u);
            at[k] = (notNan & inside) ? i : count;
        }
        for (int64_t k = 0; k < m; ++k) used[at[k]] = 1;  // (loading to check first was slower)
    }
    return strays != 0;
}

// Every index marked, as it is.
void markEvery(const int32_t* index, int64_t n, uint8_t* used) {
    for (int64_t k = 0; k < n; ++k) used[index[k]] = 1;
}

[[gnu::noinline]] QS_VECTOR_CLONES bool markCodesOutsideRun(const float* x, const int32_t* codes, int64_t n,
                                                             uint32_t lowest, uint32_t count, uint32_t run_lo,
                                                             uint32_t run_len, uint8_t* used, bool& stored) {
    return marksOutsideRun<true>(x, codes, n, lowest, count, run_lo, run_len, used, stored);
}
[[gnu::noinline]] QS_VECTOR_CLONES void markOutsideRun(const int32_t* index, int64_t n, uint32_t count,
                                                        uint32_t run_lo, uint32_t run_len, uint8_t* used,
                                                        bool& stored) {
    marksOutsideRun<false>(nullptr, index, n, 0, count, run_lo, run_len, used, stored);
}

}  // namespace

void IndexMarks::mark(const int32_t* index, int64_t n) {
    if (!tracking() || n <= 0) return;
    if (count() > kRunIndices) {
        markEvery(index, n, bytes_.data());
        return;
    }
    bool stored = false;
    markOutsideRun(index, n, static_cast<uint32_t>(count()), run_lo_, run_len_, bytes_.data(), stored);
    if (stored) findLongestRun();
}

bool IndexMarks::markCodes(const float* x, const int32_t* codes, int64_t n, int32_t lowest) {
    if (!tracking() || n <= 0) return false;
    const auto low = static_cast<uint32_t>(lowest);
    const auto c = static_cast<uint32_t>(count());
    if (count() > kRunIndices) return markEveryCode(x, codes, n, low, c, bytes_.data());
    bool stored = false;
    const bool outside = markCodesOutsideRun(x, codes, n, low, c, run_lo_, run_len_, bytes_.data(), stored);
    if (stored) findLongestRun();
    return outside;
}

void IndexMarks::merge(const IndexMarks& other) {
    if (!tracking()) return;
    for (size_t i = 0; i < bytes_.size() && i < other.bytes_.size(); ++i) bytes_[i] |= other.bytes_[i];
    findLongestRun();
}

// A scan of at most kRunIndices bytes, after a batch that stored a mark.
void IndexMarks::findLongestRun() {
    if (!tracking() || count() > kRunIndices) return;
    const auto n = static_cast<uint32_t>(count());
    uint32_t best = 0, bestAt = 0;
    for (uint32_t i = 0; i < n;) {
        if (!bytes_[i]) {
            ++i;
            continue;
        }
        uint32_t j = i;
        while (j < n && bytes_[j]) ++j;
        if (j - i > best) best = j - i, bestAt = i;
        i = j;
    }
    run_lo_ = bestAt;
    run_len_ = best;
}

}  // namespace qs::analysis
