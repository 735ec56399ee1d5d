#include "core/embedding/range_suggest.h"

#include <algorithm>
#include <bit>
#include <mutex>
#include <optional>
#include <charconv>
#include <cmath>
#include <limits>

#include "core/embedding/range_evaluation.h"
#include "core/embedding/sample_order.h"
#include "core/numeric/block_reduce.h"

namespace qs::embedding {

namespace {

// The golden-section search runs on a sorted stride sample of at most this many values
// (quantiles of the tail fractions are read from it); the final figures use all samples.
constexpr int64_t kSearchSamples = 1 << 16;
constexpr double kMaxClipFraction = 0.2;  // the search never clips more than this
constexpr int kGoldenIterations = 16;

// A range the float32 formula can use: lower < upper after rounding to float. A degenerate
// range (constant data, or a percentile range on mostly equal values) is widened around its
// centre by a relative 2^-10 (at least 2^-10 absolute), so the quantum is not zero.
std::pair<double, double> usableRange(double lower, double upper) {
    if (static_cast<float>(lower) < static_cast<float>(upper)) return {lower, upper};
    const double c = 0.5 * (lower + upper);
    const double d = std::max(std::fabs(c), 1.0) * 0x1p-10;
    return {c - d, c + d};
}

// Every `stride`-th value, deterministic: index floor(i * n / m) for i < m, finite only.
// The gather is parallel (each sample is a cache miss on a large table).
std::vector<float> strideSample(std::span<const float> values, int64_t m, const Exec& exec) {
    const int64_t n = static_cast<int64_t>(values.size());
    std::vector<float> out;
    if (m <= 0 || m >= n) {
        out.reserve(values.size());
        for (float v : values)
            if (std::isfinite(v)) out.push_back(v);
        return out;
    }
    out.resize(static_cast<size_t>(m));
    parallelFor(exec, m, [&](int64_t b, int64_t e) {
        for (int64_t i = b; i < e; ++i)
            out[static_cast<size_t>(i)] =
                values[static_cast<size_t>(static_cast<__int128>(i) * n / m)];
    });
    out.erase(std::remove_if(out.begin(), out.end(), [](float v) { return !std::isfinite(v); }),
              out.end());
    return out;
}

// The order statistics quantileBySelection() reads (ranks floor(pos) and floor(pos) + 1, pos =
// q (n - 1)) for q1 and q2, found with a histogram of the top 16 bits of order-preserving
// keys and a selection inside the few bins that hold them, instead of two nth_element
// over the whole sample. For finite values, key order is value order except that -0 sorts
// before +0, which compare equal; which zero nth_element leaves at a rank is not defined
// by value, so when any statistic read is a zero this gives up (nullopt) and the caller
// runs quantileBySelection() itself. Otherwise the results equal its bit for bit.
std::optional<std::pair<double, double>> radixQuantiles(const std::vector<float>& v, double q1,
                                                        double q2, const Exec& exec) {
    constexpr size_t kBins = size_t{1} << 16;
    const int64_t n = static_cast<int64_t>(v.size());
    std::vector<int64_t> counts(kBins, 0);
    std::mutex merge;
    parallelFor(exec, n, [&](int64_t b, int64_t e) {
        std::vector<int64_t> local(kBins, 0);
        for (int64_t i = b; i < e; ++i) ++local[orderKey(v[static_cast<size_t>(i)]) >> 16];
        const std::lock_guard lock(merge);
        for (size_t j = 0; j < kBins; ++j) counts[j] += local[j];
    });
    // The ranks needed, as quantileBySelection() computes them.
    struct Need {
        int64_t rank;
        size_t bin = 0;
        int64_t before = 0;  // values in lower bins
        float value = 0;
    };
    std::vector<Need> needs;
    auto ranksOf = [&](double q) {
        const double pos = q * static_cast<double>(v.size() - 1);
        const auto lo = static_cast<size_t>(std::floor(pos));
        needs.push_back({static_cast<int64_t>(lo)});
        if (!(lo + 1 >= v.size() || pos == static_cast<double>(lo)))
            needs.push_back({static_cast<int64_t>(lo) + 1});
        return pos;
    };
    const double pos1 = ranksOf(q1);
    const size_t firstOfQ2 = needs.size();
    const double pos2 = ranksOf(q2);
    int64_t cum = 0;
    for (size_t j = 0; j < kBins; ++j) {
        for (Need& need : needs)
            if (need.rank >= cum && need.rank < cum + counts[j]) need.bin = j, need.before = cum;
        cum += counts[j];
    }
    std::vector<size_t> bins;
    for (const Need& need : needs)
        if (std::find(bins.begin(), bins.end(), need.bin) == bins.end()) bins.push_back(need.bin);
    std::vector<std::vector<float>> members(bins.size());
    for (float x : v) {
        const size_t bin = orderKey(x) >> 16;
        for (size_t j = 0; j < bins.size(); ++j)
            if (bins[j] == bin) members[j].push_back(x);
    }
    for (Need& need : needs) {
        const size_t j = static_cast<size_t>(std::find(bins.begin(), bins.end(), need.bin) - bins.begin());
        std::vector<float>& m = members[j];
        const auto r = static_cast<std::ptrdiff_t>(need.rank - need.before);
        std::nth_element(m.begin(), m.begin() + r, m.end());
        need.value = m[static_cast<size_t>(r)];
        if (need.value == 0.0f) return std::nullopt;
    }
    auto interpolate = [&](double pos, size_t first, size_t end) {
        const double a = needs[first].value;
        if (end - first == 1) return a;
        const double b = needs[first + 1].value;
        return a + (b - a) * (pos - std::floor(pos));
    };
    return std::pair{interpolate(pos1, 0, firstOfQ2), interpolate(pos2, firstOfQ2, needs.size())};
}

// Minimises f over [0, 1] by golden-section search; returns the best point seen, 0 included
// (the unclipped end, so the search never does worse than not clipping).
template <typename F>
double goldenMinimum(F&& f) {
    const double r = (std::sqrt(5.0) - 1) / 2;
    double a = 0, b = 1;
    double c = b - r * (b - a), d = a + r * (b - a);
    double fc = f(c), fd = f(d);
    double best = 0, fbest = f(0.0);
    for (int i = 0; i < kGoldenIterations; ++i) {
        if (fc < fd) {
            b = d, d = c, fd = fc;
            c = b - r * (b - a);
            fc = f(c);
        } else {
            a = c, c = d, fc = fd;
            d = a + r * (b - a);
            fd = f(d);
        }
    }
    for (auto [x, fx] : {std::pair{c, fc}, std::pair{d, fd}})
        if (fx < fbest) best = x, fbest = fx;
    return best;
}

std::string percentileName(double p) {
    char buf[32];
    const auto r = std::to_chars(buf, buf + sizeof buf, p);
    return "percentile " + std::string(buf, r.ptr);
}

}  // namespace

Status checkSuggestOptions(const RangeSuggestOptions& options) {
    if (options.num_buckets < 2)
        return invalidArgument("range suggestions need num_buckets >= 2, got " +
                               std::to_string(options.num_buckets));
    if (!(options.percentile > 50 && options.percentile <= 100))
        return invalidArgument("the percentile must be in (50, 100], got " +
                               tpu::pyFloatRepr(options.percentile));
    return okStatus();
}

Result<std::vector<RangeSuggestion>> suggestRanges(std::span<const float> values,
                                                   const RangeSuggestOptions& options,
                                                   const Exec& exec) {
    if (Status s = checkSuggestOptions(options); !s) return s.error();

    // Exact extremes over every value (a sample could miss them): cheap, one parallel pass.
    struct MinMax {
        float lo = std::numeric_limits<float>::infinity(), hi = -lo;
    };
    const float* src = values.data();
    MinMax mm;
    for (const MinMax& p : blockPartials<MinMax>(exec, static_cast<int64_t>(values.size()),
                                                 [&](int64_t b, int64_t e) {
                                                     MinMax m;
                                                     for (int64_t i = b; i < e; ++i) {
                                                         const float v = src[i];
                                                         if (!std::isfinite(v)) continue;
                                                         m.lo = std::min(m.lo, v);
                                                         m.hi = std::max(m.hi, v);
                                                     }
                                                     return m;
                                                 })) {
        mm.lo = std::min(mm.lo, p.lo);
        mm.hi = std::max(mm.hi, p.hi);
    }
    if (!(mm.lo <= mm.hi))
        return invalidArgument("range suggestions need at least one finite value");
    return suggestRangesFromSample(mm.lo, mm.hi, strideSample(values, options.max_samples, exec),
                                   options, exec, QuantileMethod::Select);
}

Result<std::vector<RangeSuggestion>> suggestRangesFromSample(float lowest, float highest,
                                                             std::vector<float> sample,
                                                             const RangeSuggestOptions& options,
                                                             const Exec& exec, QuantileMethod method) {
    if (Status s = checkSuggestOptions(options); !s) return s.error();
    if (!(lowest <= highest))
        return invalidArgument("range suggestions need at least one finite value");
    if (sample.empty()) return invalidArgument("range suggestions need at least one finite value");
    struct {
        float lo, hi;
    } mm{lowest, highest};
    const int64_t nb = options.num_buckets;

    // The four ranges first, then their figures on the whole sample in one pass.
    std::vector<RangeSuggestion> out;
    auto candidate = [&](std::string method, std::pair<double, double> range) {
        const auto [lo, hi] = usableRange(range.first, range.second);
        out.push_back(RangeSuggestion{std::move(method), lo, hi});
    };
    candidate("min-max", {mm.lo, mm.hi});
    const double m = std::max(std::fabs(double{mm.lo}), std::fabs(double{mm.hi}));
    candidate("symmetric max |x|", {-m, m});
    // The MSE-optimal search's sample, sorted (the percentile's quantiles are found with it).
    std::vector<float> search = strideSample(sample, kSearchSamples, exec);
    sortByValue(search);
    const double p = options.percentile / 100.0;
    std::optional<std::pair<double, double>> pq;
    if (method == QuantileMethod::Radix) {
        pq = bracketQuantiles(sample, search, 1.0 - p, p, exec);
        if (!pq) pq = radixQuantiles(sample, 1.0 - p, p, exec);
    }
    if (!pq) {
        std::vector<float> work = sample;
        const double lo = quantileBySelection(work, 1.0 - p);
        pq = std::pair{lo, quantileBySelection(work, p)};
    }
    candidate(percentileName(options.percentile), *pq);

    // MSE-optimal: clip a fraction a of the low tail and b of the high tail, the range read
    // off the sorted search sample. The fraction is f = kMaxClipFraction * u^3 (fine steps
    // near no clipping, where the optimum of a light-tailed table lies). First symmetric
    // (a = b), then each side alone with the other fixed.
    const auto last = static_cast<double>(search.size() - 1);
    auto rangeFor = [&](double a, double b) {
        const double lo = a == 0 ? mm.lo : search[static_cast<size_t>(std::lround(a * last))];
        const double hi = b == 0 ? mm.hi : search[static_cast<size_t>(std::lround((1 - b) * last))];
        return usableRange(lo, hi);
    };
    auto mseOf = [&](double a, double b) {
        const auto [lo, hi] = rangeFor(a, b);
        const tpu::QuantizationConfig c{nb, lo, hi};
        return evaluateRanges(search, std::span(&c, 1), exec, false).ranges[0].err2 /
               static_cast<double>(search.size());
    };
    auto fraction = [](double u) { return kMaxClipFraction * u * u * u; };
    const double sym = fraction(goldenMinimum([&](double u) {
        return mseOf(fraction(u) / 2, fraction(u) / 2);
    }));
    const double a = fraction(goldenMinimum([&](double u) { return mseOf(fraction(u), sym / 2); }));
    const double b = fraction(goldenMinimum([&](double u) { return mseOf(a, fraction(u)); }));
    const auto [optLo, optHi] = rangeFor(a, b);
    out.push_back(RangeSuggestion{"MSE-optimal", optLo, optHi});

    // Each distinct range once (the percentile's is often the optimum).
    std::vector<tpu::QuantizationConfig> ranges;
    std::vector<size_t> rangeOf;
    for (const RangeSuggestion& s : out) {
        const tpu::QuantizationConfig c{nb, s.lower, s.upper};
        auto same = std::find_if(ranges.begin(), ranges.end(), [&](const tpu::QuantizationConfig& r) {
            return std::bit_cast<uint64_t>(r.lower) == std::bit_cast<uint64_t>(c.lower) &&
                   std::bit_cast<uint64_t>(r.upper) == std::bit_cast<uint64_t>(c.upper);
        });
        rangeOf.push_back(static_cast<size_t>(same - ranges.begin()));
        if (same == ranges.end()) ranges.push_back(c);
    }
    const SampleErrors errors = evaluateRanges(sample, ranges, exec);
    const double n = static_cast<double>(sample.size());
    for (size_t i = 0; i < out.size(); ++i) {
        const RangeError& e = errors.ranges[rangeOf[i]];
        out[i].mse = e.err2 / n;
        out[i].sqnr_db = e.err2 == 0 ? std::numeric_limits<double>::infinity() : 10.0 * std::log10(errors.x2 / e.err2);
        out[i].clipped_fraction = static_cast<double>(e.clipped) / n;
    }
    // The search ran on a sub-sample; on all samples one of the other three can still win
    // (by a hair). "Optimal" should never lose to a suggestion shown next to it.
    RangeSuggestion& best = out[3];
    for (int i = 0; i < 3; ++i)
        if (out[static_cast<size_t>(i)].mse < best.mse) {
            best = out[static_cast<size_t>(i)];
            best.method = "MSE-optimal";
        }
    return out;
}

}  // namespace qs::embedding
