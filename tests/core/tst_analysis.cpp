// Error statistics and histograms against hand-computed values, NaN handling, errors, and a
// 10M-sample run that must stay fast.
#include <QElapsedTimer>
#include <QtTest>
#include <cmath>
#include <cstring>
#include <limits>
#include <set>
#include <vector>

#include "core/analysis/error_stats.h"
#include "core/analysis/histogram.h"
#include "core/analysis/quant_spec.h"

using namespace qs::analysis;

class TstAnalysis : public QObject {
    Q_OBJECT

private slots:
    // Per channel with ranges from the data means each slice's own min/max, also when the
    // axis has size 1 (one slice): the given range, which the form disables then, is not used.
    // (It was: QuantizeV2 on a [1, 3, 3, 8] kernel along axis 0 quantized into [-3, 3].)
    void rangesFromDataAlongAnAxisOfSizeOne() {
        const std::vector<float> x{-0.5f, 0.25f, 0.1f, 0.4f, -0.2f, 0.3f};
        std::vector<float> y(x.size());
        qs::QuantSpec spec;
        spec.op = qs::QuantOp::QuantizeV2;
        spec.mode = qs::QuantizeMode::Scaled;
        spec.ensure_minimum_range = 0;
        spec.axis = 0;
        spec.range_source = qs::RangeSource::FromData;
        spec.min_range = -3;
        spec.max_range = 3;
        auto run = qs::applySpec(spec, {x, qs::Shape{1, 6}}, y);
        QVERIFY(run.ok());
        QCOMPARE(run->slices.size(), size_t{1});
        QCOMPARE(run->slices[0].requested_min, -0.5f);
        QCOMPARE(run->slices[0].requested_max, 0.4f);
        QCOMPARE(run->slices[0].output_min, -0.5f);  // SCALED from [-0.5, 0.4], not from [-3, 3]
    }

    // applySpec runs QuantizeV2 + Dequantize with scalar ranges tile by tile: every mode,
    // type and round mode gives the bits of the two ops run once over the whole tensor, for
    // any thread count, with a length that is no multiple of a tile; a range the op refuses
    // gives the op's own error.
    void quantizeV2TilesEqualTheWholeTensor() {
        std::vector<float> x(100'003);
        uint32_t h = 12345;
        for (float& v : x) {
            h = h * 1664525u + 1013904223u;
            v = (static_cast<float>(h >> 8) / 16777216.0f - 0.5f) * 7.0f;
        }
        x[7] = std::numeric_limits<float>::quiet_NaN();
        x[99'999] = std::numeric_limits<float>::infinity();
        const qs::QuantizeMode modes[] = {qs::QuantizeMode::MinCombined, qs::QuantizeMode::MinFirst,
                                          qs::QuantizeMode::Scaled};
        const qs::QType types[] = {qs::QType::QInt8, qs::QType::QUInt8, qs::QType::QInt16, qs::QType::QUInt16,
                                   qs::QType::QInt32};
        const qs::RoundMode rounds[] = {qs::RoundMode::HalfAwayFromZero, qs::RoundMode::HalfToEven};
        int compared = 0;
        for (auto mode : modes)
            for (auto type : types)
                for (auto round : rounds) {
                    qs::QuantSpec spec;
                    spec.op = qs::QuantOp::QuantizeV2;
                    spec.mode = mode;
                    spec.T = type;
                    spec.round_mode = round;
                    spec.min_range = -2.5f;
                    spec.max_range = 3.25f;
                    // Whole tensor: the two ops, as applySpec ran them before the tiles.
                    std::vector<int32_t> codes(x.size());
                    std::vector<float> expected(x.size());
                    const qs::TensorRef<float> in{x, qs::Shape{int64_t(x.size())}};
                    const std::vector<float> lo{spec.min_range}, hi{spec.max_range};
                    const auto q = qs::quantizeV2<int32_t>(in, {lo, qs::Shape{}}, {hi, qs::Shape{}},
                                                           qs::quantizeV2Attrs(spec), codes, qs::Exec{1});
                    if (!q) {  // e.g. a round mode TF refuses for the mode: applySpec says the same
                        std::vector<float> y(x.size());
                        const auto run = qs::applySpec(spec, in, y, {}, qs::Exec{2});
                        QVERIFY(!run);
                        QCOMPARE(run.error().message, q.error().message);
                        continue;
                    }
                    QVERIFY(qs::dequantize<int32_t>({codes, in.shape}, {q->output_min, qs::Shape{}},
                                                    {q->output_max, qs::Shape{}}, qs::dequantizeAttrs(spec),
                                                    expected, qs::Exec{1}).ok());
                    for (int threads : {1, 2, 8}) {
                        std::vector<float> y(x.size(), -7.0f);
                        const auto run = qs::applySpec(spec, in, y, {}, qs::Exec{threads}, /*tellLevels=*/true);
                        QVERIFY(run.ok());
                        QVERIFY2(std::memcmp(y.data(), expected.data(), y.size() * sizeof(float)) == 0,
                                 qPrintable(QStringLiteral("mode %1 type %2 threads %3")
                                                .arg(int(mode)).arg(int(type)).arg(threads)));
                        // The levels used, told by the codes on the way for 16 bits or fewer.
                        QCOMPARE(run->output_levels.has_value(), qs::qtypeInfo(type).bits <= 16);
                        if (run->output_levels)
                            QCOMPARE(int64_t(run->output_levels->size()), distinctPairOutputs(x, expected));
                        ++compared;
                    }
                    // Not asked for, not told (the other callers skip the marks).
                    std::vector<float> y(x.size());
                    QVERIFY(!qs::applySpec(spec, in, y, {}, qs::Exec{2})->output_levels);
                }
        QVERIFY(compared >= 3 * 15);  // most combinations run (TF refuses only some round modes)
    }

    // For 8-bit types the tiles skip the codes inside the longest run already marked: a code
    // first seen late and alone (past the run, or after the run's tiles) still counts, and a
    // NaN in a late tile does not.
    void quantizeV2LevelsCountCodesFirstSeenLate() {
        constexpr size_t kTile = 16384;
        std::vector<float> x(5 * kTile + 17);
        for (size_t i = 0; i < x.size(); ++i)  // a dense band, x in [-1, 1]: codes -42..42 (SCALED qint8)
            x[i] = static_cast<float>(static_cast<int>(i % 2001) - 1000) / 1000.0f;
        x[4 * kTile + 5] = 2.9f;   // code 123
        x[4 * kTile + 100] = -2.7f;  // code -114
        x[4 * kTile + 7] = 1.5f;   // code 64
        x[x.size() - 3] = std::numeric_limits<float>::quiet_NaN();
        x.back() = 1.9f;  // code 80, in the last, short tile
        const qs::TensorRef<float> in{x, qs::Shape{int64_t(x.size())}};
        for (auto type : {qs::QType::QInt8, qs::QType::QUInt8})
            for (auto mode : {qs::QuantizeMode::Scaled, qs::QuantizeMode::MinCombined}) {
                qs::QuantSpec spec;
                spec.op = qs::QuantOp::QuantizeV2;
                spec.T = type;
                spec.mode = mode;
                spec.min_range = -3.0f;
                spec.max_range = 3.0f;
                for (int threads : {1, 2, 8}) {
                    std::vector<float> y(x.size());
                    const auto run = qs::applySpec(spec, in, y, {}, qs::Exec{threads}, /*tellLevels=*/true);
                    QVERIFY(run.ok());
                    QVERIFY(run->output_levels.has_value());
                    QCOMPARE(int64_t(run->output_levels->size()), distinctPairOutputs(x, y));
                    if (type == qs::QType::QInt8 && mode == qs::QuantizeMode::Scaled)
                        QCOMPARE(run->output_levels->size(), size_t(85 + 4));  // the band and the four late codes
                }
            }
    }

    void statsHandComputed() {
        // e = x - y = [0, 0, 0, -1]: sum e^2 = 1, sum x^2 = 30, sum y^2 = 39, sum xy = 34.
        const std::vector<float> x{1, 2, 3, 4}, y{1, 2, 3, 5};
        auto r = errorStats(x, y, ClipRange{1.5, 3.5});
        QVERIFY(r.ok());
        const ErrorStats& s = *r;
        QCOMPARE(s.count, int64_t{4});
        QCOMPARE(s.nan_pairs, int64_t{0});
        QCOMPARE(s.mse, 0.25);
        QCOMPARE(s.rmse, 0.5);
        QCOMPARE(s.max_abs_error, 1.0);
        QCOMPARE(s.mean_error, -0.25);
        QCOMPARE(s.sqnr_db, 10.0 * std::log10(30.0));  // 14.771212547196624
        QCOMPARE(s.cosine, 34.0 / (std::sqrt(30.0) * std::sqrt(39.0)));
        QCOMPARE(s.fraction_clipped, 0.5);  // 1 and 4 lie outside [1.5, 3.5]
        QCOMPARE(s.distinct_levels, int64_t{4});
        // Without a range nothing counts as clipped.
        QCOMPARE(errorStats(x, y)->fraction_clipped, 0.0);
    }

    void statsNaNAndEdgeCases() {
        const float nan = std::numeric_limits<float>::quiet_NaN();
        const std::vector<float> x{1, nan, 2, 3}, y{1, 5, nan, 3};
        auto s = *errorStats(x, y);
        QCOMPARE(s.count, int64_t{2});
        QCOMPARE(s.nan_pairs, int64_t{2});
        QCOMPARE(s.mse, 0.0);
        QVERIFY(std::isinf(s.sqnr_db) && s.sqnr_db > 0);  // lossless -> +inf
        QCOMPARE(s.cosine, 1.0);
        QCOMPARE(s.distinct_levels, int64_t{2});
        // Nothing usable: means are NaN.
        const std::vector<float> a{nan}, b{0};
        auto e = *errorStats(a, b);
        QCOMPARE(e.count, int64_t{0});
        QVERIFY(std::isnan(e.mse) && std::isnan(e.sqnr_db) && std::isnan(e.cosine));
        // All-zero output: cosine undefined.
        const std::vector<float> z{0, 0}, one{1, -1};
        QVERIFY(std::isnan(errorStats(one, z)->cosine));
        QCOMPARE(errorStats(one, z)->sqnr_db, 0.0);  // signal power == error power
        // Lengths must match.
        const std::vector<float> three{1, 2, 3};
        auto bad = errorStats(three, z);
        QVERIFY(!bad.ok());
        QCOMPARE(bad.error().kind, std::string("InvalidArgument"));
    }

    void distinctLevels() {
        const float nan = std::numeric_limits<float>::quiet_NaN();
        const std::vector<float> v{0.0f, -0.0f, 1.0f, 1.0f, nan, -2.5f, INFINITY, -2.5f};
        QCOMPARE(distinctValues(v), int64_t{4});  // 0, 1, -2.5, inf
        QCOMPARE(distinctValues(std::vector<float>{}), int64_t{0});
        // Against std::set on values whose bit patterns exercise every radix digit.
        std::vector<float> many;
        std::set<float> ref;
        uint32_t s = 7;
        for (int i = 0; i < 200000; ++i) {
            s = s * 1664525u + 1013904223u;
            const float f = static_cast<float>(static_cast<int32_t>(s) >> 12) / 64.0f;
            many.push_back(f);
            ref.insert(f == 0.0f ? 0.0f : f);
        }
        QCOMPARE(distinctValues(many), static_cast<int64_t>(ref.size()));
    }

    void histogramHandComputed() {
        const float nan = std::numeric_limits<float>::quiet_NaN();
        const std::vector<float> v{-1, 0, 0.25f, 0.5f, 0.99f, 1, nan, INFINITY, -INFINITY, 0.74f};
        auto r = histogram(v, 0.0, 1.0, 4);
        QVERIFY(r.ok());
        const Histogram& h = *r;
        QCOMPARE(h.counts, (std::vector<int64_t>{1, 1, 2, 1}));  // 0 | .25 | .5 .74 | .99
        QCOMPARE(h.underflow, int64_t{2});  // -1, -inf
        QCOMPARE(h.overflow, int64_t{2});   // 1 (hi is excluded), +inf
        QCOMPARE(h.nan_count, int64_t{1});
        QCOMPARE(h.inRange(), int64_t{5});
        QCOMPARE(h.bins(), 4);
        QCOMPARE(h.edge(0), 0.0);
        QCOMPARE(h.edge(1), 0.25);
        QCOMPARE(h.edge(4), 1.0);
        QCOMPARE(h.center(0), 0.125);
        QCOMPARE(h.center(3), 0.875);
        QCOMPARE(h.binWidth(), 0.25);
        // The read-out's bin of a plot point: -1 off the bins, however far (no int overflow).
        QCOMPARE(h.binAt(0.0), 0);
        QCOMPARE(h.binAt(0.3), 1);
        QCOMPARE(h.binAt(0.9999), 3);
        QCOMPARE(h.binAt(1.0), -1);
        QCOMPARE(h.binAt(-0.01), -1);
        QCOMPARE(h.binAt(1e300), -1);
        QCOMPARE(h.binAt(-1e300), -1);
        QCOMPARE(h.binAt(std::numeric_limits<double>::quiet_NaN()), -1);
    }

    void histogramErrors() {
        const std::vector<float> v{1};
        QVERIFY(!histogram(v, 0, 1, 0).ok());
        QVERIFY(!histogram(v, 1, 1, 4).ok());
        QVERIFY(!histogram(v, 2, 1, 4).ok());
        QVERIFY(!histogram(v, 0, INFINITY, 4).ok());
        QCOMPARE(histogram(v, 0, 1, 0).error().kind, std::string("InvalidArgument"));
        // The value just below hi lands in the last bin even when the scaling rounds up.
        const std::vector<float> top{std::nextafter(1.0f, 0.0f)};
        QCOMPARE(histogram(top, 0, 1, 3)->counts.back(), int64_t{1});
    }

    void tenMillionSamplesAreFast() {
        const size_t n = 10'000'000;
        std::vector<float> x(n), y(n);
        uint32_t s = 1;
        for (size_t i = 0; i < n; ++i) {
            s = s * 1664525u + 1013904223u;
            x[i] = static_cast<float>(s >> 8) / 16777216.0f * 2.0f - 1.0f;
            y[i] = std::round(x[i] * 127.0f) / 127.0f;  // 255 levels
        }
        QElapsedTimer t;
        t.start();
        auto st = errorStats(x, y, ClipRange{-1, 1});
        auto h = histogram(x, -1, 1, 256);
        const qint64 ms = t.elapsed();
        QVERIFY(st.ok() && h.ok());
        QCOMPARE(st->count, int64_t(n));
        QCOMPARE(st->distinct_levels, int64_t{255});
        QCOMPARE(h->inRange(), int64_t(n));
        QVERIFY(st->max_abs_error <= 0.5 / 127 + 1e-7);
        qInfo("error stats + histogram on 10M samples: %lld ms", ms);
        QVERIFY2(ms < 5000, "10M samples should take well under a few seconds");
    }
};

QTEST_GUILESS_MAIN(TstAnalysis)
#include "tst_analysis.moc"
