// IndexMarks (core/analysis/index_marks.h) against a plain set of the same indices: batch
// after batch (the marks skip a run they know is marked, so an index first seen late, alone
// or beside the run, is the case to get right), with NaN values and codes outside the
// range, below and above the size where the run is kept, and merged from several copies.
#include <QtTest>

#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <set>
#include <vector>

#include "core/analysis/index_marks.h"

using qs::analysis::IndexMarks;

namespace {

std::set<int64_t> markedSet(const IndexMarks& m) {
    std::set<int64_t> s;
    for (int64_t i = 0; i < m.count(); ++i)
        if (m.marked(i)) s.insert(i);
    return s;
}

// Batches of indices of a bell-shaped spread over [0, count): the centre is soon all marked,
// the tails come one by one; and every few batches one index far out, alone.
std::vector<std::vector<int32_t>> bellBatches(int64_t count, int batches, size_t size, uint32_t seed) {
    std::mt19937 rng(seed);
    std::normal_distribution<double> bell(static_cast<double>(count) / 2, static_cast<double>(count) / 10);
    std::uniform_int_distribution<int64_t> anywhere(0, count - 1);
    std::vector<std::vector<int32_t>> out(static_cast<size_t>(batches));
    for (int b = 0; b < batches; ++b) {
        for (size_t k = 0; k < size; ++k) {
            const auto i = static_cast<int64_t>(std::lround(bell(rng)));
            out[static_cast<size_t>(b)].push_back(static_cast<int32_t>(std::clamp<int64_t>(i, 0, count - 1)));
        }
        if (b % 3 == 2) out[static_cast<size_t>(b)][size / 2] = static_cast<int32_t>(anywhere(rng));
    }
    return out;
}

}  // namespace

class TstIndexMarks : public QObject {
    Q_OBJECT

private slots:
    void marksEveryIndexSeen_data() {
        QTest::addColumn<qlonglong>("count");
        QTest::addColumn<int>("size");
        QTest::newRow("256, batches of 128 (a gathered row)") << 256LL << 128;
        QTest::newRow("258, batches of 16384 (a tile)") << 258LL << 16384;
        QTest::newRow("256, batches of 37 (tails)") << 256LL << 37;
        QTest::newRow("4096, the largest with a run") << 4096LL << 1000;
        QTest::newRow("65536, every index stored") << 65536LL << 16384;
    }
    void marksEveryIndexSeen() {
        QFETCH(qlonglong, count);
        QFETCH(int, size);
        IndexMarks marks(count);
        std::set<int64_t> expected;
        for (const auto& batch : bellBatches(count, 40, static_cast<size_t>(size), 7)) {
            marks.mark(batch.data(), static_cast<int64_t>(batch.size()));
            expected.insert(batch.begin(), batch.end());
            QCOMPARE(markedSet(marks), expected);  // after every batch
        }
        // The spare index (a NaN's slot) marks nothing.
        const int32_t spare[40] = {static_cast<int32_t>(count), static_cast<int32_t>(count)};
        marks.mark(spare, 40);  // zeros and two spares
        expected.insert(0);
        QCOMPARE(markedSet(marks), expected);
    }

    void marksCodesOfValuesThatAreNotNan() {
        for (int64_t count : {256LL, 65536LL}) {
            const int32_t lowest = count == 256 ? -128 : -32768;
            IndexMarks marks(count);
            std::set<int64_t> expected;
            bool sawOutside = false;
            int b = 0;
            for (const auto& batch : bellBatches(count, 30, 2000, 11)) {
                std::vector<int32_t> codes;
                std::vector<float> x;
                for (size_t k = 0; k < batch.size(); ++k) {
                    codes.push_back(batch[k] + lowest);
                    x.push_back(static_cast<float>(k));
                }
                // A NaN x never marks its code; a code outside the type is reported, not marked.
                x[100] = std::numeric_limits<float>::quiet_NaN();
                codes[100] = lowest + static_cast<int32_t>(count) - 1 - b;  // an edge code, only under NaN
                const bool plantOutside = b == 20;
                if (plantOutside) codes[7] = lowest + static_cast<int32_t>(count) + 5;
                const bool outside = marks.markCodes(x.data(), codes.data(), static_cast<int64_t>(codes.size()), lowest);
                QCOMPARE(outside, plantOutside);
                sawOutside = sawOutside || outside;
                for (size_t k = 0; k < codes.size(); ++k) {
                    const int64_t i = int64_t{codes[k]} - lowest;
                    if (!std::isnan(x[k]) && i >= 0 && i < count) expected.insert(i);
                }
                QCOMPARE(markedSet(marks), expected);
                ++b;
            }
            QVERIFY(sawOutside);
        }
    }

    void copiesMergeIntoTheUnion() {
        const auto batches = bellBatches(256, 24, 300, 3);
        IndexMarks all(256), one(256);
        IndexMarks parts[3] = {IndexMarks(256), IndexMarks(256), IndexMarks(256)};
        for (size_t b = 0; b < batches.size(); ++b) {
            one.mark(batches[b].data(), static_cast<int64_t>(batches[b].size()));
            parts[b % 3].mark(batches[b].data(), static_cast<int64_t>(batches[b].size()));
        }
        for (const IndexMarks& p : parts) all.merge(p);
        QCOMPARE(markedSet(all), markedSet(one));
        // A merged copy goes on marking correctly (its run now spans the merged marks).
        const int32_t late[3] = {0, 255, 17};
        all.mark(late, 3);
        std::set<int64_t> expected = markedSet(one);
        expected.insert({0, 255, 17});
        QCOMPARE(markedSet(all), expected);
    }

    void notTrackingMarksNothing() {
        IndexMarks none;
        QVERIFY(!none.tracking());
        const int32_t i[2] = {0, 1};
        const float x[2] = {0, 0};
        none.mark(i, 2);
        QVERIFY(!none.markCodes(x, i, 2, 0));
        IndexMarks other;
        none.merge(other);  // qint32's levels: neither side tracks
        QVERIFY(!none.tracking());
    }
};

QTEST_APPLESS_MAIN(TstIndexMarks)
#include "tst_index_marks.moc"
