// The .npz and .npy model readers against values known independently: SciPy's
// fftw_double_ref.npz (values decoded with Python's zipfile + struct, hard-coded here), and
// the archives tests/data/models/make_npz_samples.py wrote (stored and deflated members,
// fortran order, big-endian, float16, int8, a lying member), plus hostile cases.
#include <QElapsedTimer>
#include <QtTest>

#include <fcntl.h>
#include <unistd.h>

#include <cmath>
#include <cstring>

#include "core/modelfile/readers.h"
#include "core/modelfile/tensor_values.h"
#include "tests/modelfile/model_test_util.h"

using namespace qs::modelfile;
using namespace qs::modelfile::testing;

namespace {

const std::string kDir = QS_MODELS_DIR "/npz/";


template <typename T>
std::vector<T> storedAs(const ModelFile& model, const std::string& name) {
    auto tensor = model.load(static_cast<size_t>(model.find(name)));
    if (!tensor) return {};
    std::vector<T> out(tensor->bytes.size() / sizeof(T));
    std::memcpy(out.data(), tensor->bytes.data(), out.size() * sizeof(T));
    return out;
}

// A version 1.0 .npy in memory.
std::string npy(const std::string& descr, const std::string& shape, const std::string& payload, bool fortran = false) {
    std::string header = "{'descr': '" + descr + "', 'fortran_order': " + (fortran ? "True" : "False") +
                         ", 'shape': " + shape + ", }";
    while ((10 + header.size() + 1) % 64 != 0) header += ' ';
    header += '\n';
    std::string out = std::string("\x93NUMPY\x01\x00", 8);
    out += static_cast<char>(header.size() & 0xFF);
    out += static_cast<char>(header.size() >> 8);
    return out + header + payload;
}

template <typename T>
std::string bytesOf(std::initializer_list<T> values) {
    std::string out(values.size() * sizeof(T), '\0');
    std::memcpy(out.data(), std::data(values), out.size());
    return out;
}

QString messageOf(const qs::Result<ModelPtr>& r) { return r ? QString() : QString::fromStdString(r.error().message); }

}  // namespace

class TstModelNpz : public QObject {
    Q_OBJECT

private slots:
    void scipyReferenceArrays() {
        const auto model = mustOpen(kDir + "fftw_double_ref.npz");
        QVERIFY(model);
        QCOMPARE(model->format(), std::string_view("npz"));
        QCOMPARE(model->tensors().size(), size_t{113});
        // Decoded with Python's zipfile + struct: the archive's first member and two arrays.
        const TensorInfo& sizes = model->tensors()[0];
        QCOMPARE(sizes.name, std::string("sizes"));
        QCOMPARE(sizes.dtype, DType::Int64);
        QCOMPARE(sizes.shape, qs::Shape{14});
        QCOMPARE(storedAs<int64_t>(*model, "sizes"),
                 (std::vector<int64_t>{2, 3, 4, 8, 12, 15, 16, 17, 32, 64, 128, 256, 512, 1024}));
        const auto dct = storedAs<double>(*model, "dct_2_17");
        QCOMPARE(dct.size(), size_t{17});
        QCOMPARE(dct[0], 272.0);
        QCOMPARE(dct[1], -116.96012284204299);
        QCOMPARE(dct[2], -3.789e-15);
        QCOMPARE(dct[3], -12.842932973114273);
        const auto dst = storedAs<double>(*model, "dst_4_1024");
        QCOMPARE(dst.size(), size_t{1024});
        QCOMPARE(dst[0], 849291.709627413);
        QCOMPARE(dst[1023], -0.5003836424535848);
        // As float32: the nearest float32 of each double.
        const auto asFloat = floatsOf(*model, "dct_2_17");
        QCOMPARE(asFloat[1], static_cast<float>(-116.96012284204299));
        // numpy writes zip64 extras into every local header: the members are still views.
        QCOMPARE(model->load(0)->owner.get(), model->load(112)->owner.get());
        int float64 = 0;
        for (const auto& t : model->tensors()) float64 += t.dtype == DType::Float64;
        QCOMPARE(float64, 112);
    }

    void storedMembersAreViewsOfTheMappedArchive() {
        const auto model = mustOpen(kDir + "mixed.npz");
        QVERIFY(model);
        auto weights = model->load(static_cast<size_t>(model->find("weights")));   // stored
        auto kernel = model->load(static_cast<size_t>(model->find("scalar")));        // stored
        auto bias = model->load(static_cast<size_t>(model->find("bias")));          // deflated
        QVERIFY(weights && kernel && bias);
        QCOMPARE(weights->owner.get(), kernel->owner.get());  // both inside the archive's bytes
        QVERIFY(bias->owner.get() != weights->owner.get());   // inflated into its own buffer
    }

    void mixedMembers() {
        const auto model = mustOpen(kDir + "mixed.npz");
        QVERIFY(model);
        std::vector<std::string> names;
        for (const auto& t : model->tensors()) names.push_back(t.name);
        QCOMPARE(names, (std::vector<std::string>{"weights", "bias", "fortran", "codes", "big", "half", "u16", "scalar",
                                                  "layer/kernel", "fortran_deflated", "complex"}));  // README.txt skipped
        QCOMPARE(floatsOf(*model, "weights"), (std::vector<float>{1, 2, 3, 4, 5, 6}));
        QCOMPARE(floatsOf(*model, "bias"), (std::vector<float>{0.5f, -0.25f, static_cast<float>(1e-3)}));
        // Column-major [[1, 2, 3], [4, 5, 6]] comes out row-major, stored and deflated.
        const TensorInfo& fortran = model->tensors()[static_cast<size_t>(model->find("fortran"))];
        QCOMPARE(fortran.shape, (qs::Shape{2, 3}));
        QCOMPARE(fortran.dtype, DType::Float64);
        QCOMPARE(floatsOf(*model, "fortran"), (std::vector<float>{1, 2, 3, 4, 5, 6}));
        QCOMPARE(storedAs<int16_t>(*model, "fortran_deflated"), (std::vector<int16_t>{1, 2, 3, 4, 5, 6}));
        QCOMPARE(storedAs<int8_t>(*model, "codes"), (std::vector<int8_t>{-128, -1, 0, 127}));
        QCOMPARE(model->tensors()[static_cast<size_t>(model->find("codes"))].dtype_name, std::string("int8"));
        // '>f4' is byte-swapped into little-endian.
        QCOMPARE(storedAs<float>(*model, "big"), (std::vector<float>{1.5f, -2.0f}));
        QCOMPARE(floatsOf(*model, "half"), (std::vector<float>{1.0f, -2.0f, std::ldexp(1.0f, -24)}));
        QCOMPARE(floatsOf(*model, "u16"), (std::vector<float>{0.0f, 65535.0f}));
        QCOMPARE(model->tensors()[static_cast<size_t>(model->find("scalar"))].shape, qs::Shape{});
        QCOMPARE(floatsOf(*model, "scalar"), std::vector<float>{7.0f});
        QCOMPARE(floatsOf(*model, "layer/kernel"), (std::vector<float>{0.125f, 8.0f}));
        // complex64 is listed under numpy's name and refused on load.
        const size_t complex = static_cast<size_t>(model->find("complex"));
        QCOMPARE(model->tensors()[complex].dtype, DType::Other);
        QCOMPARE(model->tensors()[complex].dtype_name, std::string("complex64"));
        auto refused = model->load(complex);
        QVERIFY(!refused);
        QVERIFY(QString::fromStdString(refused.error().message).contains("tensor 'complex'"));
    }

    void zipBombMemberIsStoppedAtItsDeclaredSize() {
        const std::string path = kDir + "bomb.npz";
        const auto model = mustOpen(path);
        QVERIFY(model);
        // 'liar' declares 6 floats (header and zip entry agree) but inflates to 4 MiB.
        const size_t liar = static_cast<size_t>(model->find("liar"));
        QCOMPARE(model->tensors()[liar].shape, qs::Shape{6});
        auto r = model->load(liar);
        QVERIFY(!r);
        QCOMPARE(r.error().message, path + ": member 'liar.npy': inflates to more than the 152 bytes it declares");
        // 'honest' really is 4 MiB of zeros, deflated about 1000:1: it loads.
        const auto honest = floatsOf(*model, "honest");
        QCOMPARE(honest.size(), size_t{1} << 20);
        QCOMPARE(*std::max_element(honest.begin(), honest.end()), 0.0f);
    }

    void hugeStoredMemberListsFromItsHeaderOnly() {
        // A 2 GiB stored .npz (sparse: the zip headers written by hand around a hole) lists
        // in well under the 200 ms budget and loads as a view of the mapped archive.
        QTemporaryDir tmp;
        const std::string path = tmp.filePath("big.npz").toStdString();
        const uint64_t count = (uint64_t{1} << 29) - 64;
        const std::string array = npy("<f4", QString("(%1,)").arg(count).toStdString(), "");
        const uint32_t size = static_cast<uint32_t>(array.size() + count * 4);
        const std::string name = "big.npy";
        const auto le = [](uint64_t v, int width) {
            std::string out;
            for (int i = 0; i < width; ++i) out += static_cast<char>((v >> (8 * i)) & 0xFF);
            return out;
        };
        const std::string local = le(0x04034b50, 4) + le(20, 2) + le(0, 2) + le(0, 2) + le(0, 4) + le(0, 4) +
                                  le(size, 4) + le(size, 4) + le(name.size(), 2) + le(0, 2) + name;
        const uint64_t cdOffset = local.size() + size;
        const std::string central = le(0x02014b50, 4) + le(20, 2) + le(20, 2) + le(0, 2) + le(0, 2) + le(0, 4) +
                                    le(0, 4) + le(size, 4) + le(size, 4) + le(name.size(), 2) + le(0, 2) + le(0, 2) +
                                    le(0, 2) + le(0, 2) + le(0, 4) + le(0, 4) + name;
        const std::string end = le(0x06054b50, 4) + le(0, 2) + le(0, 2) + le(1, 2) + le(1, 2) + le(central.size(), 4) +
                                le(cdOffset, 4) + le(0, 2);
        const int fd = ::open(path.c_str(), O_CREAT | O_WRONLY | O_TRUNC, 0644);
        QVERIFY(fd >= 0);
        const std::string head = local + array, tail = central + end;
        QCOMPARE(::pwrite(fd, head.data(), head.size(), 0), static_cast<ssize_t>(head.size()));
        QCOMPARE(::pwrite(fd, tail.data(), tail.size(), static_cast<off_t>(cdOffset)), static_cast<ssize_t>(tail.size()));
        ::close(fd);
        QElapsedTimer timer;
        timer.start();
        auto model = openModel(path);
        QVERIFY2(model, model ? "" : model.error().message.c_str());
        QCOMPARE((*model)->tensors()[0].shape, qs::Shape{static_cast<int64_t>(count)});
        auto tensor = (*model)->load(0);
        const qint64 ms = timer.elapsed();
        QVERIFY2(tensor, tensor ? "" : tensor.error().message.c_str());
        QCOMPARE(tensor->bytes.size(), count * 4);
        qInfo("2 GiB stored .npz: listed and loaded as a view in %lld ms", ms);
        QVERIFY(ms < 200);
    }

    void damagedMembersAreNamed() {
        auto truncated = openModel(kDir + "truncated_member.npz");
        QCOMPARE(messageOf(truncated), QString::fromStdString(kDir + "truncated_member.npz: member 'short.npy': truncated data: "
                                                              "shape [100] of float32 needs 400 bytes, the file has 24"));
        auto junk = openModel(kDir + "no_magic_member.npz");
        QCOMPARE(messageOf(junk), QString::fromStdString(kDir + "no_magic_member.npz: member 'junk.npy': not a NumPy .npy "
                                                         "file (no \\x93NUMPY magic)"));
        auto notZip = openNpz("x.npz", copyBytes(npy("<f4", "(1,)", bytesOf<float>({1}))));
        QVERIFY(messageOf(notZip).startsWith("x.npz: not a zip archive"));
    }

    void npyIsOneTensorNamedAfterTheFile() {
        auto model = openNpy("some/dir/conv.weight.npy", copyBytes(npy("|i1", "(2, 2)", bytesOf<int8_t>({1, -2, 3, -4}))));
        QVERIFY(model);
        QCOMPARE((*model)->format(), std::string_view("npy"));
        QCOMPARE((*model)->tensors().size(), size_t{1});
        QCOMPARE((*model)->tensors()[0].name, std::string("conv.weight"));
        QCOMPARE((*model)->tensors()[0].dtype, DType::Int8);
        QCOMPARE(storedAs<int8_t>(**model, "conv.weight"), (std::vector<int8_t>{1, -2, 3, -4}));
        QCOMPARE((*openNpy("W.NPY", copyBytes(npy("<f4", "(1,)", bytesOf<float>({1})))))->tensors()[0].name,
                 std::string("W"));
    }

    void npyEveryNumericDtype() {
        struct Case {
            const char* descr;
            DType dtype;
            std::string payload;
            std::vector<float> values;
        };
        const std::vector<Case> cases = {
            {"<f2", DType::Float16, bytesOf<uint16_t>({0x3C00, 0x7BFF}), {1.0f, 65504.0f}},
            {"<f4", DType::Float32, bytesOf<float>({0.1f, -3}), {0.1f, -3}},
            {"<f8", DType::Float64, bytesOf<double>({0.1, 1e300}), {0.1f, INFINITY}},
            {"|i1", DType::Int8, bytesOf<int8_t>({-128, 127}), {-128, 127}},
            {"|u1", DType::UInt8, bytesOf<uint8_t>({0, 255}), {0, 255}},
            {"<i2", DType::Int16, bytesOf<int16_t>({-32768, 7}), {-32768, 7}},
            {"<u2", DType::UInt16, bytesOf<uint16_t>({65535, 7}), {65535, 7}},
            {"<i4", DType::Int32, bytesOf<int32_t>({-5, 16777217}), {-5, 16777216}},
            {"<u4", DType::UInt32, bytesOf<uint32_t>({4294967295u, 1}), {4294967296.0f, 1}},
            {"<i8", DType::Int64, bytesOf<int64_t>({-1, 1}), {-1, 1}},
            {"<u8", DType::UInt64, bytesOf<uint64_t>({18446744073709551615ull, 2}), {18446744073709551616.0f, 2}},
            {"|b1", DType::Bool, bytesOf<uint8_t>({0, 1}), {0, 1}},
            {">i4", DType::Int32, bytesOf<uint32_t>({0xFBFFFFFFu, 0x07000000u}), {-5, 7}},  // big-endian -5, 7
            {">f8", DType::Float64, bytesOf<uint64_t>({0x000000000000F03Full, 0}), {1.0f, 0}},
        };
        for (const Case& c : cases) {
            auto model = openNpy("a.npy", copyBytes(npy(c.descr, "(2,)", c.payload)));
            QVERIFY2(model, c.descr);
            QCOMPARE((*model)->tensors()[0].dtype, c.dtype);
            QCOMPARE(floatsOf(**model, "a"), c.values);
        }
    }

    void npyFortranOrderIsTransposed() {
        // [[[0, 1], [2, 3], [4, 5]], [[6, 7], [8, 9], [10, 11]]] stored column-major (shape 2, 3, 2).
        std::vector<int32_t> rowMajor(12), columnMajor(12);
        for (int i = 0; i < 12; ++i) rowMajor[static_cast<size_t>(i)] = i;
        for (int a = 0; a < 2; ++a)
            for (int b = 0; b < 3; ++b)
                for (int c = 0; c < 2; ++c) columnMajor[static_cast<size_t>(a + 2 * b + 6 * c)] = a * 6 + b * 2 + c;
        std::string payload(48, '\0');
        std::memcpy(payload.data(), columnMajor.data(), 48);
        auto model = openNpy("f.npy", copyBytes(npy(">i4", "(2, 3, 2)", std::string(), true) + [&] {
            std::string big = payload;  // big-endian too: swap then transpose
            for (size_t i = 0; i < 48; i += 4) std::reverse(big.begin() + static_cast<long>(i), big.begin() + static_cast<long>(i) + 4);
            return big;
        }()));
        QVERIFY(model);
        QCOMPARE(storedAs<int32_t>(**model, "f"), rowMajor);
    }

    void npyHostile() {
        auto truncated = openNpy("t.npy", copyBytes(npy("<f4", "(3,)", bytesOf<float>({1, 2}))));
        QCOMPARE(messageOf(truncated), QString("t.npy: truncated data: shape [3] of float32 needs 12 bytes, the file has 8"));
        auto huge = openNpy("h.npy", copyBytes(npy("<f8", "(4294967296, 4294967296)", "")));
        QCOMPARE(messageOf(huge), QString("h.npy: shape [4294967296,4294967296] is too large"));
        auto structured = openNpy("s.npy", copyBytes(npy("<f4", "(1,)", "").replace(10, 20, "{'descr': [('a', '<f4')")));
        QVERIFY(messageOf(structured).startsWith("s.npy: "));
        auto text = openNpy("u.npy", copyBytes(npy("<U5", "(2,)", std::string(40, 'x'))));
        QVERIFY(text);
        QCOMPARE((*text)->tensors()[0].dtype_name, std::string("str"));
        QVERIFY(!(*text)->load(0));
        QVERIFY(messageOf(openNpy("e.npy", copyBytes(""))).startsWith("e.npy: not a NumPy .npy file"));
    }
};

QTEST_GUILESS_MAIN(TstModelNpz)
#include "tst_model_npz.moc"
