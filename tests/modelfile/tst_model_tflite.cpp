// The TFLite reader against facts known without it:
//  - two files TFLite's converter wrote (tests/data/models/tflite, origins in SOURCES.md),
//    whose names, shapes, types, scale bit patterns and first codes were read with
//    `flatc --raw-binary -t` and TFLite's published schema.fbs (scale declared [uint] to print
//    the exact bits) — a different decoder from the one under test;
//  - dequantized values recomputed here from the raw codes (code × scale of the element's
//    channel, zero points 0);
//  - flatbuffers built here with FlatBufferBuilder from the schema's field ids: float16 data,
//    data stored after the flatbuffer via offset/size, names shared between subgraphs, and
//    the hostile variants (buffer index out of range, offsets past the end, sizes that do not
//    match the shape, negative dims, broken vectors, truncation).
#include <flatbuffers/flatbuffers.h>

#include <QElapsedTimer>
#include <QtTest>
#include <bit>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "core/modelfile/model_file.h"
#include "core/modelfile/readers.h"
#include "core/modelfile/tensor_values.h"
#include "tests/modelfile/model_test_util.h"

using namespace qs::modelfile;
using namespace qs::modelfile::testing;

namespace {

const std::string kDir = std::string(QS_MODELS_DIR) + "/tflite/";

// ---- flatbuffers built by hand, with the field ids of schema.fbs ----------------------

constexpr flatbuffers::voffset_t slot(int id) { return static_cast<flatbuffers::voffset_t>(4 + 2 * id); }
constexpr int8_t kFloat32 = 0, kFloat16 = 1, kInt32 = 2, kInt8 = 9;

struct HandTensor {
    std::string name;
    std::vector<int32_t> shape;
    int8_t type = kFloat32;
    uint32_t buffer = 0;
    std::vector<float> scale = {};
    std::vector<int64_t> zeroPoint = {};
    int32_t axis = 0;
    uint8_t detailsType = 0;
    bool sparse = false;
};
struct HandBuffer {
    std::string data;
    uint64_t offset = 0;
    uint64_t size = 0;
};

struct Built {
    std::string bytes;
    uint32_t firstTensorsVector = 0;  // where subgraph 0's tensor vector's length sits
};

Built build(const std::vector<std::vector<HandTensor>>& subgraphs, const std::vector<HandBuffer>& buffers,
            const char* identifier = "TFL3") {
    flatbuffers::FlatBufferBuilder b;
    using TableOffset = flatbuffers::Offset<flatbuffers::Table>;
    std::vector<TableOffset> bufferTables;
    for (const auto& buffer : buffers) {
        flatbuffers::Offset<flatbuffers::Vector<uint8_t>> data;
        if (!buffer.data.empty()) {
            b.ForceVectorAlignment(buffer.data.size(), 1, 16);
            data = b.CreateVector(reinterpret_cast<const uint8_t*>(buffer.data.data()), buffer.data.size());
        }
        const auto start = b.StartTable();
        if (!buffer.data.empty()) b.AddOffset(slot(0), data);
        b.AddElement<uint64_t>(slot(1), buffer.offset, 0);
        b.AddElement<uint64_t>(slot(2), buffer.size, 0);
        bufferTables.emplace_back(b.EndTable(start));
    }
    std::vector<TableOffset> subgraphTables;
    std::vector<flatbuffers::uoffset_t> tensorVectors;
    for (const auto& tensors : subgraphs) {
        std::vector<TableOffset> tensorTables;
        for (const auto& t : tensors) {
            const auto name = b.CreateString(t.name);
            const auto shape = b.CreateVector(t.shape);
            TableOffset quantization;
            if (!t.scale.empty() || t.detailsType) {
                const auto scale = b.CreateVector(t.scale);
                const auto zero = b.CreateVector(t.zeroPoint);
                const auto q = b.StartTable();
                b.AddOffset(slot(2), scale);
                b.AddOffset(slot(3), zero);
                b.AddElement<uint8_t>(slot(4), t.detailsType, 0);
                b.AddElement<int32_t>(slot(6), t.axis, 0);
                quantization = TableOffset(b.EndTable(q));
            }
            TableOffset sparsity;
            if (t.sparse) sparsity = TableOffset(b.EndTable(b.StartTable()));
            const auto start = b.StartTable();
            b.AddOffset(slot(0), shape);
            b.AddElement<int8_t>(slot(1), t.type, 0);
            b.AddElement<uint32_t>(slot(2), t.buffer, 0);
            b.AddOffset(slot(3), name);
            if (!quantization.IsNull()) b.AddOffset(slot(4), quantization);
            if (!sparsity.IsNull()) b.AddOffset(slot(6), sparsity);
            tensorTables.emplace_back(b.EndTable(start));
        }
        const auto vector = b.CreateVector(tensorTables);
        tensorVectors.push_back(vector.o);
        const auto start = b.StartTable();
        b.AddOffset(slot(0), vector);
        subgraphTables.emplace_back(b.EndTable(start));
    }
    const auto subgraphVector = b.CreateVector(subgraphTables);
    const auto bufferVector = b.CreateVector(bufferTables);
    const auto start = b.StartTable();
    b.AddElement<uint32_t>(slot(0), 3, 0);
    b.AddOffset(slot(2), subgraphVector);
    b.AddOffset(slot(4), bufferVector);
    b.Finish(TableOffset(b.EndTable(start)), identifier);
    Built out;
    out.bytes.assign(reinterpret_cast<const char*>(b.GetBufferPointer()), b.GetSize());
    // Offsets count from the end of the finished buffer.
    if (!tensorVectors.empty()) out.firstTensorsVector = b.GetSize() - tensorVectors[0];
    return out;
}

// The model with buffer `tailBuffer`'s data stored after the flatbuffer (16-byte aligned),
// found through its offset/size: how TFLite stores weights of models over 2 GB.
std::string buildWithTail(const std::vector<std::vector<HandTensor>>& subgraphs, std::vector<HandBuffer> buffers,
                          size_t tailBuffer, const std::string& tail) {
    buffers[tailBuffer] = {{}, 2, tail.size()};  // a placeholder > 1: the layout is the same for any such value
    size_t flatSize = build(subgraphs, buffers).bytes.size();
    const size_t offset = (flatSize + 15) / 16 * 16;
    buffers[tailBuffer].offset = offset;
    std::string bytes = build(subgraphs, buffers).bytes;
    bytes.resize(offset, '\0');
    return bytes + tail;
}

template <typename T>
std::string raw(const std::vector<T>& v) {
    std::string out(v.size() * sizeof(T), '\0');
    std::memcpy(out.data(), v.data(), out.size());
    return out;
}

qs::Result<ModelPtr> open(const std::string& bytes, const std::string& label = "hand.tflite") {
    return openTflite(label, copyBytes(bytes));
}

// Element i's channel along `axis` of `shape` (row-major), worked out here.
int64_t channelOf(const qs::Shape& shape, int axis, int64_t i) {
    int64_t inner = 1;
    for (size_t d = static_cast<size_t>(axis) + 1; d < shape.size(); ++d) inner *= shape[d];
    return (i / inner) % shape[static_cast<size_t>(axis)];
}

}  // namespace

class TstModelTflite : public QObject {
    Q_OBJECT

private slots:
    // ---- files TFLite's converter wrote ------------------------------------------------

    void helloWorldPerTensor() {
        QElapsedTimer timer;
        timer.start();
        auto opened = openModel(kDir + "hello_world_int8.tflite");
        const auto ms = timer.nsecsElapsed() / 1e6;
        QVERIFY2(opened.ok(), opened.ok() ? "" : qPrintable(errorOf(opened.error())));
        qInfo("hello_world_int8.tflite listed in %.3f ms", ms);
        const ModelFile& model = **opened;
        QCOMPARE(model.format(), std::string_view("tflite"));
        // flatc's decoding: the six tensors with data, in file order (the four activations
        // and the input have empty buffers and are not listed).
        struct Expected {
            const char* name;
            qs::Shape shape;
            const char* dtype;
            uint32_t scaleBits;
        };
        const std::vector<Expected> expected = {
            {"sequential/dense_2/BiasAdd/ReadVariableOp", {1}, "int32", 0x394e41cbu},
            {"sequential/dense_2/MatMul", {1, 16}, "int8", 0x3c7c4417u},
            {"sequential/dense_1/BiasAdd/ReadVariableOp", {16}, "int32", 0x3918397bu},
            {"sequential/dense_1/MatMul", {16, 16}, "int8", 0x3c327f7fu},
            {"sequential/dense/BiasAdd/ReadVariableOp", {16}, "int32", 0x38cf5b55u},
            {"sequential/dense/MatMul", {16, 1}, "int8", 0x3b8459aau},
        };
        QCOMPARE(model.tensors().size(), expected.size());
        for (size_t i = 0; i < expected.size(); ++i) {
            const TensorInfo& info = model.tensors()[i];
            QCOMPARE(info.name, std::string(expected[i].name));
            QCOMPARE(info.shape, expected[i].shape);
            QCOMPARE(info.dtype_name, std::string(expected[i].dtype));
            QCOMPARE(info.origin, std::string("subgraph 0"));
            QVERIFY(info.quantization.has_value());
            QCOMPARE(info.quantization->scale.size(), size_t{1});
            QCOMPARE(std::bit_cast<uint32_t>(info.quantization->scale[0]), expected[i].scaleBits);
            QCOMPARE(info.quantization->zero_point, std::vector<int64_t>{0});
            QVERIFY(!info.quantization->perChannel());
        }
        // dense_2/MatMul: flatc shows the codes 217 59 39 21 28 224 ... (as uint8).
        auto tensor = model.load(1);
        QVERIFY(tensor.ok());
        const std::vector<int8_t> firstCodes = {-39, 59, 39, 21, 28, -32};
        for (size_t i = 0; i < firstCodes.size(); ++i) QCOMPARE(static_cast<int8_t>(tensor->bytes[i]), firstCodes[i]);
        const auto values = toFloat32(*tensor);
        QVERIFY(values.ok());
        const float scale = std::bit_cast<float>(0x3c7c4417u);
        for (size_t i = 0; i < 16; ++i)
            QCOMPARE(values->at(i), static_cast<float>(static_cast<int8_t>(tensor->bytes[i])) * scale);
        // The bias of dense_2: 0x000001ad = 429.
        auto bias = model.load(0);
        QVERIFY(bias.ok());
        int32_t code = 0;
        std::memcpy(&code, bias->bytes.data(), 4);
        QCOMPARE(code, 429);
    }

    void personDetectPerChannel() {
        const std::string bytes = fileBytes(kDir + "person_detect.tflite");
        QVERIFY(bytes.size() == 300568);
        const SharedBytes shared = copyBytes(bytes);
        QElapsedTimer timer;
        timer.start();
        auto opened = openTflite("person_detect.tflite", shared);
        const auto ms = timer.nsecsElapsed() / 1e6;
        QVERIFY2(opened.ok(), opened.ok() ? "" : qPrintable(errorOf(opened.error())));
        qInfo("person_detect.tflite listed in %.3f ms", ms);
        QVERIFY(ms < 200);
        const ModelFile& model = **opened;
        QCOMPARE(model.tensors().size(), size_t{57});  // flatc: 57 tensors with non-empty buffers

        int depthwise = 0, pointwise = 0, biases = 0;
        for (size_t i = 0; i < model.tensors().size(); ++i) {
            const TensorInfo& info = model.tensors()[i];
            const QString name = QString::fromStdString(info.name);
            if (name.endsWith("_shape")) continue;  // SpatialSqueeze_shape: int32, no quantization
            QVERIFY2(info.quantization.has_value(), qPrintable(name));
            const StoredQuantization& q = *info.quantization;
            for (const int64_t z : q.zero_point) QCOMPARE(z, int64_t{0});
            QCOMPARE(q.zero_point.size(), q.scale.size());
            auto tensor = model.load(i);
            QVERIFY2(tensor.ok(), qPrintable(name));
            // Zero-copy: the bytes are a view into the file's bytes, kept alive by them.
            const std::string_view whole = shared->view();
            QVERIFY(tensor->bytes.data() >= whole.data() && tensor->bytes.data() + tensor->bytes.size() <= whole.data() + whole.size());
            QCOMPARE(tensor->owner.get(), static_cast<const void*>(shared.get()));
            if (name.contains("bias")) {
                ++biases;
                QCOMPARE(info.dtype, DType::Int32);
                QCOMPARE(info.shape.size(), size_t{1});
                QCOMPARE(static_cast<int64_t>(q.scale.size()), info.shape[0]);
                // The converter writes the kernel's quantized_dimension onto the bias: 3 for the
                // depthwise kernels and Conv2d_0 (a [1, 3, 3, 8] kernel on a one-channel input).
                QCOMPARE(q.axis, name.contains("depthwise") || name.contains("Conv2d_0/") ? 3 : 0);
                QCOMPARE(channelAxis(model.format(), info), 0);
                const auto values = toFloat32(*tensor);
                QVERIFY2(values.ok(), qPrintable(name));
                for (int64_t e = 0; e < info.shape[0]; ++e) {
                    int32_t code;
                    std::memcpy(&code, tensor->bytes.data() + 4 * e, 4);
                    QCOMPARE(values->at(static_cast<size_t>(e)), static_cast<float>(code) * q.scale[static_cast<size_t>(e)]);
                }
                continue;
            }
            QCOMPARE(info.dtype, DType::Int8);
            QCOMPARE(info.shape.size(), size_t{4});
            const bool isDepthwise = info.shape[0] == 1;  // [1, H, W, C]: Conv2d_0 and the depthwise kernels
            isDepthwise ? ++depthwise : ++pointwise;
            QCOMPARE(q.axis, isDepthwise ? 3 : 0);
            QCOMPARE(static_cast<int64_t>(q.scale.size()), info.shape[static_cast<size_t>(q.axis)]);
            QCOMPARE(channelAxis(model.format(), info), q.axis);
            const auto values = toFloat32(*tensor);
            QVERIFY2(values.ok(), qPrintable(name));
            for (int64_t e = 0; e < static_cast<int64_t>(values->size()); ++e) {
                const auto code = static_cast<int8_t>(tensor->bytes[static_cast<size_t>(e)]);
                const float expected = static_cast<float>(code) * q.scale[static_cast<size_t>(channelOf(info.shape, q.axis, e))];
                if (values->at(static_cast<size_t>(e)) != expected)
                    QFAIL(qPrintable(QString("%1[%2]: %3 != %4").arg(name).arg(e).arg(values->at(static_cast<size_t>(e))).arg(expected)));
            }
        }
        QCOMPARE(depthwise, 14);  // Conv2d_0 + 13 depthwise kernels
        QCOMPARE(pointwise, 14);  // 13 pointwise kernels + the logits
        QCOMPARE(biases, 28);

        // Single facts from flatc.
        const auto at = [&](const char* name) { return model.tensors()[static_cast<size_t>(model.find(name))]; };
        const TensorInfo dw = at("MobilenetV1/Conv2d_10_depthwise/depthwise_weights/read");
        QCOMPARE(dw.shape, (qs::Shape{1, 3, 3, 128}));
        QCOMPARE(std::bit_cast<uint32_t>(dw.quantization->scale[0]), 0x3bb837cbu);
        QCOMPARE(std::bit_cast<uint32_t>(dw.quantization->scale[1]), 0x3bc2f643u);
        const TensorInfo pw = at("MobilenetV1/Conv2d_10_pointwise/weights/read");
        QCOMPARE(pw.shape, (qs::Shape{128, 1, 1, 128}));
        QCOMPARE(std::bit_cast<uint32_t>(pw.quantization->scale[0]), 0x3b2c76f0u);
        auto pwData = model.load(static_cast<size_t>(model.find(pw.name)));
        const std::vector<int8_t> pwCodes = {12, -79, 10, 127, 12, -2};
        for (size_t i = 0; i < pwCodes.size(); ++i) QCOMPARE(static_cast<int8_t>(pwData->bytes[i]), pwCodes[i]);
        const TensorInfo shape = at("MobilenetV1/Logits/SpatialSqueeze_shape");
        QCOMPARE(shape.dtype, DType::Int32);
        QVERIFY(!shape.quantization.has_value());
        auto shapeValues = toFloat32(*model.load(static_cast<size_t>(model.find(shape.name))));
        QCOMPARE(*shapeValues, (std::vector<float>{1, 2}));
    }

    void truncatedRealFilesFailCleanly() {
        const std::string bytes = fileBytes(kDir + "person_detect.tflite");
        int opened = 0;
        for (size_t cut = 0; cut < bytes.size(); cut += 997) {
            auto model = open(bytes.substr(0, cut), "cut.tflite");
            if (!model) {
                const QString error = errorOf(model.error());
                QVERIFY(error.startsWith("cut.tflite: "));
                if (cut < 8) continue;  // not even the identifier: "not a TFLite model"
                // Said to be cut short, by how much at least, and never by more than was cut.
                const QString head = QStringLiteral("cut.tflite: truncated: the file is %1 bytes, the flatbuffer "
                                                    "needs at least ").arg(cut);
                QVERIFY2(error.startsWith(head), qPrintable(error));
                const qulonglong needed = error.mid(head.size()).section(' ', 0, 0).toULongLong();
                QVERIFY2(needed > cut && needed <= bytes.size(), qPrintable(error));
                continue;
            }
            ++opened;
        }
        QCOMPARE(opened, 0);  // the root table sits at the end: every cut loses something the verifier needs
    }

    // ---- hand-built flatbuffers --------------------------------------------------------

    void float16AndDataAfterTheFlatbuffer() {
        // float16 bits and the float32 values they stand for exactly.
        const std::vector<uint16_t> halfBits = {0x3C00, 0xC000, 0x3555, 0x7BFF, 0x0001, 0x8000};
        const std::vector<float> halfValues = {1.0f, -2.0f, 0.333251953125f, 65504.0f, 0x1p-24f, -0.0f};
        const std::vector<float> tail = {1.5f, -3.25f, 1e10f, 0.0f};
        const std::vector<std::vector<HandTensor>> subgraphs = {
            {{"half", {2, 3}, kFloat16, 1}, {"outside", {4}, kFloat32, 2}, {"activation", {1, 4}, kFloat32, 0}},
            {{"half", {3}, kInt8, 3, {0.5f, 0.25f, 2.0f}, {0, 1, -1}, 0}},
        };
        const std::vector<HandBuffer> buffers = {{}, {raw(halfBits)}, {}, {raw(std::vector<int8_t>{4, 5, -6})}};
        const std::string bytes = buildWithTail(subgraphs, buffers, 2, raw(tail));
        auto opened = open(bytes);
        QVERIFY2(opened.ok(), opened.ok() ? "" : qPrintable(errorOf(opened.error())));
        const ModelFile& model = **opened;
        QCOMPARE(model.tensors().size(), size_t{3});  // "activation" has no data

        const TensorInfo& half = model.tensors()[0];
        QCOMPARE(half.name, std::string("half"));
        QCOMPARE(half.dtype, DType::Float16);
        QCOMPARE(half.dtype_name, std::string("float16"));
        QCOMPARE(half.shape, (qs::Shape{2, 3}));
        QVERIFY(!half.quantization.has_value());
        const auto halfLoaded = toFloat32(*model.load(0));
        QVERIFY(halfLoaded.ok());
        for (size_t i = 0; i < halfValues.size(); ++i)
            QCOMPARE(std::bit_cast<uint32_t>(halfLoaded->at(i)), std::bit_cast<uint32_t>(halfValues[i]));

        const TensorInfo& outside = model.tensors()[1];
        QCOMPARE(outside.name, std::string("outside"));
        auto outsideData = model.load(1);
        QVERIFY(outsideData.ok());
        QCOMPARE(*toFloat32(*outsideData), tail);

        // The second subgraph's "half" is renamed so every name stays unique; its origin says where.
        const TensorInfo& second = model.tensors()[2];
        QCOMPARE(second.name, std::string("half (subgraph 1)"));
        QCOMPARE(second.origin, std::string("subgraph 1"));
        QVERIFY(second.quantization.has_value());
        QCOMPARE(second.quantization->scale, (std::vector<float>{0.5f, 0.25f, 2.0f}));
        QCOMPARE(second.quantization->zero_point, (std::vector<int64_t>{0, 1, -1}));
        QCOMPARE(*toFloat32(*model.load(2)), (std::vector<float>{2.0f, 1.0f, -10.0f}));
        QCOMPARE(model.find("half (subgraph 1)"), int64_t{2});
    }

    void namesStayUniqueWhateverTheFileCallsThem() {
        const std::vector<std::vector<HandTensor>> subgraphs = {
            {{"w", {1}, kInt8, 1}, {"w", {1}, kInt8, 1}, {"w (subgraph 0)", {1}, kInt8, 1}, {"", {1}, kInt8, 1}},
            {{"w", {1}, kInt8, 1}, {"w", {1}, kInt8, 1}}};
        auto opened = open(build(subgraphs, {{}, {std::string(1, '\x07')}}).bytes);
        QVERIFY(opened.ok());
        std::vector<std::string> names;
        for (const auto& t : (*opened)->tensors()) names.push_back(t.name);
        const std::vector<std::string> expected = {"w", "w (subgraph 0)", "w (subgraph 0) (subgraph 0)", "subgraph 0 tensor 3",
                                                   "w (subgraph 1)", "w (subgraph 1, tensor 1)"};
        QCOMPARE(names, expected);
    }

    void customQuantizationAndSparsityAreNotMisread() {
        const std::vector<std::vector<HandTensor>> subgraphs = {{
            {"custom", {2}, kInt8, 1, {0.5f}, {0}, 0, /*detailsType=*/1},
            {"sparse", {2}, kInt8, 1, {}, {}, 0, 0, /*sparse=*/true},
        }};
        auto opened = open(build(subgraphs, {{}, {std::string("\x01\x02", 2)}}).bytes);
        QVERIFY(opened.ok());
        const ModelFile& model = **opened;
        QVERIFY(!model.tensors()[0].quantization.has_value());  // schema.fbs: scale/zero_point do not apply
        QVERIFY(model.load(0).ok());
        auto sparse = model.load(1);
        QVERIFY(!sparse.ok());
        QCOMPARE(errorOf(sparse.error()), QString("hand.tflite: tensor 'sparse': stored sparse (TFLite sparsity "
                                                  "parameters); only dense tensors are read"));
    }

    void zeroPointsOutOfRangeAreRefused() {
        // A zero point no code can be shifted by without overflow (a fuzz finding): refused
        // when converting, never undefined arithmetic.
        const std::vector<std::vector<HandTensor>> subgraphs = {
            {{"w", {1}, kInt8, 1, {0.5f}, {std::numeric_limits<int64_t>::min()}}}};
        auto opened = open(build(subgraphs, {{}, {std::string(1, '\x27')}}).bytes);
        QVERIFY(opened.ok());
        QCOMPARE((*opened)->tensors()[0].quantization->zero_point[0], std::numeric_limits<int64_t>::min());
        auto values = toFloat32(*(*opened)->load(0));
        QVERIFY(!values.ok());
        QCOMPARE(errorOf(values.error()), QString("tensor 'w': zero point -9223372036854775808 is out of range for its codes"));
    }

    void otherTypesAreListedNotLoaded() {
        const std::vector<std::vector<HandTensor>> subgraphs = {
            {{"text", {1}, 5, 1}, {"nibbles", {2}, 17, 1}, {"future", {1}, 99, 1}, {"brain", {1}, 18, 2}}};
        auto opened = open(build(subgraphs, {{}, {std::string("ab")}, {std::string("\x80\x3f", 2)}}).bytes);
        QVERIFY(opened.ok());
        const ModelFile& model = **opened;
        QCOMPARE(model.tensors()[0].dtype_name, std::string("string"));
        QCOMPARE(model.tensors()[1].dtype_name, std::string("int4"));
        QCOMPARE(model.tensors()[2].dtype_name, std::string("TFLite type 99"));
        for (size_t i = 0; i < 3; ++i) {
            QCOMPARE(model.tensors()[i].dtype, DType::Other);
            QVERIFY(!model.load(i).ok());
        }
        QCOMPARE(model.tensors()[3].dtype, DType::BFloat16);
        QCOMPARE(*toFloat32(*model.load(3)), std::vector<float>{1.0f});
    }

    // ---- hostile files ------------------------------------------------------------------

    void hostileFilesGiveErrorsNamingFileAndTensor_data() {
        QTest::addColumn<QString>("what");
        QTest::addColumn<bool>("opens");
        QTest::addColumn<QString>("error");
        QTest::newRow("buffer index out of range")
            << "buffer" << false << "hand.tflite: tensor 'w' (subgraph 0, tensor 0): refers to buffer 7, but the model has 2 buffers";
        QTest::newRow("negative dimension")
            << "negative" << false << "hand.tflite: tensor 'w' (subgraph 0, tensor 0): holds data but has a negative dimension -4";
        QTest::newRow("offset past the end")
            << "offset" << true << "hand.tflite: tensor 'w': its buffer 1 holds 8 bytes at offset 1000000, past the end of the file (";
        QTest::newRow("size overflowing")
            << "size" << true << "hand.tflite: tensor 'w': its buffer 1 holds 18446744073709551615 bytes at offset 16, past the end";
        QTest::newRow("shape x dtype != bytes")
            << "bytes" << true << "hand.tflite: tensor 'w': the file holds 6 bytes, shape [2,2] of float16 needs 8";
        QTest::newRow("huge shape") << "huge" << true << "hand.tflite: tensor 'w': invalid shape";
        QTest::newRow("huge tensor vector")
            << "vector" << false << "hand.tflite: truncated: the file is ";
        QTest::newRow("wrong identifier") << "identifier" << false << "hand.tflite: not a TFLite model (no valid flatbuffer with the identifier TFL3)";
        QTest::newRow("empty file") << "empty" << false << "hand.tflite: not a TFLite model";
    }
    void hostileFilesGiveErrorsNamingFileAndTensor() {
        QFETCH(QString, what);
        QFETCH(bool, opens);
        QFETCH(QString, error);
        HandTensor w{"w", {2, 2}, kFloat16, 1};
        std::vector<HandBuffer> buffers = {{}, {std::string(8, '\0')}};
        const char* identifier = "TFL3";
        if (what == "buffer") w.buffer = 7;
        if (what == "negative") w.shape = {2, -4};
        if (what == "offset") buffers[1] = {{}, 1'000'000, 8};
        if (what == "size") buffers[1] = {{}, 16, std::numeric_limits<uint64_t>::max()};
        if (what == "bytes") buffers[1] = {std::string(6, '\0')};
        if (what == "huge") w.shape = {1 << 30, 1 << 30, 1 << 30};
        if (what == "identifier") identifier = "TFL2";
        Built built = build({{w}}, buffers, identifier);
        if (what == "vector") {  // the tensor list claims 2^31 - 16 entries
            const uint32_t huge = 0x7FFFFFF0u;
            std::memcpy(built.bytes.data() + built.firstTensorsVector, &huge, 4);
        }
        if (what == "empty") built.bytes.clear();
        auto opened = open(built.bytes);
        expectRefused(opened, opens, error);
    }

    void everyCorruptedByteIsHandled() {
        // Each byte of a small valid model flipped in turn: opening and loading may fail (with
        // the file's name), never crash (the sanitizer build and the fuzz target check more).
        const std::vector<std::vector<HandTensor>> subgraphs = {
            {{"w", {3}, kInt8, 1, {0.5f, 0.25f, 2.0f}, {0, 1, -1}, 0}, {"b", {3}, kInt32, 2, {0.1f}, {0}}}};
        const std::string bytes = build(subgraphs, {{}, {std::string("\x01\x02\x03", 3)}, {std::string(12, '\x01')}}).bytes;
        for (size_t i = 0; i < bytes.size(); ++i) {
            for (const unsigned char flip : {0x01, 0x80, 0xFF}) {
                std::string bad = bytes;
                bad[i] = static_cast<char>(bad[i] ^ flip);
                auto opened = open(bad);
                if (!opened) {
                    QVERIFY(errorOf(opened.error()).startsWith("hand.tflite: "));
                    continue;
                }
                for (size_t t = 0; t < (*opened)->tensors().size(); ++t)
                    if (auto loaded = (*opened)->load(t); !loaded)
                        QVERIFY(errorOf(loaded.error()).startsWith("hand.tflite: "));
            }
        }
    }
};

QTEST_GUILESS_MAIN(TstModelTflite)
#include "tst_model_tflite.moc"
