// The safetensors reader on model2vec's float32/int8 pair (values decoded with Python's
// struct, hard-coded here; and the int8 file checked against the rule its writer used), on
// headers built here for every dtype, and on hostile headers.
#include <QElapsedTimer>
#include <QtTest>

#include <fcntl.h>
#include <unistd.h>

#include <cmath>
#include <cstring>

#include "core/modelfile/readers.h"
#include "core/modelfile/tensor_values.h"

using namespace qs::modelfile;

namespace {

const std::string kFloat = QS_MODELS_DIR "/safetensors/test-model-float32.safetensors";
const std::string kInt8 = QS_MODELS_DIR "/safetensors/test-model-int8.safetensors";

ModelPtr openOrFail(const std::string& path) {
    auto model = openModel(path);
    if (!model) qWarning("%s", model.error().message.c_str());
    return model ? *model : nullptr;
}

// A safetensors file: the 8-byte length, `header`, then `data`.
std::string file(const std::string& header, const std::string& data = {}) {
    std::string out(8, '\0');
    const uint64_t n = header.size();
    std::memcpy(out.data(), &n, 8);
    return out + header + data;
}

QString openError(const std::string& bytes) {
    auto model = openSafetensors("m.safetensors", copyBytes(bytes));
    return model ? QString() : QString::fromStdString(model.error().message);
}

}  // namespace

class TstModelSafetensors : public QObject {
    Q_OBJECT

private slots:
    void model2vecFloatTable() {
        const auto model = openOrFail(kFloat);
        QVERIFY(model);
        QCOMPARE(model->format(), std::string_view("safetensors"));
        QCOMPARE(model->tensors().size(), size_t{1});
        const TensorInfo& info = model->tensors()[0];
        QCOMPARE(info.name, std::string("embeddings"));
        QCOMPARE(info.shape, (qs::Shape{29528, 2}));
        QCOMPARE(info.dtype, DType::Float32);
        QVERIFY(!info.quantization);
        auto tensor = model->load(0);
        QVERIFY(tensor);
        auto values = toFloat32(*tensor);
        QVERIFY(values);
        // Decoded with Python's struct from the file's bytes.
        const std::vector<float> first{-0.46450674533843994f, 0.04634285718202591f, 0.820982038974762f,
                                       -2.683870315551758f,   0.2559461295604706f,  1.5372339487075806f};
        QCOMPARE(std::vector<float>(values->begin(), values->begin() + 6), first);
        float maxAbs = 0;
        for (float v : *values) maxAbs = std::max(maxAbs, std::fabs(v));
        QCOMPARE(maxAbs, 52.459381103515625f);
        // Zero copy: the tensor is the file's own bytes, and loads again share them.
        auto again = model->load(0);
        QCOMPARE(again->bytes.data(), tensor->bytes.data());
    }

    void int8FileIsTheRoundedFloatFile() {
        // The int8 file stores round(x / max|x| × 127) of the float file, max over the whole
        // tensor, no scale stored. Checked for every tensor the files share, element by
        // element, in double: no element lies on a .5 tie (checked below), so rounding half
        // away from zero and half to even both reproduce every code exactly.
        const auto floats = openOrFail(kFloat);
        const auto codes = openOrFail(kInt8);
        QVERIFY(floats && codes);
        int shared = 0;
        for (size_t i = 0; i < codes->tensors().size(); ++i) {
            const TensorInfo& info = codes->tensors()[i];
            QCOMPARE(info.dtype, DType::Int8);
            const int64_t f = floats->find(info.name);
            if (f < 0) continue;
            ++shared;
            QCOMPARE(floats->tensors()[static_cast<size_t>(f)].shape, info.shape);
            auto x = toFloat32(*floats->load(static_cast<size_t>(f)));
            auto q = codes->load(i);
            QVERIFY(x && q);
            QCOMPARE(q->bytes.size(), x->size());
            double maxAbs = 0;
            for (float v : *x) maxAbs = std::max(maxAbs, std::fabs(double(v)));
            int64_t ties = 0, differ = 0;
            for (size_t k = 0; k < x->size(); ++k) {
                const double scaled = double((*x)[k]) / maxAbs * 127.0;
                ties += std::fabs(scaled - std::trunc(scaled)) == 0.5;
                const auto code = static_cast<int8_t>(q->bytes[k]);
                differ += std::lround(scaled) != code || std::nearbyint(scaled) != code;
            }
            QCOMPARE(ties, int64_t{0});
            QCOMPARE(differ, int64_t{0});
        }
        QCOMPARE(shared, 1);
        // The first codes, as Python's struct reads them.
        auto q = codes->load(0);
        const std::vector<int8_t> first(q->bytes.begin(), q->bytes.begin() + 6);
        QCOMPARE(first, (std::vector<int8_t>{-1, 0, 2, -6, 1, 4}));
    }

    void everyDtypeInOffsetOrder() {
        // Written out of order on purpose: the reader lists by data offset.
        const std::string header =
            R"({"z_f64":{"dtype":"F64","shape":[1],"data_offsets":[0,8]},)"
            R"("__metadata__":{"format":"pt"},)"
            R"("y_f32":{"dtype":"F32","shape":[1],"data_offsets":[8,12]},)"
            R"("x_f16":{"dtype":"F16","shape":[2],"data_offsets":[12,16]},)"
            R"("w_bf16":{"dtype":"BF16","shape":[2],"data_offsets":[16,20]},)"
            R"("v_i64":{"dtype":"I64","shape":[1],"data_offsets":[20,28]},)"
            R"("u_i32":{"dtype":"I32","shape":[1],"data_offsets":[28,32]},)"
            R"("t_i16":{"dtype":"I16","shape":[1],"data_offsets":[32,34]},)"
            R"("s_i8":{"dtype":"I8","shape":[2],"data_offsets":[34,36]},)"
            R"("r_u8":{"dtype":"U8","shape":[1,2],"data_offsets":[36,38]},)"
            R"("q_bool":{"dtype":"BOOL","shape":[2],"data_offsets":[38,40]},)"
            R"("p_u16":{"dtype":"U16","shape":[1],"data_offsets":[40,42]},)"
            R"("o_f8":{"dtype":"F8_E4M3","shape":[2],"data_offsets":[42,44]},)"
            R"("n_empty":{"dtype":"F32","shape":[0,3],"data_offsets":[44,44]},)"
            R"("m_scalar":{"dtype":"F32","shape":[],"data_offsets":[44,48]}})";
        std::string data(48, '\0');
        const double f64 = 0.1;
        const float f32 = -2.5f, scalar = 3.0f;
        const uint16_t f16[] = {0x3C00, 0xFC00}, bf16[] = {0x3F80, 0xC0A0};  // 1, -inf; 1, -5
        const int64_t i64 = -7;
        const int32_t i32 = 100000;
        const int16_t i16 = -300;
        const int8_t i8[] = {-128, 127};
        const uint8_t u8[] = {0, 255}, flags[] = {1, 0};
        const uint16_t u16 = 65535;
        std::memcpy(&data[0], &f64, 8);
        std::memcpy(&data[8], &f32, 4);
        std::memcpy(&data[12], f16, 4);
        std::memcpy(&data[16], bf16, 4);
        std::memcpy(&data[20], &i64, 8);
        std::memcpy(&data[28], &i32, 4);
        std::memcpy(&data[32], &i16, 2);
        std::memcpy(&data[34], i8, 2);
        std::memcpy(&data[36], u8, 2);
        std::memcpy(&data[38], flags, 2);
        std::memcpy(&data[40], &u16, 2);
        std::memcpy(&data[44], &scalar, 4);
        auto opened = openSafetensors("m.safetensors", copyBytes(file(header, data)));
        QVERIFY2(opened, opened ? "" : opened.error().message.c_str());
        const ModelFile& model = **opened;
        std::vector<std::string> names, dtypes;
        for (const auto& t : model.tensors()) {
            names.push_back(t.name);
            dtypes.push_back(t.dtype_name);
        }
        QCOMPARE(names, (std::vector<std::string>{"z_f64", "y_f32", "x_f16", "w_bf16", "v_i64", "u_i32", "t_i16", "s_i8",
                                                  "r_u8", "q_bool", "p_u16", "o_f8", "m_scalar", "n_empty"}));
        QCOMPARE(dtypes, (std::vector<std::string>{"float64", "float32", "float16", "bfloat16", "int64", "int32", "int16",
                                                   "int8", "uint8", "bool", "uint16", "f8_e4m3", "float32", "float32"}));
        const auto values = [&](const char* name) {
            auto t = model.load(static_cast<size_t>(model.find(name)));
            if (!t) return std::vector<float>{};
            auto v = toFloat32(*t);
            return v ? *v : std::vector<float>{};
        };
        QCOMPARE(values("z_f64"), std::vector<float>{0.1f});
        QCOMPARE(values("y_f32"), std::vector<float>{-2.5f});
        QCOMPARE(values("x_f16"), (std::vector<float>{1.0f, -INFINITY}));
        QCOMPARE(values("w_bf16"), (std::vector<float>{1.0f, -5.0f}));
        QCOMPARE(values("v_i64"), std::vector<float>{-7});
        QCOMPARE(values("u_i32"), std::vector<float>{100000});
        QCOMPARE(values("t_i16"), std::vector<float>{-300});
        QCOMPARE(values("s_i8"), (std::vector<float>{-128, 127}));
        QCOMPARE(values("r_u8"), (std::vector<float>{0, 255}));
        QCOMPARE(values("q_bool"), (std::vector<float>{1, 0}));
        QCOMPARE(values("p_u16"), std::vector<float>{65535});
        QCOMPARE(values("m_scalar"), std::vector<float>{3});
        QCOMPARE(values("n_empty"), std::vector<float>{});
        auto f8 = model.load(static_cast<size_t>(model.find("o_f8")));
        QVERIFY(!f8);
        QCOMPARE(f8.error().message, std::string("m.safetensors: tensor 'o_f8': its dtype f8_e4m3 cannot be loaded (numbers only)"));
    }

    void hugeFileListsFromItsHeaderOnly() {
        // A 2 GiB file (sparse: no disk used) lists in well under the 200 ms budget and loads
        // as a view of the mapped file: neither reads the data.
        QTemporaryDir tmp;
        const std::string path = tmp.filePath("big.safetensors").toStdString();
        const uint64_t count = (uint64_t{1} << 29) - 16;  // float32 elements
        const std::string header = R"({"big":{"dtype":"F32","shape":[)" + std::to_string(count) +
                                   R"(],"data_offsets":[0,)" + std::to_string(count * 4) + "]}}";
        const std::string head = file(header);
        const int fd = ::open(path.c_str(), O_CREAT | O_WRONLY | O_TRUNC, 0644);
        QVERIFY(fd >= 0);
        QCOMPARE(::write(fd, head.data(), head.size()), static_cast<ssize_t>(head.size()));
        QCOMPARE(::ftruncate(fd, static_cast<off_t>(head.size() + count * 4)), 0);
        ::close(fd);
        QElapsedTimer timer;
        timer.start();
        auto model = openModel(path);
        QVERIFY(model);
        auto tensor = (*model)->load(0);
        const qint64 ms = timer.elapsed();
        QVERIFY(tensor);
        QCOMPARE(tensor->bytes.size(), count * 4);
        qInfo("2 GiB safetensors: listed and loaded as a view in %lld ms", ms);
        QVERIFY(ms < 200);
    }

    void hostileHeaders() {
        const std::string entry = R"({"t":{"dtype":"F32","shape":[2],"data_offsets":[0,8]}})";
        QCOMPARE(openSafetensors("m.safetensors", copyBytes(file(entry, std::string(8, '\0')))).ok(), true);
        QCOMPARE(openError("abc"), QString("m.safetensors: not a safetensors file (3 bytes)"));
        std::string huge(8, '\0');
        const uint64_t big = 100'000'001;
        std::memcpy(huge.data(), &big, 8);
        QCOMPARE(openError(huge + "{}"), QString("m.safetensors: the header length 100000001 is more than safetensors "
                                                 "allows (100000000 bytes): not a safetensors file?"));
        QCOMPARE(openError(file(entry).substr(0, 30)),
                 QString("m.safetensors: the header length %1 runs past the end of the file (30 bytes)").arg(entry.size()));
        QVERIFY(openError(file("{\"t\":")).startsWith("m.safetensors: the JSON header does not parse: "));
        QCOMPARE(openError(file("[1, 2]")), QString("m.safetensors: the JSON header is not an object"));
        const auto entryError = [&](const std::string& value) {
            return openError(file(R"({"t":)" + value + "}", std::string(8, '\0')));
        };
        const std::pair<const char*, const char*> cases[] = {
            {"3", "its entry is not an object"},
            {R"({"shape":[2],"data_offsets":[0,8]})", "no \"dtype\" string"},
            {R"({"dtype":"F32","data_offsets":[0,8]})", "no \"shape\" list"},
            {R"({"dtype":"F32","shape":[2]})", "\"data_offsets\" is not a pair of non-negative integers"},
            {R"({"dtype":"F32","shape":[2],"data_offsets":[-1,8]})", "\"data_offsets\" is not a pair of non-negative integers"},
            {R"({"dtype":"F32","shape":[-2],"data_offsets":[0,8]})",
             "\"shape\" holds -2, not a dimension (a whole number from 0 to 2^63-1)"},
            {R"({"dtype":"F32","shape":[2.5],"data_offsets":[0,8]})",
             "\"shape\" holds 2.5, not a dimension (a whole number from 0 to 2^63-1)"},
            {R"({"dtype":"F32","shape":[18446744073709551615],"data_offsets":[0,8]})",
             "\"shape\" holds 18446744073709551615, not a dimension (a whole number from 0 to 2^63-1)"},
            {R"({"dtype":"F32","shape":[2],"data_offsets":[8,0]})", "\"data_offsets\" [8, 0] end before they begin"},
            {R"({"dtype":"F32","shape":[4],"data_offsets":[0,16]})", "\"data_offsets\" end at 16, past the 8 bytes of data"},
            {R"({"dtype":"F8_E5M2","shape":[2],"data_offsets":[0,9]})", "\"data_offsets\" end at 9, past the 8 bytes of data"},
            {R"({"dtype":"F32","shape":[3],"data_offsets":[0,8]})", "shape [3] of F32 needs 12 bytes, \"data_offsets\" give 8"},
            {R"({"dtype":"F64","shape":[4294967296,4294967296],"data_offsets":[0,8]})",
             "shape [4294967296,4294967296] is too large"},
        };
        for (const auto& [value, message] : cases)
            QCOMPARE(entryError(value), QString("m.safetensors: tensor 't': ") + message);
        // Nesting 100000 deep (parsed, reported and freed without recursion).
        const std::string deep = std::string(100000, '[') + std::string(100000, ']');
        QCOMPARE(entryError(R"({"dtype":"F32","shape":[)" + deep + R"(],"data_offsets":[0,8]})"),
                 QString("m.safetensors: tensor 't': \"shape\" holds an array, not a dimension (a whole number from 0 to 2^63-1)"));
    }
};

QTEST_GUILESS_MAIN(TstModelSafetensors)
#include "tst_model_safetensors.moc"
