// The float32 normals of the table initializers (core/data/float_normals.h): each sample is
// the documented Box-Muller pair of one SplitMix64 draw, to float32 accuracy; its bits do not
// depend on how the range is cut (single samples, odd starts, scattered indices); and the
// samples are standard normal. A range-dependent result (an approximate sqrt in vector lanes
// and an exact one in the tail) made tables differ with the thread count once.
#include <QtTest>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <numbers>
#include <numeric>
#include <random>
#include <vector>

#include "core/data/float_normals.h"

using qs::data::CounterStream;
using qs::data::kFloatNormalBatch;

namespace {

// Sample i, written from the header's description in double with the C library.
double described(const CounterStream& s, int64_t i) {
    const uint64_t h = s.bits(static_cast<uint64_t>(i / 2));
    const double u1 = (static_cast<double>(h >> 41) + 0.5) * 0x1p-23;
    const double u2 = static_cast<double>((h >> 16) & 0xFFFFFF) * 0x1p-24;
    const double r = std::sqrt(-2.0 * std::log(u1)), a = 2.0 * std::numbers::pi * u2;
    return r * ((i & 1) ? std::sin(a) : std::cos(a));
}

// Samples [b, e) in calls of at most `step` values.
std::vector<float> drawn(const CounterStream& s, int64_t b, int64_t e, int64_t step) {
    std::vector<float> z(static_cast<size_t>(e - b));
    for (int64_t i = b; i < e; i += step)
        qs::data::standardNormalsF(s, i, std::min(e, i + step), z.data() + (i - b));
    return z;
}

bool sameBits(const std::vector<float>& a, const std::vector<float>& b) {
    return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0;
}

}  // namespace

class TestFloatNormals : public QObject {
    Q_OBJECT

private slots:
    void followTheDescription() {
        const CounterStream s(7, 0);
        const std::vector<float> z = drawn(s, 0, 100000, kFloatNormalBatch);
        double worst = 0;
        for (int64_t i = 0; i < 100000; ++i)
            worst = std::max(worst, std::fabs(z[static_cast<size_t>(i)] - described(s, i)));
        // float32 rounding of values up to 5.8, plus the polynomials' ~1e-7 (seen: 6e-7).
        QVERIFY2(worst < 2e-6, std::to_string(worst).c_str());
    }

    void sameBitsHoweverTheRangeIsCut() {
        const CounterStream s(42, 3);
        const std::vector<float> whole = drawn(s, 0, 4000, kFloatNormalBatch);
        QVERIFY(sameBits(drawn(s, 0, 4000, 1), whole));   // every sample alone
        QVERIFY(sameBits(drawn(s, 0, 4000, 37), whole));  // odd starts and ends, pairs split
        std::vector<float> tail = drawn(s, 1001, 4000, kFloatNormalBatch);
        QVERIFY(std::equal(tail.begin(), tail.end(), whole.begin() + 1001,
                           [](float a, float b) { return std::memcmp(&a, &b, sizeof a) == 0; }));
        // Scattered indices, shuffled, in calls longer than a batch.
        std::vector<int64_t> index(4000);
        std::iota(index.begin(), index.end(), 0);
        std::shuffle(index.begin(), index.end(), std::mt19937(5));
        std::vector<float> at(index.size());
        qs::data::standardNormalsAtF(s, index.data(), static_cast<int64_t>(index.size()), at.data());
        for (size_t k = 0; k < index.size(); ++k)
            QVERIFY(std::memcmp(&at[k], &whole[static_cast<size_t>(index[k])], sizeof(float)) == 0);
    }

    void standardNormal() {
        const std::vector<float> z = drawn(CounterStream(1, 0), 0, 2000000, kFloatNormalBatch);
        double sum = 0, sum2 = 0, largest = 0;
        int64_t beyondTwo = 0;
        for (float v : z) {
            sum += v;
            sum2 += static_cast<double>(v) * v;
            largest = std::max(largest, static_cast<double>(std::fabs(v)));
            beyondTwo += std::fabs(v) > 2.0f;
        }
        const double n = static_cast<double>(z.size()), mean = sum / n, var = sum2 / n - mean * mean;
        QVERIFY2(std::fabs(mean) < 0.003, std::to_string(mean).c_str());
        QVERIFY2(std::fabs(var - 1.0) < 0.005, std::to_string(var).c_str());
        const double tail = static_cast<double>(beyondTwo) / n;  // P(|Z| > 2) = 0.0455
        QVERIFY2(std::fabs(tail - 0.0455) < 0.001, std::to_string(tail).c_str());
        QVERIFY(largest > 4.5 && largest < 5.8);  // reaches the tails; u1 >= 2^-24 bounds them
    }
};

QTEST_APPLESS_MAIN(TestFloatNormals)
#include "tst_float_normals.moc"
