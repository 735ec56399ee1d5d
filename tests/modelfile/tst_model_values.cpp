// The shared model-file layer (core/modelfile/tensor_values.h, model_file.h): float16 and
// bfloat16 against an independent formula over every bit pattern, dequantization per tensor
// and per channel against values worked out by hand, TensorInfo::byteSize's overflow
// guard, channelAxis's conventions, and openModel's dispatch and messages.
#include <QtTest>

#include <bit>
#include <cmath>
#include <cstring>
#include <limits>

#include "core/modelfile/model_file.h"
#include "core/modelfile/readers.h"
#include "core/modelfile/tensor_values.h"
#include "memory_model.h"

using namespace qs::modelfile;

namespace {

TensorInfo infoOf(qs::Shape shape, DType dtype = DType::Float32) {
    // Built whole, not assigned field by field: GCC 12 at -O3 warns falsely (-Wrestrict) on
    // assigning a short literal to a std::string member.
    return TensorInfo{.name = "t", .shape = std::move(shape), .dtype = dtype, .dtype_name = std::string(dtypeName(dtype)),
                      .quantization = {}, .origin = {}, .channel_axis = {}};
}

// A tensor over bytes the test owns.
struct Owned {
    std::string bytes;
    TensorData data;
};

template <typename T>
Owned tensorOf(DType dtype, qs::Shape shape, std::initializer_list<T> values,
               std::optional<StoredQuantization> quantization = std::nullopt) {
    Owned o;
    o.bytes.resize(values.size() * sizeof(T));
    std::memcpy(o.bytes.data(), std::data(values), o.bytes.size());
    o.data.info = infoOf(std::move(shape), dtype);
    o.data.info.quantization = std::move(quantization);
    o.data.bytes = o.bytes;
    return o;
}

std::vector<float> floats(const Owned& o) {
    auto v = toFloat32(o.data);
    if (!v) qWarning("%s", v.error().message.c_str());
    return v ? *v : std::vector<float>{};
}

QString errorOf(const Owned& o) {
    auto v = toFloat32(o.data);
    return v ? QString() : QString::fromStdString(v.error().message);
}

// IEEE half by its definition, in double: (-1)^s × 2^(e-15) × (1 + m/1024), subnormals
// 2^-14 × m/1024.
double halfByDefinition(uint16_t h) {
    const int sign = h >> 15, e = (h >> 10) & 0x1F, m = h & 0x3FF;
    double v;
    if (e == 0x1F) v = m == 0 ? std::numeric_limits<double>::infinity() : std::numeric_limits<double>::quiet_NaN();
    else if (e == 0) v = std::ldexp(m / 1024.0, -14);
    else v = std::ldexp(1.0 + m / 1024.0, e - 15);
    return sign ? -v : v;
}


}  // namespace

class TstModelValues : public QObject {
    Q_OBJECT

private slots:
    void halfEveryBitPattern() {
        int checked = 0;
        for (uint32_t h = 0; h <= 0xFFFF; ++h) {
            const float got = halfToFloat(static_cast<uint16_t>(h));
            const double want = halfByDefinition(static_cast<uint16_t>(h));
            if (std::isnan(want)) {
                QVERIFY2(std::isnan(got), qPrintable(QString::number(h, 16)));
            } else {
                QVERIFY2(double(got) == want, qPrintable(QString::number(h, 16)));
                QCOMPARE(std::signbit(got), std::signbit(want));  // -0 stays -0
            }
            ++checked;
        }
        QCOMPARE(checked, 65536);
        // Landmarks.
        QCOMPARE(halfToFloat(0x3C00), 1.0f);
        QCOMPARE(halfToFloat(0x7BFF), 65504.0f);                  // largest normal
        QCOMPARE(halfToFloat(0x0400), std::ldexp(1.0f, -14));     // smallest normal
        QCOMPARE(halfToFloat(0x0001), std::ldexp(1.0f, -24));     // smallest subnormal
        QCOMPARE(halfToFloat(0x03FF), std::ldexp(1023.0f, -24));  // largest subnormal
        QCOMPARE(halfToFloat(0xFC00), -std::numeric_limits<float>::infinity());
        QVERIFY(std::isnan(halfToFloat(0x7E00)));
    }

    void bfloat16IsTheTopHalfOfAFloat32() {
        QCOMPARE(bfloat16ToFloat(0x3F80), 1.0f);
        QCOMPARE(bfloat16ToFloat(0xC0A0), -5.0f);
        QCOMPARE(bfloat16ToFloat(0x7F80), std::numeric_limits<float>::infinity());
        QVERIFY(std::isnan(bfloat16ToFloat(0x7FC0)));
        QCOMPARE(bfloat16ToFloat(0x0001), std::bit_cast<float>(0x00010000u));  // subnormal kept
        QCOMPARE(std::signbit(bfloat16ToFloat(0x8000)), true);
    }

    void plainConversions() {
        QCOMPARE(floats(tensorOf<double>(DType::Float64, {3}, {0.1, -1e-50, 1e300})),
                 (std::vector<float>{0.1f, -0.0f, std::numeric_limits<float>::infinity()}));
        QCOMPARE(floats(tensorOf<int32_t>(DType::Int32, {2}, {16777217, -16777219})),
                 (std::vector<float>{16777216.0f, -16777220.0f}));  // nearest, ties to even
        QCOMPARE(floats(tensorOf<uint64_t>(DType::UInt64, {1}, {18446744073709551615ull})),
                 std::vector<float>{18446744073709551616.0f});
        QCOMPARE(floats(tensorOf<uint8_t>(DType::Bool, {2}, {0, 7})), (std::vector<float>{0, 1}));
        // Quantization on a float tensor is ignored: the floats are the values.
        QCOMPARE(floats(tensorOf<float>(DType::Float32, {2}, {1.5f, 2}, StoredQuantization{{10.0f}, {3}, 0})),
                 (std::vector<float>{1.5f, 2}));
    }

    void dequantizePerTensor() {
        // (code - zero_point) × scale in float32.
        QCOMPARE(floats(tensorOf<int8_t>(DType::Int8, {3}, {-128, 0, 127}, StoredQuantization{{0.5f}, {1}, 0})),
                 (std::vector<float>{-64.5f, -0.5f, 63.0f}));
        QCOMPARE(floats(tensorOf<uint8_t>(DType::UInt8, {3}, {0, 128, 255}, StoredQuantization{{0.1f}, {128}, 0})),
                 (std::vector<float>{-128 * 0.1f, 0.0f, 127 * 0.1f}));
        // Without a zero point: 0.
        QCOMPARE(floats(tensorOf<int16_t>(DType::Int16, {2}, {-3, 4}, StoredQuantization{{0.25f}, {}, 0})),
                 (std::vector<float>{-0.75f, 1.0f}));
    }

    void dequantizePerChannel() {
        // Shape [2, 3]; axis 0: rows use scale/zero point 0 and 1.
        const auto rows = tensorOf<int8_t>(DType::Int8, {2, 3}, {1, 2, 3, 4, 5, 6}, StoredQuantization{{1.0f, 0.5f}, {0, 2}, 0});
        QCOMPARE(floats(rows), (std::vector<float>{1, 2, 3, 1, 1.5f, 2}));
        // Axis 1 (last): columns use scales 1, 2, 3 and zero points 0, 0, 1.
        const auto cols = tensorOf<int8_t>(DType::Int8, {2, 3}, {1, 2, 3, 4, 5, 6},
                                           StoredQuantization{{1.0f, 2.0f, 3.0f}, {0, 0, 1}, 1});
        QCOMPARE(floats(cols), (std::vector<float>{1, 4, 6, 4, 10, 15}));
        // A middle axis of a rank-3 tensor [2, 2, 2], one zero point for all channels.
        const auto mid = tensorOf<int8_t>(DType::Int8, {2, 2, 2}, {1, 1, 1, 1, 1, 1, 1, 1},
                                          StoredQuantization{{2.0f, 3.0f}, {0}, 1});
        QCOMPARE(floats(mid), (std::vector<float>{2, 2, 3, 3, 2, 2, 3, 3}));
    }

    void quantizationThatDoesNotFit() {
        QCOMPARE(errorOf(tensorOf<int8_t>(DType::Int8, {2, 3}, {1, 2, 3, 4, 5, 6}, StoredQuantization{{1, 2, 3}, {0, 0, 0}, 0})),
                 QString("tensor 't': 3 scales for dimension 0 of shape [2,3]"));
        QCOMPARE(errorOf(tensorOf<int8_t>(DType::Int8, {2, 3}, {1, 2, 3, 4, 5, 6}, StoredQuantization{{1, 2}, {0, 0}, 2})),
                 QString("tensor 't': quantization axis 2 is outside shape [2,3]"));
        QCOMPARE(errorOf(tensorOf<int8_t>(DType::Int8, {2, 3}, {1, 2, 3, 4, 5, 6}, StoredQuantization{{1, 2}, {0, 0, 0}, 0})),
                 QString("tensor 't': 2 scales but 3 zero points"));
        QCOMPARE(errorOf(tensorOf<int8_t>(DType::Int8, {1}, {1}, StoredQuantization{{}, {}, 0})),
                 QString("tensor 't': stored quantization without a scale"));
    }

    void byteSizeGuardsOverflow() {
        QCOMPARE(infoOf({2, 3}).byteSize(), int64_t{24});
        QCOMPARE(infoOf({}, DType::Float64).byteSize(), int64_t{8});  // a scalar
        QCOMPARE(infoOf({0, 1000}).byteSize(), int64_t{0});
        QCOMPARE(infoOf({int64_t{1} << 61, 4}).byteSize(), int64_t{-1});      // elements overflow
        QCOMPARE(infoOf({int64_t{1} << 62}, DType::Int16).byteSize(), int64_t{-1});  // bytes overflow
        QCOMPARE(infoOf({int64_t{1} << 61}, DType::Int16).byteSize(), int64_t{1} << 62);
        QCOMPARE(infoOf({-1}).byteSize(), int64_t{-1});
        QCOMPARE(infoOf({4}, DType::Other).byteSize(), int64_t{-1});
    }

    void channelAxisConventions() {
        QCOMPARE(channelAxis("tflite", infoOf({8, 3, 3, 3})), 0);
        QCOMPARE(channelAxis("tflite", infoOf({1, 3, 3, 8})), 3);  // depthwise
        QCOMPARE(channelAxis("onnx", infoOf({16, 8})), 0);
        QCOMPARE(channelAxis("safetensors", infoOf({16, 8})), 0);  // PyTorch's Linear: [out, in]
        for (const char* format : {"npz", "npy", "hdf5", "keras", "tf-checkpoint"})
            QCOMPARE(channelAxis(format, infoOf({10, 20, 30})), 2);
        QCOMPARE(channelAxis("npz", infoOf({10})), -1);
        QCOMPARE(channelAxis("npz", infoOf({})), -1);
        TensorInfo used = infoOf({16, 8});
        used.channel_axis = 1;  // an ONNX MatMul weight
        QCOMPARE(channelAxis("onnx", used), 1);
        used.channel_axis = 5;  // out of range: the convention
        QCOMPARE(channelAxis("onnx", used), 0);
        TensorInfo quantized = infoOf({4, 5, 6}, DType::Int8);
        quantized.quantization = StoredQuantization{{1, 2, 3, 4, 5}, {0, 0, 0, 0, 0}, 1};
        QCOMPARE(channelAxis("tflite", quantized), 1);  // the stored axis wins
        quantized.quantization = StoredQuantization{{1}, {0}, 1};  // per tensor: convention
        QCOMPARE(channelAxis("tflite", quantized), 0);
    }

    void openModelDispatch() {
        const std::string dir = QS_MODELS_DIR;
        auto unknown = openModel(dir + "/SOURCES.md");
        QVERIFY(!unknown);
        QCOMPARE(unknown.error().message,
                 dir + "/SOURCES.md: not a model file QuantScope reads (.onnx, .tflite, .safetensors, .h5, .hdf5, "
                       ".keras, .npz, .npy, .index, or a SavedModel folder)");
        auto missing = openModel(dir + "/no-such-file.safetensors");
        QVERIFY(!missing);
        QVERIFY(QString::fromStdString(missing.error().message).startsWith(QString::fromStdString("cannot open " + dir + "/no-such-file.safetensors")));
        auto folder = openModel(dir + "/npz");
        QVERIFY(!folder);
        QCOMPARE(folder.error().message, dir + "/npz: a folder, but no SavedModel variables in it (variables/variables.index)");
        auto npz = openModel(dir + "/npz/mixed.npz");
        QVERIFY(npz);
        QCOMPARE((*npz)->format(), std::string_view("npz"));
        auto st = openModel(dir + "/safetensors/test-model-int8.safetensors");
        QVERIFY(st);
        QCOMPARE((*st)->format(), std::string_view("safetensors"));
        // The suffix picks the reader, in any case; the bytes do not.
        QTemporaryDir tmp;
        QVERIFY(QFile::copy(QString::fromStdString(dir + "/npz/mixed.npz"), tmp.filePath("M.NPZ")));
        auto upper = openModel(tmp.filePath("M.NPZ").toStdString());
        QVERIFY(upper);
        QCOMPARE((*upper)->format(), std::string_view("npz"));
        QVERIFY(QFile::copy(QString::fromStdString(dir + "/npz/mixed.npz"), tmp.filePath("m.safetensors")));
        auto wrong = openModel(tmp.filePath("m.safetensors").toStdString());
        QVERIFY(!wrong);
        QVERIFY(QString::fromStdString(wrong.error().message).contains("m.safetensors: the header length"));
    }

    void loadChecksAndDataset() {
        auto model = openModel(QS_MODELS_DIR "/npz/mixed.npz");
        QVERIFY(model);
        auto none = (*model)->load(99);
        QVERIFY(!none);
        QCOMPARE(none.error().message, std::string(QS_MODELS_DIR "/npz/mixed.npz: no tensor number 99"));
        auto set = toDataset(**model, static_cast<size_t>((*model)->find("fortran")));
        QVERIFY(set);
        QCOMPARE(set->label, std::string("mixed.npz \u203a fortran"));
        QCOMPARE(set->shape, (qs::Shape{2, 3}));
        QCOMPARE(set->values, (std::vector<float>{1, 2, 3, 4, 5, 6}));
    }

    // A tensor over the memory budget becomes a streamed data set whose values, read in
    // chunks that cut across channels, are the loaded set's: float32 (a view of the stored
    // bytes), float16, int8 per channel along axis 1, int8 per tensor. A zero point out of
    // range fails the read that meets it, naming the tensor.
    void aTensorOverTheBudgetIsStreamed() {
        test::MemoryModel model("big.npz");
        std::vector<float> f32(300 * 7);
        for (size_t i = 0; i < f32.size(); ++i) f32[i] = std::sin(float(i)) * 3.0f;
        std::vector<uint16_t> f16(64);
        for (size_t i = 0; i < f16.size(); ++i) f16[i] = uint16_t(0x3C00 + i * 97);
        std::vector<int8_t> codes(40 * 6);
        for (size_t i = 0; i < codes.size(); ++i) codes[i] = int8_t(int(i * 37 % 255) - 127);
        StoredQuantization perChannel{{0.5f, 0.25f, 2.0f, 1.0f, 0.125f, 4.0f}, {0, 1, -3, 5, 0, 2}, 1};
        StoredQuantization perTensor{{0.1f}, {7}, 0};
        model.addFloats("f32", {300, 7}, f32)
            .add("f16", {8, 8}, DType::Float16, f16)
            .add("q_axis1", {40, 6}, DType::Int8, codes, perChannel)
            .add("q_tensor", {40, 6}, DType::Int8, codes, perTensor);
        for (size_t index = 0; index < model.tensors().size(); ++index) {
            const auto loaded = toDataset(model, index);
            QVERIFY(loaded && !loaded->streamed());
            QVERIFY(toDataset(model, index, int64_t(1) << 20)->values == loaded->values);  // under the budget
            const auto streamed = toDataset(model, index, int64_t(0));
            QVERIFY(streamed && streamed->streamed() && streamed->values.empty());
            QCOMPARE(streamed->shape, loaded->shape);
            QCOMPARE(streamed->label, loaded->label);
            std::vector<float> read;
            qs::data::ChunkOptions chunks;
            chunks.chunk_elements = 13;  // runs and channels cut anywhere
            QVERIFY(qs::data::forEachChunk(*streamed->stream, [&](int64_t, std::span<const float> v) {
                read.insert(read.end(), v.begin(), v.end());
                return qs::okStatus();
            }, chunks));
            QVERIFY2(read == loaded->values, model.tensors()[index].name.c_str());
        }
        QVERIFY(!toDataset(model, 0, int64_t(0))->stream->inMemory().empty());  // float32: a view

        test::MemoryModel bad("bad.npz");
        bad.add("codes", {4}, DType::Int64, std::vector<int64_t>{1, 2, 3, std::numeric_limits<int64_t>::max()},
                StoredQuantization{{1.0f}, {-2}, 0});
        const auto set = toDataset(bad, 0, int64_t(0));
        QVERIFY(set && set->streamed());
        std::vector<float> out(4);
        const qs::Status failed = set->stream->read(0, out);
        QVERIFY(!failed);
        QVERIFY2(QString::fromStdString(failed.error().message).contains("tensor 'codes': zero point -2 is out of range"),
                 failed.error().message.c_str());
        QVERIFY(set->stream->read(0, std::span<float>(out).first(3)));
        QCOMPARE(out[0], 3.0f);
    }
};

QTEST_GUILESS_MAIN(TstModelValues)
#include "tst_model_values.moc"
