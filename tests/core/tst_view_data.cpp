// What the bit-width sweep view and the bucket-occupancy view draw, computed in core: the
// curves and their bounds, the closed form the theory follows, the example row, the bars of
// an occupancy (clipped mass on the end buckets), the bucket under an x and the home range.
#include <QtTest>
#include <cmath>
#include <limits>
#include <vector>

#include "core/analysis/bit_sweep_view_data.h"
#include "core/embedding/occupancy_view_data.h"

using namespace qs;
using namespace qs::analysis;
using namespace qs::embedding;

namespace {

// Rows as a signed QDQ sweep of uniform data gives them: 2^b − 1 levels in range, theory
// 20·log10(2^b − 2), Δ = 2 / (2^b − 2).
BitSweep signedQdqSweep(DataKind kind, int from, int to) {
    BitSweep s;
    s.kind = kind;
    const double sine = kind == DataKind::Sine ? 10 * std::log10(1.5) : 0.0;
    for (int b = from; b <= to; ++b) {
        BitSweepRow r;
        r.bits = b;
        r.spec.op = QuantOp::QuantizeAndDequantizeV2;
        r.levels = int64_t{1} << b;
        r.levels_in_range = (int64_t{1} << b) - 1;
        r.step = 2.0 / (std::ldexp(1.0, b) - 2);
        r.theory_sqnr_db = 20 * std::log10(std::ldexp(1.0, b) - 2) + sine;
        r.sqnr_db = r.theory_sqnr_db - 0.05;
        r.mse = r.step * r.step / 12 * 1.01;
        s.rows.push_back(r);
    }
    return s;
}

// Buckets over [-1, 1].
BucketOccupancy occupancy(std::vector<int64_t> counts, int64_t below, int64_t above) {
    const auto n = static_cast<int64_t>(counts.size());
    return {.config = {n, -1.0, 1.0}, .counts = std::move(counts), .below = below, .above = above, .nan = 0,
            .total = 0, .empty_buckets = 0, .entropy_bits = 0, .centers = {}};
}

}  // namespace

class TstViewData : public QObject {
    Q_OBJECT
private slots:
    void bitSweepCurvesFollowTheRows() {
        BitSweep s = signedQdqSweep(DataKind::Uniform, 4, 6);
        s.rows[1].sqnr_db = std::numeric_limits<double>::infinity();  // a lossless width
        s.rows[2].mse = 0;
        const BitSweepCurves c = bitSweepCurves(s);
        QCOMPARE(c.bits, (std::vector<double>{4, 5, 6}));
        QCOMPARE(c.theory_mse[0], s.rows[0].step * s.rows[0].step / 12);
        QCOMPARE(c.textbook_sqnr_db[2], 20 * std::log10(64.0));
        // Bounds skip the infinite SQNR and the zero MSE.
        QCOMPARE(c.sqnr_lo, s.rows[0].sqnr_db);
        QCOMPARE(c.sqnr_hi, s.rows[2].theory_sqnr_db);
        QCOMPARE(c.mse_lo, c.theory_mse[2]);
        QCOMPARE(c.mse_hi, s.rows[0].mse);
        const BitSweepCurves none = bitSweepCurves(BitSweep{});
        QVERIFY(none.bits.empty() && none.sqnr_hi < none.sqnr_lo && none.mse_hi <= 0);
    }

    void textbookAddsTheSineBonus() {
        QCOMPARE(textbookSqnrDb(8, DataKind::Uniform), 20 * std::log10(256.0));
        QVERIFY(std::abs(textbookSqnrDb(8, DataKind::Sine) - (20 * std::log10(256.0) + 1.7609)) < 1e-4);
    }

    void theoryOffsetNamesTheClosedForm() {
        QCOMPARE(theoryLevelOffset(signedQdqSweep(DataKind::Uniform, 4, 8)), 2);  // 20·log10(2^b − 2)
        QCOMPARE(theoryLevelOffset(signedQdqSweep(DataKind::Sine, 4, 8)), 2);
        QCOMPARE(theoryLevelOffset(signedQdqSweep(DataKind::Other, 4, 8)), -1);  // measured power
        BitSweep off = signedQdqSweep(DataKind::Uniform, 4, 8);
        off.rows[2].theory_sqnr_db += 0.1;  // not the closed form
        QCOMPARE(theoryLevelOffset(off), -1);
        BitSweep mixed = signedQdqSweep(DataKind::Uniform, 4, 8);
        mixed.rows[3].levels_in_range += 1;  // a different k for one row
        QCOMPARE(theoryLevelOffset(mixed), -1);
        QCOMPARE(theoryLevelOffset(BitSweep{}), -1);
    }

    void exampleRowIsTheNearestToEightBits() {
        QCOMPARE(exampleRow(signedQdqSweep(DataKind::Uniform, 2, 16)).bits, 8);
        QCOMPARE(exampleRow(signedQdqSweep(DataKind::Uniform, 10, 12)).bits, 10);
        QCOMPARE(exampleRow(signedQdqSweep(DataKind::Uniform, 2, 5)).bits, 5);
        QVERIFY(!isTpuSweep(signedQdqSweep(DataKind::Uniform, 2, 5)));
        BitSweep tpu = signedQdqSweep(DataKind::Uniform, 2, 5);
        tpu.rows.front().spec.op = QuantOp::TpuSimulatedQuantization;
        QVERIFY(isTpuSweep(tpu));
        QVERIFY(!isTpuSweep(BitSweep{}));
    }

    void occupancyBarsPutTheClippedMassOnTheEndBuckets() {
        const BucketOccupancy o = occupancy({5, 2, 0, 7}, 3, 10);  // above > counts.back(): capped
        const OccupancyBars bars = occupancyBars(o);
        const double quantum = 2.0 / 3;  // lower + q · (upper − lower) / (num_buckets − 1)
        QCOMPARE(bars.centers, (std::vector<double>{-1, -1 + quantum, -1 + 2 * quantum, -1 + 3 * quantum}));
        QCOMPARE(bars.in_range, (std::vector<double>{2, 2, 0, 0}));
        QCOMPARE(bars.clipped, (std::vector<double>{3, 0, 0, 7}));
        QCOMPARE(bars.max_count, 7.0);
        QCOMPARE(occupancyBars(occupancy({0, 0}, 0, 0)).max_count, 1.0);
        // The float32 centers win over the formula when the occupancy has them.
        BucketOccupancy withCenters = o;
        withCenters.centers = {-1.0f, -0.25f, 0.25f, 1.0f};
        QCOMPARE(bucketCenter(withCenters, 1), -0.25);
        QCOMPARE(bucketCenter(withCenters, 3), 1.0);
    }

    void bucketUnderAnX() {
        const BucketOccupancy o = occupancy({1, 1, 1, 1, 1}, 0, 0);  // quantum 0.5
        QCOMPARE(bucketQuantum(o), 0.5);
        QCOMPARE(bucketAt(o, -1.0), std::optional<size_t>(0));
        QCOMPARE(bucketAt(o, -0.76), std::optional<size_t>(0));
        QCOMPARE(bucketAt(o, -0.74), std::optional<size_t>(1));
        QCOMPARE(bucketAt(o, 1.2), std::optional<size_t>(4));
        QVERIFY(!bucketAt(o, -1.3));
        QVERIFY(!bucketAt(o, 1.3));
        QVERIFY(!bucketAt(o, std::nan("")));
        QCOMPARE(bucketQuantum(occupancy({4}, 0, 0)), 1.0);
        QCOMPARE(percentOf(1, 4), 25.0);
        QCOMPARE(percentOf(1, 0), 0.0);
    }

    void homeRangeHoldsTheSuggestions() {
        const BucketOccupancy o = occupancy(std::vector<int64_t>(201, 1), 0, 0);  // quantum 0.01
        XRange r = occupancyXRange(o, {});
        QCOMPARE(r.lo, -1.08);  // 4 % of the width beats one quantum
        QCOMPARE(r.hi, 1.08);
        RangeSuggestion wide;
        wide.lower = -3;
        wide.upper = std::numeric_limits<double>::infinity();  // ignored
        r = occupancyXRange(o, {wide});
        QCOMPARE(r.lo, -3.08);
        QCOMPARE(r.hi, 1.08);
        const XRange coarse = occupancyXRange(occupancy({1, 1, 1}, 0, 0), {});  // quantum 1
        QCOMPARE(coarse.lo, -2.0);
        QCOMPARE(coarse.hi, 2.0);
    }
};

QTEST_APPLESS_MAIN(TstViewData)
#include "tst_view_data.moc"
