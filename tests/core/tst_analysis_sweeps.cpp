// The analysis sweeps against closed forms: SQNR of uniform data for the op's actual step,
// the ACIQ clipping optima (textbook table and TF's signed grid), the measured clipping
// optimum of Gaussian and Laplace data, and the calibration methods on data with known answers.
// Measured numbers are printed (qInfo) so a run documents them.
#include <QtTest>
#include <cmath>
#include <limits>
#include <vector>

#include "core/analysis/bit_sweep.h"
#include "core/analysis/calibration.h"
#include "core/analysis/clip_sweep.h"
#include "core/analysis/sweep_util.h"
#include "core/data/generators.h"
#include "tests/spec_builders.h"

using namespace qs;
using namespace qs::analysis;

namespace {

constexpr int64_t kSamples = 1'000'000;

QuantSpec qdqSigned(float lo = -1, float hi = 1) {
    return testing::qdqSpec(QuantOp::QuantizeAndDequantizeV2, 8, true, -1, lo, hi);
}

QuantSpec tpuSpec(float lo = -1, float hi = 1) {
    QuantSpec s;
    s.op = QuantOp::TpuSimulatedQuantization;
    s.min_range = lo;
    s.max_range = hi;
    return s;
}

QuantSpec quantizeV2Spec() { return QuantSpec{}; }  // qint8, MIN_COMBINED, [-1, 1]

double db(double x) { return 20.0 * std::log10(x); }

}  // namespace

class TstAnalysisSweeps : public QObject {
    Q_OBJECT

private slots:
    // Above a million values the clipping sweep and the MSE-optimal search run on a
    // deterministic sample: the optimum barely moves, statistics stay over all the data.
    void largeDataIsSearchedOnASample() {
        const auto big = data::normal(3'000'000, 5, 0, 1);
        std::vector<float> storage;
        const auto sample = searchSample(big.values, 1'000'000, storage);
        QCOMPARE(sample.size(), size_t(1'000'000));
        std::vector<float> again;
        QVERIFY(std::equal(sample.begin(), sample.end(), searchSample(big.values, 1'000'000, again).begin()));
        QCOMPARE(searchSample(big.values, 0, storage).size(), big.values.size());

        QuantSpec spec = qdqSigned();
        spec.num_bits = 4;
        auto sampled = sweepClip(big.values, spec);
        ClipSweepOptions all;
        all.max_samples = 0;
        auto full = sweepClip(big.values, spec, all);
        QVERIFY(sampled && full);
        QCOMPARE(sampled->samples_used, int64_t(1'000'000));
        QCOMPARE(full->samples_used, int64_t(3'000'000));
        QCOMPARE(sampled->max_abs, full->max_abs);
        QVERIFY2(std::abs(sampled->best_alpha / full->best_alpha - 1) < 0.01,
                 qPrintable(QString("%1 vs %2").arg(sampled->best_alpha).arg(full->best_alpha)));

        auto cal = calibrate(big.values, spec, {});
        QVERIFY(cal);
        QCOMPARE((*cal)[2].stats.count, int64_t(3'000'000));  // MSE-optimal: stats over all
    }

    void theoryFormulas() {
        // 2^8 levels end to end: Δ = range/255; uniform SQNR = 20 log10(255) = 48.130 dB.
        QCOMPARE(theorySqnrUniform(256), db(255));
        // The textbook 6.02·b: P = 1/3 (uniform on [-1, 1]), Δ = 2/2^b.
        QVERIFY(std::abs(theorySqnrDb(1.0 / 3, 2.0 / 256) - 8 * db(2)) < 1e-9);
        // A full-scale sine adds 10 log10(1.5) = 1.76 dB over uniform data.
        QVERIFY(std::abs(theorySqnrDb(0.5, 2.0 / 256) - (8 * db(2) + 10 * std::log10(1.5))) < 1e-9);
    }

    void uniformThroughSignedQdq() {
        const auto data = data::uniform(kSamples, 11, -1, 1);
        auto sweep = sweepBits(data.values, qdqSigned(), 4, 12, DataKind::Uniform);
        QVERIFY2(sweep.ok(), sweep.ok() ? "" : sweep.error().message.c_str());
        QCOMPARE(sweep->rows.size(), size_t{9});
        QCOMPARE(sweep->signal_power, 1.0 / 3);
        for (const BitSweepRow& r : sweep->rows) {
            const int b = r.bits;
            const double expected = db(std::ldexp(1.0, b) - 2);  // Δ = 1/(2^(b-1) - 1)
            qInfo("QDQ signed b=%2d  levels %lld in range %lld used %lld  step %.6g  mse %.6g  "
                  "sqnr %.4f  theory %.4f  20log10(2^b-2) %.4f  6.02b %.4f",
                  b, static_cast<long long>(r.levels), static_cast<long long>(r.levels_in_range),
                  static_cast<long long>(r.levels_used), r.step, r.mse, r.sqnr_db,
                  r.theory_sqnr_db, expected, b * db(2));
            QCOMPARE(r.spec.num_bits, int64_t{b});
            QCOMPARE(r.levels, int64_t{1} << b);
            QCOMPARE(r.levels_in_range, (int64_t{1} << b) - 1);
            QCOMPARE(r.levels_used, (int64_t{1} << b) - 1);  // -2^(b-1) lies below -1
            QVERIFY(std::abs(r.step - 1.0 / (std::ldexp(1.0, b - 1) - 1)) < 1e-6 * r.step);
            QVERIFY(std::abs(r.theory_sqnr_db - expected) < 1e-4);
            QVERIFY2(std::abs(r.sqnr_db - expected) < 0.2, qPrintable(QString::number(r.sqnr_db)));
        }
    }

    void uniformThroughTpuBuckets() {
        const auto data = data::uniform(kSamples, 12, -1, 1);
        auto sweep = sweepBits(data.values, tpuSpec(), 4, 12, DataKind::Uniform);
        QVERIFY(sweep.ok());
        for (const BitSweepRow& r : sweep->rows) {
            const int b = r.bits;
            // 2^b buckets at the range ends: Δ = 2/(2^b - 1), SQNR = 20 log10(2^b - 1), which
            // is 6.02·b + 20 log10(1 - 2^-b): -0.56 dB at b = 4, -0.28 at 5, -0.14 at 6.
            const double expected = db(std::ldexp(1.0, b) - 1);
            qInfo("TPU 2^%-2d buckets  sqnr %.4f  20log10(2^b-1) %.4f  6.02b %.4f  diff %.4f", b,
                  r.sqnr_db, expected, b * db(2), r.sqnr_db - b * db(2));
            QCOMPARE(r.spec.num_buckets, int64_t{1} << b);
            QCOMPARE(r.levels_in_range, int64_t{1} << b);
            QVERIFY(std::abs(r.theory_sqnr_db - expected) < 1e-4);
            QVERIFY(std::abs(r.sqnr_db - expected) < 0.2);
            if (b >= 6) QVERIFY(std::abs(r.sqnr_db - b * db(2)) < 0.2);
        }
        // At 4 bits the textbook line is visibly off: the op spreads 2^b levels end to end.
        QVERIFY(sweep->rows.front().sqnr_db - 4 * db(2) < -0.4);
    }

    void fullScaleSine() {
        const auto data = data::sine(kSamples, 1.0);
        auto sweep = sweepBits(data.values, qdqSigned(), 8, 8, DataKind::Sine);
        QVERIFY(sweep.ok());
        const BitSweepRow& r = sweep->rows.at(0);
        const double expected = db(254) + 10 * std::log10(1.5);  // 49.858 dB
        qInfo("sine QDQ 8 bit  sqnr %.4f  theory %.4f (6.02b+1.76 = %.4f)", r.sqnr_db,
              r.theory_sqnr_db, 8 * db(2) + 10 * std::log10(1.5));
        QCOMPARE(sweep->signal_power, 0.5);
        QVERIFY(std::abs(r.theory_sqnr_db - expected) < 1e-4);
        QVERIFY(std::abs(r.sqnr_db - expected) < 0.2);
    }

    void quantizeV2HasFixedWidths() {
        const auto data = data::uniform(100000, 13, -1, 1);
        auto sweep = sweepBits(data.values, quantizeV2Spec(), 2, 16, DataKind::Uniform);
        QVERIFY(sweep.ok());
        QCOMPARE(sweep->rows.size(), size_t{2});
        QCOMPARE(sweep->rows[0].bits, 8);
        QCOMPARE(sweep->rows[0].spec.T, QType::QInt8);
        QCOMPARE(sweep->rows[1].spec.T, QType::QInt16);
        QVERIFY(sweep->note.find("one row per type (qint8, qint16)") != std::string::npos);
        // MIN_COMBINED qint8 on [-1, 1]: 256 levels, Δ = 2/255.
        QCOMPARE(sweep->rows[0].levels_in_range, int64_t{256});
        QVERIFY(std::abs(sweep->rows[0].theory_sqnr_db - db(255)) < 1e-4);
        qInfo("QuantizeV2 qint8 sqnr %.4f theory %.4f; qint16 sqnr %.4f theory %.4f",
              sweep->rows[0].sqnr_db, sweep->rows[0].theory_sqnr_db, sweep->rows[1].sqnr_db,
              sweep->rows[1].theory_sqnr_db);
        QVERIFY(std::abs(sweep->rows[0].sqnr_db - db(255)) < 0.2);
        // Unsigned keeps unsigned; 4 bits does not exist.
        QuantSpec u = quantizeV2Spec();
        u.T = QType::QUInt8;
        QCOMPARE(specWithBits(u, 16)->T, QType::QUInt16);
        auto none = specWithBits(u, 4);
        QVERIFY(!none.ok());
        QCOMPARE(none.error().message,
                 std::string("QuantizeV2 has no 4-bit unsigned type (T is qint8, quint8, qint16, "
                             "quint16 or qint32)"));
        auto empty = sweepBits(data.values, quantizeV2Spec(), 2, 6);
        QVERIFY(!empty.ok());
        QCOMPARE(empty.error().message,
                 std::string("bit sweep: QuantizeV2 has no type of 2..6 bits (only 8, 16 and 32)"));
    }

    void bitSweepErrors() {
        const std::vector<float> none;
        auto e = sweepBits(none, qdqSigned());
        QVERIFY(!e.ok());
        QCOMPARE(e.error().kind, std::string("InvalidArgument"));
        QCOMPARE(e.error().message, std::string("bit sweep: the data has no values"));
        const float nan = std::numeric_limits<float>::quiet_NaN();
        const std::vector<float> nans{nan, nan};
        QCOMPARE(sweepBits(nans, qdqSigned()).error().message,
                 std::string("bit sweep: the data has no finite values"));
        const std::vector<float> some{0.5f, -0.25f};
        for (auto [lo, hi] : {std::pair{0, 4}, std::pair{5, 4}, std::pair{2, 33}})
            QCOMPARE(sweepBits(some, qdqSigned(), lo, hi).error().message,
                     "bit sweep: need 1 <= min_bits <= max_bits <= 32, got min_bits=" +
                         std::to_string(lo) + " max_bits=" + std::to_string(hi));
        QVERIFY(!specWithBits(qdqSigned(), 0).ok());
        QVERIFY(!specWithBits(tpuSpec(), 63).ok());
        // The op's own error comes through: a 1-bit QDQ is fine, an inverted range is not.
        auto inverted = sweepBits(some, qdqSigned(1, -1), 4, 4);
        QVERIFY(!inverted.ok());
        QCOMPARE(inverted.error().message, std::string("Invalid range: input_min 1 > input_max -1"));
    }

    void aciqClosedForms() {
        // The ACIQ formulas written out, against the generic one-tail form on the textbook grid.
        const int m = 4;
        const double a = 2.3, s = 1.3, b = 0.7;
        const double gran = a * a / (3 * std::pow(4.0, m));
        const double gauss = (s * s + a * a) * std::erfc(a / (s * std::sqrt(2.0))) -
                             a * s * std::sqrt(2 / M_PI) * std::exp(-a * a / (2 * s * s)) + gran;
        QVERIFY(std::abs(gaussianClipMse(a, s, textbookGrid(m)) - gauss) < 1e-15);
        QVERIFY(std::abs(laplaceClipMse(a, b, textbookGrid(m)) -
                         (2 * b * b * std::exp(-a / b) + gran)) < 1e-15);
        // One tail at 0 is half the second moment: σ²/2 and b² (Laplace: E x² = 2b²).
        QVERIFY(std::abs(gaussianTailMse(0, s) - s * s / 2) < 1e-15);
        QCOMPARE(laplaceTailMse(0, b), b * b);
        // Left of 0 the Laplace tail takes all of E[(X-c)^2] but the other tail.
        QVERIFY(std::abs(laplaceTailMse(-0.5, b) + laplaceTailMse(0.5, b) -
                         (2 * b * b + 0.25)) < 1e-15);
    }

    void textbookOptimalClipTable() {
        // Banner et al. (ACIQ), 2^M levels over [-α, α], M = 2..8.
        const double gauss[] = {1.711, 2.152, 2.559, 2.936, 3.287, 3.615, 3.924};
        const double lap[] = {2.831, 3.897, 5.029, 6.205, 7.413, 8.646, 9.897};
        // TF's signed QDQ grid (Δ = α/(2^(M-1)-1), one more level at -(α+Δ)), computed
        // independently with a Python golden-section search on the same closed form.
        const double tfGauss[] = {1.0537, 1.8212, 2.3784, 2.8352, 3.2308, 3.5843, 3.9074};
        const double tfLap[] = {1.6320, 3.2025, 4.6179, 5.9628, 7.2725, 8.5652, 9.8514};
        auto table = optimalClipTable(qdqSigned(), 2, 8);
        QVERIFY(table.ok());
        QCOMPARE(table->size(), size_t{7});
        for (size_t i = 0; i < 7; ++i) {
            const OptimalClipRow& r = (*table)[i];
            qInfo("M=%d  textbook a*/sigma %.4f a*/b %.4f   TF signed QDQ a*/sigma %.4f a*/b %.4f",
                  r.bits, r.textbook_gaussian, r.textbook_laplace, r.op_gaussian, r.op_laplace);
            QCOMPARE(r.bits, static_cast<int>(i) + 2);
            QVERIFY(std::abs(r.textbook_gaussian - gauss[i]) < 0.01);
            QVERIFY(std::abs(r.textbook_laplace - lap[i]) < 0.01);
            QVERIFY(std::abs(r.op_gaussian - tfGauss[i]) < 1e-3);
            QVERIFY(std::abs(r.op_laplace - tfLap[i]) < 1e-3);
        }
        // QuantizeV2 only has an 8-bit row in 2..8.
        auto v2 = optimalClipTable(quantizeV2Spec(), 7, 8);
        QVERIFY(v2.ok());
        QVERIFY(std::isnan((*v2)[0].op_gaussian));
        QVERIFY(std::isfinite((*v2)[1].op_gaussian));
        QVERIFY(!optimalClipTable(qdqSigned(), 3, 2).ok());
    }

    void clipGridsOfTheOps() {
        auto g = clipGridOf(specWithBits(qdqSigned(), 8).value());
        QVERIFY(g.ok());
        QVERIFY(std::abs(g->step - 1.0 / 127) < 1e-8);
        QCOMPARE(g->upper, 1.0);
        QVERIFY(std::abs(g->lower - 128.0 / 127) < 1e-6);
        QuantSpec narrow = qdqSigned();
        narrow.narrow_range = true;
        QVERIFY(std::abs(clipGridOf(narrow)->lower - 1.0) < 1e-6);
        QuantSpec unsignedQdq = qdqSigned();
        unsignedQdq.signed_input = false;
        QCOMPARE(clipGridOf(unsignedQdq)->lower, 0.0);  // negatives clip to 0
        QVERIFY(std::abs(clipGridOf(unsignedQdq)->step - 1.0 / 255) < 1e-8);
        auto tpu = clipGridOf(tpuSpec());
        QVERIFY(std::abs(tpu->step - 2.0 / 255) < 1e-8);
        QCOMPARE(tpu->lower, 1.0);
        auto v2 = clipGridOf(quantizeV2Spec());
        QVERIFY(std::abs(v2->step - 2.0 / 255) < 1e-6);
        QCOMPARE(v2->upper, 1.0);
        QCOMPARE(v2->lower, 1.0);
    }

    void gaussianClipOptimumMatchesClosedForm() {
        const auto data = data::normal(kSamples, 21, 0, 1);
        for (int b = 3; b <= 8; ++b) {
            auto spec = specWithBits(qdqSigned(), b);
            auto sweep = sweepClip(data.values, *spec);
            QVERIFY2(sweep.ok(), sweep.ok() ? "" : sweep.error().message.c_str());
            const double rel = sweep->best_alpha / sweep->gaussian_alpha - 1;
            // The closed form at the measured optimum, against the measured MSE there.
            const double closed = gaussianClipMse(sweep->best_alpha, sweep->sigma, sweep->grid);
            qInfo("QDQ signed b=%d  sigma %.5f  measured a* %.4f (mse %.6g)  closed-form a* %.4f "
                  "(%+.2f %%)  closed-form mse at measured a* %.6g  laplace-fit a* %.4f",
                  b, sweep->sigma, sweep->best_alpha, sweep->best_mse, sweep->gaussian_alpha,
                  100 * rel, closed, sweep->laplace_alpha);
            QCOMPARE(sweep->points.size(), size_t{200});
            QVERIFY(std::abs(rel) < 0.02);
            QVERIFY(std::abs(sweep->best_mse / closed - 1) < 0.05);
        }
    }

    void laplaceClipOptimumMatchesClosedForm() {
        const auto data = data::laplace(kSamples, 22, 0, 1);
        for (int b = 4; b <= 8; b += 2) {
            auto sweep = sweepClip(data.values, specWithBits(qdqSigned(), b).value());
            QVERIFY(sweep.ok());
            const double rel = sweep->best_alpha / sweep->laplace_alpha - 1;
            qInfo("Laplace QDQ signed b=%d  b-fit %.5f  measured a* %.4f  closed-form a* %.4f "
                  "(%+.2f %%)", b, sweep->laplace_b, sweep->best_alpha, sweep->laplace_alpha,
                  100 * rel);
            QVERIFY(std::abs(rel) < 0.03);
        }
    }

    void clipSweepErrors() {
        const std::vector<float> none, zeros{0, 0, 0}, some{1, -2, 3};
        QCOMPARE(sweepClip(none, qdqSigned()).error().message,
                 std::string("clip sweep: the data has no values"));
        QCOMPARE(sweepClip(zeros, qdqSigned()).error().message,
                 std::string("clip sweep: every finite value is 0, there is no range to clip"));
        ClipSweepOptions two;
        two.points = 2;
        QCOMPARE(sweepClip(some, qdqSigned(), two).error().message,
                 std::string("clip sweep: need 3..100000 points, got 2"));
        // A tiny sweep by hand: data {1, -2, 3}, 3 points → α = 1, 2, 3.
        ClipSweepOptions three;
        three.points = 3;
        auto s = sweepClip(some, specWithBits(qdqSigned(), 8).value(), three);
        QVERIFY(s.ok());
        QCOMPARE(s->points[0].alpha, 1.0);
        QCOMPARE(s->points[2].alpha, 3.0);
        // α = 1: 3 → 1 (error 2); -2 stays above -(1 + 1/127) → clipped to -128/127.
        const double e2 = -2.0 + 128.0 / 127;
        QVERIFY(std::abs(s->points[0].mse - (4.0 + e2 * e2) / 3) < 1e-6);
    }

    void hostileData() {
        // NaN is skipped like errorStats does; all-zero data and every op run without a crash.
        const float nan = std::numeric_limits<float>::quiet_NaN();
        const std::vector<float> withNan{1, nan, -2, 3}, without{1, -2, 3}, zeros{0, 0, 0, 0};
        ClipSweepOptions three;
        three.points = 3;
        const QuantSpec q8 = specWithBits(qdqSigned(), 8).value();
        QCOMPARE(sweepClip(withNan, q8, three)->points[0].mse,
                 sweepClip(without, q8, three)->points[0].mse);
        QCOMPARE(sweepBits(withNan, q8, 8, 8)->rows[0].mse, sweepBits(without, q8, 8, 8)->rows[0].mse);
        // ±inf with the range from the data: an infinite range holds every code, no more.
        const float inf = std::numeric_limits<float>::infinity();
        QuantSpec own = q8;
        own.range_given = false;
        const auto infinite = sweepBits(std::vector<float>{-inf, 1, -2, 3, inf}, own, 2, 16);
        QVERIFY(infinite.ok());
        for (const BitSweepRow& row : infinite->rows)
            QVERIFY2(row.levels_in_range >= 0 && row.levels_in_range <= row.levels,
                     qPrintable(QStringLiteral("%1 bits: %2 of %3 levels in range")
                                    .arg(row.bits).arg(row.levels_in_range).arg(row.levels)));
        ClipSweepOptions many;
        many.points = 100001;
        QCOMPARE(sweepClip(without, q8, many).error().message,
                 std::string("clip sweep: need 3..100000 points, got 100001"));
        for (QuantOp op : kAllQuantOps) {
            QuantSpec s = qdqSigned();
            s.op = op;
            s.round_mode = defaultRoundMode(op);
            QVERIFY(sweepBits(zeros, s, 8, 8).ok());
            auto c = calibrate(zeros, s);
            QVERIFY2(c.ok(), c.ok() ? "" : c.error().message.c_str());
            QCOMPARE((*c)[0].max, 0.0f);
            QVERIFY(calibrate(withNan, s).ok());
        }
    }

    void percentiles() {
        const std::vector<float> four{4, 1, 3, 2};
        QCOMPARE(*percentileOf(four, 50), 2.5);
        QCOMPARE(*percentileOf(four, 0), 1.0);
        QCOMPARE(*percentileOf(four, 100), 4.0);
        QVERIFY(std::abs(*percentileOf(four, 90) - 3.7) < 1e-12);  // rank 2.7
        QVERIFY(!percentileOf(four, 101).ok());
        const float nan = std::numeric_limits<float>::quiet_NaN();
        const std::vector<float> bad{nan, std::numeric_limits<float>::infinity()};
        QCOMPARE(percentileOf(bad, 50).error().message,
                 std::string("percentile: the data has no finite values"));
    }

    void calibrationOnKnownData() {
        // -1000, -999, ..., 1000. |x|: 0 once, then 1..1000 twice each, so the 99th
        // percentile of |x| (rank 0.99 * 2000 = 1980) is 990; of x, 980 and -980.
        std::vector<float> ramp;
        for (int i = -1000; i <= 1000; ++i) ramp.push_back(static_cast<float>(i));
        CalibrationOptions o;
        o.percentile = 99;
        auto sym = calibrate(ramp, specWithBits(qdqSigned(), 8).value(), o);
        QVERIFY(sym.ok());
        QCOMPARE(sym->size(), size_t{4});
        QCOMPARE((*sym)[0].method, CalibrationMethod::MinMax);
        QCOMPARE((*sym)[0].min, -1000.0f);
        QCOMPARE((*sym)[0].max, 1000.0f);
        QCOMPARE((*sym)[1].min, -990.0f);
        QCOMPARE((*sym)[1].max, 990.0f);
        QCOMPARE((*sym)[1].spec.min_range, -990.0f);
        QVERIFY((*sym)[1].spec.range_given);
        // Clipped against the range the op clamped to: signed QDQ widens the min side to
        // −990·128/127 = −997.8, so −1000..−998 and 991..1000 (13 values) are clipped.
        QVERIFY(std::abs((*sym)[1].stats.fraction_clipped - 13.0 / 2001) < 1e-12);
        o.symmetric = false;
        auto asym = calibrate(ramp, specWithBits(qdqSigned(), 8).value(), o);
        QCOMPARE((*asym)[1].min, -980.0f);
        QCOMPARE((*asym)[1].max, 980.0f);
    }

    void calibrationOfGaussianData() {
        const auto data = data::normal(kSamples, 31, 0, 1);
        float lo = data.values[0], hi = data.values[0];
        for (float v : data.values) {
            lo = std::min(lo, v);
            hi = std::max(hi, v);
        }
        for (bool symmetric : {true, false}) {
            CalibrationOptions o;
            o.symmetric = symmetric;
            auto c = calibrate(data.values, qdqSigned(), o);
            QVERIFY(c.ok());
            for (const Calibration& k : *c)
                qInfo("%s %s: [%.5f, %.5f]  mse %.6g  sqnr %.3f dB  clipped %.3g %s",
                      symmetric ? "sym " : "asym", calibrationMethodName(k.method).data(), k.min,
                      k.max, k.stats.mse, k.stats.sqnr_db, k.stats.fraction_clipped,
                      k.note.c_str());
            QCOMPARE((*c)[0].min, lo);
            QCOMPARE((*c)[0].max, hi);
            QVERIFY((*c)[2].stats.mse <= (*c)[0].stats.mse);
            QVERIFY((*c)[2].stats.mse <= (*c)[1].stats.mse);
            QVERIFY((*c)[2].stats.mse < 0.8 * (*c)[0].stats.mse);  // clipping pays at 8 bits
            // 99.99th percentile of |N(0,1)| is 3.8906; of N(0,1), 3.7190.
            QVERIFY(std::abs((*c)[1].max - (symmetric ? 3.8906 : 3.7190)) < 0.05);
            // The MSE optimum for the 8-bit grid is near the closed form's 3.907 σ.
            QVERIFY(std::abs((*c)[2].max - 3.907) < 0.1);
            // KL (TensorRT entropy calibration, 128 quantized bins) clips only the sparse
            // tail of 1e6 Gaussian samples: a pure-Python rewrite of MXNet's
            // _get_optimal_threshold on |x| gave 4.534 = 0.932 max|x| on another N(0,1) draw
            // of 1e6 (max|x| 4.863); here 4.557 = 0.935 max|x|.
            QCOMPARE((*c)[3].min, -(*c)[3].max);
            QVERIFY((*c)[3].max > 0.9 * std::max(-lo, hi) && (*c)[3].max < std::max(-lo, hi));
            QVERIFY((*c)[3].stats.fraction_clipped < 1e-4);
        }
    }

    void klThresholdShrinksWithFewerLevels() {
        // Fewer quantized bins make coarse merging cost more than clipping: the threshold
        // moves in (4 bits: 8 bins, 6 bits: 32, 8 bits: 128).
        const auto data = data::normal(kSamples, 31, 0, 1);
        double previous = 0;
        for (int target : {8, 32, 128}) {
            auto t = klThreshold(data.values, 2048, target);
            QVERIFY(t.ok());
            qInfo("KL threshold N(0,1), 1e6 samples, %3d quantized bins: %.4f", target, *t);
            QVERIFY(*t > previous);
            previous = *t;
        }
    }

    void klThresholdCases() {
        // |x| uniform: every clipped candidate piles its outliers into one spike that the
        // merged Q cannot follow, so the widest candidate (i = bins − 1) wins:
        // threshold = (2047 + 0.5) / 2048 · max|x|.
        const auto u = data::uniform(200000, 41, -2, 2);
        double top = 0;
        for (float v : u.values) top = std::max(top, std::fabs(static_cast<double>(v)));
        auto t = klThreshold(u.values, 2048, 128);
        QVERIFY(t.ok());
        QVERIFY(std::abs(*t - 2047.5 / 2048 * top) < 1e-9);
        // More quantized bins than histogram bins: no candidate, max|x|.
        QCOMPARE(*klThreshold(u.values, 64, 128), top);
        QVERIFY(!klThreshold(u.values, 2048, 1).ok());
        QCOMPARE(klThreshold(u.values, 1, 128).error().message,
                 std::string("KL calibration: histogram bins must be in 2..65536, got 1"));
        // A 16-bit op at 2048 bins: noted, range ±max|x|.
        auto c = calibrate(u.values, specWithBits(qdqSigned(), 16).value());
        QVERIFY(c.ok());
        QVERIFY(!(*c)[3].note.empty());
        QCOMPARE(static_cast<double>((*c)[3].max), static_cast<double>(static_cast<float>(top)));
    }

    void calibrationErrors() {
        const std::vector<float> none, some{1, 2};
        QCOMPARE(calibrate(none, qdqSigned()).error().message,
                 std::string("calibration: the data has no values"));
        CalibrationOptions o;
        o.percentile = 0;
        QCOMPARE(calibrate(some, qdqSigned(), o).error().message,
                 std::string("calibration: percentile must be in (0, 100], got 0.000000"));
        o.percentile = 99;
        o.bins = 1;
        QCOMPARE(calibrate(some, qdqSigned(), o).error().message,
                 std::string("calibration: histogram bins must be in 2..65536, got 1"));
    }
};

QTEST_GUILESS_MAIN(TstAnalysisSweeps)
#include "tst_analysis_sweeps.moc"
