// The explorer's fused pass against the per-statistic functions it replaced: on random data
// (with NaN, ±0, infinities and outliers), for every op and per-channel layouts, and with
// 1, 2 and 8 threads, every number of the result must be the very number errorStats,
// histogram and plain loops give. The streamed form (chunks read from a "file") must give
// the same result again.
#include <QtTest>

#include <cmath>
#include <cstring>
#include <limits>
#include <random>

#include "core/analysis/explorer.h"
#include "core/thread_budget.h"

using namespace qs;
using namespace qs::analysis;

namespace {

// Equal as bit patterns (so NaN == NaN and -0 != +0).
bool same(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

QString statsDiff(const ErrorStats& a, const ErrorStats& b) {
    QStringList d;
    auto check = [&](const char* name, double x, double y) {
        if (!same(x, y)) d << QStringLiteral("%1: %2 vs %3").arg(name).arg(x, 0, 'g', 17).arg(y, 0, 'g', 17);
    };
    check("count", double(a.count), double(b.count));
    check("nan_pairs", double(a.nan_pairs), double(b.nan_pairs));
    check("mse", a.mse, b.mse);
    check("rmse", a.rmse, b.rmse);
    check("max_abs_error", a.max_abs_error, b.max_abs_error);
    check("mean_error", a.mean_error, b.mean_error);
    check("sqnr_db", a.sqnr_db, b.sqnr_db);
    check("cosine", a.cosine, b.cosine);
    check("fraction_clipped", a.fraction_clipped, b.fraction_clipped);
    check("distinct_levels", double(a.distinct_levels), double(b.distinct_levels));
    return d.join(QStringLiteral("; "));
}

bool sameHistogram(const Histogram& a, const Histogram& b) {
    return same(a.lo, b.lo) && same(a.hi, b.hi) && a.counts == b.counts && a.underflow == b.underflow &&
           a.overflow == b.overflow && a.nan_count == b.nan_count;
}

// Infinities only where the range is given: a range taken from data with an infinity is
// refused by the op (as TF's is).
std::vector<float> randomData(size_t n, uint32_t seed, bool infinities = true) {
    std::mt19937 rng(seed);
    std::normal_distribution<float> normal(0.0f, 0.7f);
    std::uniform_int_distribution<int> pick(0, 999);
    std::vector<float> v(n);
    for (float& x : v) {
        const int k = pick(rng);
        x = k == 0   ? std::numeric_limits<float>::quiet_NaN()
            : k == 1 ? -0.0f
            : k == 2 ? 0.0f
            : k == 3 ? normal(rng) * 40.0f  // far outside the range
                     : normal(rng);
    }
    if (infinities) {
        v[5] = std::numeric_limits<float>::infinity();
        v[n / 2] = -std::numeric_limits<float>::infinity();
    }
    return v;
}

// What the explorer showed before the fused pass, one function per statistic.
struct Reference {
    ErrorStats stats;
    float data_min, data_max;
    int64_t below = 0, above = 0;
    Histogram data_hist, error_hist;
    std::vector<ChannelSummary> channels;
};

Reference reference(const ExplorerResult& fused, const std::vector<float>& x, const std::vector<float>& y) {
    Reference r;
    r.stats = *errorStats(x, y);
    float lo = std::numeric_limits<float>::infinity(), hi = -lo;
    const SliceLayout& l = fused.run.layout;
    std::vector<float> err(x.size());
    for (int64_t i = 0; i < static_cast<int64_t>(x.size()); ++i) {
        const float v = x[size_t(i)];
        lo = v < lo ? v : lo;
        hi = v > hi ? v : hi;
        const SliceQuant& q = fused.run.slices[size_t(l.sliceOf(i))];
        r.below += v < q.clip_min;
        r.above += v > q.clip_max;
        err[size_t(i)] = v - y[size_t(i)];
    }
    if (lo > hi) lo = hi = 0.0f;
    r.data_min = lo;
    r.data_max = hi;
    r.data_hist = *histogram(x, fused.data_hist.lo, fused.data_hist.hi, fused.data_hist.bins());
    r.error_hist = *histogram(err, -fused.error_span, fused.error_span, fused.error_hist.bins());
    if (l.depth > 1) {
        for (int64_t d = 0; d < l.depth; ++d) {
            std::vector<float> xs, ys;
            for (int64_t b = d; b < l.blocks(); b += l.depth)
                for (int64_t i = b * l.post; i < (b + 1) * l.post; ++i) {
                    xs.push_back(x[size_t(i)]);
                    ys.push_back(y[size_t(i)]);
                }
            ChannelSummary c;
            c.quant = fused.run.slices[size_t(d)];
            float a = std::numeric_limits<float>::infinity(), b = -a;
            for (float v : xs) {
                a = v < a ? v : a;
                b = v > b ? v : b;
                c.clipped += c.quant.clips(v);
            }
            c.data_min = a > b ? 0.0f : a;
            c.data_max = a > b ? 0.0f : b;
            c.stats = *errorStats(xs, ys);
            c.stats.fraction_clipped = c.stats.count == 0 ? 0.0 : double(c.clipped) / double(c.stats.count);
            r.channels.push_back(c);
        }
    }
    return r;
}

// A stream that must be read (no in-memory view): the chunked path with its two buffers.
class ReadOnlyStream final : public data::FloatStream {
public:
    explicit ReadOnlyStream(const std::vector<float>& v) : v_(v) {}
    int64_t size() const override { return static_cast<int64_t>(v_.size()); }
    Status read(int64_t begin, std::span<float> out) const override {
        std::memcpy(out.data(), v_.data() + begin, out.size() * sizeof(float));
        return okStatus();
    }
    std::string name() const override { return "test stream"; }

private:
    const std::vector<float>& v_;
};

struct Case {
    const char* name;
    QuantSpec spec;
    Shape shape;
    bool nonNegative = false;  // the data's negative values flipped: its minimum is -0 or +0
};

std::vector<float> caseData(const Case& c, uint32_t seed) {
    std::vector<float> x = randomData(size_t(numElements(c.shape)), seed, !rangesFromData(c.spec));
    if (c.nonNegative) {
        for (float& v : x) v = v < 0.0f ? -v : v;  // -0 stays -0
        // The first zero, -0, sits after +0 in lane order (8-wide lanes: lane 7 vs lane 0
        // of the next group), so lanes folded in lane order would pick +0.
        for (int i = 0; i < 7; ++i) x[size_t(i)] = 1.0f;
        x[7] = -0.0f;
        x[8] = 0.0f;
    }
    return x;
}

std::vector<Case> cases() {
    std::vector<Case> out;
    QuantSpec v2;  // QuantizeV2 qint8 MIN_COMBINED [-1, 1]
    out.push_back({"QuantizeV2 MIN_COMBINED", v2, {300000}});
    QuantSpec first = v2;
    first.mode = QuantizeMode::MinFirst;
    first.T = QType::QUInt8;
    out.push_back({"QuantizeV2 MIN_FIRST quint8", first, {300000}});
    // The data's minimum is a zero, -0 and +0 both occur: the first one in index order is it
    // (dataRange), and the clip count below 0 is 0.
    out.push_back({"QuantizeV2 MIN_FIRST quint8, data >= 0", first, {300000}, true});
    // 16 bits: the levels used come from the codes (QuantRun::output_levels) and must
    // be the outputs' own count; 32 bits: counted from the outputs as before.
    QuantSpec wide = v2;
    wide.mode = QuantizeMode::Scaled;
    wide.T = QType::QInt16;
    out.push_back({"QuantizeV2 SCALED qint16", wide, {300000}});
    wide.mode = QuantizeMode::MinCombined;
    wide.T = QType::QInt32;
    out.push_back({"QuantizeV2 MIN_COMBINED qint32", wide, {100000}});
    QuantSpec scaled = v2;
    scaled.mode = QuantizeMode::Scaled;
    scaled.round_mode = RoundMode::HalfToEven;
    scaled.axis = 1;
    scaled.range_source = RangeSource::FromData;
    out.push_back({"QuantizeV2 SCALED per channel (axis 1, from data)", scaled, {1000, 7, 40}});
    QuantSpec sizeOneAxis = v2;  // one slice along the axis: per tensor, also in chunks
    sizeOneAxis.axis = 1;
    out.push_back({"QuantizeV2 along an axis of size 1", sizeOneAxis, {150000, 1}});
    QuantSpec qdq;
    qdq.op = QuantOp::QuantizeAndDequantizeV2;
    qdq.round_mode = defaultRoundMode(qdq.op);
    qdq.range_given = false;
    qdq.num_bits = 4;
    out.push_back({"QDQ V2 4 bits, range from data", qdq, {200001}});
    QuantSpec qdqAxis = qdq;
    qdqAxis.axis = 1;
    qdqAxis.num_bits = 16;  // many levels
    out.push_back({"QDQ V2 16 bits per channel (axis last)", qdqAxis, {50000, 6}});
    QuantSpec tpu;
    tpu.op = QuantOp::TpuSimulatedQuantization;
    tpu.num_buckets = 1000;
    tpu.min_range = -0.5f;
    tpu.max_range = 0.75f;
    out.push_back({"TPU simulated quantization", tpu, {131072 + 17}});
    return out;
}

class BudgetScope {
public:
    explicit BudgetScope(int workers) : old_(ThreadBudget::process().capacity()) {
        ThreadBudget::process().setCapacity(workers);
    }
    ~BudgetScope() { ThreadBudget::process().setCapacity(old_); }

private:
    int old_;
};

}  // namespace

class TestExplorerFused : public QObject {
    Q_OBJECT
private slots:
    void fusedPassEqualsPerStatisticFunctions();
    void streamedEqualsInMemory();
    void streamedReportsProgressAndCancels();
    void curveAnnouncedBeforeTheStatistics();
    void sumsAndHistogramsFollowTheirDocumentedOrder();
};

void TestExplorerFused::fusedPassEqualsPerStatisticFunctions() {
    const BudgetScope budget(7);  // so 8 threads really run, even on a 2-core machine
    uint32_t seed = 1;
    for (const Case& c : cases()) {
        const std::vector<float> x = caseData(c, seed++);
        const TensorRef<float> data{std::span<const float>(x), c.shape};
        std::vector<float> y(x.size());
        QVERIFY2(applySpec(c.spec, data, y), c.name);
        std::optional<Reference> ref;
        for (int threads : {1, 2, 8}) {
            ExplorerOptions o;
            o.exec = Exec{threads};
            auto r = computeExplorer(c.spec, data, o);
            QVERIFY2(r, c.name);
            QVERIFY2(r->output == y || std::memcmp(r->output.data(), y.data(), y.size() * 4) == 0, c.name);
            if (!ref) {
                ref = reference(*r, x, y);
                // The level count by hashing (both sides use it) against sorting.
                std::vector<float> counted;
                for (size_t i = 0; i < x.size(); ++i)
                    if (!std::isnan(x[i]) && !std::isnan(y[i])) counted.push_back(y[i]);
                QCOMPARE(ref->stats.distinct_levels, distinctValues(counted));
            }
            const QString where = QStringLiteral("%1, %2 threads").arg(c.name).arg(threads);
            ErrorStats expected = ref->stats;
            // Of the values compared (NaN pairs skipped), as every view counts it.
            expected.fraction_clipped = double(ref->below + ref->above) / double(expected.count);
            const QString diff = statsDiff(r->stats, expected);
            QVERIFY2(diff.isEmpty(), qPrintable(where + ": " + diff));
            QVERIFY2(same(r->data_min, ref->data_min) && same(r->data_max, ref->data_max), qPrintable(where));
            QCOMPARE(r->clipped_below, ref->below);
            QCOMPARE(r->clipped_above, ref->above);
            QVERIFY2(sameHistogram(r->data_hist, ref->data_hist), qPrintable(where + ": data histogram"));
            QVERIFY2(sameHistogram(r->error_hist, ref->error_hist), qPrintable(where + ": error histogram"));
            QCOMPARE(r->channels.size(), ref->channels.size());
            for (size_t d = 0; d < ref->channels.size(); ++d) {
                const ChannelSummary &a = r->channels[d], &b = ref->channels[d];
                const QString cd = statsDiff(a.stats, b.stats);
                QVERIFY2(cd.isEmpty(), qPrintable(where + QStringLiteral(", channel %1: ").arg(d) + cd));
                QVERIFY(same(a.data_min, b.data_min) && same(a.data_max, b.data_max));
                QCOMPARE(a.clipped, b.clipped);
            }
            // The cached range gives the same result as the range found on the way.
            o.data_range = dataRange(x, o.exec);
            o.keep_output = false;
            auto cached = computeExplorer(c.spec, data, o);
            QVERIFY(cached && cached->output.empty());
            QVERIFY(statsDiff(cached->stats, r->stats).isEmpty());
            QVERIFY(sameHistogram(cached->data_hist, r->data_hist));
            // A kept data histogram is used when its window is this result's, else ignored.
            o.data_histogram = r->data_hist;
            o.data_histogram->counts[0] += 1000;  // marked, to see whether it was used
            auto reused = computeExplorer(c.spec, data, o);
            QVERIFY(reused);
            QCOMPARE(reused->data_hist.counts[0], r->data_hist.counts[0] + 1000);
            QVERIFY(statsDiff(reused->stats, r->stats).isEmpty());
            o.data_histogram->lo -= 1e-9;
            auto other = computeExplorer(c.spec, data, o);
            QVERIFY(other && sameHistogram(other->data_hist, r->data_hist));
        }
    }
}

void TestExplorerFused::streamedEqualsInMemory() {
    uint32_t seed = 100;
    for (const Case& c : cases()) {
        const std::vector<float> x = caseData(c, seed++);
        const TensorRef<float> data{std::span<const float>(x), c.shape};
        auto whole = computeExplorer(c.spec, data, {});
        QVERIFY2(whole, c.name);
        for (int threads : {1, 2}) {
            ExplorerOptions o;
            o.exec = Exec{threads};
            o.stream_chunk = 2 * kStatsBlock;  // several chunks, the last one short
            const ReadOnlyStream stream(x);
            auto r = computeExplorerStream(c.spec, stream, c.shape, o);
            QVERIFY2(r, qPrintable(QString(c.name) + ": " + (r ? "" : QString::fromStdString(r.error().message))));
            QVERIFY(r->output.empty());
            const bool manyLevels = whole->stats.distinct_levels > (int64_t{1} << 23);
            ErrorStats a = r->stats, b = whole->stats;
            if (manyLevels) a.distinct_levels = b.distinct_levels;
            const QString diff = statsDiff(a, b);
            QVERIFY2(diff.isEmpty(), qPrintable(QString(c.name) + ": " + diff));
            QVERIFY(sameHistogram(r->data_hist, whole->data_hist));
            QVERIFY(sameHistogram(r->error_hist, whole->error_hist));
            QCOMPARE(r->clipped_below, whole->clipped_below);
            QCOMPARE(r->clipped_above, whole->clipped_above);
            QCOMPARE(r->run.slices.size(), whole->run.slices.size());
            for (size_t d = 0; d < r->run.slices.size(); ++d) {
                QVERIFY(same(r->run.slices[d].output_min, whole->run.slices[d].output_min));
                QVERIFY(same(r->run.slices[d].output_max, whole->run.slices[d].output_max));
            }
            QCOMPARE(r->channels.size(), whole->channels.size());
            for (size_t d = 0; d < r->channels.size(); ++d)
                QVERIFY2(statsDiff(r->channels[d].stats, whole->channels[d].stats).isEmpty(), c.name);
            QCOMPARE(r->curve.output, whole->curve.output);
            // With the range known (cached by the caller) the first scan is skipped where the
            // slices do not need their own ranges: the same result.
            o.data_range = dataRange(x);
            auto known = computeExplorerStream(c.spec, stream, c.shape, o);
            QVERIFY(known);
            QVERIFY(statsDiff(known->stats, r->stats).isEmpty());
            QVERIFY(sameHistogram(known->data_hist, r->data_hist));
            QVERIFY(sameHistogram(known->error_hist, r->error_hist));
        }
    }
}

// options.on_curve gets the transfer curve once, ahead of the statistics (the streamed pass
// has not read a chunk yet): the result's spec, run and curve, and nothing else.
void TestExplorerFused::curveAnnouncedBeforeTheStatistics() {
    uint32_t seed = 300;
    for (const Case& c : cases()) {
        const std::vector<float> x = caseData(c, seed++);
        const ReadOnlyStream stream(x);
        for (bool streamed : {false, true}) {
            ExplorerOptions o;
            o.stream_chunk = kStatsBlock;
            int calls = 0;
            double done = 0, doneAtCurve = -1;  // the streamed passes' progress (0..0.5 is the range scan)
            std::optional<ExplorerResult> partial;
            o.progress = [&](double f) {
                done = f;
                return true;
            };
            o.on_curve = [&](ExplorerResult&& p) {
                ++calls;
                doneAtCurve = done;
                partial = std::move(p);
            };
            auto r = streamed ? computeExplorerStream(c.spec, stream, c.shape, o)
                              : computeExplorer(c.spec, {std::span<const float>(x), c.shape}, o);
            QVERIFY2(r, c.name);
            QCOMPARE(calls, 1);
            QVERIFY(partial);
            QVERIFY(partial->spec == r->spec);
            QCOMPARE(partial->curve_channel, r->curve_channel);
            QCOMPARE(partial->curve.x, r->curve.x);
            QCOMPARE(partial->curve.output, r->curve.output);
            QCOMPARE(partial->run.slices.size(), r->run.slices.size());
            QCOMPARE(partial->stats.count, int64_t{0});
            QVERIFY(partial->data_hist.counts.empty() && partial->channels.empty() && partial->output.empty());
            if (streamed) QVERIFY2(doneAtCurve <= 0.5, c.name);  // before the statistics' pass
        }
    }
}

void TestExplorerFused::streamedReportsProgressAndCancels() {
    const std::vector<float> x = randomData(500000, 7);
    const ReadOnlyStream stream(x);
    ExplorerOptions o;
    o.stream_chunk = kStatsBlock;
    std::vector<double> seen;
    o.progress = [&](double f) {
        seen.push_back(f);
        return true;
    };
    QVERIFY(computeExplorerStream(QuantSpec{}, stream, {500000}, o));
    QVERIFY(seen.size() >= 8);
    QVERIFY(std::is_sorted(seen.begin(), seen.end()));
    QCOMPARE(seen.back(), 1.0);
    o.progress = [](double f) { return f < 0.6; };  // stop during the second scan
    auto r = computeExplorerStream(QuantSpec{}, stream, {500000}, o);
    QVERIFY(!r);
    QCOMPARE(QString::fromStdString(r.error().kind), QStringLiteral("Cancelled"));
    // A shape that does not hold the stream's values is refused with both named.
    auto bad = computeExplorerStream(QuantSpec{}, stream, {7, 7}, {});
    QVERIFY(!bad);
    QVERIFY(QString::fromStdString(bad.error().message).contains("test stream"));
}

// errorStats and histogram (which the fused pass is checked against above) against plain
// scalar loops written from their documented definitions, so that a vectorised form of
// theirs cannot drift with both sides agreeing.
namespace {

// The error sums as documented: blocks of kStatsBlock pairs, pair p of a block into lane
// p % kStatsLanes, NaN pairs adding +0.0, lanes folded in lane order, blocks added in
// block order.
ErrorStats documentedErrorStats(const std::vector<float>& x, const std::vector<float>& y) {
    ErrorSums total;
    for (size_t b = 0; b < x.size(); b += size_t(kStatsBlock)) {
        double err[kStatsLanes] = {}, err2[kStatsLanes] = {}, x2[kStatsLanes] = {}, y2[kStatsLanes] = {},
               xy[kStatsLanes] = {}, maxAbs[kStatsLanes] = {};
        int64_t count = 0, nanPairs = 0;
        for (size_t i = b; i < std::min(x.size(), b + size_t(kStatsBlock)); ++i) {
            const size_t l = (i - b) % kStatsLanes;
            const bool skip = std::isnan(x[i]) || std::isnan(y[i]);
            const double xd = skip ? 0.0 : x[i], yd = skip ? 0.0 : y[i], e = xd - yd;
            nanPairs += skip;
            count += !skip;
            err[l] += e;
            err2[l] += e * e;
            x2[l] += xd * xd;
            y2[l] += yd * yd;
            xy[l] += xd * yd;
            if (std::fabs(e) > maxAbs[l] || std::isnan(e)) maxAbs[l] = std::fabs(e);
        }
        ErrorSums block;
        block.count = count;
        block.nan_pairs = nanPairs;
        for (int l = 0; l < kStatsLanes; ++l) {
            block.err += err[l];
            block.err2 += err2[l];
            block.x2 += x2[l];
            block.y2 += y2[l];
            block.xy += xy[l];
            if (maxAbs[l] > block.max_abs || std::isnan(maxAbs[l])) block.max_abs = maxAbs[l];
        }
        total.merge(block);
    }
    return statsFromSums(total);
}

}  // namespace

// errorStats and histogram (which the fused pass is checked against above) against plain
// scalar loops written from their documented definitions, so that a vectorised form of
// theirs cannot drift with both sides agreeing.
void TestExplorerFused::sumsAndHistogramsFollowTheirDocumentedOrder() {
    const std::vector<float> x = randomData(3 * size_t(kStatsBlock) + 1234, 11, false);  // finite sums
    std::vector<float> y(x.size());
    for (size_t i = 0; i < x.size(); ++i)  // a coarse "quantizer", NaN kept
        y[i] = (i % 977 == 0) ? std::numeric_limits<float>::quiet_NaN() : std::nearbyint(x[i] * 8.0f) / 8.0f;
    // Three kinds of data, as the sums take different paths for them: NaN pairs in every
    // block; every pair finite; finite but for an infinity in one block (an error of NaN).
    std::vector<float> finiteX = x, finiteY = y;
    for (size_t i = 0; i < x.size(); ++i)
        if (std::isnan(finiteX[i]) || std::isnan(finiteY[i])) finiteX[i] = finiteY[i] = 0.25f * float(i % 7);
    std::vector<float> infiniteX = finiteX, infiniteY = finiteY;
    infiniteX[size_t(kStatsBlock) + 17] = std::numeric_limits<float>::infinity();
    infiniteY[size_t(kStatsBlock) + 17] = std::numeric_limits<float>::infinity();
    infiniteX[2 * size_t(kStatsBlock) + 5] = -std::numeric_limits<float>::infinity();
    const std::pair<const std::vector<float>*, const std::vector<float>*> cases[] = {
        {&x, &y}, {&finiteX, &finiteY}, {&infiniteX, &infiniteY}};
    for (const auto& [cx, cy] : cases) {
        ErrorStats expected = documentedErrorStats(*cx, *cy);
        const auto got = errorStats(*cx, *cy);
        QVERIFY(got);
        expected.distinct_levels = got->distinct_levels;
        const QString diff = statsDiff(*got, expected);
        QVERIFY2(diff.isEmpty(), qPrintable(diff));
        QVERIFY(got->count > 0);
        QCOMPARE(got->nan_pairs > 0, cx == &x);
        QCOMPARE(std::isnan(got->max_abs_error), cx == &infiniteX);
    }

    // Histogram: floor((v - lo) * (bins / (hi - lo))) in double, the last bin for values
    // below hi that round up to bins; under/overflow and NaN apart.
    const double lo = -1.5, hi = 2.25;
    const int bins = 37;
    Histogram plain;
    plain.counts.assign(bins, 0);
    const double scale = bins / (hi - lo);
    for (float f : x) {
        const double v = f;
        if (std::isnan(v)) ++plain.nan_count;
        else if (v < lo) ++plain.underflow;
        else if (v >= hi) ++plain.overflow;
        else ++plain.counts[size_t(std::min<int64_t>(int64_t(std::floor((v - lo) * scale)), bins - 1))];
    }
    const auto h = histogram(x, lo, hi, bins);
    QVERIFY(h);
    QCOMPARE(h->counts, plain.counts);
    QCOMPARE(h->underflow, plain.underflow);
    QCOMPARE(h->overflow, plain.overflow);
    QCOMPARE(h->nan_count, plain.nan_count);
}

QTEST_APPLESS_MAIN(TestExplorerFused)
#include "tst_explorer_fused.moc"
