#include "core/embedding/sample_order.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <mutex>

#include "core/analysis/radix_sort.h"
#include "core/numeric/simd.h"
#include "core/ops/kernel_util.h"  // QS_VECTOR_CLONES

namespace qs::embedding {

namespace {

float fromOrderKey(uint32_t k) {
    return std::bit_cast<float>((k & 0x80000000u) ? (k & 0x7FFFFFFFu) : ~k);
}

constexpr float kInf = std::numeric_limits<float>::infinity();

struct Bracket {
    float low = -kInf, high = kInf;  // values in [low, high] are gathered
    int64_t below = 0;               // values < low
    std::vector<float> inside;
};

using simd::f32x8, simd::i32x8;

// Counts the values below each of the two brackets and gathers those inside them.
QS_VECTOR_CLONES void scanBrackets(const float* x, int64_t n, Bracket& a, Bracket& b) {
    const f32x8 lowA = f32x8{} + a.low, highA = f32x8{} + a.high, lowB = f32x8{} + b.low, highB = f32x8{} + b.high;
    i32x8 belowA{}, belowB{};
    int64_t i = 0;
    auto one = [&](float v) {
        if (v >= a.low && v <= a.high) a.inside.push_back(v);
        if (v >= b.low && v <= b.high) b.inside.push_back(v);
    };
    for (; i + 8 <= n; i += 8) {
        f32x8 v;
        std::memcpy(&v, x + i, sizeof v);
        belowA -= v < lowA;  // true is -1
        belowB -= v < lowB;
        const i32x8 in = ((v >= lowA) & (v <= highA)) | ((v >= lowB) & (v <= highB));
        bool any = false;
        for (int l = 0; l < 8; ++l) any |= in[l] != 0;
        if (any)
            for (int l = 0; l < 8; ++l) one(x[i + l]);
    }
    for (int l = 0; l < 8; ++l) a.below += belowA[l], b.below += belowB[l];
    for (; i < n; ++i) {
        a.below += x[i] < a.low;
        b.below += x[i] < b.low;
        one(x[i]);
    }
}

}  // namespace

double quantileBySelection(std::vector<float>& v, double q) {
    const double pos = q * static_cast<double>(v.size() - 1);
    const auto lo = static_cast<size_t>(std::floor(pos));
    std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(lo), v.end());
    const double a = v[lo];
    if (lo + 1 >= v.size() || pos == static_cast<double>(lo)) return a;
    const double b = *std::min_element(v.begin() + static_cast<std::ptrdiff_t>(lo) + 1, v.end());
    return a + (b - a) * (pos - static_cast<double>(lo));
}

void sortByValue(std::vector<float>& values) {
    std::vector<uint32_t> keys(values.size());
    for (size_t i = 0; i < values.size(); ++i) keys[i] = orderKey(values[i]);
    analysis::radixSort(keys);
    for (size_t i = 0; i < values.size(); ++i) values[i] = fromOrderKey(keys[i]);
}

std::optional<std::pair<double, double>> bracketQuantiles(std::span<const float> values,
                                                          std::span<const float> sorted, double q1,
                                                          double q2, const Exec& exec) {
    const auto n = static_cast<int64_t>(values.size());
    const auto m = static_cast<int64_t>(sorted.size());
    if (n == 0 || m == 0) return std::nullopt;
    // The ranks quantileBySelection() reads: floor(pos) and, when pos is not whole, the next one.
    struct Want {
        double pos;
        int64_t lo, hi;
    };
    auto want = [&](double q) {
        const double pos = q * static_cast<double>(n - 1);
        const auto lo = static_cast<int64_t>(std::floor(pos));
        const bool next = !(lo + 1 >= n || pos == static_cast<double>(lo));
        return Want{pos, lo, next ? lo + 1 : lo};
    };
    // The sub-sample's order statistics a few standard deviations of the rank on either side
    // of the same quantile (the ends open when they reach the sub-sample's ends).
    auto bracketFor = [&](double q) {
        const double s = q * static_cast<double>(m - 1);
        const auto margin = static_cast<int64_t>(8 + std::ceil(6 * std::sqrt(static_cast<double>(m) * q * (1 - q))));
        const int64_t i = static_cast<int64_t>(std::floor(s)) - margin, j = static_cast<int64_t>(std::ceil(s)) + margin;
        Bracket b;
        if (i > 0) b.low = sorted[static_cast<size_t>(i)];
        if (j < m - 1) b.high = sorted[static_cast<size_t>(j)];
        return b;
    };
    const Want w1 = want(q1), w2 = want(q2);
    Bracket b1 = bracketFor(q1), b2 = bracketFor(q2);
    std::mutex merge;
    parallelFor(exec, n, [&](int64_t begin, int64_t end) {
        Bracket l1, l2;
        l1.low = b1.low, l1.high = b1.high, l2.low = b2.low, l2.high = b2.high;
        scanBrackets(values.data() + begin, end - begin, l1, l2);
        const std::lock_guard lock(merge);
        b1.below += l1.below;
        b2.below += l2.below;
        // The values' order inside does not matter: a selection's result is a value, and
        // zeros, the only equal values that differ, are refused below.
        b1.inside.insert(b1.inside.end(), l1.inside.begin(), l1.inside.end());
        b2.inside.insert(b2.inside.end(), l2.inside.begin(), l2.inside.end());
    });
    auto quantileIn = [](Bracket& b, const Want& w) -> std::optional<double> {
        const auto inside = static_cast<int64_t>(b.inside.size());
        if (w.lo < b.below || w.hi >= b.below + inside) return std::nullopt;
        const auto r = static_cast<std::ptrdiff_t>(w.lo - b.below);
        std::nth_element(b.inside.begin(), b.inside.begin() + r, b.inside.end());
        const double a = b.inside[static_cast<size_t>(r)];
        if (a == 0) return std::nullopt;
        if (w.hi == w.lo) return a;
        const double next = *std::min_element(b.inside.begin() + r + 1, b.inside.end());
        if (next == 0) return std::nullopt;
        return a + (next - a) * (w.pos - static_cast<double>(w.lo));
    };
    const auto lo = quantileIn(b1, w1);
    if (!lo) return std::nullopt;
    const auto hi = quantileIn(b2, w2);
    if (!hi) return std::nullopt;
    return std::pair{*lo, *hi};
}

}  // namespace qs::embedding
