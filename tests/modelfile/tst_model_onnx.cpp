// Over 500 lines on purpose: the ONNX reader's behaviours share the model builders and the
// node-test fixtures, and each hostile case is a few lines of one table.
// The ONNX reader (core/modelfile/onnx_*): the real models listed as protoc decodes them
// (tests/data/models/onnx-listings), their values, the node tests' oracles for
// DequantizeLinear / QuantizeLinear, stored quantization and channel axes from the graph,
// typed fields, Constant attributes, subgraphs, external data, and hostile files.
#include <QElapsedTimer>
#include <QTemporaryDir>
#include <QtTest>
#include <algorithm>
#include <bit>
#include <cmath>
#include <fstream>
#include <sstream>

#include "core/modelfile/onnx_reader.h"
#include "core/modelfile/readers.h"
#include "core/modelfile/tensor_values.h"
#include "tests/modelfile/model_test_util.h"
#include "tests/modelfile/onnx_builders.h"

using namespace qs::modelfile;
using namespace qs::modelfile::testing;
using namespace qs::testing::onnx_build;

namespace {

const std::string kModels = QS_MODELS_DIR;

std::string readFile(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

void writeFile(const std::string& path, const std::string& bytes) {
    std::ofstream out(path, std::ios::binary);
    out << bytes;
}

qs::Result<ModelPtr> openBytes(const std::string& bytes, Sidecars sidecars = noSidecars()) {
    return openOnnx("test.onnx", copyBytes(bytes), std::move(sidecars));
}

// An in-memory ONNX model the test needs.
ModelPtr mustOpenBytes(const std::string& bytes) { return mustOpen(openBytes(bytes)); }

std::vector<uint8_t> bytesOfTensor(const ModelFile& m, size_t index) {
    auto data = m.load(index);
    if (!data) qFatal("load failed: %s", data.error().message.c_str());
    return {data->bytes.begin(), data->bytes.end()};
}

// The floats of a TensorProto as ONNX's own generated class reads them (the oracle side).
std::vector<float> oracleFloats(const std::string& pbPath) {
    onnx::TensorProto t;
    if (!t.ParseFromString(readFile(pbPath))) qFatal("cannot parse %s", pbPath.c_str());
    std::vector<float> out(t.float_data().begin(), t.float_data().end());
    if (t.has_raw_data()) {
        out.resize(t.raw_data().size() / 4);
        std::memcpy(out.data(), t.raw_data().data(), out.size() * 4);
    }
    return out;
}

std::vector<uint8_t> oracleBytes(const std::string& pbPath) {
    onnx::TensorProto t;
    if (!t.ParseFromString(readFile(pbPath))) qFatal("cannot parse %s", pbPath.c_str());
    return {t.raw_data().begin(), t.raw_data().end()};
}

ModelPtr readPb(const std::string& path) {
    auto m = readOnnxTensorProto(path, copyBytes(readFile(path)));
    if (!m) qFatal("readOnnxTensorProto failed: %s", m.error().message.c_str());
    return *m;
}

// The node of a node test's model.onnx, through the generated class.
onnx::NodeProto nodeOf(const std::string& folder) {
    onnx::ModelProto m;
    if (!m.ParseFromString(readFile(folder + "/model.onnx"))) qFatal("cannot parse %s", folder.c_str());
    return m.graph().node(0);
}

int64_t axisOf(const onnx::NodeProto& node) {
    for (const auto& a : node.attribute())
        if (a.name() == "axis") return a.i();
    return 1;  // ONNX's default
}

// A length-delimited protobuf field, by hand (for bytes the generated classes never write).
std::string delimited(int field, const std::string& payload) {
    std::string out(1, static_cast<char>(field << 3 | 2));
    for (size_t n = payload.size(); ; n >>= 7) {
        out += static_cast<char>((n & 0x7f) | (n >= 0x80 ? 0x80 : 0));
        if (n < 0x80) break;
    }
    return out + payload;
}

uint32_t bitsOf(float f) { return std::bit_cast<uint32_t>(f); }

// Every message of a failed open or load names the file.
void expectError(const qs::Error& e, const std::string& part) {
    QVERIFY2(e.kind == "DataError", e.kind.c_str());
    QVERIFY2(e.message.rfind("test.onnx: ", 0) == 0, e.message.c_str());
    QVERIFY2(e.message.find(part) != std::string::npos, (e.message + "  (expected: " + part + ")").c_str());
}

}  // namespace

class TstModelOnnx : public QObject {
    Q_OBJECT

private slots:
    void listsRealModelsAsProtocDecodesThem_data();
    void listsRealModelsAsProtocDecodesThem();
    void realModelValues();
    void rawDataLoadsAsViewsIntoTheFile();
    void channelAxesOfRealModels();
    void listingIsFast();
    void dequantizeLinearNodeTests_data();
    void dequantizeLinearNodeTests();
    void quantizeLinearNodeTests_data();
    void quantizeLinearNodeTests();
    void typedFields();
    void constantAttributes();
    void subgraphTensorsAreFound();
    void storedQuantizationFromDequantizeLinear();
    void channelAxesFromUse();
    void externalData();
    void externalDataErrors_data();
    void externalDataErrors();
    void hostileFiles_data();
    void hostileFiles();
    void hostileLoads_data();
    void hostileLoads();
    void everyTruncationFailsCleanly();
    void tensorProtoFiles();
};

void TstModelOnnx::listsRealModelsAsProtocDecodesThem_data() {
    QTest::addColumn<QString>("model");
    QTest::newRow("silero (initializers, If subgraphs)") << "silero_vad_legacy";
    QTest::newRow("PaddleOCR (Constant nodes)") << "ch_ppocr_mobile_v2.0_cls_infer";
}

// The expectations are protoc's decoding of the file (onnx-listings/listing.py), not ours.
void TstModelOnnx::listsRealModelsAsProtocDecodesThem() {
    QFETCH(QString, model);
    const std::string name = model.toStdString();
    auto opened = openModel(kModels + "/onnx/" + name + ".onnx");
    QVERIFY2(opened, opened ? "" : opened.error().message.c_str());
    const ModelFile& m = **opened;
    QCOMPARE(m.format(), "onnx");
    std::ifstream expected(kModels + "/onnx-listings/" + name + ".tsv");
    std::string line;
    size_t i = 0;
    while (std::getline(expected, line)) {
        QVERIFY2(i < m.tensors().size(), ("missing tensor: " + line).c_str());
        const TensorInfo& t = m.tensors()[i++];
        const std::string got = t.name + "\t" + qs::shapeString(t.shape) + "\t" + t.dtype_name + "\t" + t.origin;
        QCOMPARE(QString::fromStdString(got), QString::fromStdString(line));
    }
    QVERIFY(i > 200);
    QCOMPARE(m.tensors().size(), i);
}

void TstModelOnnx::realModelValues() {
    auto silero = openModel(kModels + "/onnx/silero_vad_legacy.onnx");
    QVERIFY(silero);
    // Values from protoc's decoding of raw_data.
    const auto filter = floatsOf(**silero, "model.adaptive_normalization.filter_");
    QCOMPARE(filter.size(), size_t{7});
    QCOMPARE(filter[0], 0.03663284704089165f);
    QCOMPARE(filter[3], 0.270682156085968f);
    QCOMPARE(filter[6], 0.03663284704089165f);
    const auto nested = floatsOf(**silero, "419");  // two If levels down
    QCOMPARE(nested.size(), size_t{512});
    QCOMPARE(nested[0], -0.1049286425113678f);
    QCOMPARE(nested[511], 0.2549523115158081f);
    const auto scalar = (*silero)->load(static_cast<size_t>((*silero)->find("620")));
    QVERIFY(scalar);
    QCOMPARE(scalar->info.dtype, DType::Int64);
    QCOMPARE(scalar->bytes.size(), size_t{8});
    QCOMPARE(floatsOf(**silero, "620"), std::vector<float>{0.0f});

    auto ocr = openModel(kModels + "/onnx/ch_ppocr_mobile_v2.0_cls_infer.onnx");
    QVERIFY(ocr);
    const auto bias = floatsOf(**ocr, "batch_norm_0.b_0");
    QCOMPARE(bias.size(), size_t{8});
    QCOMPARE(bias[0], 2.3099253177642822f);
    QCOMPARE(bias[7], 0.6947638988494873f);
    // Every tensor of both models loads with the bytes its shape needs.
    for (const auto& m : {*silero, *ocr})
        for (size_t i = 0; i < m->tensors().size(); ++i) {
            auto data = m->load(i);
            QVERIFY2(data, data ? "" : data.error().message.c_str());
            QCOMPARE(static_cast<int64_t>(data->bytes.size()), m->tensors()[i].byteSize());
        }
}

void TstModelOnnx::rawDataLoadsAsViewsIntoTheFile() {
    const SharedBytes bytes = copyBytes(readFile(kModels + "/onnx/silero_vad_legacy.onnx"));
    auto m = openOnnx("silero.onnx", bytes, noSidecars());
    QVERIFY(m);
    const std::string_view whole = bytes->view();
    for (size_t i = 0; i < (*m)->tensors().size(); ++i) {
        auto data = (*m)->load(i);
        QVERIFY(data);
        if (data->bytes.empty()) continue;
        QVERIFY(data->bytes.data() >= whole.data() && data->bytes.data() + data->bytes.size() <= whole.data() + whole.size());
        QCOMPARE(data->owner.get(), static_cast<const void*>(bytes.get()));
    }
}

void TstModelOnnx::channelAxesOfRealModels() {
    auto silero = openModel(kModels + "/onnx/silero_vad_legacy.onnx");
    auto ocr = openModel(kModels + "/onnx/ch_ppocr_mobile_v2.0_cls_infer.onnx");
    QVERIFY(silero && ocr);
    // A main-graph initializer used by a Conv inside an If branch: resolved through the scopes.
    const auto& convW = (*silero)->tensors()[static_cast<size_t>((*silero)->find("model.first_layer.0.dw_conv.0.weight"))];
    QCOMPARE(convW.channel_axis, std::optional<int>(0));
    const auto& fc = (*ocr)->tensors()[static_cast<size_t>((*ocr)->find("fc_0.w_0"))];  // MatMul's B [200,2]
    QCOMPARE(fc.channel_axis, std::optional<int>(1));
    QCOMPARE(channelAxis("onnx", fc), 1);
    const auto& conv = (*ocr)->tensors()[static_cast<size_t>((*ocr)->find("conv2d_0.w_0"))];
    QCOMPARE(conv.channel_axis, std::optional<int>(0));
    const auto& bias = (*ocr)->tensors()[static_cast<size_t>((*ocr)->find("fc_0.b_0"))];
    QCOMPARE(bias.channel_axis, std::optional<int>());
}

void TstModelOnnx::listingIsFast() {
    for (const char* name : {"silero_vad_legacy.onnx", "ch_ppocr_mobile_v2.0_cls_infer.onnx"}) {
        const std::string path = kModels + "/onnx/" + name;
        QElapsedTimer timer;
        timer.start();
        constexpr int kRounds = 20;
        for (int i = 0; i < kRounds; ++i) QVERIFY(openModel(path));
        const double ms = static_cast<double>(timer.nsecsElapsed()) / 1e6 / kRounds;
        qInfo("listing %s: %.2f ms", name, ms);
        QVERIFY2(ms < 200, name);  // the bound; a few ms in practice
    }
}

void TstModelOnnx::dequantizeLinearNodeTests_data() {
    QTest::addColumn<QString>("test");
    QTest::newRow("per tensor") << "test_dequantizelinear";
    QTest::newRow("per axis") << "test_dequantizelinear_axis";
}

// ONNX's expected output is the oracle, two ways: the .pb inputs read by readOnnxTensorProto
// and dequantized with the node's axis, and the same inputs as initializers of a model whose
// DequantizeLinear the reader links.
void TstModelOnnx::dequantizeLinearNodeTests() {
    QFETCH(QString, test);
    const std::string folder = kModels + "/onnx/" + test.toStdString();
    const std::string data = folder + "/test_data_set_0/";
    const onnx::NodeProto node = nodeOf(folder);
    QCOMPARE(node.op_type(), "DequantizeLinear");
    const auto x = readPb(data + "input_0.pb");
    const auto scale = readPb(data + "input_1.pb");
    const auto zero = readPb(data + "input_2.pb");
    const std::vector<float> expected = oracleFloats(data + "output_0.pb");

    auto codes = x->load(0);
    QVERIFY(codes);
    QCOMPARE(codes->info.dtype, DType::UInt8);
    StoredQuantization q;
    q.scale = floatsOf(*scale, scale->tensors()[0].name);
    for (float z : floatsOf(*zero, zero->tensors()[0].name)) q.zero_point.push_back(static_cast<int64_t>(z));
    q.axis = q.scale.size() > 1 ? static_cast<int>(axisOf(node)) : 0;
    codes.value().info.quantization = q;
    auto values = toFloat32(*codes);
    QVERIFY(values);
    QCOMPARE(values->size(), expected.size());
    for (size_t i = 0; i < expected.size(); ++i) QCOMPARE(bitsOf((*values)[i]), bitsOf(expected[i]));

    // The same through a model: x, scale and zero point as initializers.
    onnx::ModelProto m = model();
    for (const char* pb : {"input_0.pb", "input_1.pb", "input_2.pb"})
        QVERIFY(m.mutable_graph()->add_initializer()->ParseFromString(readFile(data + pb)));
    *m.mutable_graph()->add_node() = node;
    const auto opened = mustOpenBytes(bytesOf(m));
    const size_t xi = static_cast<size_t>(opened->find("x"));
    QCOMPARE(opened->tensors()[xi].quantization, std::optional<StoredQuantization>(q));
    const auto linked = floatsOf(*opened, "x");
    for (size_t i = 0; i < expected.size(); ++i) QCOMPARE(bitsOf(linked[i]), bitsOf(expected[i]));
}

void TstModelOnnx::quantizeLinearNodeTests_data() {
    QTest::addColumn<QString>("test");
    QTest::addColumn<QString>("scalePb");
    QTest::addColumn<QString>("zeroPb");
    QTest::newRow("per tensor") << "test_quantizelinear" << "input_1.pb" << "input_2.pb";
    QTest::newRow("per axis") << "test_quantizelinear_axis" << "input_1.pb" << "input_2.pb";
    QTest::newRow("dynamic (scale and zero point are outputs)") << "test_dynamicquantizelinear" << "output_1.pb" << "output_2.pb";
}

// QuantizeLinear's expected codes are saturate(round_half_even(x / scale) + zero_point) of
// its inputs as this reader loads them.
void TstModelOnnx::quantizeLinearNodeTests() {
    QFETCH(QString, test);
    QFETCH(QString, scalePb);
    QFETCH(QString, zeroPb);
    const std::string folder = kModels + "/onnx/" + test.toStdString();
    const std::string data = folder + "/test_data_set_0/";
    const auto x = readPb(data + "input_0.pb");
    const std::vector<float> xs = floatsOf(*x, "x");
    const auto scaleModel = readPb(data + scalePb.toStdString());
    const std::vector<float> scales = floatsOf(*scaleModel, scaleModel->tensors()[0].name);
    const auto zeroModel = readPb(data + zeroPb.toStdString());
    const std::vector<uint8_t> zeros = bytesOfTensor(*zeroModel, 0);
    QCOMPARE(zeroModel->tensors()[0].dtype, DType::UInt8);
    const std::vector<uint8_t> expected = oracleBytes(data + "output_0.pb");
    QCOMPARE(xs.size(), expected.size());

    const qs::Shape& shape = x->tensors()[0].shape;
    const auto axis = static_cast<size_t>(scales.size() > 1 ? axisOf(nodeOf(folder)) : 0);
    int64_t inner = 1;
    for (size_t d = axis + 1; d < shape.size(); ++d) inner *= shape[d];
    for (size_t i = 0; i < xs.size(); ++i) {
        const size_t c = scales.size() > 1 ? static_cast<size_t>(static_cast<int64_t>(i) / inner % shape[axis]) : 0;
        const float q = std::nearbyint(xs[i] / scales[c]) + static_cast<float>(zeros[zeros.size() > 1 ? c : 0]);
        const auto code = static_cast<uint8_t>(std::clamp(q, 0.0f, 255.0f));
        QCOMPARE(code, expected[i]);
    }
}

void TstModelOnnx::typedFields() {
    onnx::ModelProto m = model();
    onnx::GraphProto& g = *m.mutable_graph();
    const auto add = [&](const std::string& name, int type, std::initializer_list<int64_t> dims) {
        onnx::TensorProto* t = g.add_initializer();
        t->set_name(name);
        t->set_data_type(type);
        setDims(*t, dims);
        return t;
    };
    onnx::TensorProto* f = add("f", onnx::TensorProto::FLOAT, {2, 2});
    for (float v : {1.5f, -2.0f, 3.25f, 0.0f}) f->add_float_data(v);
    onnx::TensorProto* i8 = add("i8", onnx::TensorProto::INT8, {3});
    for (int v : {-128, 0, 127}) i8->add_int32_data(v);
    onnx::TensorProto* u8 = add("u8", onnx::TensorProto::UINT8, {2});
    for (int v : {0, 255}) u8->add_int32_data(v);
    onnx::TensorProto* i16 = add("i16", onnx::TensorProto::INT16, {2});
    for (int v : {-32768, 1234}) i16->add_int32_data(v);
    onnx::TensorProto* h = add("h", onnx::TensorProto::FLOAT16, {2});
    for (int v : {0x3C00, 0xC000}) h->add_int32_data(v);  // 1.0, -2.0
    onnx::TensorProto* bf = add("bf", onnx::TensorProto::BFLOAT16, {1});
    bf->add_int32_data(0x3FC0);  // 1.5
    onnx::TensorProto* b = add("b", onnx::TensorProto::BOOL, {3});
    for (int v : {1, 0, 1}) b->add_int32_data(v);
    onnx::TensorProto* i64 = add("i64", onnx::TensorProto::INT64, {2});
    for (int64_t v : {int64_t{-5}, int64_t{1} << 40}) i64->add_int64_data(v);
    onnx::TensorProto* d = add("d", onnx::TensorProto::DOUBLE, {1});
    d->add_double_data(0.1);
    onnx::TensorProto* u32 = add("u32", onnx::TensorProto::UINT32, {1});
    u32->add_uint64_data(4000000000u);
    onnx::TensorProto* u64 = add("u64", onnx::TensorProto::UINT64, {1});
    u64->add_uint64_data(uint64_t{1} << 63);
    const auto opened = mustOpenBytes(bytesOf(m));
    QCOMPARE(floatsOf(*opened, "f"), (std::vector<float>{1.5f, -2.0f, 3.25f, 0.0f}));
    QCOMPARE(floatsOf(*opened, "i8"), (std::vector<float>{-128, 0, 127}));
    QCOMPARE(floatsOf(*opened, "u8"), (std::vector<float>{0, 255}));
    QCOMPARE(floatsOf(*opened, "i16"), (std::vector<float>{-32768, 1234}));
    QCOMPARE(floatsOf(*opened, "h"), (std::vector<float>{1.0f, -2.0f}));
    QCOMPARE(floatsOf(*opened, "bf"), (std::vector<float>{1.5f}));
    QCOMPARE(bytesOfTensor(*opened, static_cast<size_t>(opened->find("b"))), (std::vector<uint8_t>{1, 0, 1}));
    QCOMPARE(floatsOf(*opened, "i64"), (std::vector<float>{-5.0f, 1099511627776.0f}));
    QCOMPARE(floatsOf(*opened, "d"), (std::vector<float>{0.1f}));
    QCOMPARE(floatsOf(*opened, "u32"), (std::vector<float>{4e9f}));
    QCOMPARE(floatsOf(*opened, "u64"), (std::vector<float>{9223372036854775808.0f}));
    QCOMPARE(opened->tensors()[static_cast<size_t>(opened->find("u32"))].dtype_name, "uint32");
}

void TstModelOnnx::constantAttributes() {
    onnx::ModelProto m = model();
    onnx::GraphProto& g = *m.mutable_graph();
    addAttribute(*addNode(g, "Constant", "cf", {}, {"one_float"}), "value_float", onnx::AttributeProto::FLOAT)->set_f(2.5f);
    auto* floats = addAttribute(*addNode(g, "Constant", "cfs", {}, {"floats"}), "value_floats", onnx::AttributeProto::FLOATS);
    for (float v : {1.0f, 2.0f, 3.0f}) floats->add_floats(v);
    addAttribute(*addNode(g, "Constant", "ci", {}, {"one_int"}), "value_int", onnx::AttributeProto::INT)->set_i(-7);
    auto* ints = addAttribute(*addNode(g, "Constant", "cis", {}, {"ints"}), "value_ints", onnx::AttributeProto::INTS);
    for (int64_t v : {4, 5}) ints->add_ints(v);
    addAttribute(*addNode(g, "Constant", "cs", {}, {"text"}), "value_string", onnx::AttributeProto::STRING)->set_s("hello");
    addConstant(g, "t_out", floatTensor("inner_name", {2}, {7.0f, 8.0f}), "ct");
    const auto opened = mustOpenBytes(bytesOf(m));
    QCOMPARE(opened->tensors().size(), size_t{6});
    QCOMPARE(floatsOf(*opened, "one_float"), std::vector<float>{2.5f});
    QCOMPARE(opened->tensors()[0].shape, qs::Shape{});
    QCOMPARE(floatsOf(*opened, "floats"), (std::vector<float>{1, 2, 3}));
    QCOMPARE(opened->tensors()[1].shape, qs::Shape{3});
    QCOMPARE(floatsOf(*opened, "one_int"), std::vector<float>{-7});
    QCOMPARE(opened->tensors()[2].dtype, DType::Int64);
    QCOMPARE(floatsOf(*opened, "ints"), (std::vector<float>{4, 5}));
    const auto& text = opened->tensors()[4];
    QCOMPARE(text.dtype, DType::Other);
    QCOMPARE(text.dtype_name, "string");
    auto failed = opened->load(4);
    QVERIFY(!failed);
    expectError(failed.error(), "tensor 'text'");
    QCOMPARE(floatsOf(*opened, "t_out"), (std::vector<float>{7, 8}));  // the output's name, not the TensorProto's
    QCOMPARE(opened->tensors()[5].origin, "Constant node 'ct'");
}

void TstModelOnnx::subgraphTensorsAreFound() {
    onnx::ModelProto m = model();
    onnx::GraphProto& g = *m.mutable_graph();
    *g.add_initializer() = floatTensor("top", {1}, {1});
    onnx::NodeProto* iff = addNode(g, "If", "if1", {"cond"}, {"y"});
    *addSubgraph(*iff, "then_branch")->add_initializer() = floatTensor("then_w", {1}, {2});
    onnx::GraphProto* elseBranch = addSubgraph(*iff, "else_branch");
    addConstant(*elseBranch, "else_c", floatTensor("", {1}, {3}), "c1");
    onnx::NodeProto* loop = addNode(*elseBranch, "Loop", "loop1", {}, {"z"});
    *addSubgraph(*loop, "body")->add_initializer() = floatTensor("body_w", {1}, {4});
    // An attribute holding several graphs (AttributeProto.graphs).
    onnx::NodeProto* custom = addNode(g, "Custom", "", {}, {});
    auto* many = addAttribute(*custom, "branches", onnx::AttributeProto::GRAPHS);
    for (const char* name : {"g0", "g1"}) *many->add_graphs()->add_initializer() = floatTensor(name, {1}, {5});
    const auto opened = mustOpenBytes(bytesOf(m));
    QStringList got;
    for (const auto& t : opened->tensors()) got << QString::fromStdString(t.name + " @ " + t.origin);
    QCOMPARE(got, (QStringList{"top @ initializer", "then_w @ If 'if1' then_branch \u203a initializer",
                               "else_c @ If 'if1' else_branch \u203a Constant node 'c1'",
                               "body_w @ If 'if1' else_branch \u203a Loop 'loop1' body \u203a initializer",
                               "g0 @ Custom branches 0 \u203a initializer", "g1 @ Custom branches 1 \u203a initializer"}));
    QCOMPARE(floatsOf(*opened, "body_w"), std::vector<float>{4});

    // Long node names are shortened in origins (every tensor of a subgraph carries its origin).
    onnx::ModelProto longNames = model();
    onnx::GraphProto* g2 = longNames.mutable_graph();
    for (int level = 0; level < 20; ++level)
        g2 = addSubgraph(*addNode(*g2, "If", std::string(1000, 'n'), {"c"}, {"y"}), "then_branch");
    *g2->add_initializer() = floatTensor("deep", {1}, {1});
    const auto deep = mustOpenBytes(bytesOf(longNames));
    const std::string& origin = deep->tensors()[0].origin;
    QVERIFY2(origin.size() < 300, origin.c_str());
    QVERIFY(origin.rfind("\u2026 ", 0) == 0);
    QVERIFY(origin.find("nnn\u2026' then_branch \u203a initializer") != std::string::npos);
}

void TstModelOnnx::storedQuantizationFromDequantizeLinear() {
    onnx::ModelProto m = model();
    onnx::GraphProto& g = *m.mutable_graph();
    // Per axis, negative axis: -4 of a rank-4 weight is axis 0.
    *g.add_initializer() = rawTensor<int8_t>("w", onnx::TensorProto::INT8, {2, 1, 1, 2}, {-1, 2, 3, -4});
    *g.add_initializer() = floatTensor("w_scale", {2}, {0.5f, 0.25f});
    *g.add_initializer() = rawTensor<int8_t>("w_zero", onnx::TensorProto::INT8, {2}, {0, 1});
    addInt(*addNode(g, "DequantizeLinear", "dq_w", {"w", "w_scale", "w_zero"}, {"w_deq"}), "axis", -4);
    // Per tensor, no zero point, scale a Constant node.
    *g.add_initializer() = rawTensor<int32_t>("bias", onnx::TensorProto::INT32, {2}, {10, -20});
    addConstant(g, "bias_scale", floatTensor("", {}, {0.125f}));
    addNode(g, "DequantizeLinear", "dq_b", {"bias", "bias_scale"}, {"bias_deq"});
    // A zero point computed at run time: nothing attached.
    *g.add_initializer() = rawTensor<uint8_t>("u", onnx::TensorProto::UINT8, {2}, {1, 2});
    *g.add_initializer() = floatTensor("u_scale", {}, {1.0f});
    addNode(g, "DequantizeLinear", "dq_u", {"u", "u_scale", "runtime_zero"}, {"u_deq"});
    const auto opened = mustOpenBytes(bytesOf(m));
    const auto& w = opened->tensors()[static_cast<size_t>(opened->find("w"))];
    QCOMPARE(w.quantization, (std::optional<StoredQuantization>(StoredQuantization{{0.5f, 0.25f}, {0, 1}, 0})));
    QCOMPARE(floatsOf(*opened, "w"), (std::vector<float>{-0.5f, 1.0f, 0.5f, -1.25f}));
    const auto& bias = opened->tensors()[static_cast<size_t>(opened->find("bias"))];
    QCOMPARE(bias.quantization, (std::optional<StoredQuantization>(StoredQuantization{{0.125f}, {}, 0})));
    QCOMPARE(floatsOf(*opened, "bias"), (std::vector<float>{1.25f, -2.5f}));
    QVERIFY(!opened->tensors()[static_cast<size_t>(opened->find("u"))].quantization);
}

void TstModelOnnx::channelAxesFromUse() {
    onnx::ModelProto m = model();
    onnx::GraphProto& g = *m.mutable_graph();
    for (const char* name : {"conv_w", "convt_w", "mm_b", "gemm_b", "gemm_bt", "mm3", "q"})
        *g.add_initializer() = floatTensor(name, {2, 2}, {1, 2, 3, 4});
    *g.mutable_initializer(5) = floatTensor("mm3", {1, 2, 2}, {1, 2, 3, 4});
    *g.mutable_initializer(6) = rawTensor<int8_t>("q", onnx::TensorProto::INT8, {2, 2}, {1, 2, 3, 4});
    *g.add_initializer() = floatTensor("q_scale", {}, {1.0f});
    addNode(g, "Conv", "", {"x", "conv_w"}, {"a"});
    addNode(g, "ConvTranspose", "", {"x", "convt_w"}, {"b"});
    addNode(g, "MatMul", "", {"x", "mm_b"}, {"c"});
    addNode(g, "MatMul", "", {"x", "mm3"}, {"c3"});
    addNode(g, "Gemm", "", {"x", "gemm_b"}, {"d"});
    addInt(*addNode(g, "Gemm", "", {"x", "gemm_bt"}, {"e"}), "transB", 1);
    addNode(g, "DequantizeLinear", "", {"q", "q_scale"}, {"q_deq"});
    addNode(g, "Conv", "", {"x", "q_deq"}, {"f"});  // a quantized weight behind its DequantizeLinear
    const auto opened = mustOpenBytes(bytesOf(m));
    const auto axis = [&](const char* name) { return opened->tensors()[static_cast<size_t>(opened->find(name))].channel_axis; };
    QCOMPARE(axis("conv_w"), std::optional<int>(0));
    QCOMPARE(axis("convt_w"), std::optional<int>(1));
    QCOMPARE(axis("mm_b"), std::optional<int>(1));
    QCOMPARE(axis("mm3"), std::optional<int>());
    QCOMPARE(axis("gemm_b"), std::optional<int>(1));
    QCOMPARE(axis("gemm_bt"), std::optional<int>(0));
    QCOMPARE(axis("q"), std::optional<int>(0));
}

void TstModelOnnx::externalData() {
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const std::vector<float> values = {1.5f, 2.5f, -3.5f};
    std::string sidecar(16, 'x');  // the tensor at offset 16
    sidecar.append(reinterpret_cast<const char*>(values.data()), values.size() * sizeof(float));
    writeFile(dir.filePath("weights.bin").toStdString(), sidecar);
    onnx::ModelProto m = model();
    onnx::TensorProto* t = m.mutable_graph()->add_initializer();
    t->set_name("ext");
    t->set_data_type(onnx::TensorProto::FLOAT);
    setDims(*t, {3});
    t->set_data_location(onnx::TensorProto::EXTERNAL);
    for (auto [k, v] : {std::pair{"location", "weights.bin"}, {"offset", "16"}, {"length", "12"}}) {
        auto* e = t->add_external_data();
        e->set_key(k);
        e->set_value(v);
    }
    const std::string path = dir.filePath("model.onnx").toStdString();
    writeFile(path, bytesOf(m));
    auto opened = openModel(path);
    QVERIFY2(opened, opened ? "" : opened.error().message.c_str());
    QCOMPARE(floatsOf(**opened, "ext"), values);
}

void TstModelOnnx::externalDataErrors_data() {
    QTest::addColumn<QString>("location");
    QTest::addColumn<QString>("offset");
    QTest::addColumn<QString>("length");
    QTest::addColumn<QString>("message");
    QTest::newRow("past the end") << "weights.bin" << "8" << "12" << "holds 12 bytes, the tensor's lie at 8 + 12";
    QTest::newRow("huge offset") << "weights.bin" << "18446744073709551615" << "12" << "lie at 18446744073709551615";
    QTest::newRow("length not the shape's") << "weights.bin" << "0" << "8" << "the file holds 8 bytes";
    QTest::newRow("offset not a number") << "weights.bin" << "-1" << "12" << "offset '-1' is not a byte count";
    QTest::newRow("missing file") << "nothere.bin" << "0" << "12" << "nothere.bin";
    QTest::newRow("outside the folder") << "../weights.bin" << "0" << "12" << "refusing to open '../weights.bin'";
    QTest::newRow("no location") << "" << "0" << "12" << "without a location";
}

void TstModelOnnx::externalDataErrors() {
    QFETCH(QString, location);
    QFETCH(QString, offset);
    QFETCH(QString, length);
    QFETCH(QString, message);
    QTemporaryDir dir;
    writeFile(dir.filePath("weights.bin").toStdString(), std::string(12, '\0'));
    onnx::ModelProto m = model();
    onnx::TensorProto* t = m.mutable_graph()->add_initializer();
    t->set_name("ext");
    t->set_data_type(onnx::TensorProto::FLOAT);
    setDims(*t, {3});
    t->set_data_location(onnx::TensorProto::EXTERNAL);
    for (auto [k, v] : {std::pair{"location", location}, {"offset", offset}, {"length", length}}) {
        auto* e = t->add_external_data();
        e->set_key(k);
        e->set_value(v.toStdString());
    }
    auto opened = openOnnx("test.onnx", copyBytes(bytesOf(m)), sidecarsBeside(dir.filePath("model.onnx").toStdString()));
    QVERIFY(opened);
    auto loaded = (*opened)->load(0);
    QVERIFY(!loaded);
    expectError(loaded.error(), "tensor 'ext'");
    expectError(loaded.error(), message.toStdString());
}

void TstModelOnnx::hostileFiles_data() {
    QTest::addColumn<QByteArray>("bytes");
    QTest::addColumn<QString>("message");
    const auto qb = [](const std::string& s) { return QByteArray(s.data(), static_cast<qsizetype>(s.size())); };
    onnx::ModelProto base = model();
    *base.mutable_graph()->add_initializer() = floatTensor("w", {2}, {1, 2});
    const std::string good = bytesOf(base);
    // graph (field 7) of a claimed 100 bytes with 3 present.
    QTest::newRow("length past the end") << qb(std::string("\x3a\x64\x0a\x01w", 5)) << "runs past the end of its message";
    QTest::newRow("truncated varint") << qb(std::string("\x08\xff\xff", 3)) << "a varint is truncated";
    QTest::newRow("truncated tag") << qb(std::string("\xff", 1))
                                   << "not an ONNX (protobuf) file: a field tag is truncated or zero";
    QTest::newRow("UTF-8 text") << QByteArray("caf\xc3\xa9 cr\xc3\xa8me") << "it holds text (\"caf\xc3\xa9 cr\xc3\xa8me\")";
    QTest::newRow("group wire type") << qb(std::string("\x0b", 1))
                                     << "test.onnx: not an ONNX (protobuf) file: a group field (wire type 3)";
    QTest::newRow("no graph") << qb(std::string("\x08\x07", 2)) << "no graph in it";
    QTest::newRow("empty file") << QByteArray() << "no graph in it";
    // Text renamed .onnx: said to be text, not parsed as wire types ('l' spells a group).
    QTest::newRow("text file") << QByteArray("hello, not a model\nsecond line")
                               << "test.onnx: not an ONNX (protobuf) file: it holds text (\"hello, not a model\")";
    QTest::newRow("long text line") << QByteArray("The quick brown fox jumps over the lazy dog, twice over.")
                                    << "it holds text (\"The quick brown fox jumps over the lazy \u2026\")";
    // An initializer's raw_data claiming one byte more than its message holds: the place is named.
    std::string longer = good;
    const size_t raw = longer.find(std::string("\x4a\x08", 2));  // raw_data (9), 8 bytes
    QVERIFY(raw != std::string::npos);
    longer[raw + 1] = 9;
    QTest::newRow("raw_data past its tensor")
        << qb(longer) << "graph \u203a initializer 0: tensor 'w': a length of 9 bytes runs past the end of its message (8 bytes left)";
    // Too many dimensions.
    onnx::ModelProto deepDims = model();
    onnx::TensorProto* t = deepDims.mutable_graph()->add_initializer();
    t->set_name("many_dims");
    for (int i = 0; i < 100; ++i) t->add_dims(1);
    QTest::newRow("100 dims") << qb(bytesOf(deepDims)) << "tensor 'many_dims' has more than 64 dimensions";
    // Subgraphs nested 40 deep.
    onnx::ModelProto nested = model();
    onnx::GraphProto* g = nested.mutable_graph();
    for (int i = 0; i < 40; ++i) g = addSubgraph(*addNode(*g, "If", "if" + std::to_string(i), {"c"}, {"y"}), "then_branch");
    *g->add_initializer() = floatTensor("deep", {1}, {1});
    QTest::newRow("deep subgraphs") << qb(bytesOf(nested)) << "subgraphs nested deeper than 32 levels";
    // A Constant's packed value_floats of 3 bytes, written by hand: model.graph.node.attribute.
    const std::string attribute = delimited(1, "value_floats") + delimited(7, std::string("\0\0\x80", 3));
    const std::string node = delimited(2, "o") + delimited(4, "Constant") + delimited(5, attribute);
    const std::string bf = delimited(7, delimited(1, node));
    QTest::newRow("packed floats not of 4 bytes")
        << qb(bf) << "graph \u203a node 0: attribute 'value_floats': packed floats of 3 bytes, not a multiple of 4";
}

// Every hostile file gives a DataError that names the file, never a crash.
void TstModelOnnx::hostileFiles() {
    QFETCH(QByteArray, bytes);
    QFETCH(QString, message);
    auto opened = openBytes(bytes.toStdString());
    QVERIFY(!opened);
    expectError(opened.error(), message.toStdString());
}

void TstModelOnnx::hostileLoads_data() {
    QTest::addColumn<QByteArray>("bytes");
    QTest::addColumn<QString>("message");
    const auto add = [](const char* row, const onnx::TensorProto& t, const char* message) {
        onnx::ModelProto m = model();
        *m.mutable_graph()->add_initializer() = t;
        const std::string b = bytesOf(m);
        QTest::newRow(row) << QByteArray(b.data(), static_cast<qsizetype>(b.size())) << message;
    };
    add("raw_data shorter than the shape", floatTensor("w", {8, 3}, {1, 2}), "tensor 'w': the file holds 8 bytes, shape [8,3] of float32 needs 96");
    add("negative dim", floatTensor("w", {-1, 2}, {1, 2}), "tensor 'w': invalid shape [-1,2]");
    add("dims overflow", floatTensor("w", {int64_t{1} << 40, int64_t{1} << 40}, {1}), "tensor 'w': invalid shape");
    onnx::TensorProto huge;  // claims a billion floats, holds two typed ones
    huge.set_name("huge");
    huge.set_data_type(onnx::TensorProto::FLOAT);
    setDims(huge, {1000000000});
    huge.add_float_data(1);
    huge.add_float_data(2);
    add("typed field shorter than the shape", huge, "tensor 'huge': float_data holds 2 values, the shape needs 1000000000");
    onnx::TensorProto complex = floatTensor("c", {1}, {1, 2});
    complex.set_data_type(onnx::TensorProto::COMPLEX64);
    add("complex", complex, "tensor 'c': its dtype complex64 cannot be loaded");
    onnx::TensorProto future = floatTensor("f8", {4}, {1});
    future.set_data_type(17);
    add("float8 (after ONNX 1.12)", future, "its dtype float8e4m3fn cannot be loaded");
    onnx::TensorProto unknown = floatTensor("u", {1}, {1});
    unknown.set_data_type(999);
    add("unknown data_type", unknown, "its dtype data_type 999 cannot be loaded");
    onnx::TensorProto external = floatTensor("e", {1}, {1});
    external.clear_raw_data();
    external.set_data_location(onnx::TensorProto::EXTERNAL);
    add("external data without sidecars", external, "tensor 'e': stored as external data, but without a location");
}

// Files that list, whose bad tensors fail to load with the file's and the tensor's names
// (and no allocation of what they claim).
void TstModelOnnx::hostileLoads() {
    QFETCH(QByteArray, bytes);
    QFETCH(QString, message);
    auto opened = openBytes(bytes.toStdString());
    QVERIFY2(opened, opened ? "" : opened.error().message.c_str());
    QCOMPARE((*opened)->tensors().size(), size_t{1});
    auto loaded = (*opened)->load(0);
    QVERIFY(!loaded);
    expectError(loaded.error(), message.toStdString());
}

// Every prefix of a model with subgraphs, Constants and typed fields either opens (and its
// tensors load or fail cleanly) or fails with the file's name.
void TstModelOnnx::everyTruncationFailsCleanly() {
    onnx::ModelProto m = model();
    onnx::GraphProto& g = *m.mutable_graph();
    *g.add_initializer() = floatTensor("w", {2, 2}, {1, 2, 3, 4});
    onnx::TensorProto* typed = g.add_initializer();
    typed->set_name("typed");
    typed->set_data_type(onnx::TensorProto::INT8);
    typed->add_dims(2);
    typed->add_int32_data(-3);
    typed->add_int32_data(4);
    *addSubgraph(*addNode(g, "If", "i", {"c"}, {"y"}), "then_branch")->add_initializer() = floatTensor("s", {1}, {5});
    addConstant(g, "k", floatTensor("", {1}, {6}));
    const std::string bytes = bytesOf(m);
    size_t opened = 0;
    for (size_t n = 0; n <= bytes.size(); ++n) {
        auto r = openBytes(bytes.substr(0, n));
        if (!r) {
            QVERIFY2(r.error().message.rfind("test.onnx: ", 0) == 0, r.error().message.c_str());
            continue;
        }
        ++opened;
        for (size_t i = 0; i < (*r)->tensors().size(); ++i)
            if (auto t = (*r)->load(i); !t) QVERIFY2(t.error().message.rfind("test.onnx: ", 0) == 0, t.error().message.c_str());
    }
    QVERIFY(opened >= 1);  // the whole file at least
    QCOMPARE(mustOpenBytes(bytes)->tensors().size(), size_t{4});
}

void TstModelOnnx::tensorProtoFiles() {
    auto unnamed = readOnnxTensorProto("t.pb", copyBytes(bytesOf(floatTensor("", {2}, {1, 2}))));
    QVERIFY(unnamed);
    QCOMPARE((*unnamed)->tensors()[0].name, "tensor");
    QCOMPARE((*unnamed)->tensors()[0].origin, "TensorProto");
    auto bad = readOnnxTensorProto("t.pb", copyBytes(std::string("\x0a\x05\x01", 3)));  // packed dims past the end
    QVERIFY(!bad);
    QVERIFY2(bad.error().message.rfind("t.pb: ", 0) == 0, bad.error().message.c_str());
}

QTEST_APPLESS_MAIN(TstModelOnnx)
#include "tst_model_onnx.moc"
