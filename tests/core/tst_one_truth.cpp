// One truth for the numbers several views show (issue 24): clipped values counted one way
// (a value inside the range its quantizer actually used is never clipped, per channel each
// value against its own channel's range), the analyses run the explorer's spec exactly
// (per channel included) so their "current" figures are the explorer's, the statistics
// table holds every channel, a 32-bit grid has 2^32 codes, and data with NaN or ±inf gets
// windows and words from its finite values.
#include <QtTest>
#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include "core/analysis/bit_sweep.h"
#include "core/analysis/calibration.h"
#include "core/analysis/clip_sweep.h"
#include "core/analysis/explorer.h"
#include "core/analysis/view_data.h"
#include "tests/spec_builders.h"

using namespace qs;
using namespace qs::analysis;

namespace {

constexpr float kInf = std::numeric_limits<float>::infinity();
constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();

// [rows, channels] with channel c spread over about ±(0.1 + 0.4·c), random extremes (so the
// op's recomputed ends fall on both sides of the data's).
std::vector<float> channelValues(int rows, int channels, unsigned seed) {
    std::mt19937 rng(seed);
    std::normal_distribution<float> normal(0.0f, 1.0f);
    std::vector<float> v(static_cast<size_t>(rows) * channels);
    for (int r = 0; r < rows; ++r)
        for (int c = 0; c < channels; ++c) v[static_cast<size_t>(r) * channels + c] = (0.1f + 0.4f * c) * normal(rng);
    return v;
}

QuantSpec qdq(QuantOp op, int bits, bool given, int64_t axis = -1) {
    return testing::qdqSpec(op, bits, given, axis);
}

QuantSpec quantizeV2(QType t, QuantizeMode mode, int64_t axis, RangeSource source) {
    return testing::quantizeV2Spec(t, mode, axis, source);
}

// The clipped count by the definition, element by element.
int64_t clippedByDefinition(const ExplorerResult& r, std::span<const float> x) {
    const SliceLayout& l = r.run.layout;
    int64_t n = 0;
    for (size_t i = 0; i < x.size(); ++i) {
        const SliceQuant& q = r.run.slices[static_cast<size_t>((static_cast<int64_t>(i) / l.post) % l.depth)];
        n += q.clips(x[i]);
    }
    return n;
}

bool same(double a, double b) { return a == b || (std::isnan(a) && std::isnan(b)); }

}  // namespace

class TstOneTruth : public QObject {
    Q_OBJECT

private slots:
    void ownChannelRangesClipNothing();
    void recomputedEndIsTheGivenEnd();
    void givenRangeStillClips();
    void clippedHistogramIsTheClippedValues();
    void bitSweepRunsTheExplorersSpec();
    void bitSweepCoversEveryWidthAndExplainsTheGap();
    void clipAndCalibrationCurrentAreTheExplorers();
    void thirtyTwoBitGridHasTwoToThe32Codes();
    void statisticsTableHoldsEveryChannel();
    void infiniteDataUsesFiniteValues();
};

// The review's case: per channel with each channel's own range, values one float step
// outside the op's recomputed end were called clipped ("8.33 % clipped" of a bias).
void TstOneTruth::ownChannelRangesClipNothing() {
    const std::vector<float> x = channelValues(500, 12, 7);
    const TensorRef<float> t{x, Shape{500, 12}};
    for (QuantOp op : {QuantOp::QuantizeAndDequantizeV2, QuantOp::QuantizeAndDequantizeV3, QuantOp::QuantizeAndDequantizeV4})
        for (int bits : {4, 8, 16}) {
            for (int64_t axis : {int64_t{-1}, int64_t{1}}) {
                auto r = computeExplorer(qdq(op, bits, false, axis), t);
                QVERIFY2(r, r ? "" : r.error().message.c_str());
                QCOMPARE(r->clipped_below + r->clipped_above, int64_t{0});
                QCOMPARE(r->stats.fraction_clipped, 0.0);
                for (const ChannelSummary& c : r->channels) QCOMPARE(c.clipped, int64_t{0});
            }
        }
    for (QuantizeMode mode : {QuantizeMode::MinCombined, QuantizeMode::Scaled}) {
        auto r = computeExplorer(quantizeV2(QType::QInt8, mode, 1, RangeSource::FromData), t);
        QVERIFY2(r, r ? "" : r.error().message.c_str());
        QCOMPARE(r->clipped_below + r->clipped_above, int64_t{0});
        for (const ChannelSummary& c : r->channels) QCOMPARE(c.clipped, int64_t{0});
    }
}

// An end the op recomputes lands a float step inside the given end: the given end counts.
void TstOneTruth::recomputedEndIsTheGivenEnd() {
    QCOMPARE(clipEnd(0.99999994f, 1.0f, false), 1.0f);
    QCOMPARE(clipEnd(-0.99999994f, -1.0f, true), -1.0f);
    QCOMPARE(clipEnd(1.0f, 0.99999994f, false), 1.0f);  // the op's end is wider: it stays
    QCOMPARE(clipEnd(0.0f, -1.0f, true), 0.0f);         // an end the op moved stays the op's
    QCOMPARE(clipEnd(0.9f, 1.0f, false), 0.9f);
    // QuantizeV2 SCALED recomputes both ends from its scale, at times a float step inside
    // the ends it was fed: a value at the end it was fed is not clipped.
    std::mt19937 rng(1);
    std::uniform_real_distribution<float> u(0.1f, 3.0f);
    int found = 0;
    for (int i = 0; i < 20000 && found < 3; ++i) {
        const float hi = u(rng), lo = -u(rng);
        auto q = SliceQuantizer::make(quantizeV2(QType::QInt8, QuantizeMode::Scaled, -1, RangeSource::Given), lo, hi);
        QVERIFY(q);
        const SliceQuant& info = q->info();
        if (!(info.output_max < hi) && !(info.output_min > lo)) continue;
        ++found;
        QVERIFY(!info.clips(hi) && !info.clips(lo));
        QVERIFY(info.clips(hi + 1e-3f) || info.output_max > hi + 1e-3f);
    }
    QVERIFY(found > 0);
}

void TstOneTruth::givenRangeStillClips() {
    const std::vector<float> x = channelValues(500, 4, 3);
    const TensorRef<float> t{x, Shape{500, 4}};
    for (QuantSpec s : {qdq(QuantOp::QuantizeAndDequantizeV2, 8, true), quantizeV2(QType::QInt8, QuantizeMode::MinCombined, -1, RangeSource::Given),
                        quantizeV2(QType::QInt8, QuantizeMode::MinCombined, 1, RangeSource::Given)}) {
        auto r = computeExplorer(s, t);
        QVERIFY(r);
        const int64_t clipped = r->clipped_below + r->clipped_above;
        QVERIFY(clipped > 0);
        QCOMPARE(clipped, clippedByDefinition(*r, x));
        QCOMPARE(r->stats.fraction_clipped, double(clipped) / double(r->stats.count));
    }
    // Unsigned QDQ fed a negative min clamps the negatives to 0: they are clipped.
    QuantSpec u = qdq(QuantOp::QuantizeAndDequantizeV2, 8, true);
    u.signed_input = false;
    auto r = computeExplorer(u, t);
    QVERIFY(r);
    int64_t negatives = 0;
    for (float v : x) negatives += v < 0;
    QCOMPARE(r->clipped_below, negatives);
    // An inverted effective range (unsigned QDQ fed [−1, −0.5] comes out [−0, −0.5]) counts
    // a value once, as the histogram of the clipped values does (the monkey found it).
    u.min_range = -1.0f;
    u.max_range = -0.5f;
    auto inverted = computeExplorer(u, t);
    QVERIFY(inverted);
    QCOMPARE(inverted->clipped_below + inverted->clipped_above, clippedByDefinition(*inverted, x));
    const Histogram& red = inverted->clipped_hist;
    QCOMPARE(red.inRange() + red.underflow + red.overflow, inverted->clipped_below + inverted->clipped_above);
}

// The data histogram's red part is the clipped values themselves, each against its channel:
// per channel a bin holds both, and a bin with no clipped value is never red.
void TstOneTruth::clippedHistogramIsTheClippedValues() {
    const std::vector<float> x = channelValues(500, 8, 5);
    auto r = computeExplorer(quantizeV2(QType::QInt8, QuantizeMode::MinCombined, 1, RangeSource::Given), {x, Shape{500, 8}});
    QVERIFY(r);
    const Histogram& c = r->clipped_hist;
    QCOMPARE(c.inRange() + c.underflow + c.overflow, r->clipped_below + r->clipped_above);
    const HistogramSplit split = splitClipped(*r);
    double inside = 0, clipped = 0;
    for (size_t i = 0; i < split.centers.size(); ++i) {
        inside += split.inside[i];
        clipped += split.clipped[i];
        QCOMPARE(bool(split.is_clipped[i]), split.clipped[i] > 0);
    }
    QCOMPARE(int64_t(inside + clipped), r->data_hist.inRange());
    QCOMPARE(int64_t(clipped), r->clipped_below + r->clipped_above);
    // Per tensor with data inside the range: nothing red, whatever the bins.
    auto none = computeExplorer(qdq(QuantOp::QuantizeAndDequantizeV2, 8, false), {x, Shape{500, 8}});
    QVERIFY(none);
    for (bool b : splitClipped(*none).is_clipped) QVERIFY(!b);
}

// The review's case: a per-channel kernel, Statistics 43.5 dB, Bit sweep 29.8 dB at 8 bits.
void TstOneTruth::bitSweepRunsTheExplorersSpec() {
    const std::vector<float> x = channelValues(400, 8, 11);
    const TensorRef<float> t{x, Shape{400, 8}};
    const QuantSpec specs[] = {qdq(QuantOp::QuantizeAndDequantizeV4, 8, false, 1),
                               qdq(QuantOp::QuantizeAndDequantizeV2, 4, false, 1),
                               quantizeV2(QType::QInt8, QuantizeMode::MinCombined, 1, RangeSource::FromData),
                               quantizeV2(QType::QInt16, QuantizeMode::Scaled, 1, RangeSource::Given)};
    for (const QuantSpec& spec : specs) {
        auto explorer = computeExplorer(spec, t);
        QVERIFY(explorer);
        const auto [lo, hi] = sweepBitRange(spec);
        auto sweep = sweepBits(t, spec, lo, hi);
        QVERIFY2(sweep, sweep ? "" : sweep.error().message.c_str());
        const int bits = spec.op == QuantOp::QuantizeV2 ? qtypeInfo(spec.T).bits : int(spec.num_bits);
        bool found = false;
        for (const BitSweepRow& row : sweep->rows) {
            if (row.bits != bits) continue;
            found = true;
            QVERIFY(row.spec == spec);
            QCOMPARE(row.sqnr_db, explorer->stats.sqnr_db);
            QCOMPARE(row.mse, explorer->stats.mse);
            QCOMPARE(row.clipped, explorer->clipped_below + explorer->clipped_above);
            QCOMPARE(row.levels_used, explorer->stats.distinct_levels);
        }
        QVERIFY(found);
    }
}

void TstOneTruth::bitSweepCoversEveryWidthAndExplainsTheGap() {
    QCOMPARE(sweepBitRange(qdq(QuantOp::QuantizeAndDequantizeV2, 8, true)), std::make_pair(2, 16));
    const QuantSpec v2 = quantizeV2(QType::QInt8, QuantizeMode::MinCombined, -1, RangeSource::Given);
    QCOMPARE(sweepBitRange(v2), std::make_pair(8, 32));
    // The defaults: QuantizeV2 qint8 on [−1, 1] over normal data, which the range clips.
    std::vector<float> x = channelValues(5000, 1, 2);
    for (float& v : x) v *= 4.0f;
    const auto [lo, hi] = sweepBitRange(v2);
    auto sweep = sweepBits(std::span<const float>(x), v2, lo, hi);
    QVERIFY(sweep);
    QCOMPARE(sweep->rows.size(), size_t(3));  // qint8, qint16, qint32
    QCOMPARE(sweep->rows.back().bits, 32);
    QVERIFY(sweep->rows.back().clipped > 0);
    QVERIFY2(QString::fromStdString(sweep->gap_note).contains("clipped"), sweep->gap_note.c_str());
    QVERIFY(QString::fromStdString(sweep->note).contains("qint16"));
    // Nothing clipped: no gap note.
    auto inside = sweepBits(std::span<const float>(x), qdq(QuantOp::QuantizeAndDequantizeV2, 8, false), 2, 16);
    QVERIFY(inside);
    QVERIFY(inside->gap_note.empty());

    // qint32's drop at 32 bits: the values at the top of the range wrap to the lowest code
    // (TF's +2^31 → −2^31) and come back as the min. The row counts exactly those whose
    // output the op flips to the bottom, the note names it, and Δ is the grid's, not 0.
    const std::span<const float> xs(x);
    for (QuantizeMode mode : {QuantizeMode::MinCombined, QuantizeMode::Scaled}) {
        const QuantSpec base = quantizeV2(QType::QInt8, mode, -1, RangeSource::Given);
        auto wide = sweepBits(xs, base, 8, 32);
        QVERIFY(wide);
        const BitSweepRow& top = wide->rows.back();
        QCOMPARE(top.spec.T, QType::QInt32);
        auto run = computeExplorer(top.spec, TensorRef<float>{x, Shape{static_cast<int64_t>(x.size())}});
        QVERIFY(run);
        const float bottom = run->run.slices.at(0).output_min;
        int64_t flipped = 0;
        for (size_t i = 0; i < x.size(); ++i) flipped += x[i] > 0 && run->output[i] == bottom;
        QVERIFY(flipped > 0);
        QCOMPARE(top.wrapped, flipped);
        QCOMPARE(wide->rows.front().wrapped, int64_t{0});
        QVERIFY2(QString::fromStdString(wide->gap_note).contains("wrap to the lowest code"), wide->gap_note.c_str());
        QVERIFY(!QString::fromStdString(wide->gap_note).contains("2^24"));
        const double range = run->run.slices.at(0).output_max - bottom;
        QVERIFY2(std::abs(top.step - range / 4294967295.0) < 1e-6 * top.step, qPrintable(QString::number(top.step)));
    }
}

void TstOneTruth::clipAndCalibrationCurrentAreTheExplorers() {
    const std::vector<float> x = channelValues(400, 8, 13);
    const TensorRef<float> t{x, Shape{400, 8}};
    for (const QuantSpec& spec : {qdq(QuantOp::QuantizeAndDequantizeV2, 8, false, 1),
                                  quantizeV2(QType::QInt8, QuantizeMode::MinCombined, -1, RangeSource::Given)}) {
        auto explorer = computeExplorer(spec, t);
        QVERIFY(explorer);
        auto clip = computeClipAnalysis(t, spec);
        QVERIFY(clip);
        QCOMPARE(clip->current.mse, explorer->stats.mse);
        QCOMPARE(clip->current.clipped, explorer->clipped_below + explorer->clipped_above);
        QCOMPARE(std::isnan(clip->current.alpha), spec.axis >= 0);
        auto cal = computeCalibration(t, spec, CalibrationOptions{});
        QVERIFY(cal);
        QCOMPARE(cal->current.sqnr_db, explorer->stats.sqnr_db);
        QCOMPARE(cal->current.mse, explorer->stats.mse);
        QCOMPARE(cal->current.fraction_clipped, explorer->stats.fraction_clipped);
        QCOMPARE(cal->current_clipped, explorer->clipped_below + explorer->clipped_above);
        QCOMPARE(cal->current_per_slice, spec.axis >= 0);
    }
}

void TstOneTruth::thirtyTwoBitGridHasTwoToThe32Codes() {
    const std::vector<float> x = {-0.5f, 0.0f, 0.5f};
    auto r = computeExplorer(qdq(QuantOp::QuantizeAndDequantizeV2, 32, true), {x, Shape{3}});
    QVERIFY(r);
    QCOMPARE(r->run.slices.front().levels(), int64_t{1} << 32);
    auto n = computeExplorer(qdq(QuantOp::QuantizeAndDequantizeV2, 31, true), {x, Shape{3}});
    QVERIFY(n);
    QCOMPARE(n->run.slices.front().levels(), int64_t{1} << 31);
}

void TstOneTruth::statisticsTableHoldsEveryChannel() {
    const std::vector<float> x = channelValues(300, 6, 17);
    auto r = computeExplorer(qdq(QuantOp::QuantizeAndDequantizeV4, 8, false, 1), {x, Shape{300, 6}});
    QVERIFY(r);
    const StatisticsTable t = statisticsTable(*r);
    QCOMPARE(t.rows.size(), size_t(7));
    QCOMPARE(t.scopes.front(), std::string("tensor"));
    auto column = [&](const char* key) {
        for (size_t i = 2; i < t.header.size(); ++i)
            if (t.header[i] == key) return i - 2;
        return size_t(-1);
    };
    for (const char* key : {"step", "scale", "zero_point", "output_min", "requested_max", "sqnr_db", "clipped",
                            "step_pytorch_onnx_scale", "tf_scale_codes_per_unit"})
        QVERIFY2(column(key) != size_t(-1), key);
    QCOMPARE(t.rows[0][column("sqnr_db")], r->stats.sqnr_db);
    QVERIFY(std::isnan(t.rows[0][column("step")]));  // every channel has its own: left empty
    for (size_t d = 0; d < 6; ++d) {
        const ChannelSummary& c = r->channels[d];
        const auto& row = t.rows[d + 1];
        QCOMPARE(t.scopes[d + 1], std::string("channel"));
        QCOMPARE(row[column("step")], c.quant.step);
        QCOMPARE(row[column("step_pytorch_onnx_scale")], c.quant.step);
        QCOMPARE(row[column("scale")], double(c.quant.scale));
        QCOMPARE(row[column("tf_scale_codes_per_unit")], double(c.quant.scale));
        QCOMPARE(row[column("zero_point")], double(c.quant.zero_code));
        QCOMPARE(row[column("output_max")], double(c.quant.output_max));
        QCOMPARE(row[column("sqnr_db")], c.stats.sqnr_db);
        QCOMPARE(row[column("clipped")], double(c.clipped));
    }
    // Per tensor: one row, step and the TF scale inverse conventions of each other.
    auto p = computeExplorer(qdq(QuantOp::QuantizeAndDequantizeV2, 8, true), {x, Shape{300, 6}});
    QVERIFY(p);
    const StatisticsTable pt = statisticsTable(*p);
    QCOMPARE(pt.rows.size(), size_t(1));
    QVERIFY(std::abs(pt.rows[0][column("step")] * pt.rows[0][column("scale")] - 1.0) < 1e-6);
}

void TstOneTruth::infiniteDataUsesFiniteValues() {
    std::vector<float> x;
    for (int i = 0; i <= 400; ++i) x.push_back(-2.0f + 4.0f * float(i) / 400.0f);
    x.push_back(kInf);
    x.push_back(-kInf);
    x.push_back(kNaN);
    QuantSpec spec = qdq(QuantOp::QuantizeAndDequantizeV2, 8, true);
    spec.min_range = -1.5f;
    spec.max_range = 1.5f;
    auto r = computeExplorer(spec, {x, Shape{int64_t(x.size())}});
    QVERIFY(r);
    QCOMPARE(r->finite_min, -2.0f);
    QCOMPARE(r->finite_max, 2.0f);
    QVERIFY(r->finite_count > 0);
    QVERIFY2(r->data_hist.lo < -2.0 && r->data_hist.lo > -2.2, qPrintable(QString::number(r->data_hist.lo)));
    QVERIFY(r->data_hist.hi > 2.0 && r->data_hist.hi < 2.2);
    // The bit sweep has rows but no finite SQNR: it says why.
    auto sweep = sweepBits(std::span<const float>(x), spec, 2, 16);
    QVERIFY(sweep);
    QVERIFY2(QString::fromStdString(sweep->gap_note).contains("inf"), sweep->gap_note.c_str());
    // All NaN: no finite value.
    const std::vector<float> nan(10, kNaN);
    auto none = computeExplorer(spec, {nan, Shape{10}});
    QVERIFY(none);
    QCOMPARE(none->finite_count, int64_t{0});
    QVERIFY(same(none->stats.sqnr_db, std::nan("")));
}

QTEST_APPLESS_MAIN(TstOneTruth)
#include "tst_one_truth.moc"
