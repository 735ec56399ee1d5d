// quantscope-cli model: the built executable through QProcess on the real model files in
// tests/data/models. The --list JSON is checked key by key against the contract and against
// what is known of each file independently (the safetensors headers as written by their
// tool; person_detect's per-channel weights: one scale per output channel, zero points 0,
// and the float .npy equal to (raw code − zero point) × scale channel by channel); --npy
// round trips through NumPy's format; every error path exits 2 with one line naming the
// file (and the tensor).
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>
#include <cstring>

#include "tests/cli/cli_process.h"

namespace {

using namespace qs::testing;

QString model(const char* relative) { return QStringLiteral(QS_TEST_DATA_DIR "/models/") + relative; }

// A .npy file as numpy writes it: its descr, shape and data bytes.
struct Npy {
    QString descr;
    QList<qint64> shape;
    QByteArray data;
};
std::optional<Npy> readNpy(const QString& path) {
    const QByteArray b = readAll(path);
    if (b.size() < 10 || !b.startsWith("\x93NUMPY")) return std::nullopt;
    const int headerLength = static_cast<uchar>(b[8]) | (static_cast<uchar>(b[9]) << 8);
    const QString header = QString::fromLatin1(b.mid(10, headerLength));
    Npy n;
    const auto descr = QRegularExpression("'descr': '([^']+)'").match(header);
    const auto shape = QRegularExpression("'shape': \\(([^)]*)\\)").match(header);
    if (!descr.hasMatch() || !shape.hasMatch() || !header.contains("'fortran_order': False")) return std::nullopt;
    n.descr = descr.captured(1);
    for (const QString& d : shape.captured(1).split(',', Qt::SkipEmptyParts)) n.shape << d.trimmed().toLongLong();
    n.data = b.mid(10 + headerLength);
    return n;
}

std::vector<float> floats(const QByteArray& data) {
    std::vector<float> out(static_cast<size_t>(data.size()) / 4);
    std::memcpy(out.data(), data.constData(), out.size() * 4);
    return out;
}

// The safetensors file's own header and data section (8-byte length, JSON, data).
struct Safetensors {
    QJsonObject header;
    QByteArray data;
};
Safetensors readSafetensors(const QString& path) {
    const QByteArray b = readAll(path);
    quint64 n = 0;
    std::memcpy(&n, b.constData(), 8);
    return {QJsonDocument::fromJson(b.mid(8, static_cast<qsizetype>(n))).object(), b.mid(8 + static_cast<qsizetype>(n))};
}

QJsonObject listJson(const QString& file) {
    const Run r = runCli({"model", file, "--list", "--json", "-"});
    if (r.exitCode != 0) qWarning() << r.err;
    return QJsonDocument::fromJson(r.out.toUtf8()).object();
}

QList<qint64> shapeOf(const QJsonObject& t) {
    QList<qint64> s;
    for (const auto& d : t["shape"].toArray()) s << d.toInteger();
    return s;
}

}  // namespace

class TstCliModel : public QObject {
    Q_OBJECT

private slots:
    void helpNamesTheCommandAndItsContract() {
        Run r = runCli({"--help"});
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.out.contains("\n  model "));
        for (const QStringList& args : {QStringList{"model", "--help"}, QStringList{"help", "model"}}) {
            r = runCli(args);
            QCOMPARE(r.exitCode, 0);
            QVERIFY2(r.out.startsWith("Usage: quantscope-cli model FILE --list [--json OUT|-]"), qPrintable(r.out));
            for (const char* option : {"--list", "--json OUT|-", "--tensor NAME", "--npy OUT.npy", "--raw",
                                       "--report OUT.json", "--csv OUT.csv", "--png OUT.png", "--case CASE.json"})
                QVERIFY2(r.out.contains(QLatin1String("\n  ") + option), option);
            for (const char* key : {"\"format\"", "\"tensors\"", "\"quantization\"", "\"scale\"", "\"zero_point\"", "\"axis\""})
                QVERIFY2(r.out.contains(key), key);
        }
    }

    void usageErrorsExitTwo() {
        const QString st = model("safetensors/test-model-float32.safetensors");
        const QList<QStringList> cases = {
            {"model"},
            {"model", st},                                   // no action
            {"model", st, st, "--list"},                     // two files
            {"model", st, "--list", "--tensor", "embeddings", "--npy", "x.npy"},
            {"model", st, "--tensor", "embeddings"},         // no --npy
            {"model", st, "--list", "--raw"},
            {"model", st, "--tensor", "embeddings", "--json", "-", "--npy", "x.npy"},
            {"model", st, "--list", "--bogus"},
            {"model", st, "--list", "--json"},               // missing value
            {"model", st, "--report", "r.json"},             // no --case
            {"model", st, "--list", "--case", "c.json"},
        };
        for (const QStringList& args : cases) {
            const Run r = runCli(args);
            QVERIFY2(r.exitCode == 2, qPrintable(args.join(' ')));
            QCOMPARE(r.errLines().size(), 1);
            QVERIFY(r.errLines()[0].startsWith("quantscope-cli model: "));
            QVERIFY(r.out.isEmpty());
        }
    }

    void unreadableFilesExitTwoNamingThem() {
        QTemporaryDir dir;
        const QString missing = dir.filePath("missing.safetensors");
        Run r = runCli({"model", missing, "--list"});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(missing), qPrintable(r.err));
        const QString broken = writeFile(dir, "broken.safetensors", QByteArray("\x10\0\0\0\0\0\0\0{not json", 17));
        r = runCli({"model", broken, "--list", "--json", "-"});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("broken.safetensors"), qPrintable(r.err));
        QVERIFY(r.out.isEmpty());
        const QString unknown = writeFile(dir, "weights.xyz", "hello");
        r = runCli({"model", unknown, "--list"});
        QCOMPARE(r.exitCode, 2);
        QVERIFY(r.err.contains("weights.xyz"));
    }

    // Files that are not what their name says, or were cut short, are named as such: a text
    // file renamed .onnx is no protobuf, a TFLite file cut in half says by how much.
    void wrongAndTruncatedFilesSayWhatIsWrong() {
        QTemporaryDir dir;
        const QString text = writeFile(dir, "notes.onnx", "hello, this is not a model\n");
        Run r = runCli({"model", text, "--list"});
        QCOMPARE(r.exitCode, 2);
        QCOMPARE(r.errLines().size(), 1);
        QVERIFY2(r.err.contains("notes.onnx: not an ONNX (protobuf) file: it holds text (\"hello, this is not a model\")"),
                 qPrintable(r.err));
        QVERIFY2(!r.err.contains("wire type"), qPrintable(r.err));
        QFile tflite(model("tflite/person_detect.tflite"));
        QVERIFY(tflite.open(QIODevice::ReadOnly));
        const QByteArray whole = tflite.readAll();
        const QString cut = writeFile(dir, "cut.tflite", whole.left(whole.size() / 2));
        r = runCli({"model", cut, "--list"});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(QStringLiteral("cut.tflite: truncated: the file is %1 bytes, the flatbuffer needs at least ")
                                    .arg(whole.size() / 2)),
                 qPrintable(r.err));
    }

    void unknownTensorListsTheNearNames() {
        const QString st = model("safetensors/test-model-int8.safetensors");
        QTemporaryDir dir;
        const Run r = runCli({"model", st, "--tensor", "embedding", "--npy", dir.filePath("x.npy")});
        QCOMPARE(r.exitCode, 2);
        QCOMPARE(r.errLines().size(), 1);
        QVERIFY2(r.err.contains("test-model-int8.safetensors"), qPrintable(r.err));
        QVERIFY(r.err.contains("no tensor 'embedding'"));
        QVERIFY2(r.err.contains("'embeddings'"), qPrintable(r.err));
        QVERIFY(!QFile::exists(dir.filePath("x.npy")));
    }

    // The pair as its tool wrote it: one table "embeddings", F32 and I8, shape from the header.
    void listsTheSafetensorsPair() {
        for (const char* file : {"safetensors/test-model-float32.safetensors", "safetensors/test-model-int8.safetensors"}) {
            const Safetensors st = readSafetensors(model(file));
            const QJsonObject listing = listJson(model(file));
            QCOMPARE(listing.keys(), (QStringList{"format", "tensors"}));
            QCOMPARE(listing["format"].toString(), QStringLiteral("safetensors"));
            QCOMPARE(listing["tensors"].toArray().size(), 1);
            const QJsonObject t = listing["tensors"].toArray()[0].toObject();
            QCOMPARE(t.keys(), (QStringList{"dtype", "name", "quantization", "shape"}));
            QCOMPARE(t["name"].toString(), QStringLiteral("embeddings"));
            const QJsonObject h = st.header["embeddings"].toObject();
            QCOMPARE(t["shape"].toArray(), h["shape"].toArray());
            QCOMPARE(t["dtype"].toString(), h["dtype"].toString() == "F32" ? QStringLiteral("float32") : QStringLiteral("int8"));
            QVERIFY(t["quantization"].isNull());
        }
    }

    void tableListingIsReadable() {
        const Run r = runCli({"model", model("safetensors/test-model-int8.safetensors"), "--list"});
        QCOMPARE(r.exitCode, 0);
        const QStringList lines = r.outLines();
        QCOMPARE(lines.size(), 3);
        QVERIFY(lines[0].contains("safetensors, 1 tensor"));
        // The element count and the byte size are separate columns, each under its name.
        const QStringList header = lines[1].split(' ', Qt::SkipEmptyParts);
        QCOMPARE(header, (QStringList{"name", "shape", "dtype", "elements", "bytes", "quantization"}));
        QVERIFY2(lines[2].contains("embeddings") && lines[2].contains("[29528, 2]") && lines[2].contains("int8"),
                 qPrintable(lines[2]));
        // Right-aligned under their headers: each ends where its header ends.
        const auto endOf = [](const QString& line, const QString& text) { return line.indexOf(text) + text.size(); };
        QCOMPARE(endOf(lines[2], "59,056"), endOf(lines[1], "elements"));
        QCOMPARE(endOf(lines[2], "57.7 KiB"), endOf(lines[1], "bytes"));
        QVERIFY2(!lines[2].contains("("), qPrintable(lines[2]));  // no "59056 (57.7 KiB)"
    }

    // --npy gives the stored floats bit for bit; --raw the stored int8 bytes as '|i1'.
    void npyRoundTrips() {
        QTemporaryDir dir;
        const QString out = dir.filePath("e.npy");
        const Safetensors f32 = readSafetensors(model("safetensors/test-model-float32.safetensors"));
        Run r = runCli({"model", model("safetensors/test-model-float32.safetensors"), "--tensor", "embeddings", "--npy", out});
        QCOMPARE(r.exitCode, 0);
        auto npy = readNpy(out);
        QVERIFY(npy);
        QCOMPARE(npy->descr, QStringLiteral("<f4"));
        QCOMPARE(npy->shape, (QList<qint64>{29528, 2}));
        QCOMPARE(npy->data, f32.data);

        const Safetensors i8 = readSafetensors(model("safetensors/test-model-int8.safetensors"));
        r = runCli({"model", model("safetensors/test-model-int8.safetensors"), "--tensor", "embeddings", "--npy", out, "--raw"});
        QCOMPARE(r.exitCode, 0);
        npy = readNpy(out);
        QVERIFY(npy);
        QCOMPARE(npy->descr, QStringLiteral("|i1"));
        QCOMPARE(npy->shape, (QList<qint64>{29528, 2}));
        QCOMPARE(npy->data, i8.data);
        // Without --raw (and no stored scale) the codes become their float32 values.
        r = runCli({"model", model("safetensors/test-model-int8.safetensors"), "--tensor", "embeddings", "--npy", out});
        QCOMPARE(r.exitCode, 0);
        npy = readNpy(out);
        QCOMPARE(npy->descr, QStringLiteral("<f4"));
        const std::vector<float> v = floats(npy->data);
        QCOMPARE(v.size(), size_t(i8.data.size()));
        for (size_t i = 0; i < v.size(); ++i) QCOMPARE(v[i], float(static_cast<qint8>(i8.data[qsizetype(i)])));
    }

    // hello_world_int8: per-tensor quantization (one scale, one zero point, axis 0 as the
    // file says nothing), int32 biases included; --raw of a bias is '<i4' and its float32 is
    // code × scale.
    void tflitePerTensorQuantization() {
        const QString file = model("tflite/hello_world_int8.tflite");
        const QJsonObject listing = listJson(file);
        QCOMPARE(listing["tensors"].toArray().size(), 6);
        for (const auto& v : listing["tensors"].toArray()) {
            const QJsonObject q = v.toObject()["quantization"].toObject();
            QCOMPARE(q["scale"].toArray().size(), 1);
            QCOMPARE(q["zero_point"].toArray(), QJsonArray{0});
            QCOMPARE(q["axis"].toInt(), 0);
        }
        const QJsonObject bias = listing["tensors"].toArray()[2].toObject();
        QCOMPARE(bias["name"].toString(), QStringLiteral("sequential/dense_1/BiasAdd/ReadVariableOp"));
        QCOMPARE(bias["dtype"].toString(), QStringLiteral("int32"));
        QTemporaryDir dir;
        QCOMPARE(runCli({"model", file, "--tensor", bias["name"].toString(), "--npy", dir.filePath("b.npy"), "--raw"}).exitCode, 0);
        QCOMPARE(runCli({"model", file, "--tensor", bias["name"].toString(), "--npy", dir.filePath("f.npy")}).exitCode, 0);
        const auto raw = readNpy(dir.filePath("b.npy"));
        const auto f = readNpy(dir.filePath("f.npy"));
        QVERIFY(raw && f);
        QCOMPARE(raw->descr, QStringLiteral("<i4"));
        QCOMPARE(raw->shape, QList<qint64>{16});
        const float scale = static_cast<float>(bias["quantization"].toObject()["scale"].toArray()[0].toDouble());
        const std::vector<float> values = floats(f->data);
        QCOMPARE(values.size(), size_t{16});
        for (size_t i = 0; i < 16; ++i) {
            qint32 code;
            std::memcpy(&code, raw->data.constData() + 4 * i, 4);
            QCOMPARE(values[i], static_cast<float>(code) * scale);
        }
    }

    // .npz members as the file holds them (values written by make_npz_samples.py): float16
    // and float64 converted to the nearest float32, fortran order given back row-major; --raw
    // keeps each member's own dtype; a complex member is listed but not written.
    void npzMembersAndTheirDtypes() {
        const QString file = model("npz/mixed.npz");
        const QJsonObject listing = listJson(file);
        QCOMPARE(listing["format"].toString(), QStringLiteral("npz"));
        QStringList names, dtypes;
        for (const auto& t : listing["tensors"].toArray()) {
            names << t.toObject()["name"].toString();
            dtypes << t.toObject()["dtype"].toString();
            QVERIFY(t.toObject()["quantization"].isNull());
        }
        QCOMPARE(names, (QStringList{"weights", "bias", "fortran", "codes", "big", "half", "u16", "scalar", "layer/kernel",
                                     "fortran_deflated", "complex"}));
        QCOMPARE(dtypes.mid(0, 7), (QStringList{"float32", "float64", "float64", "int8", "float32", "float16", "uint16"}));
        QTemporaryDir dir;
        const QString out = dir.filePath("m.npy");
        struct Expect {
            const char* member;
            QString floatDescr, rawDescr;
            std::vector<float> values;
        };
        const Expect expects[] = {
            {"half", "<f4", "<f2", {1.0f, -2.0f, 0x1p-24f}},
            {"bias", "<f4", "<f8", {0.5f, -0.25f, 1e-3f}},
            {"fortran", "<f4", "<f8", {1, 2, 3, 4, 5, 6}},
            {"fortran_deflated", "<f4", "<i2", {1, 2, 3, 4, 5, 6}},
            {"codes", "<f4", "|i1", {-128, -1, 0, 127}},
            {"u16", "<f4", "<u2", {0, 65535}},
            {"scalar", "<f4", "<f4", {7}},
        };
        for (const Expect& e : expects) {
            QVERIFY2(runCli({"model", file, "--tensor", e.member, "--npy", out}).exitCode == 0, e.member);
            auto f = readNpy(out);
            QVERIFY(f);
            QCOMPARE(f->descr, e.floatDescr);
            QCOMPARE(floats(f->data), e.values);
            QVERIFY(runCli({"model", file, "--tensor", e.member, "--npy", out, "--raw"}).exitCode == 0);
            auto raw = readNpy(out);
            QVERIFY(raw);
            QCOMPARE(raw->descr, e.rawDescr);
            QCOMPARE(raw->shape, f->shape);
        }
        QCOMPARE(readNpy(out)->shape, QList<qint64>{});  // the 0-d member stays 0-d
        const Run r = runCli({"model", file, "--tensor", "complex", "--npy", out});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("mixed.npz") && r.err.contains("'complex'"), qPrintable(r.err));
    }

    // A single .npy is a model of one tensor named after the file.
    void npyFileRoundTrip() {
        QTemporaryDir dir;
        QByteArray header = "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 2), }";
        while ((10 + header.size() + 1) % 64) header += ' ';
        header += '\n';
        const float v[] = {1.5f, -0.0f, 3e-7f, 65504.0f};
        QByteArray bytes = QByteArray("\x93NUMPY\x01\x00", 8);
        bytes += char(header.size() & 0xFF);
        bytes += char(header.size() >> 8);
        bytes += header + QByteArray(reinterpret_cast<const char*>(v), sizeof v);
        const QString in = writeFile(dir, "layer1.npy", bytes);
        const QJsonObject listing = listJson(in);
        QCOMPARE(listing["format"].toString(), QStringLiteral("npy"));
        QCOMPARE(listing["tensors"].toArray().size(), 1);
        QCOMPARE(listing["tensors"].toArray()[0].toObject()["name"].toString(), QStringLiteral("layer1"));
        const QString out = dir.filePath("out.npy");
        QCOMPARE(runCli({"model", in, "--tensor", "layer1", "--npy", out}).exitCode, 0);
        QCOMPARE(readAll(out), bytes);  // the same header layout as numpy.save, the same bytes
    }

    // ONNX: the listing equals what protoc decodes from the files (onnx-listings/*.tsv:
    // name, shape, dtype per line, in file order), no stored quantization.
    void onnxListingsMatchProtoc() {
        for (const char* name : {"silero_vad_legacy", "ch_ppocr_mobile_v2.0_cls_infer"}) {
            const QJsonObject listing = listJson(model((QStringLiteral("onnx/") + name + ".onnx").toUtf8().constData()));
            QCOMPARE(listing["format"].toString(), QStringLiteral("onnx"));
            const QStringList expected = QString::fromUtf8(readAll(model((QStringLiteral("onnx-listings/") + name + ".tsv")
                                                                             .toUtf8().constData())))
                                             .split('\n', Qt::SkipEmptyParts);
            const QJsonArray tensors = listing["tensors"].toArray();
            QCOMPARE(tensors.size(), expected.size());
            for (qsizetype i = 0; i < tensors.size(); ++i) {
                const QJsonObject t = tensors[i].toObject();
                QStringList dims;
                for (qint64 d : shapeOf(t)) dims << QString::number(d);
                const QString line = t["name"].toString() + '\t' + '[' + dims.join(',') + ']' + '\t' + t["dtype"].toString();
                QVERIFY2(expected[i].startsWith(line + '\t'), qPrintable(line + " vs " + expected[i]));
                QVERIFY(t["quantization"].isNull());
            }
        }
    }

    // Keras HDF5 and .keras: dataset paths without the leading '/', the format each.
    void kerasFilesList() {
        const QJsonObject h5 = listJson(model("hdf5/keypoint_classifier.hdf5"));
        QCOMPARE(h5["format"].toString(), QStringLiteral("hdf5"));
        const QJsonObject keras = listJson(model("keras/keypoint_classifier_stored.keras"));
        QCOMPARE(keras["format"].toString(), QStringLiteral("keras"));
        for (const QJsonObject& listing : {h5, keras}) {
            QStringList names;
            for (const auto& t : listing["tensors"].toArray()) names << t.toObject()["name"].toString();
            QVERIFY2(names.contains("model_weights/dense/dense/kernel:0"), qPrintable(names.join(' ')));
            for (const auto& t : listing["tensors"].toArray())
                if (t.toObject()["name"] == "model_weights/dense/dense/kernel:0")
                    QCOMPARE(shapeOf(t.toObject()), (QList<qint64>{42, 20}));
        }
        QCOMPARE(keras["tensors"], h5["tensors"]);  // the same weights inside the zip
    }

    // The SavedModel folder: its variables as checkpoint keys; a = 0.5 and b = 2 (the
    // half_plus_two servable); the string object graph is listed but has no .npy.
    void savedModelVariables() {
        const QString folder = model("checkpoint/half_plus_two");
        const QJsonObject listing = listJson(folder);
        QCOMPARE(listing["format"].toString(), QStringLiteral("tf-checkpoint"));
        QTemporaryDir dir;
        const QString out = dir.filePath("v.npy");
        const std::pair<const char*, float> expected[] = {{"a/.ATTRIBUTES/VARIABLE_VALUE", 0.5f},
                                                          {"b/.ATTRIBUTES/VARIABLE_VALUE", 2.0f}};
        for (const auto& [name, value] : expected) {
            QCOMPARE(runCli({"model", folder, "--tensor", name, "--npy", out}).exitCode, 0);
            const auto npy = readNpy(out);
            QVERIFY(npy);
            QCOMPARE(npy->shape, QList<qint64>{});
            QCOMPARE(floats(npy->data), std::vector<float>{value});
        }
        const Run r = runCli({"model", folder, "--tensor", "_CHECKPOINTABLE_OBJECT_GRAPH", "--npy", out});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("_CHECKPOINTABLE_OBJECT_GRAPH"), qPrintable(r.err));
        // A near miss lists the variables.
        const Run near = runCli({"model", folder, "--tensor", "a/.ATTRIBUTES/VARIABLE_VALU", "--npy", out});
        QCOMPARE(near.exitCode, 2);
        QVERIFY2(near.err.contains("'a/.ATTRIBUTES/VARIABLE_VALUE'"), qPrintable(near.err));
    }

    // A failed write keeps the previous output (atomic replacement): the folder does not exist.
    void failedWriteIsAnError() {
        QTemporaryDir dir;
        const Run r = runCli({"model", model("safetensors/test-model-int8.safetensors"), "--tensor", "embeddings", "--npy",
                              dir.filePath("no/such/folder/e.npy")});
        QCOMPARE(r.exitCode, 2);
        QVERIFY(r.err.contains("e.npy"));
    }

    // person_detect: int8 weights quantized per output channel. The listing's quantization
    // of every int8 tensor of rank 4 has one scale per channel along its axis and zero
    // points 0; and --npy is (raw code − zero point) × scale along that axis, exactly.
    void tfliteQuantizationAndDequantization() {
        const QString file = model("tflite/person_detect.tflite");
        const QJsonObject listing = listJson(file);
        QCOMPARE(listing["format"].toString(), QStringLiteral("tflite"));
        int perChannel = 0, depthwise = 0;
        QJsonObject checked;
        for (const auto& v : listing["tensors"].toArray()) {
            const QJsonObject t = v.toObject();
            QCOMPARE(t.keys(), (QStringList{"dtype", "name", "quantization", "shape"}));
            if (t["dtype"].toString() != "int8" || shapeOf(t).size() != 4 || t["quantization"].isNull()) continue;
            const QJsonObject q = t["quantization"].toObject();
            QCOMPARE(q.keys(), (QStringList{"axis", "scale", "zero_point"}));
            const int axis = q["axis"].toInt();
            QVERIFY(axis == 0 || axis == 3);
            QCOMPARE(q["scale"].toArray().size(), shapeOf(t)[axis]);
            QCOMPARE(q["zero_point"].toArray().size(), q["scale"].toArray().size());
            for (const auto& z : q["zero_point"].toArray()) QCOMPARE(z.toInt(), 0);
            ++perChannel;
            depthwise += axis == 3;
            if (checked.isEmpty() && shapeOf(t)[axis] > 1) checked = t;
        }
        QVERIFY2(perChannel >= 10, qPrintable(QString::number(perChannel)));
        QVERIFY(depthwise >= 1);

        QTemporaryDir dir;
        const QString name = checked["name"].toString();
        QVERIFY(runCli({"model", file, "--tensor", name, "--npy", dir.filePath("raw.npy"), "--raw"}).exitCode == 0);
        QVERIFY(runCli({"model", file, "--tensor", name, "--npy", dir.filePath("f.npy")}).exitCode == 0);
        const auto raw = readNpy(dir.filePath("raw.npy"));
        const auto f = readNpy(dir.filePath("f.npy"));
        QVERIFY(raw && f);
        QCOMPARE(raw->descr, QStringLiteral("|i1"));
        QCOMPARE(f->descr, QStringLiteral("<f4"));
        QCOMPARE(raw->shape, shapeOf(checked));
        QCOMPARE(f->shape, shapeOf(checked));
        const QJsonObject q = checked["quantization"].toObject();
        const int axis = q["axis"].toInt();
        const QJsonArray scale = q["scale"].toArray();
        qint64 post = 1;
        for (int d = axis + 1; d < raw->shape.size(); ++d) post *= raw->shape[d];
        const std::vector<float> values = floats(f->data);
        QCOMPARE(values.size(), size_t(raw->data.size()));
        for (size_t i = 0; i < values.size(); ++i) {
            const auto c = static_cast<qsizetype>((qint64(i) / post) % raw->shape[axis]);
            const float s = static_cast<float>(scale[c].toDouble());  // printed as the shortest float32 text
            QCOMPARE(values[i], static_cast<float>(static_cast<qint8>(raw->data[qsizetype(i)])) * s);
        }
    }
};

QTEST_GUILESS_MAIN(TstCliModel)
#include "tst_cli_model.moc"
