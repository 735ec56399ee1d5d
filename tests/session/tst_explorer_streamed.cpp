// The explorer's result on a data set streamed from a file larger than the memory budget
// equals, field for field and bit for bit, the result on the same values in memory: every
// op, per tensor and per channel, ranges given and from the data, NaN, infinities and signed
// zeros in the data, 1 and 2 threads. What runs is computeExplorerOn (ui/compute), the one
// call ComputeService makes, so this holds whichever streamed pass it calls. Widget-free.
#include <QTemporaryDir>
#include <QtTest>
#include <bit>
#include <cmath>
#include <limits>
#include <random>

#include "session/explorer/data_service.h"
#include "session/explorer/explorer_on_dataset.h"

using namespace qs::ui;

namespace {

constexpr int64_t kRows = 131'101, kCols = 8;  // 1,048,808 values: 4 MB, over a 1 MB budget

std::vector<float> awkwardValues() {
    std::mt19937 rng(17);
    std::normal_distribution<float> normal(0.1f, 0.7f);
    std::vector<float> v(static_cast<size_t>(kRows * kCols));
    for (size_t i = 0; i < v.size(); ++i) v[i] = normal(rng) * (1.0f + static_cast<float>(i % kCols));
    const float inf = std::numeric_limits<float>::infinity();
    for (size_t i : {size_t{3}, size_t{100'000}, v.size() - 1}) v[i] = std::numeric_limits<float>::quiet_NaN();
    v[7] = inf, v[12'345] = -inf, v[50] = -0.0f, v[51] = 0.0f, v[999'999] = 3e38f;
    return v;
}

bool writeNpyFile(const QString& path, const std::vector<float>& v) {
    QByteArray header = QStringLiteral("{'descr': '<f4', 'fortran_order': False, 'shape': (%1, %2), }")
                            .arg(kRows).arg(kCols).toLatin1();
    while ((10 + header.size() + 1) % 64 != 0) header += ' ';
    header += '\n';
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly)) return false;
    f.write("\x93NUMPY\x01\x00", 8);
    const char len[2] = {static_cast<char>(header.size() & 0xff), static_cast<char>(header.size() >> 8)};
    f.write(len, 2);
    f.write(header);
    return f.write(reinterpret_cast<const char*>(v.data()), static_cast<qint64>(v.size() * 4)) ==
           static_cast<qint64>(v.size() * 4);
}

// Same bits (NaN equals NaN of the same payload; -0 differs from +0).
template <typename T>
bool same(T a, T b) {
    if constexpr (std::is_same_v<T, double>) return std::bit_cast<uint64_t>(a) == std::bit_cast<uint64_t>(b);
    else if constexpr (std::is_same_v<T, float>) return std::bit_cast<uint32_t>(a) == std::bit_cast<uint32_t>(b);
    else return a == b;
}
template <typename T>
bool same(const std::vector<T>& a, const std::vector<T>& b) {
    if (a.size() != b.size()) return false;
    for (size_t i = 0; i < a.size(); ++i)
        if (!same(a[i], b[i])) return false;
    return true;
}

QString differences(const qs::analysis::ExplorerResult& s, const qs::analysis::ExplorerResult& m) {
    QStringList d;
    auto check = [&d](bool ok, const char* what) {
        if (!ok) d << QLatin1String(what);
    };
    auto stats = [&](const qs::analysis::ErrorStats& a, const qs::analysis::ErrorStats& b, const char* what) {
        check(a.count == b.count && a.nan_pairs == b.nan_pairs && same(a.mse, b.mse) && same(a.rmse, b.rmse) &&
                  same(a.max_abs_error, b.max_abs_error) && same(a.mean_error, b.mean_error) &&
                  same(a.sqnr_db, b.sqnr_db) && same(a.cosine, b.cosine) &&
                  same(a.fraction_clipped, b.fraction_clipped) && a.distinct_levels == b.distinct_levels,
              what);
    };
    auto hist = [&](const qs::analysis::Histogram& a, const qs::analysis::Histogram& b, const char* what) {
        check(same(a.lo, b.lo) && same(a.hi, b.hi) && a.counts == b.counts && a.underflow == b.underflow &&
                  a.overflow == b.overflow && a.nan_count == b.nan_count,
              what);
    };
    stats(s.stats, m.stats, "stats");
    check(same(s.data_min, m.data_min) && same(s.data_max, m.data_max), "data range");
    hist(s.data_hist, m.data_hist, "data histogram");
    hist(s.error_hist, m.error_hist, "error histogram");
    check(same(s.clip_lo, m.clip_lo) && same(s.clip_hi, m.clip_hi), "clip points");
    check(s.clipped_below == m.clipped_below && s.clipped_above == m.clipped_above, "clipped counts");
    check(same(s.step, m.step) && same(s.error_span, m.error_span), "step");
    check(same(s.error_uniform_counts, m.error_uniform_counts), "uniform error counts");
    check(same(s.curve.x, m.curve.x) && same(s.curve.code, m.curve.code) && same(s.curve.output, m.curve.output) &&
              s.curve_channel == m.curve_channel,
          "transfer curve");
    check(s.run.slices.size() == m.run.slices.size(), "slices");
    check(s.channels.size() == m.channels.size(), "channel count");
    for (size_t c = 0; c < std::min(s.channels.size(), m.channels.size()); ++c) {
        const auto &a = s.channels[c], &b = m.channels[c];
        check(same(a.data_min, b.data_min) && same(a.data_max, b.data_max) && a.clipped == b.clipped &&
                  same(a.quant.output_min, b.quant.output_min) && same(a.quant.output_max, b.quant.output_max) &&
                  same(a.quant.scale, b.quant.scale),
              "channel summary");
        stats(a.stats, b.stats, "channel stats");
    }
    d.removeDuplicates();
    return d.join(QStringLiteral(", "));
}

}  // namespace

class TstExplorerStreamed : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        values_ = awkwardValues();
        path_ = dir_.filePath(QStringLiteral("awkward.npy"));
        QVERIFY(writeNpyFile(path_, values_));
        DataSource source;
        source.path = path_;
        auto streamed = DataService::loadNow(source, {}, int64_t{1} << 20);
        QVERIFY(streamed.ok());
        streamed_ = *streamed;
        QVERIFY(streamed_->streamed());
        auto memory = DataService::loadNow(source);
        QVERIFY(memory.ok() && !(*memory)->streamed());
        memory_ = *memory;
    }

    void sameResultAsInMemory_data() {
        QTest::addColumn<qs::QuantSpec>("spec");
        QTest::addColumn<int>("threads");
        QTest::addColumn<bool>("valid");
        auto add = [](const char* name, qs::QuantSpec s, bool valid = true) {
            for (int threads : {1, 2}) QTest::addRow("%s, %d thread(s)", name, threads) << s << threads << valid;
        };
        qs::QuantSpec s;
        add("QuantizeV2 MIN_COMBINED per tensor", s);
        s.mode = qs::QuantizeMode::MinFirst;
        s.min_range = -3, s.max_range = 5;
        add("QuantizeV2 MIN_FIRST", s);
        s = {};
        s.mode = qs::QuantizeMode::Scaled;
        s.axis = 1;
        s.range_source = qs::RangeSource::FromData;
        add("QuantizeV2 SCALED per channel from data", s);
        s = {};
        s.op = qs::QuantOp::QuantizeAndDequantizeV2;
        s.round_mode = qs::defaultRoundMode(s.op);
        s.range_given = false;
        s.num_bits = 4;
        add("QDQ V2 4 bits range from data", s);
        s = {};
        s.op = qs::QuantOp::QuantizeAndDequantizeV4;
        s.round_mode = qs::RoundMode::HalfUp;
        s.axis = 1;
        s.range_given = false;  // per channel: each slice's own range
        add("QDQ V4 HALF_UP per channel from data", s);
        s = {};
        s.op = qs::QuantOp::TpuSimulatedQuantization;
        s.num_buckets = 100;
        s.min_range = -1.5f, s.max_range = 0.5f;
        add("TPU 100 buckets", s);
        s = {};
        s.round_mode = qs::RoundMode::HalfToEven;  // QuantizeV2 refuses it outside SCALED
        add("an op error", s, false);
    }

    void sameResultAsInMemory() {
        QFETCH(qs::QuantSpec, spec);
        QFETCH(int, threads);
        QFETCH(bool, valid);
        qs::analysis::ExplorerOptions options;
        options.exec = qs::Exec{threads};
        options.channel = spec.axis >= 0 ? 3 : 0;
        int progressCalls = 0;
        double last = 0;
        bool monotonic = true;
        auto streamed = computeExplorerOn(spec, *streamed_, options, [&](double f) {
            monotonic &= f >= last;
            last = f;
            return ++progressCalls, true;
        });
        auto memory = computeExplorerOn(spec, *memory_, options);
        QCOMPARE(memory.ok(), valid);
        QCOMPARE(streamed.ok(), memory.ok());
        if (!memory.ok()) {  // the same error, in the op's words
            QCOMPARE(streamed.error(), memory.error());
            return;
        }
        const QString diff = differences(*streamed, *memory);
        QVERIFY2(diff.isEmpty(), qPrintable(QStringLiteral("differ: ") + diff));
        QVERIFY(streamed->output.empty());  // no per-element output on streamed data
        QCOMPARE(memory->output.size(), values_.size());
        QVERIFY(progressCalls > 0);
        QVERIFY(monotonic);
        QCOMPARE(last, 1.0);
    }

    void cancelledByProgressOrFlag() {
        auto byProgress = computeExplorerOn(qs::QuantSpec{}, *streamed_, {}, [](double) { return false; });
        QCOMPARE(byProgress.error().kind, std::string("Cancelled"));
        QVERIFY(byProgress.error().cancelled);  // what callers test: a flag, not the text
        std::atomic<bool> cancel{true};
        qs::analysis::ExplorerOptions options;
        options.cancel = &cancel;
        const auto byFlag = computeExplorerOn(qs::QuantSpec{}, *streamed_, options);
        QCOMPARE(byFlag.error().kind, std::string("Cancelled"));
        QVERIFY(byFlag.error().cancelled);
        // An op's own error is never taken for a cancellation.
        qs::QuantSpec bad;
        bad.min_range = 2;
        bad.max_range = 1;
        const auto refused = computeExplorerOn(bad, *streamed_, {});
        QVERIFY(!refused.ok());
        QVERIFY(!refused.error().cancelled);
    }

private:
    QTemporaryDir dir_;
    QString path_;
    std::vector<float> values_;
    DatasetPtr streamed_, memory_;
};

QTEST_GUILESS_MAIN(TstExplorerStreamed)
#include "tst_explorer_streamed.moc"
