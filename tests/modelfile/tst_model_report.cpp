// The whole-model report (core/model_analysis/model_report.h) over an in-memory model: which
// tensors it takes and skips, its figures against the explorer's for the same tensor and
// range, per-channel rows against per-tensor reports of each channel alone, the order,
// progress and cancel, thread-count independence, and the CSV/JSON writers.
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QtTest>
#include <cmath>
#include <random>

#include "core/analysis/explorer.h"
#include "core/analysis/op_attributes.h"
#include "core/model_analysis/model_report.h"
#include "core/model_analysis/report_row_stats.h"
#include "tests/modelfile/memory_model.h"

using namespace qs;
using namespace qs::analysis;
using qs::modelfile::DType;
using qs::modelfile::StoredQuantization;
using qs::modelfile::test::MemoryModel;
using qs::modelfile::test::normalValues;

namespace {

QuantSpec qdq8(QuantOp op = QuantOp::QuantizeAndDequantizeV2) {
    QuantSpec s = defaultSpecFor(op);
    s.num_bits = 8;
    s.min_range = -100;  // the explorer's range: the report must not use it
    s.max_range = 100;
    return s;
}

ModelReportOptions quick() {
    ModelReportOptions o;
    o.calibrate = false;
    return o;
}

const TensorReportRow* rowNamed(const ModelReport& r, const std::string& name) {
    for (const auto& row : r.rows)
        if (row.name == name) return &row;
    return nullptr;
}

// The explorer over x with `spec` fed x's own min/max as the given range (what the report
// does per tensor).
qs::Result<ExplorerResult> explorerOverDataRange(QuantSpec spec, const std::vector<float>& x) {
    spec.min_range = *std::min_element(x.begin(), x.end());
    spec.max_range = *std::max_element(x.begin(), x.end());
    spec.range_given = true;
    return computeExplorer(spec, TensorRef<float>{x, {static_cast<int64_t>(x.size())}});
}

// [rows, channels] normal values, channels last, channel c scaled by factor^c.
std::vector<float> scaledChannels(int64_t rows, int64_t channels, float factor, uint32_t seed) {
    std::vector<float> x = normalValues(static_cast<size_t>(rows * channels), 1.0f, seed);
    for (int64_t i = 0; i < rows; ++i)
        for (int64_t c = 0; c < channels; ++c) x[static_cast<size_t>(i * channels + c)] *= std::pow(factor, float(c));
    return x;
}

// The skipped tensors and their reasons, for failure messages.
QByteArray skippedText(const ModelReport& r) {
    std::string s;
    for (const auto& k : r.skipped) s += k.name + ": " + k.reason + "; ";
    return QByteArray::fromStdString(s);
}

}  // namespace

class TstModelReport : public QObject {
    Q_OBJECT

private slots:
    void takesWeightsAndSkipsTheRestWithReasons() {
        MemoryModel m;
        m.addFloats("w", {4, 8}, normalValues(32, 1.0f, 1));
        m.add<int8_t>("q", {4}, DType::Int8, {-127, -1, 0, 127}, StoredQuantization{{0.5f}, {0}, 0});
        m.add<int32_t>("ids", {3}, DType::Int32, {1, 2, 3});
        m.addFloats("one", {1}, {3.0f});
        m.addOther("names", {2});
        auto r = computeModelReport(m, qdq8(), quick());
        QVERIFY(r.ok());
        QVERIFY2(r->rows.size() == 2, skippedText(*r).constData());
        const TensorReportRow* q = rowNamed(*r, "q");
        QVERIFY(q && q->dequantized);
        QCOMPARE(q->stats.min, -63.5f);  // -127 × 0.5
        QCOMPARE(q->stats.max, 63.5f);
        QCOMPARE(r->skipped.size(), size_t{3});
        QCOMPARE(r->skipped[0].name, std::string("ids"));
        QVERIFY(r->skipped[0].reason.find("without stored quantization") != std::string::npos);
        QCOMPARE(r->skipped[1].name, std::string("one"));
        QVERIFY(r->skipped[1].reason.find("1 element") != std::string::npos);
        QCOMPARE(r->skipped[2].name, std::string("names"));
        QCOMPARE(r->elements, int64_t{36});
        QCOMPARE(r->bytes_float32, int64_t{144});
    }

    void exactValuesAreLossless() {
        // QDQ V2 8-bit signed over data [-1, 1]: scale 127, so -1, 0, 1 come back exactly.
        MemoryModel m;
        m.addFloats("t", {3}, {-1.0f, 0.0f, 1.0f});
        auto r = computeModelReport(m, qdq8(), quick());
        QVERIFY(r.ok());
        const ReportStats& s = r->rows.at(0).stats;
        QCOMPARE(s.mse, 0.0);
        QVERIFY(std::isinf(s.sqnr_db) && s.sqnr_db > 0);
        QCOMPARE(s.levels_used, 3.0);
        QCOMPARE(s.levels_available, int64_t{256});
        QCOMPARE(s.clipped_fraction, 0.0);
    }

    // A row's clipped share is of the values compared, as the explorer's: NaN pairs are
    // skipped, not counted as unclipped values (the report divided by every element). A
    // row's own range clips nothing, so the row's figures are gathered here against a
    // narrower range.
    void clippedShareIsOfTheValuesCompared() {
        std::vector<float> x = normalValues(10000, 1.0f, 3);
        for (size_t i = 0; i < 2000; i += 2) x[i] = std::numeric_limits<float>::quiet_NaN();
        const float lo = -1.0f, hi = 1.5f;
        int64_t outside = 0;
        for (float v : x) outside += v < lo || v > hi;
        report_detail::Partial p;
        report_detail::accumulate(x.data(), x.data(), static_cast<int64_t>(x.size()), lo, hi, report_detail::CodeIndex{}, p);
        const ReportStats s = report_detail::statsOf(p, static_cast<int64_t>(x.size()), 256);
        QCOMPARE(s.nan_pairs, int64_t{1000});
        QVERIFY(outside > 1000);
        QCOMPARE(s.clipped_fraction, static_cast<double>(outside) / 9000.0);
    }

    void figuresMatchTheExplorerFedTheTensorsRange() {
        const std::vector<float> x = normalValues(300000, 0.7f, 2);
        MemoryModel m;
        m.addFloats("t", {300000}, x);
        for (QuantOp op : {QuantOp::QuantizeV2, QuantOp::QuantizeAndDequantizeV4, QuantOp::QuantizeAndDequantizeV3,
                           QuantOp::TpuSimulatedQuantization}) {
            QuantSpec spec = qdq8(op);
            auto r = computeModelReport(m, spec, quick());
            QVERIFY(r.ok());
            QCOMPARE(r->rows.size(), size_t{1});
            auto e = explorerOverDataRange(spec, x);
            QVERIFY(e.ok());
            const ReportStats& s = r->rows[0].stats;
            QVERIFY2(std::abs(s.mse - e->stats.mse) <= 1e-12 * e->stats.mse, quantOpKey(op).data());
            QVERIFY(std::abs(s.sqnr_db - e->stats.sqnr_db) < 1e-9);
            QCOMPARE(s.levels_used, static_cast<double>(e->stats.distinct_levels));
            QCOMPARE(s.min, e->data_min);
            QCOMPARE(s.max, e->data_max);
            QVERIFY(s.sqnr_db > 20 && s.sqnr_db < 60);
            if (isQdq(op)) {  // the data's range given = TF's range_given false, output for output
                QuantSpec own = spec;
                own.range_given = false;
                auto fromData = computeExplorer(own, TensorRef<float>{x, {300000}});
                QVERIFY(fromData.ok());
                QVERIFY(fromData->output == e->output);
            }
        }
    }

    void levelsUsedAreTheDistinctOutputsForEveryModeAndType() {
        std::vector<float> x = normalValues(100000, 3.0f, 8);
        x[3] = 0.0f;
        MemoryModel m;
        m.addFloats("t", {100000}, x);
        for (QuantizeMode mode : {QuantizeMode::MinCombined, QuantizeMode::MinFirst, QuantizeMode::Scaled})
            for (QType type : {QType::QInt8, QType::QUInt8, QType::QInt16, QType::QUInt16, QType::QInt32}) {
                QuantSpec spec = defaultSpecFor(QuantOp::QuantizeV2);
                spec.mode = mode;
                spec.T = type;
                auto r = computeModelReport(m, spec, quick());
                QVERIFY(r.ok());
                QCOMPARE(r->rows.size(), size_t{1});
                auto e = explorerOverDataRange(spec, x);
                QVERIFY(e.ok());
                const double expected = e->stats.distinct_levels > 65536 ? -1.0 : double(e->stats.distinct_levels);
                QVERIFY2(r->rows[0].stats.levels_used == expected,
                         qPrintable(QString("mode %1 type %2: %3 vs %4").arg(int(mode)).arg(int(type))
                                        .arg(r->rows[0].stats.levels_used).arg(expected)));
                QCOMPARE(r->rows[0].stats.mse, e->stats.mse);
            }
    }

    void worstFirst() {
        MemoryModel m;
        std::vector<float> outlier = normalValues(4096, 0.1f, 3);
        outlier[17] = 50.0f;  // one value stretches the range: most values fall into few levels
        m.addFloats("smooth", {4096}, normalValues(4096, 0.1f, 4));
        m.addFloats("outlier", {4096}, outlier);
        m.addFloats("zeros", {16}, std::vector<float>(16, 0.0f));
        auto r = computeModelReport(m, qdq8(), quick());
        QVERIFY(r.ok());
        QCOMPARE(r->rows.size(), size_t{3});
        QCOMPARE(r->rows[0].name, std::string("outlier"));
        QCOMPARE(r->rows[1].name, std::string("smooth"));
        QCOMPARE(r->rows[2].name, std::string("zeros"));  // lossless: +inf
        QVERIFY(r->rows[0].stats.sqnr_db + 10 < r->rows[1].stats.sqnr_db);
    }

    void perChannelRowsEqualEachChannelReportedAlone() {
        // [rows, channels] with channels last (the npz convention): channel c scaled by 10^c.
        const int64_t rows = 500, channels = 3;
        const std::vector<float> x = scaledChannels(rows, channels, 10.0f, 5);
        MemoryModel m;
        m.addFloats("k", {rows, channels}, x);
        for (QuantOp op : {QuantOp::QuantizeV2, QuantOp::QuantizeAndDequantizeV2}) {
            QuantSpec spec = qdq8(op);
            spec.axis = 0;  // any axis >= 0: per channel along the tensor's own channel axis
            auto r = computeModelReport(m, spec, quick());
            QVERIFY(r.ok());
            QVERIFY(r->per_channel);
            const TensorReportRow& row = r->rows.at(0);
            QCOMPARE(row.axis, 1);
            QCOMPARE(row.channels.size(), size_t{3});
            double levels = 0;
            for (const ChannelRow& ch : row.channels) {
                std::vector<float> alone;
                for (int64_t i = 0; i < rows; ++i) alone.push_back(x[static_cast<size_t>(i * channels + ch.channel)]);
                MemoryModel one;
                one.addFloats("c", {rows}, alone);
                QuantSpec perTensor = spec;
                perTensor.axis = -1;
                auto single = computeModelReport(one, perTensor, quick());
                QVERIFY(single.ok());
                const ReportStats& s = single->rows.at(0).stats;
                QCOMPARE(ch.stats.elements, rows);
                QCOMPARE(ch.stats.mse, s.mse);
                QCOMPARE(ch.stats.sqnr_db, s.sqnr_db);
                QCOMPARE(ch.stats.levels_used, s.levels_used);
                levels += s.levels_used;
            }
            QCOMPARE(row.stats.levels_used, levels / 3);
            for (size_t i = 1; i < row.channels.size(); ++i)
                QVERIFY(row.channels[i - 1].stats.sqnr_db <= row.channels[i].stats.sqnr_db);
            // Each channel quantized with its own range: the 100-fold scales do not matter.
            for (const ChannelRow& ch : row.channels)
                QVERIFY(std::abs(ch.stats.sqnr_db - row.channels[0].stats.sqnr_db) < 6);
            QuantSpec perTensor = spec;
            perTensor.axis = -1;
            auto whole = computeModelReport(m, perTensor, quick());
            QVERIFY(whole.ok());
            QVERIFY(!whole->per_channel);
            QVERIFY(whole->rows[0].channels.empty());
            QCOMPARE(whole->rows[0].axis, -1);
        }
    }

    void degenerateChannelLayoutsStayPerTensor() {
        MemoryModel m;
        m.addFloats("row", {1, 1000}, normalValues(1000, 1.0f, 9));        // one value per channel
        m.addFloats("wide", {2, 70000}, normalValues(140000, 1.0f, 10));    // more channels than the cap
        m.addFloats("fine", {3, 100}, normalValues(300, 1.0f, 11));
        QuantSpec spec = qdq8();
        spec.axis = 0;
        auto r = computeModelReport(m, spec, quick());
        QVERIFY(r.ok());
        QCOMPARE(r->rows.size(), size_t{3});
        for (const auto& row : r->rows) {
            QCOMPARE(row.axis, row.name == "fine" ? 1 : -1);
            QCOMPARE(row.channels.size(), size_t(row.name == "fine" ? 100 : 0));
        }
    }

    void calibrationFindsARangeAtLeastAsGoodAsMinMax() {
        std::vector<float> x = normalValues(200000, 1.0f, 6);
        x[5] = 40.0f;
        MemoryModel m;
        m.addFloats("t", {200000}, x);
        ModelReportOptions o;
        o.calibration_samples = 20000;
        auto r = computeModelReport(m, qdq8(), o);
        QVERIFY(r.ok());
        const TensorReportRow& row = r->rows.at(0);
        QVERIFY(row.calibration.has_value());
        QCOMPARE(row.calibration->sample, int64_t{20000});
        QVERIFY(row.calibration->method != CalibrationMethod::MinMax);  // the outlier costs min-max
        QVERIFY2(row.calibration->sqnr_db > row.stats.sqnr_db + 1, qPrintable(QString("%1 %2 %3 %4").arg(row.calibration->sqnr_db).arg(row.stats.sqnr_db).arg(row.calibration->min).arg(row.calibration->max)));
    }

    // Per channel, "the best calibration" was searched and measured per tensor only, so a
    // tensor whose channels differ in scale (every per-channel int8 weight) got a "best"
    // far below its own per-channel SQNR. Min-max is the row's own quantizer now: the best
    // is never worse than the row.
    void bestCalibrationIsNeverWorseThanTheRowsOwnQuantizer() {
        const int64_t rows = 400, channels = 4;
        const std::vector<float> x = scaledChannels(rows, channels, 30.0f, 21);
        MemoryModel m;
        m.addFloats("k", {rows, channels}, x);
        m.addFloats("v", {3000}, normalValues(3000, 1.0f, 22));
        for (QuantOp op : {QuantOp::QuantizeV2, QuantOp::QuantizeAndDequantizeV2}) {
            for (int64_t axis : {int64_t{-1}, int64_t{0}}) {
                QuantSpec spec = qdq8(op);
                spec.axis = axis;
                ModelReportOptions o;
                o.calibration_samples = 2000;
                auto r = computeModelReport(m, spec, o);
                QVERIFY(r.ok());
                for (const TensorReportRow& row : r->rows) {
                    QVERIFY(row.calibration.has_value());
                    QVERIFY2(row.calibration->sqnr_db >= row.stats.sqnr_db,
                             qPrintable(QString("%1 axis %2: best %3 dB, own %4 dB")
                                            .arg(QString::fromStdString(row.name)).arg(axis)
                                            .arg(row.calibration->sqnr_db).arg(row.stats.sqnr_db)));
                }
                const TensorReportRow* k = rowNamed(*r, "k");
                QVERIFY(k);
                if (axis >= 0) {  // no single range comes near each channel's own
                    QCOMPARE(k->calibration->method, CalibrationMethod::MinMax);
                    QVERIFY(k->calibration->per_channel);
                    QCOMPARE(k->calibration->sqnr_db, k->stats.sqnr_db);
                    QCOMPARE(bestCalibrationName(*k->calibration), std::string("min-max per channel"));
                } else {
                    QVERIFY(!k->calibration->per_channel);
                }
            }
        }
    }

    // TFLite keeps biases as int32 codes (scale = input scale × weight scale): under an
    // 8-bit op they get the lowest SQNR of the model and led the worst-first list. They
    // rank after every other tensor now, worst first among themselves, and are marked.
    void int32BiasesRankAfterTheWeights() {
        MemoryModel m;
        m.addFloats("weights", {2048}, normalValues(2048, 0.1f, 23));
        std::vector<int32_t> codes(512);
        std::mt19937 rng(24);
        std::cauchy_distribution<float> heavy(0.0f, 50.0f);  // a few codes far out: a poor 8-bit fit
        for (int32_t& c : codes) c = static_cast<int32_t>(std::clamp(heavy(rng), -1e6f, 1e6f));
        m.add<int32_t>("bias", {512}, DType::Int32, codes, StoredQuantization{{1e-4f}, {0}, 0});
        std::vector<int32_t> mild(512);
        for (size_t i = 0; i < mild.size(); ++i) mild[i] = static_cast<int32_t>(i) - 256;
        m.add<int32_t>("bias_mild", {512}, DType::Int32, mild, StoredQuantization{{1e-4f}, {0}, 0});
        auto r = computeModelReport(m, qdq8(), quick());
        QVERIFY(r.ok());
        QCOMPARE(r->rows.size(), size_t{3});
        const TensorReportRow* bias = rowNamed(*r, "bias");
        const TensorReportRow* weights = rowNamed(*r, "weights");
        QVERIFY(bias && weights);
        QVERIFY(bias->stats.sqnr_db < weights->stats.sqnr_db);  // the case that led the list
        QCOMPARE(r->rows[0].name, std::string("weights"));
        QVERIFY(!r->rows[0].int32_codes);
        QVERIFY(r->rows[1].int32_codes && r->rows[2].int32_codes);
        QVERIFY(r->rows[1].stats.sqnr_db <= r->rows[2].stats.sqnr_db);
        QVERIFY(modelReportJson(*r).find("\"int32_codes\": true") != std::string::npos);
    }

    // reportRowSpec is what the explorer runs for a clicked row: on the tensor's values it
    // gives the row's own numbers, per tensor and per channel, for every op.
    void rowSpecReproducesTheRow() {
        const int64_t rows = 300, channels = 3;
        const std::vector<float> x = scaledChannels(rows, channels, 10.0f, 25);
        MemoryModel m;
        m.addFloats("k", {rows, channels}, x);
        for (QuantOp op : {QuantOp::QuantizeV2, QuantOp::QuantizeAndDequantizeV2, QuantOp::QuantizeAndDequantizeV4,
                           QuantOp::TpuSimulatedQuantization}) {
            for (int64_t axis : {int64_t{-1}, int64_t{0}}) {
                QuantSpec spec = qdq8(op);
                spec.axis = usesAxis(op) ? axis : -1;
                auto r = computeModelReport(m, spec, quick());
                QVERIFY(r.ok());
                const TensorReportRow& row = r->rows.at(0);
                const QuantSpec rowSpec = reportRowSpec(r->spec, row);
                QCOMPARE(rowSpec.axis, int64_t{row.axis});
                auto e = computeExplorer(rowSpec, TensorRef<float>{x, {rows, channels}});
                QVERIFY(e.ok());
                QVERIFY2(std::abs(e->stats.sqnr_db - row.stats.sqnr_db) < 1e-9,
                         qPrintable(QString("%1 axis %2: explorer %3 dB, row %4 dB")
                                        .arg(quantOpKey(op).data()).arg(axis)
                                        .arg(e->stats.sqnr_db).arg(row.stats.sqnr_db)));
            }
        }
    }

    void progressRisesToOneAndCancelStops() {
        MemoryModel m;
        for (int i = 0; i < 5; ++i) m.addFloats("t" + std::to_string(i), {1000}, normalValues(1000, 1.0f, 7 + i));
        std::vector<double> seen;
        ModelReportOptions o = quick();
        o.progress = [&](double f) {
            seen.push_back(f);
            return true;
        };
        QVERIFY(computeModelReport(m, qdq8(), o).ok());
        QVERIFY(seen.size() > 5);
        QVERIFY(std::is_sorted(seen.begin(), seen.end()));
        QCOMPARE(seen.back(), 1.0);
        int calls = 0;
        o.progress = [&](double f) { return ++calls < 4 && f < 0.5; };
        auto cancelled = computeModelReport(m, qdq8(), o);
        QVERIFY(!cancelled.ok());
        QCOMPARE(cancelled.error().kind, std::string("Cancelled"));
        QCOMPARE(calls, 4);
    }

    void sameFiguresForAnyThreadCount() {
        // Channels last (npz: transposed for the op), channels first (onnx), per tensor.
        MemoryModel last, first("memory.onnx", "onnx");
        last.addFloats("big", {200000, 3}, normalValues(600000, 2.0f, 20));
        last.addFloats("small", {64}, normalValues(64, 2.0f, 21));
        first.addFloats("big", {3, 200000}, normalValues(600000, 2.0f, 22));
        for (const MemoryModel* m : {&last, &first}) {
            QuantSpec spec = qdq8();
            spec.axis = 0;
            ModelReportOptions one = quick(), two = quick();
            one.exec.threads = 1;
            two.exec.threads = 2;
            auto a = computeModelReport(*m, spec, one), b = computeModelReport(*m, spec, two);
            QVERIFY(a.ok() && b.ok());
            QVERIFY(a->per_channel && a->rows.front().channels.size() == 3);
            QCOMPARE(modelReportJson(*a), modelReportJson(*b));
            spec.axis = -1;
            a = computeModelReport(*m, spec, one);
            b = computeModelReport(*m, spec, two);
            QCOMPARE(modelReportJson(*a), modelReportJson(*b));
        }
    }

    void channelsLastMatchChannelsFirst() {
        // The same values stored [rows, 3] (npz: channels last) and [3, rows] (onnx: first):
        // channel c holds the same values in the same order, so its row must be identical.
        const int64_t rows = 1000;
        const std::vector<float> v = normalValues(static_cast<size_t>(rows * 3), 1.0f, 23);
        std::vector<float> t(v.size());
        for (int64_t r = 0; r < rows; ++r)
            for (int64_t c = 0; c < 3; ++c) t[static_cast<size_t>(c * rows + r)] = v[static_cast<size_t>(r * 3 + c)];
        MemoryModel last, first("memory.onnx", "onnx");
        last.addFloats("w", {rows, 3}, v);
        first.addFloats("w", {3, rows}, t);
        for (QuantOp op : {QuantOp::QuantizeV2, QuantOp::QuantizeAndDequantizeV4}) {
            QuantSpec spec = qdq8(op);
            spec.axis = 0;
            auto a = computeModelReport(last, spec, quick()), b = computeModelReport(first, spec, quick());
            QVERIFY(a.ok() && b.ok());
            const auto& ra = a->rows.at(0);
            const auto& rb = b->rows.at(0);
            QCOMPARE(ra.axis, 1);
            QCOMPARE(rb.axis, 0);
            QCOMPARE(ra.channels.size(), size_t{3});
            for (size_t i = 0; i < 3; ++i) {
                QCOMPARE(ra.channels[i].channel, rb.channels[i].channel);
                QCOMPARE(ra.channels[i].stats.mse, rb.channels[i].stats.mse);
                QCOMPARE(ra.channels[i].stats.sqnr_db, rb.channels[i].stats.sqnr_db);
                QCOMPARE(ra.channels[i].stats.levels_used, rb.channels[i].stats.levels_used);
                QCOMPARE(ra.channels[i].stats.min, rb.channels[i].stats.min);
            }
            QCOMPARE(ra.stats.mse, rb.stats.mse);
        }
    }

    void csvAndJsonCarryTheRows() {
        MemoryModel m("dir/my model.npz");
        m.addFloats("layer\"1\"/w", {2, 3}, {0.1f, -0.2f, 0.3f, 0.4f, -0.5f, 0.6f});
        m.add<int32_t>("shape", {2}, DType::Int32, {2, 3});
        QuantSpec spec = qdq8();
        spec.axis = 0;
        auto r = computeModelReport(m, spec);
        QVERIFY(r.ok());
        const data::TextTable t = modelReportTable(*r);
        QCOMPARE(t.header.front(), std::string("tensor"));
        QCOMPARE(t.header.size(), size_t{15});
        QCOMPARE(t.rows.size(), size_t{4});  // the tensor, then its 3 channels
        QCOMPARE(t.rows[0][1], std::string(""));
        QCOMPARE(t.rows[0][2], std::string("2x3"));

        QJsonParseError error;
        const QJsonDocument doc = QJsonDocument::fromJson(QByteArray::fromStdString(modelReportJson(*r)), &error);
        QVERIFY2(error.error == QJsonParseError::NoError, qPrintable(error.errorString()));
        const QJsonObject o = doc.object();
        QCOMPARE(o["format"].toString(), QString("npz"));
        QCOMPARE(o["spec"].toObject()["op"].toString(), QString("QuantizeAndDequantizeV2"));
        QCOMPARE(o["per_channel"].toBool(), true);
        const QJsonObject row = o["tensors"].toArray().at(0).toObject();
        QCOMPARE(row["name"].toString(), QString("layer\"1\"/w"));
        QCOMPARE(row["channels"].toArray().size(), 3);
        QCOMPARE(row["axis"].toInt(), 1);
        QVERIFY(row["best_calibration"].isObject());
        QCOMPARE(o["skipped"].toArray().at(0).toObject()["name"].toString(), QString("shape"));
    }
};

QTEST_GUILESS_MAIN(TstModelReport)
#include "tst_model_report.moc"
