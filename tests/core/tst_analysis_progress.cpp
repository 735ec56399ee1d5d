// Progress and cancellation of the long analyses (core/analysis/progress.h): each reports a
// fraction that starts at 0 or above, never goes down and ends at exactly 1, reports once per
// unit of work (so the bar moves in many steps, not 0 then 1), and gives the same numbers as
// without a callback; a callback that returns false stops the analysis within one unit and the
// result is an error of kind "Cancelled", never a partial result.
#include <QtTest>
#include <functional>
#include <vector>

#include "core/analysis/bit_sweep.h"
#include "core/analysis/calibration.h"
#include "core/analysis/clip_sweep.h"
#include "core/analysis/comparison.h"
#include "core/analysis/framework_compare.h"
#include "core/data/generators.h"
#include "tests/spec_builders.h"

using namespace qs;
using namespace qs::analysis;

namespace {

QuantSpec qdqSigned(int bits = 8) {
    return testing::qdqSpec(QuantOp::QuantizeAndDequantizeV2, bits, true, -1, -3, 3);
}

// Records every fraction; returns false from call number `stopAt` on (0: never).
struct Recorder {
    std::vector<double> fractions;
    size_t stopAt = 0;
    ProgressCallback callback() {
        return [this](double f) {
            fractions.push_back(f);
            return stopAt == 0 || fractions.size() < stopAt;
        };
    }
};

// Non-decreasing, within [0, 1], ending at 1, and at least `minSteps` distinct values.
void checkDeterminate(const std::vector<double>& f, size_t minSteps) {
    QVERIFY(!f.empty());
    QVERIFY(f.front() >= 0.0);
    for (size_t i = 1; i < f.size(); ++i) QVERIFY2(f[i] >= f[i - 1], qPrintable(QString::number(i)));
    QCOMPARE(f.back(), 1.0);
    size_t distinct = 1;
    for (size_t i = 1; i < f.size(); ++i) distinct += f[i] > f[i - 1];
    QVERIFY2(distinct >= minSteps, qPrintable(QStringLiteral("%1 distinct fractions").arg(distinct)));
}

// A callback that cancels after `stopAt` calls stops the analysis there: one more call at most.
template <typename Run>
void checkCancels(Run run, size_t total) {
    Recorder r;
    r.stopAt = total / 3;
    QVERIFY(r.stopAt >= 2);
    auto result = run(r.callback());
    QVERIFY(!result);
    QCOMPARE(QString::fromStdString(result.error().kind), QStringLiteral("Cancelled"));
    QVERIFY2(r.fractions.size() <= r.stopAt + 1, qPrintable(QString::number(r.fractions.size())));
    QVERIFY(r.fractions.back() < 0.6);  // stopped a third of the way, not at the end
}

}  // namespace

class TstAnalysisProgress : public QObject {
    Q_OBJECT

    data::Dataset data_ = data::normal(20'000, 7, 0, 1);

private slots:
    void bitSweepReportsEachWidth() {
        Recorder r;
        auto with = sweepBits(data_.values, qdqSigned(), 2, 16, DataKind::Other, {}, r.callback());
        auto without = sweepBits(data_.values, qdqSigned(), 2, 16, DataKind::Other);
        QVERIFY(with && without);
        checkDeterminate(r.fractions, 15);
        QCOMPARE(r.fractions.size(), size_t(16));  // before each of the 15 widths, and the end
        QCOMPARE(with->rows.size(), size_t(15));  // 2..16 bits
        QCOMPARE(with->rows.size(), without->rows.size());
        for (size_t i = 0; i < with->rows.size(); ++i) QCOMPARE(with->rows[i].mse, without->rows[i].mse);
        checkCancels([&](ProgressCallback cb) { return sweepBits(data_.values, qdqSigned(), 2, 16, DataKind::Other, {}, cb); },
                     r.fractions.size());
    }

    void clipSweepReportsEachAlpha() {
        Recorder r;
        auto with = computeClipAnalysis(data_.values, qdqSigned(4), {}, r.callback());
        auto without = computeClipAnalysis(data_.values, qdqSigned(4));
        QVERIFY(with && without);
        checkDeterminate(r.fractions, 200);  // the 200 grid points at least
        QCOMPARE(with->sweep.best_alpha, without->sweep.best_alpha);
        QCOMPARE(with->sweep.best_mse, without->sweep.best_mse);
        QCOMPARE(with->sweep.points.size(), without->sweep.points.size());
        checkCancels([&](ProgressCallback cb) { return computeClipAnalysis(data_.values, qdqSigned(4), {}, cb); },
                     r.fractions.size());
    }

    void calibrationReportsEachMethodsSteps() {
        Recorder r;
        const CalibrationOptions options;
        auto with = computeCalibration(data_.values, qdqSigned(), options, {}, r.callback());
        auto without = computeCalibration(data_.values, qdqSigned(), options);
        QVERIFY(with && without);
        checkDeterminate(r.fractions, 100);  // MSE-optimal's grid alone gives 100
        QCOMPARE(with->methods.size(), without->methods.size());
        for (size_t i = 0; i < with->methods.size(); ++i) {
            QCOMPARE(with->methods[i].min, without->methods[i].min);
            QCOMPARE(with->methods[i].max, without->methods[i].max);
        }
        checkCancels([&](ProgressCallback cb) { return computeCalibration(data_.values, qdqSigned(), options, {}, cb); },
                     r.fractions.size());
        // The KL search alone cancels too (its candidates are the long part for many bins).
        Recorder kl;
        kl.stopAt = 3;
        auto threshold = klThreshold(data_.values, 4096, 128, kl.callback());
        QVERIFY(!threshold);
        QCOMPARE(QString::fromStdString(threshold.error().kind), QStringLiteral("Cancelled"));
        QCOMPARE(kl.fractions.size(), size_t(3));
    }

    void comparisonReportsEachConfiguration() {
        const std::vector<QuantSpec> specs{qdqSigned(3), qdqSigned(4), qdqSigned(6), qdqSigned(8)};
        Recorder r;
        auto with = computeComparison(data_.ref(), specs, {}, r.callback());
        auto without = computeComparison(data_.ref(), specs);
        QVERIFY(with && without);
        checkDeterminate(r.fractions, 5);
        QCOMPARE(r.fractions, (std::vector<double>{0.0, 0.2, 0.4, 0.6, 0.8, 1.0}));
        for (size_t i = 0; i < specs.size(); ++i) QCOMPARE(with->entries[i].stats.mse, without->entries[i].stats.mse);
        checkCancels([&](ProgressCallback cb) { return computeComparison(data_.ref(), specs, {}, cb); }, 6);
    }

    void frameworkComparisonReportsEachSchemeAndPair() {
        const FrameworkSetup setup = frameworkSetupFor(qdqSigned(), -3.0f, 3.0f, true);  // six schemes
        Recorder r;
        auto with = compareFrameworks(data_.values, setup, r.callback());
        auto without = compareFrameworks(data_.values, setup);
        QVERIFY(with && without);
        QCOMPARE(r.fractions.size(), size_t(6 + 15 + 1));  // each run, each pair, the end
        checkDeterminate(r.fractions, 22);
        QCOMPARE(without->comparison.diffs.size(), size_t(15));  // the six schemes' pairs
        QCOMPARE(with->comparison.diffs.size(), without->comparison.diffs.size());
        for (size_t i = 0; i < without->comparison.diffs.size(); ++i)
            QCOMPARE(with->comparison.diffs[i].differing, without->comparison.diffs[i].differing);
        checkCancels([&](ProgressCallback cb) { return compareFrameworks(data_.values, setup, cb); }, r.fractions.size());
    }

    void noCallbackNeverCancels() {
        // An empty std::function is "no progress": nothing is called, nothing cancels.
        QVERIFY(sweepBits(data_.values, qdqSigned(), 2, 4, DataKind::Other, {}, ProgressCallback{}));
    }
};

QTEST_GUILESS_MAIN(TstAnalysisProgress)
#include "tst_analysis_progress.moc"
