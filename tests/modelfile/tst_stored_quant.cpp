// Stored quantization against TF's ops and the Frameworks tab's rules (core/analysis/
// stored_quant.h): on tensors built here whose codes come from a known rule (so which rules
// must reproduce them, and by how much the others miss, is known in advance), and on the
// real files: person_detect.tflite's per-channel int8 weights and the safetensors int8 copy
// of a float table.
#include <QtTest>
#include <cmath>
#include <memory>

#include "core/analysis/framework_schemes.h"
#include "core/model_analysis/stored_quant.h"
#include "core/modelfile/model_file.h"

namespace {

using qs::analysis::compareStoredQuantization;
using qs::analysis::StoredQuantComparison;
using qs::modelfile::DType;
using qs::modelfile::TensorData;

template <typename T>
TensorData tensorOf(std::string name, qs::Shape shape, DType dtype, const std::vector<T>& values,
                    std::optional<qs::modelfile::StoredQuantization> q = std::nullopt) {
    auto bytes = std::make_shared<std::string>(reinterpret_cast<const char*>(values.data()), values.size() * sizeof(T));
    TensorData t;
    t.info.name = std::move(name);
    t.info.shape = std::move(shape);
    t.info.dtype = dtype;
    t.info.dtype_name = std::string(qs::modelfile::dtypeName(dtype));
    t.info.quantization = std::move(q);
    t.bytes = *bytes;
    t.owner = bytes;
    return t;
}

const qs::analysis::StoredCodeRule* rule(const StoredQuantComparison& c, const QString& startsWith) {
    for (const auto& r : c.rules)
        if (QString::fromStdString(r.label).startsWith(startsWith)) return &r;
    return nullptr;
}

QString modelPath(const char* relative) { return QStringLiteral(QS_MODELS_DIR "/") + relative; }

}  // namespace

class TstStoredQuant : public QObject {
    Q_OBJECT

private slots:
    // Codes made as TFLite's converter makes weights (symmetric per channel, scale
    // max|w|/127, round half away from zero): with the float original every symmetric
    // rule reproduces them; an asymmetric rule (PyTorch's MinMaxObserver) does not.
    void perChannelCodesFromTheirOriginal() {
        // Two channels along axis 0, with different ranges; values are not halfway cases.
        const std::vector<float> w = {0.5f, -0.25f, 0.1f, -1.0f, 0.03f, 0.02f, -0.011f, 0.007f};
        const std::vector<float> scale = {1.0f / 127, 0.03f / 127};
        std::vector<int8_t> codes(w.size());
        for (size_t i = 0; i < w.size(); ++i) codes[i] = static_cast<int8_t>(std::round(w[i] / scale[i / 4]));
        QCOMPARE(int(codes[3]), -127);
        QCOMPARE(int(codes[4]), 127);
        const TensorData stored = tensorOf("w", {2, 4}, DType::Int8, codes, qs::modelfile::StoredQuantization{scale, {0, 0}, 0});
        const TensorData original = tensorOf("w", {2, 4}, DType::Float32, w);
        auto c = compareStoredQuantization(stored, &original, "float.bin › w");
        QVERIFY2(c.ok(), c.ok() ? "" : c.error().message.c_str());
        QCOMPARE(c->channels, int64_t{2});
        QCOMPARE(c->axis, 0);
        QVERIFY(!c->round_trip);
        QVERIFY(QString::fromStdString(c->input_source).contains("float.bin › w"));
        QCOMPARE(c->code_min, -127);
        QCOMPARE(c->code_max, 127);
        for (const char* exact : {"TF QuantizeV2 SCALED qint8, narrow_range, ensure_minimum_range 0",
                                  "TFLite symmetric weights", "the file's scale and zero point, round half away"}) {
            const auto* r = rule(*c, exact);
            QVERIFY2(r, exact);
            QVERIFY2(r->exact(), exact);
        }
        // The second channel's range is 0.041 wide: TF's ensure_minimum_range (0.01 of
        // max(1, |range|)) does not bite, so SCALED with the default matches too.
        QVERIFY(rule(*c, "TF QuantizeV2 SCALED qint8, narrow_range")->exact());
        // PyTorch's affine observer puts the zero point off 0 for the lopsided first channel.
        const auto* torch = rule(*c, "PyTorch");
        QVERIFY(torch && torch->error.empty());
        QVERIFY(torch->differing > 0);
        QVERIFY(torch->channels_differing >= 1);
        QCOMPARE(c->exact_rule, c->best_rule);
        QVERIFY(QString::fromStdString(c->summary).contains("reproduces all 8 stored codes"));
        // The dequantized values are (code - 0) * scale of their channel.
        QCOMPARE(c->dequantized[4], 127 * scale[1]);
    }

    // One code off by 2: every rule that reproduced the rest now counts exactly that element.
    void aChangedCodeIsCountedWithItsDistance() {
        const std::vector<float> w = {0.5f, -0.25f, 0.1f, -1.0f};
        const std::vector<int8_t> good = {64, -32, 13, -127};  // round(w * 127)
        std::vector<int8_t> bad = good;
        bad[2] += 2;
        const TensorData original = tensorOf("t", {4}, DType::Float32, w);
        auto ok = compareStoredQuantization(tensorOf("t", {4}, DType::Int8, good), &original);
        QVERIFY(ok.ok());
        const auto* sym = rule(*ok, "TFLite symmetric weights (int8");
        QVERIFY(sym && sym->exact());
        auto c = compareStoredQuantization(tensorOf("t", {4}, DType::Int8, bad), &original);
        QVERIFY(c.ok());
        sym = rule(*c, "TFLite symmetric weights (int8");
        QCOMPARE(sym->differing, int64_t{1});
        QCOMPARE(sym->max_code_diff, int64_t{2});
        QCOMPARE(sym->first_differing, int64_t{2});
        QCOMPARE(c->exact_rule, -1);
        QVERIFY(QString::fromStdString(c->summary).startsWith("no rule reproduces the file exactly"));
        // Without a stored scale the values use the scale the original implies: 1/127.
        QVERIFY(QString::fromStdString(c->dequantization).contains("implies"));
        QCOMPARE(c->dequantized[3], -127 * (1.0f / 127));
    }

    // Halfway cases tell the tie rules apart: x = 2.5 steps rounds to 3 half-away (TFLite) and
    // to 2 half-to-even (ONNX), with the same scale.
    void tiesSeparateTheRoundingRules() {
        const float s = 0.5f;  // exact in float32, so x / s is exact
        const std::vector<float> w = {1.25f, 63.5f, -63.5f, 0.0f};  // 2.5, 127, -127, 0 steps
        const std::vector<int8_t> away = {3, 127, -127, 0};
        const TensorData original = tensorOf("t", {4}, DType::Float32, w);
        auto c = compareStoredQuantization(tensorOf("t", {4}, DType::Int8, away, qs::modelfile::StoredQuantization{{s}, {0}, 0}),
                                           &original);
        QVERIFY(c.ok());
        QVERIFY(rule(*c, "the file's scale and zero point, round half away")->exact());
        const auto* even = rule(*c, "the file's scale and zero point, round half to even");
        QCOMPARE(even->differing, int64_t{1});
        QCOMPARE(even->first_differing, int64_t{0});
        // QDQ V4 rounds half to even as well.
        QCOMPARE(rule(*c, "TF QuantizeAndDequantizeV4")->differing, int64_t{1});
    }

    void roundTripWithoutAnOriginal() {
        const std::vector<int8_t> codes = {-127, -5, 0, 7, 127, 100};
        auto c = compareStoredQuantization(
            tensorOf("q", {6}, DType::Int8, codes, qs::modelfile::StoredQuantization{{0.02f}, {0}, 0}));
        QVERIFY(c.ok());
        QVERIFY(c->round_trip);
        QVERIFY(QString::fromStdString(c->input_source).contains("round-trip"));
        QCOMPARE(c->input, c->dequantized);
        QVERIFY(c->exact_rule >= 0);
        QCOMPARE(c->code_counts.size(), size_t{255});
        QCOMPARE(c->code_counts[0], int64_t{1});  // -127
        QVERIFY(!rule(*c, "the file's scale"));  // trivially exact on its own values: not offered
    }

    // person_detect.tflite: every int8 weight tensor is stored per channel (axis 0, or 3 for
    // the depthwise kernels and the first convolution). Without the float weights this is a
    // round trip: quantizing code × scale again. Measured: the symmetric narrow-range rules
    // (QuantizeV2 SCALED narrow_range, QDQ V4 narrow range, TFLite's symmetric weights either
    // way of dividing) give every code back in all 28 tensors; SCALED over the full [-128, 127]
    // moves some codes by exactly 1 (its scale is 128/|min| when the channel's negative side
    // dominates); the asymmetric schemes put the zero point elsewhere.
    void personDetectWeightsRoundTrip() {
        auto model = qs::modelfile::openModel(modelPath("tflite/person_detect.tflite").toStdString());
        QVERIFY2(model.ok(), model.ok() ? "" : model.error().message.c_str());
        int compared = 0;
        for (size_t i = 0; i < (*model)->tensors().size(); ++i) {
            const auto& info = (*model)->tensors()[i];
            if (info.dtype != DType::Int8 || info.shape.size() != 4) continue;
            QVERIFY(qs::analysis::isStoredQuantized(info));
            auto data = (*model)->load(i);
            QVERIFY(data.ok());
            auto c = compareStoredQuantization(*data);
            QVERIFY2(c.ok(), info.name.c_str());
            QVERIFY(c->round_trip);
            QCOMPARE(c->axis, info.quantization->axis);
            QCOMPARE(c->channels, info.shape[static_cast<size_t>(c->axis)]);
            for (const char* exact : {"TF QuantizeV2 SCALED qint8, narrow_range", "TF QuantizeAndDequantizeV4 narrow_range",
                                      "TFLite symmetric weights (int8", "TFLite symmetric weights, x · (1/scale)"})
                QVERIFY2(rule(*c, exact)->exact(), (info.name + ": " + exact).c_str());
            QCOMPARE(QString::fromStdString(c->rules[static_cast<size_t>(c->exact_rule)].label),
                     QStringLiteral("TF QuantizeV2 SCALED qint8, narrow_range"));
            const auto* wide = rule(*c, "TF QuantizeV2 SCALED qint8");
            QVERIFY(wide->differing > 0);
            QCOMPARE(wide->max_code_diff, int64_t{1});
            for (const char* asymmetric : {"PyTorch", "ONNX", "TFLite asymmetric"})
                QVERIFY(rule(*c, asymmetric)->differing > 0);
            if (info.name == "MobilenetV1/Conv2d_0/weights/read") {
                QCOMPARE(c->axis, 3);
                QCOMPARE(c->channels, int64_t{8});
                QCOMPARE(wide->differing, int64_t{29});
                QCOMPARE(wide->channels_differing, int64_t{6});
                QCOMPARE(c->code_min, -127);
                QCOMPARE(c->code_max, 127);
            }
            ++compared;
        }
        QCOMPARE(compared, 28);
    }

    // The safetensors pair: test-model-int8 holds round(x / max|x| × 127) of test-model-float32
    // and no scale. Fed the float original, TF's QuantizeV2 SCALED qint8 with narrow_range
    // stores exactly these 59056 codes (so does QDQ V4 narrow range, and TFLite's symmetric
    // weights); without narrow_range 11120 codes differ by one.
    void safetensorsPairAgainstItsOriginal() {
        auto stored = qs::modelfile::openModel(modelPath("safetensors/test-model-int8.safetensors").toStdString());
        auto original = qs::modelfile::openModel(modelPath("safetensors/test-model-float32.safetensors").toStdString());
        QVERIFY(stored.ok() && original.ok());
        auto codes = (*stored)->load(0);
        auto floats = (*original)->load(static_cast<size_t>((*original)->find("embeddings")));
        QVERIFY(codes.ok() && floats.ok());
        QVERIFY(!qs::analysis::isStoredQuantized(codes->info));
        QVERIFY(!compareStoredQuantization(*codes).ok());  // no scale, no original: refused
        auto c = compareStoredQuantization(*codes, &*floats, "test-model-float32.safetensors › embeddings");
        QVERIFY(c.ok());
        QVERIFY(!c->round_trip);
        QCOMPARE(c->axis, -1);
        QCOMPARE(c->codes.size(), size_t{59056});
        QCOMPARE(QString::fromStdString(c->rules[static_cast<size_t>(c->exact_rule)].label),
                 QStringLiteral("TF QuantizeV2 SCALED qint8, narrow_range"));
        for (const char* exact : {"TF QuantizeAndDequantizeV4 narrow_range", "TFLite symmetric weights (int8",
                                  "TFLite symmetric weights, x · (1/scale)"})
            QVERIFY2(rule(*c, exact)->exact(), exact);
        const auto* wide = rule(*c, "TF QuantizeV2 SCALED qint8");
        QCOMPARE(wide->differing, int64_t{11120});
        QCOMPARE(wide->max_code_diff, int64_t{1});
        QVERIFY(rule(*c, "PyTorch")->differing > 59000);
        // The values: code × max|x| / 127, the scale the original implies.
        float maxAbs = 0;
        for (float x : c->input) maxAbs = std::max(maxAbs, std::fabs(x));
        QCOMPARE(c->dequantized[0], static_cast<float>(c->codes[0]) * (maxAbs / 127.0f));
        QVERIFY(QString::fromStdString(c->summary).contains("test-model-float32.safetensors"));
    }

    // uint8 with a zero point (ONNX's DynamicQuantizeLinear recipe on the data's range): the
    // ONNX rule and the file's own parameters give every code back from the original.
    void unsignedAsymmetricCodes() {
        const std::vector<float> x = {-0.7f, -0.1f, 0.0f, 0.33f, 1.2f, 0.05f};
        const qs::analysis::AffineParams p = qs::analysis::onnxParams(-0.7f, 1.2f, 8, false);
        std::vector<uint8_t> codes;
        for (float v : x) codes.push_back(static_cast<uint8_t>(qs::analysis::affineCode(v, {p, true, qs::RoundMode::HalfToEven})));
        const TensorData original = tensorOf("w", {6}, DType::Float32, x);
        auto c = compareStoredQuantization(
            tensorOf("w", {6}, DType::UInt8, codes, qs::modelfile::StoredQuantization{{p.scale}, {p.zero_point}, 0}), &original);
        QVERIFY(c.ok());
        QVERIFY(!c->is_signed);
        QVERIFY(rule(*c, "ONNX QuantizeLinear/DequantizeLinear (uint8)")->exact());
        QVERIFY(rule(*c, "the file's scale and zero point, round half to even")->exact());
        QVERIFY(!rule(*c, "TFLite symmetric"));  // signed only
        const auto* scaled = rule(*c, "TF QuantizeV2 SCALED quint8");
        QVERIFY(scaled);
        // SCALED quint8 runs but has no zero point: the negative values and the codes
        // offset by the zero point come out differently (4 of 6).
        QVERIFY(scaled->error.empty());
        QCOMPARE(scaled->differing, int64_t{4});
        QVERIFY(c->exact_rule >= 0);
    }

    void cancelStopsBetweenRules() {
        const std::vector<int8_t> codes = {-127, 5, 127};
        const std::atomic<bool> cancelled{true};
        auto c = compareStoredQuantization(
            tensorOf("q", {3}, DType::Int8, codes, qs::modelfile::StoredQuantization{{0.5f}, {0}, 0}), nullptr, {}, &cancelled);
        QVERIFY(!c.ok());
        QCOMPARE(c.error().kind, std::string("Cancelled"));
    }

    void refusals() {
        const std::vector<float> f = {1, 2};
        QCOMPARE(compareStoredQuantization(tensorOf("f", {2}, DType::Float32, f)).error().kind, std::string("DataError"));
        const std::vector<int8_t> q = {1, 2};
        auto noScale = compareStoredQuantization(tensorOf("codes", {2}, DType::Int8, q));
        QVERIFY(!noScale.ok());
        QVERIFY(QString::fromStdString(noScale.error().message).contains("'codes'"));
        QVERIFY(QString::fromStdString(noScale.error().message).contains("original"));
        const std::vector<float> three = {1, 2, 3};
        const TensorData other = tensorOf("o", {3}, DType::Float32, three);
        auto shape = compareStoredQuantization(tensorOf("codes", {2}, DType::Int8, q), &other);
        QVERIFY(!shape.ok());
        QVERIFY(QString::fromStdString(shape.error().message).contains("[3]"));
        const std::vector<int32_t> wide = {1, 2};
        QVERIFY(!compareStoredQuantization(tensorOf("b", {2}, DType::Int32, wide,
                                                    qs::modelfile::StoredQuantization{{1.0f}, {0}, 0})).ok());
        // A per-channel axis outside the shape is the file's error, not a crash.
        auto axis = compareStoredQuantization(
            tensorOf("a", {2}, DType::Int8, q, qs::modelfile::StoredQuantization{{1.0f, 2.0f}, {0, 0}, 3}));
        QVERIFY(!axis.ok());
        QVERIFY(QString::fromStdString(axis.error().message).contains("axis 3"));
    }
};

QTEST_GUILESS_MAIN(TstStoredQuant)
#include "tst_stored_quant.moc"
