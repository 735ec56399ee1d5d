// The range suggestions' figures and quantiles as issue 12 computes them: the one-pass
// evaluation of several ranges (core/embedding/range_evaluation.h) against a brute-force sum
// and against its scalar reference, and the bracketed quantiles and radix sort
// (core/embedding/sample_order.h) against nth_element and std::sort.
#include <QtTest>

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include "core/embedding/range_evaluation.h"
#include "core/embedding/range_suggest.h"
#include "core/embedding/sample_order.h"
#include "core/tpu/simulated_quantization.h"

using namespace qs;
using namespace qs::embedding;

namespace {

uint64_t bits(double v) { return std::bit_cast<uint64_t>(v); }

// n values ~ N(0, 0.1) with some far outliers, and exact level and range-edge values of
// the first candidate below (the ties and clip comparisons).
std::vector<float> sampleValues(size_t n, uint32_t seed) {
    std::mt19937 rng(seed);
    std::normal_distribution<double> normal(0.0, 0.1);
    std::uniform_int_distribution<int> pick(0, 99);
    std::vector<float> v(n);
    for (float& x : v) {
        const int p = pick(rng);
        x = p == 0 ? 7.5f : p == 1 ? -3.0f : p == 2 ? 0.25f : p == 3 ? -0.25f : p == 4 ? 0.0f
                                                                                       : static_cast<float>(normal(rng));
    }
    return v;
}

// The figures summed the obvious way: every value's squared error in long double, index
// order. The lane order of evaluateRanges differs from this only by rounding.
RangeError bruteForce(const std::vector<float>& v, const tpu::QuantizationConfig& c) {
    const tpu::SimQuantF32 k = tpu::prepareF32(c);
    long double err2 = 0;
    RangeError r;
    for (float x : v) {
        const long double e = static_cast<long double>(x) - tpu::simulateQuantizationF32(x, k);
        err2 += e * e;
        r.clipped += static_cast<double>(x) < c.lower || static_cast<double>(x) > c.upper;
    }
    r.err2 = static_cast<double>(err2);
    return r;
}

}  // namespace

class TstEmbeddingSuggest : public QObject {
    Q_OBJECT
private slots:
    // Every candidate's figures in one pass: bit for bit the scalar reference (same order)
    // for 1, 2 and 8 threads, and within 1e-12 (relative) of a brute-force long double sum
    // with exactly the brute force's clipped counts. Sizes cover a partial last group of
    // lanes, a partial run and several blocks; num_buckets 2^30 takes floor's path for
    // arguments from 2^23 on.
    void evaluationMatchesBruteForce() {
        const std::vector<tpu::QuantizationConfig> candidates{
            {256, -0.25, 0.25}, {256, -3.0, 7.5}, {16, -0.1, 0.3}, {int64_t{1} << 30, -0.5, 0.5}, {2, -1e-3, 1e-3}};
        for (size_t n : {size_t{1}, size_t{13}, size_t{2048 + 5}, size_t{3 * 65536 + 1001}}) {
            const auto v = sampleValues(n, static_cast<uint32_t>(n));
            const SampleErrors reference = evaluateRangesReference(v, candidates);
            long double x2 = 0;
            for (float x : v) x2 += static_cast<long double>(x) * x;
            QVERIFY(std::fabs(reference.x2 - static_cast<double>(x2)) <= 1e-12 * static_cast<double>(x2));
            for (size_t j = 0; j < candidates.size(); ++j) {
                const RangeError brute = bruteForce(v, candidates[j]);
                QCOMPARE(reference.ranges[j].clipped, brute.clipped);
                QVERIFY2(std::fabs(reference.ranges[j].err2 - brute.err2) <= 1e-12 * brute.err2,
                         qPrintable(QString("n %1 candidate %2: %3 vs %4").arg(n).arg(j)
                                        .arg(reference.ranges[j].err2, 0, 'g', 17).arg(brute.err2, 0, 'g', 17)));
            }
            for (int threads : {1, 2, 8}) {
                const SampleErrors fast = evaluateRanges(v, candidates, Exec{threads});
                QCOMPARE(bits(fast.x2), bits(reference.x2));
                for (size_t j = 0; j < candidates.size(); ++j) {
                    QCOMPARE(bits(fast.ranges[j].err2), bits(reference.ranges[j].err2));
                    QCOMPARE(fast.ranges[j].clipped, reference.ranges[j].clipped);
                }
                const SampleErrors errOnly = evaluateRanges(v, candidates, Exec{threads}, false);
                QCOMPARE(bits(errOnly.ranges[1].err2), bits(reference.ranges[1].err2));
                QCOMPARE(errOnly.ranges[1].clipped, int64_t{0});
            }
        }
        // A clip bound between two floats: the comparison is with the double bound.
        const std::vector<float> edge{0.1f, std::nextafter(0.1f, 1.0f), -0.1f};
        const tpu::QuantizationConfig between{8, -0.1, 0.1};  // 0.1f > 0.1 > previous float
        QCOMPARE(evaluateRanges(edge, std::span(&between, 1)).ranges[0].clipped, bruteForce(edge, between).clipped);
    }

    // The suggestions report the one-pass figures of their ranges.
    void suggestionFiguresAreTheEvaluation() {
        const auto v = sampleValues(100000, 5);
        auto r = suggestRanges(v);
        QVERIFY(r.ok());
        for (const RangeSuggestion& s : *r) {
            const tpu::QuantizationConfig c{256, s.lower, s.upper};
            const RangeError brute = bruteForce(v, c);
            QVERIFY(std::fabs(s.mse - brute.err2 / 100000.0) <= 1e-12 * s.mse);
            QCOMPARE(s.clipped_fraction, static_cast<double>(brute.clipped) / 100000.0);
        }
    }

    // Radix sort: ascending like std::sort, -0 before +0.
    void sortByValueOrders() {
        std::vector<float> v = sampleValues(70000, 3);
        v.push_back(-0.0f);
        v.push_back(0.0f);
        v.push_back(-0.0f);
        std::vector<float> expected = v;
        std::sort(expected.begin(), expected.end());
        sortByValue(v);
        QVERIFY(v == expected);  // == compares -0 and +0 equal
        const auto firstZero = std::find(v.begin(), v.end(), 0.0f);
        const auto zeros = std::count(v.begin(), v.end(), 0.0f);
        for (auto it = firstZero; it != firstZero + zeros; ++it)
            QCOMPARE(std::signbit(*it), it - firstZero < 2);  // the two -0 first
    }

    // Bracketed quantiles equal nth_element's (numpy's linear interpolation) bit for bit,
    // or give up: never a different number.
    void bracketQuantilesAreExact() {
        auto quantile = [](std::vector<float> v, double q) { return quantileBySelection(v, q); };
        int found = 0;
        for (size_t n : {size_t{1}, size_t{2}, size_t{1000}, size_t{400000}}) {
            std::vector<float> v = sampleValues(n, static_cast<uint32_t>(n) + 1);
            std::vector<float> sub;  // a sorted stride sub-sample, as suggestRanges takes it
            for (size_t i = 0; i < std::min<size_t>(n, 4096); ++i) sub.push_back(v[i * n / std::min<size_t>(n, 4096)]);
            sortByValue(sub);
            for (double q : {0.999, 0.9, 0.5, 0.75, 1.0, 0.99999}) {
                for (int threads : {1, 2}) {
                    const auto got = bracketQuantiles(v, sub, 1 - q, q, Exec{threads});
                    if (!got) continue;
                    ++found;
                    QCOMPARE(bits(got->first), bits(quantile(v, 1 - q)));
                    QCOMPARE(bits(got->second), bits(quantile(v, q)));
                }
            }
        }
        QVERIFY(found > 20);  // the brackets hold the quantiles nearly always
        // A sub-sample that is not the values' (wrong brackets): nullopt, not a wrong value.
        const std::vector<float> v = sampleValues(10000, 9);
        std::vector<float> wrong(100);
        for (size_t i = 0; i < wrong.size(); ++i) wrong[i] = 1.0f + static_cast<float>(i);
        QVERIFY(!bracketQuantiles(v, wrong, 0.001, 0.999).has_value());
        // A zero statistic: nullopt (the sign of a selected zero is not defined).
        const std::vector<float> zeros(1000, 0.0f);
        QVERIFY(!bracketQuantiles(zeros, zeros, 0.1, 0.9).has_value());
    }
};

QTEST_GUILESS_MAIN(TstEmbeddingSuggest)
#include "tst_embedding_suggest.moc"
