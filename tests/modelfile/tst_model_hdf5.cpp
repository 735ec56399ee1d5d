// The HDF5 reader (Keras .h5/.hdf5) and the .keras reader on a real Keras file and copies
// of it that h5repack rewrote in other layouts (tests/data/models/SOURCES.md). Expected
// names, shapes and values come from h5dump (HDF5 1.10.8), not from this reader.
#include <QtTest>

#include <cstring>
#include <fstream>
#include <iterator>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "core/modelfile/model_file.h"
#include "core/modelfile/readers.h"
#include "core/modelfile/tensor_values.h"
#include "tests/modelfile/model_test_util.h"

using namespace qs::modelfile;
using namespace qs::modelfile::testing;

namespace {

const std::string kDir = QS_MODELS_DIR;
const std::string kKeypoint = kDir + "/hdf5/keypoint_classifier.hdf5";


// Every tensor's stored bytes, by name (empty for those that do not load).
std::map<std::string, std::string> contents(const ModelFile& model) {
    std::map<std::string, std::string> out;
    for (size_t i = 0; i < model.tensors().size(); ++i) {
        auto tensor = model.load(i);
        out[model.tensors()[i].name] = tensor ? std::string(tensor->bytes) : std::string();
    }
    return out;
}

// Opens `bytes` as an .hdf5 file labelled "hostile.h5" and loads every tensor: whatever
// happens, every error names the file.
void openAndLoadNamingTheFile(const std::string& bytes, const char* what) {
    auto model = openHdf5("hostile.h5", copyBytes(bytes));
    if (!model) {
        QVERIFY2(model.error().message.rfind("hostile.h5: ", 0) == 0, (what + std::string(": ") + model.error().message).c_str());
        return;
    }
    for (size_t i = 0; i < (*model)->tensors().size(); ++i) {
        auto tensor = (*model)->load(i);
        if (tensor) QCOMPARE(int64_t(tensor->bytes.size()), (*model)->tensors()[i].byteSize());
        else QVERIFY2(tensor.error().message.rfind("hostile.h5: tensor '", 0) == 0, tensor.error().message.c_str());
    }
}

// The symbol table nodes ("SNOD") of a version 0 file and where each entry's object header
// address sits (8-byte offsets: name offset, header address, cache type, reserved, scratch).
std::vector<size_t> symbolEntryAddressFields(const std::string& file) {
    std::vector<size_t> fields;
    for (size_t at = file.find("SNOD"); at != std::string::npos; at = file.find("SNOD", at + 4)) {
        uint16_t count = 0;
        std::memcpy(&count, file.data() + at + 6, 2);
        for (size_t e = 0; e < count; ++e) fields.push_back(at + 8 + e * 40 + 8);
    }
    return fields;
}

}  // namespace

class TestModelHdf5 : public QObject {
    Q_OBJECT

private slots:
    void listsEveryDatasetByItsPath() {
        const ModelPtr model = mustOpen(kKeypoint);
        QCOMPARE(std::string(model->format()), std::string("hdf5"));
        std::map<std::string, qs::Shape> shapes;
        for (const auto& t : model->tensors()) {
            shapes[t.name] = t.shape;
            QCOMPARE(t.dtype, DType::Float32);
            QCOMPARE(t.dtype_name, std::string("float32"));
        }
        const std::map<std::string, qs::Shape> expected = {
            {"model_weights/dense/dense/bias:0", {20}},      {"model_weights/dense/dense/kernel:0", {42, 20}},
            {"model_weights/dense_1/dense_1/bias:0", {10}},  {"model_weights/dense_1/dense_1/kernel:0", {20, 10}},
            {"model_weights/dense_2/dense_2/bias:0", {3}},   {"model_weights/dense_2/dense_2/kernel:0", {10, 3}},
        };
        QCOMPARE(shapes, expected);
    }

    void loadsTheValuesH5dumpPrints() {
        const ModelPtr model = mustOpen(kKeypoint);
        const auto bias = floatsOf(*model, "model_weights/dense_2/dense_2/bias:0");
        QCOMPARE(bias.size(), size_t{3});
        QCOMPARE(bias[0], -0.28261745f);
        const auto kernel = floatsOf(*model, "model_weights/dense/dense/kernel:0");
        QCOMPARE(kernel.size(), size_t{42 * 20});
        QCOMPARE(kernel[41 * 20 + 17], -0.307782918f);
        QCOMPARE(kernel[41 * 20 + 19], -0.467481554f);
        const auto kernel1 = floatsOf(*model, "model_weights/dense_1/dense_1/kernel:0");
        QCOMPARE(kernel1[0], 0.108782887f);
        QCOMPARE(kernel1[1], 0.713172376f);
    }

    void contiguousDataIsAViewIntoTheFile() {
        const std::string file = fileBytes(kKeypoint);
        auto model = openHdf5("k.hdf5", copyBytes(file));
        QVERIFY(model);
        auto tensor = (*model)->load(size_t((*model)->find("model_weights/dense/dense/kernel:0")));
        QVERIFY(tensor);
        // The bytes sit in the file where h5dump -p reports the dataset (its OFFSET).
        QVERIFY(file.find(std::string(tensor->bytes)) != std::string::npos);
        QCOMPARE(tensor->bytes.size(), size_t{42 * 20 * 4});
    }

    // h5repack's rewrites hold the same numbers in other structures: superblock v3 with
    // "OHDR" headers and link messages; chunks indexed by a version 1 B-tree with partial
    // edge chunks; a fixed array (partial edges too) and a single-chunk index; a 1 KiB user
    // block before the superblock (addresses count from the superblock).
    void everyLayoutGivesTheSameTensors() {
        const auto original = contents(*mustOpen(kKeypoint));
        for (const char* name : {"keypoint_classifier_latest.h5", "keypoint_classifier_chunked.h5",
                                 "keypoint_classifier_latest_chunked.h5", "keypoint_classifier_userblock.h5"}) {
            const auto rewritten = contents(*mustOpen(kDir + "/hdf5/" + name));
            QVERIFY2(rewritten == original, name);
        }
    }

    // h5import wrote integers and big-endian numbers (values in SOURCES.md); loads give
    // them little-endian, as TensorData promises.
    void integersAndBigEndianNumbers() {
        const ModelPtr model = mustOpen(kDir + "/hdf5/h5import_types.h5");
        const auto& tensors = model->tensors();
        QCOMPARE(tensors.size(), size_t{5});
        const auto info = [&](const std::string& name) { return tensors.at(size_t(model->find(name))); };
        QCOMPARE(info("ints/be16").dtype, DType::Int16);
        QCOMPARE(info("ints/be16").shape, (qs::Shape{2, 3}));
        QCOMPARE(info("floats/be64").dtype, DType::Float64);
        QCOMPARE(info("ints/u8").dtype, DType::UInt8);
        QCOMPARE(info("ints/i64_chunked").dtype, DType::Int64);
        QCOMPARE(info("strings/words").dtype, DType::Other);
        QCOMPARE(info("strings/words").dtype_name, std::string("hdf5 variable-length"));

        const auto raw = [&](const std::string& name) {
            auto t = model->load(size_t(model->find(name)));
            return t ? std::string(t->bytes) : std::string("failed: ") + t.error().message;
        };
        const auto asBytes = [](const auto& values) {
            return std::string(reinterpret_cast<const char*>(values.data()), values.size() * sizeof(values[0]));
        };
        QCOMPARE(raw("ints/be16"), asBytes(std::vector<int16_t>{1, -2, 300, -400, 5, 32767}));
        QCOMPARE(raw("floats/be64"), asBytes(std::vector<double>{0.5, -1.25, 3e10, 1e-300}));
        QCOMPARE(raw("ints/u8"), asBytes(std::vector<uint8_t>{0, 1, 2, 255, 128, 7}));
        QCOMPARE(raw("ints/i64_chunked"), asBytes(std::vector<int64_t>{-9000000000, 1, 2, 3, 4, 5, 6, 7, 8, 9}));
        QCOMPARE(raw("strings/words").rfind("failed: ", 0), size_t{0});
    }

    void unsupportedStorageIsListedAndRefusedOnLoad_data() {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("tensor");
        QTest::addColumn<QString>("reason");
        QTest::newRow("deflate") << "keypoint_classifier_deflate.h5" << "model_weights/dense/dense/kernel:0"
                                 << "its chunks are filtered (deflate)";
    }
    void unsupportedStorageIsListedAndRefusedOnLoad() {
        QFETCH(QString, file);
        QFETCH(QString, tensor);
        QFETCH(QString, reason);
        const std::string path = kDir + "/hdf5/" + file.toStdString();
        const ModelPtr model = mustOpen(path);
        QCOMPARE(model->tensors().size(), size_t{6});
        const int64_t index = model->find(tensor.toStdString());
        QVERIFY(index >= 0);
        QCOMPARE(model->tensors()[size_t(index)].shape, (qs::Shape{42, 20}));
        auto loaded = model->load(size_t(index));
        QVERIFY(!loaded);
        const std::string prefix = path + ": tensor '" + tensor.toStdString() + "': " + reason.toStdString();
        QVERIFY2(loaded.error().message.rfind(prefix, 0) == 0, loaded.error().message.c_str());
    }

    // Dense groups: h5repack -L put the root's links in a fractal heap; dense_groups.h5 has
    // 120 groups in its root (a two-level name index, an indirect heap block) and the
    // keypoint weights copied into the first and the last of them.
    void denseGroupsReadTheirLinks() {
        const auto original = contents(*mustOpen(kKeypoint));
        QVERIFY(contents(*mustOpen(kDir + "/hdf5/keypoint_classifier_dense_links.h5")) == original);
        const auto many = contents(*mustOpen(kDir + "/hdf5/dense_groups.h5"));
        QCOMPARE(many.size(), size_t{8});
        for (const auto& [name, bytes] : original) {
            QVERIFY(!bytes.empty());
            QCOMPARE(many.at("g119/" + name), bytes);
        }
        QCOMPARE(many.at("g000/dense_2/dense_2/kernel:0"), original.at("model_weights/dense_2/dense_2/kernel:0"));
    }

    void kerasZipsReadAsTheirWeightsFile() {
        const auto original = contents(*mustOpen(kKeypoint));
        for (const char* name : {"keypoint_classifier_stored.keras", "keypoint_classifier_deflated.keras"}) {
            const ModelPtr model = mustOpen(kDir + "/keras/" + name);
            QCOMPARE(std::string(model->format()), std::string("keras"));
            QVERIFY2(contents(*model) == original, name);
        }
    }

    // A stored model.weights.h5 is read where it lies in the archive, as a plain .h5 is.
    void storedKerasWeightsAreViewsIntoTheArchive() {
        const SharedBytes archive = copyBytes(fileBytes(kDir + "/keras/keypoint_classifier_stored.keras"));
        auto model = openKeras("k.keras", archive);
        QVERIFY(model);
        auto kernel = (*model)->load(size_t((*model)->find("model_weights/dense/dense/kernel:0")));
        QVERIFY(kernel);
        const std::string_view whole = archive->view();
        QVERIFY(kernel->bytes.data() >= whole.data() && kernel->bytes.data() + kernel->bytes.size() <= whole.data() + whole.size());
    }

    void kerasRefusals_data() {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QString>("message");
        const QByteArray bomb = QByteArray::fromStdString(fileBytes(kDir + "/keras/declared_size_bomb.keras"));
        QTest::newRow("declared size bomb")
            << bomb << "bomb.keras: member 'model.weights.h5': declares 3221225472 bytes from 5897 compressed, more than deflate can produce";
        QTest::newRow("not a zip") << QByteArray("hello") << "bomb.keras: not a zip archive (5 bytes)";
        QByteArray hdf5 = QByteArray::fromStdString(fileBytes(kKeypoint));
        QTest::newRow("plain hdf5") << hdf5 << "bomb.keras: not a zip archive (Not a zip archive)";
    }
    void kerasRefusals() {
        QFETCH(QByteArray, bytes);
        QFETCH(QString, message);
        auto model = openKeras("bomb.keras", copyBytes(bytes.toStdString()));
        QVERIFY(!model);
        QCOMPARE(QString::fromStdString(model.error().message), message);
    }

    void kerasWithoutWeightsNamesItsMembers() {
        // A .keras whose member is misnamed: a zip of one stored member "weights.h5".
        std::string zip = fileBytes(kDir + "/keras/keypoint_classifier_stored.keras");
        for (size_t at = zip.find("model.weights.h5"); at != std::string::npos; at = zip.find("model.weights.h5", at))
            zip.replace(at, 6, "MODEL.");
        auto model = openKeras("x.keras", copyBytes(zip));
        QVERIFY(!model);
        QCOMPARE(model.error().message,
                 std::string("x.keras: no model.weights.h5 in the archive (members: metadata.json, MODEL.weights.h5)"));
    }

    // Truncated at many lengths and corrupted at many offsets: every outcome is a clean
    // error naming the file or a tensor that loads with the bytes its shape needs.
    void hostileBytesNeverCrash() {
        for (const char* name : {"keypoint_classifier.hdf5", "keypoint_classifier_latest.h5", "keypoint_classifier_chunked.h5",
                                 "keypoint_classifier_dense_links.h5"}) {
            const std::string file = fileBytes(kDir + "/hdf5/" + name);
            for (size_t length = 0; length < file.size(); length += 5)
                openAndLoadNamingTheFile(file.substr(0, length), "truncated");
            for (size_t at = 0; at < file.size(); at += 3) {
                for (const char value : {'\xff', '\x00', '\x7f'}) {
                    std::string bad = file;
                    bad[at] = value;
                    openAndLoadNamingTheFile(bad, "corrupted");
                }
            }
        }
    }

    void truncationsAreExplained() {
        const std::string file = fileBytes(kKeypoint);
        auto model = openHdf5("short.h5", copyBytes(file.substr(0, 100)));
        QVERIFY(!model);
        QCOMPARE(model.error().message, std::string("short.h5: the object header at byte 96 ends early"));
        model = openHdf5("short.h5", copyBytes(file.substr(0, 5)));
        QVERIFY(!model);
        QCOMPARE(model.error().message, std::string("short.h5: not an HDF5 file (no HDF5 signature at byte 0, 512, 1024, ...)"));
        // A layout pointing past the end: dense_2's bias (12 bytes at byte 15832, h5dump -p)
        // moved to 4 bytes before the end. It still lists; its load says why it cannot.
        std::string moved = file;
        const std::string address("\xd8\x3d\0\0\0\0\0\0", 8);  // 15832
        const size_t field = moved.find(address);
        QVERIFY(field != std::string::npos && moved.find(address, field + 1) == std::string::npos);
        const uint64_t nearEnd = file.size() - 4;
        moved.replace(field, 8, std::string(reinterpret_cast<const char*>(&nearEnd), 8));
        model = openHdf5("moved.h5", copyBytes(moved));
        QVERIFY(model);
        auto bias = (*model)->load(size_t((*model)->find("model_weights/dense_2/dense_2/bias:0")));
        QVERIFY(!bias);
        QCOMPARE(bias.error().message, "moved.h5: tensor 'model_weights/dense_2/dense_2/bias:0': its data (12 bytes at byte " +
                                           std::to_string(nearEnd) + ") lies past the end of the file (" +
                                           std::to_string(file.size()) + " bytes)");
    }

    // Hard links can make loops: every symbol table entry in turn is pointed back at the
    // root group. The loop is cut where it closes (the root is not entered twice) and the
    // other members still list.
    void groupCyclesAreCut() {
        const std::string file = fileBytes(kKeypoint);
        const std::vector<size_t> fields = symbolEntryAddressFields(file);
        QVERIFY(fields.size() >= 10);
        const std::string root = file.substr(0x40, 8);  // the root's object header address in the superblock
        std::set<size_t> counts;
        for (size_t field : fields) {
            std::string looped = file;
            looped.replace(field, 8, root);
            auto model = openHdf5("loop.h5", copyBytes(looped));
            QVERIFY2(model, model ? "" : model.error().message.c_str());
            std::set<std::string> names;
            for (const auto& t : (*model)->tensors()) names.insert(t.name);
            QCOMPARE(names.size(), (*model)->tensors().size());
            QVERIFY((*model)->tensors().size() <= 6);  // what the looped entry led to is gone
            counts.insert((*model)->tensors().size());
        }
        // A dataset's own entry loses just that dataset; model_weights' entry loses them all
        // (the dropout layers' groups hold no datasets: looping them loses nothing).
        QVERIFY(counts.count(5) == 1 && counts.count(0) == 1);
    }
};

QTEST_GUILESS_MAIN(TestModelHdf5)
#include "tst_model_hdf5.moc"
