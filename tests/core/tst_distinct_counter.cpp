// DistinctCounter (core/numeric/distinct_counter.h) against a sort of the same values: with
// and without a grid in front, through its table's growth, over parts merged in any split,
// with -0/+0 and NaN pairs, and giving up (overflowed) past its table's capacity or its cap.
#include <QtTest>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "core/analysis/error_stats.h"
#include "core/numeric/distinct_counter.h"

using qs::DistinctCounter;

namespace {

// n values of which about `levels` are distinct: quantized levels lo + k·step, a share of
// them nudged off the grid by an ulp (as float rounding does), some -0, some NaN.
std::vector<float> someLevels(size_t n, int64_t levels, uint32_t seed) {
    std::mt19937 rng(seed);
    std::uniform_int_distribution<int64_t> pick(0, levels - 1);
    std::uniform_int_distribution<int> kind(0, 99);
    std::vector<float> v(n);
    const float lo = -3.0f, step = 6.0f / static_cast<float>(levels);
    for (float& x : v) {
        const int k = kind(rng);
        x = lo + static_cast<float>(pick(rng)) * step;
        if (k < 10) x = std::nextafter(x, 10.0f);  // off the grid
        else if (k == 10) x = -0.0f;
        else if (k == 11) x = 0.0f;
        else if (k == 12) x = std::numeric_limits<float>::quiet_NaN();
    }
    return v;
}

}  // namespace

class TstDistinctCounter : public QObject {
    Q_OBJECT

private slots:
    void countsWhatASortCounts_data() {
        QTest::addColumn<int64_t>("levels");
        QTest::addColumn<bool>("grid");
        for (int64_t levels : {int64_t{3}, int64_t{255}, int64_t{65535}, int64_t{400'000}}) {
            QTest::addRow("%lld levels, no grid", static_cast<long long>(levels)) << levels << false;
            QTest::addRow("%lld levels, grid", static_cast<long long>(levels)) << levels << true;
        }
    }
    // The values as pairs (x = y, so a NaN y skips its pair), added in one piece and in parts
    // merged back, each against distinctPairOutputs (a radix sort of the same values).
    void countsWhatASortCounts() {
        QFETCH(int64_t, levels);
        QFETCH(bool, grid);
        const std::vector<float> y = someLevels(1'000'003, levels, 7);
        const int64_t expected = qs::analysis::distinctPairOutputs(y, y);
        QVERIFY(expected > std::min<int64_t>(levels, 100'000) / 2);  // the data is what the row says
        auto make = [&] {
            return grid ? DistinctCounter(-3.0, 6.0 / static_cast<double>(levels), levels) : DistinctCounter();
        };
        DistinctCounter whole = make();
        whole.addPairs(y.data(), y.data(), static_cast<int64_t>(y.size()));
        QCOMPARE(whole.count(), expected);
        QVERIFY(!whole.overflowed());

        // In three uneven parts, merged out of order; one value at a time for the middle one.
        DistinctCounter a = make(), b = make(), c = make();
        a.addPairs(y.data(), y.data(), 123'457);
        for (size_t i = 123'457; i < 600'000; ++i)
            if (!std::isnan(y[i])) b.add(y[i]);
        c.addPairs(y.data() + 600'000, y.data() + 600'000, static_cast<int64_t>(y.size()) - 600'000);
        c.merge(a);
        c.merge(b);
        QCOMPARE(c.count(), expected);
        // A counter without a grid takes a gridded one's levels too, and the other way round.
        DistinctCounter plain;
        plain.merge(whole);
        QCOMPARE(plain.count(), expected);
    }

    // Past its capacity the counter says it gave up instead of counting wrongly.
    void overflowsPastItsCapacity() {
        DistinctCounter counter;
        const int64_t n = int64_t{5} << 20;  // more distinct values than a full table holds
        std::vector<float> v(static_cast<size_t>(n));
        for (int64_t i = 0; i < n; ++i) v[static_cast<size_t>(i)] = 1.0f + static_cast<float>(i) * 0x1p-23f;
        counter.addPairs(v.data(), v.data(), n);
        QVERIFY(counter.overflowed());
        DistinctCounter few;
        few.addPairs(v.data(), v.data(), 1 << 20);
        QVERIFY(!few.overflowed());
        QCOMPARE(few.count(), int64_t{1} << 20);
    }

    // The model report's counter: from a small table it counts exactly up to its cap, stops
    // one value past it, and a merge with a stopped counter stops too.
    void aCappedCounterStopsPastItsCap() {
        constexpr int64_t cap = 5000;
        std::vector<float> v(static_cast<size_t>(cap + 1));
        for (size_t i = 0; i < v.size(); ++i) v[i] = 1.0f + static_cast<float>(i) * 0x1p-20f;
        DistinctCounter atCap = DistinctCounter::upTo(cap);
        for (int64_t i = 0; i < cap; ++i) atCap.add(v[static_cast<size_t>(i)]);
        atCap.add(-0.0f);
        atCap.add(0.0f);  // the same level as -0: one more value, at the cap's edge
        QVERIFY(atCap.overflowed());
        DistinctCounter below = DistinctCounter::upTo(cap);
        for (int64_t i = 0; i < cap; ++i) below.add(v[static_cast<size_t>(i % 3000)]);
        below.add(-0.0f);
        below.add(0.0f);
        QVERIFY(!below.overflowed());
        QCOMPARE(below.count(), int64_t{3001});
        DistinctCounter merged = DistinctCounter::upTo(cap);
        merged.add(2.0f);
        merged.merge(atCap);
        QVERIFY(merged.overflowed());
    }
};

QTEST_APPLESS_MAIN(TstDistinctCounter)
#include "tst_distinct_counter.moc"
