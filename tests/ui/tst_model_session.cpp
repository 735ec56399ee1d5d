// The explorer's model without widgets: every edit is one undo step, a gesture (a drag) is
// one step however many values pass through it, sessions round-trip every parameter and are
// refused with a clear message when broken or from a newer QuantScope; the compute service
// delivers the newest request; a background job's exception comes back as a message.
#include <QtTest>

#include <QDir>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <new>
#include <optional>
#include <stdexcept>

#include "session/explorer/compute_service.h"
#include "session/explorer/data_service.h"
#include "session/explorer/explorer_model.h"
#include "session/explorer/session.h"
#include "tests/file_size_limit.h"

using namespace qs::ui;

namespace {

// `s` saved to `path` and read back; nothing (and the reason as a warning) when either fails.
std::optional<Session> savedAndReadBack(const QString& path, const Session& s) {
    QString error;
    if (!saveSession(path, s, &error)) {
        qWarning("saving %s: %s", qPrintable(path), qPrintable(error));
        return std::nullopt;
    }
    std::optional<Session> back = loadSession(path, &error);
    if (!back) qWarning("reading %s: %s", qPrintable(path), qPrintable(error));
    return back;
}

}  // namespace

// A well-formed version-1 session header followed by `fields` (JSON members).
static QByteArray versionOneSession(const char* fields) {
    return QByteArray(R"({"format": "quantscope-session", "version": 1, )") + fields + '}';
}

class TstModelSession : public QObject {
    Q_OBJECT
private slots:
    void everyEditIsOneUndoStep() {
        ExplorerModel m;
        QSignalSpy changed(&m, &ExplorerModel::changed);
        const qs::QuantSpec start = m.spec();
        m.setType(qs::QType::QUInt8);
        m.setMode(qs::QuantizeMode::MinFirst);
        m.setMaxRange(5.0f);
        QCOMPARE(changed.count(), 3);
        QCOMPARE(m.undoStack()->count(), 3);
        m.setMaxRange(5.0f);  // no change, no step
        QCOMPARE(m.undoStack()->count(), 3);
        m.undoStack()->undo();
        QCOMPARE(m.maxRange(), start.max_range);
        QCOMPARE(m.mode(), qs::QuantizeMode::MinFirst);
        m.undoStack()->undo();
        m.undoStack()->undo();
        QVERIFY(m.spec() == start);
        m.undoStack()->redo();
        QCOMPARE(m.type(), qs::QType::QUInt8);
    }
    void aGestureIsOneStep() {
        ExplorerModel m;
        m.beginGesture();
        for (int i = 1; i <= 20; ++i) m.setRange(-0.1f * i, 0.2f * i);
        m.endGesture();
        QCOMPARE(m.undoStack()->count(), 1);
        QCOMPARE(m.maxRange(), 4.0f);
        m.beginGesture();  // a second drag is a second step
        m.setRange(-1.0f, 1.0f);
        m.endGesture();
        QCOMPARE(m.undoStack()->count(), 2);
        m.undoStack()->undo();
        QCOMPARE(m.maxRange(), 4.0f);
        m.undoStack()->undo();
        QCOMPARE(m.maxRange(), 3.0f);  // the first launch's range
    }
    void switchingOpResetsTheRoundMode() {
        ExplorerModel m;
        m.setOp(qs::QuantOp::QuantizeAndDequantizeV2);
        QCOMPARE(m.roundMode(), qs::RoundMode::HalfToEven);
        m.setOp(qs::QuantOp::QuantizeV2);
        QCOMPARE(m.roundMode(), qs::RoundMode::HalfAwayFromZero);
        QCOMPARE(m.undoStack()->count(), 2);
    }
    // Found by tst_monkey: a range handle dragged on a plot zoomed far out, or "From data"
    // on data holding inf, gave the model an infinite range, which the spin boxes cannot
    // show and a session cannot store (JSON has no inf: the saved file did not reopen).
    void rangeInputsStayFinite() {
        ExplorerModel m;
        const float inf = std::numeric_limits<float>::infinity(), big = std::numeric_limits<float>::max();
        m.setRange(-inf, inf);
        QCOMPARE(m.minRange(), -big);
        QCOMPARE(m.maxRange(), big);
        m.setMaxRange(std::numeric_limits<float>::quiet_NaN());
        QCOMPARE(m.maxRange(), big);
        QCOMPARE(m.undoStack()->count(), 1);
        const QJsonObject json = sessionToJson(Session{m.spec(), m.dataSource(), m.viewState()});
        QString error;
        QVERIFY2(sessionFromJson(QJsonDocument::fromJson(QJsonDocument(json).toJson()).object(), &error), qPrintable(error));
    }

    void dataSourceIsUndoable() {
        ExplorerModel m;
        QSignalSpy data(&m, &ExplorerModel::dataSourceChanged);
        DataSource s;
        s.generator = QStringLiteral("uniform:n=1000,seed=3");
        m.setDataSource(s);
        QCOMPARE(data.count(), 1);
        m.undoStack()->undo();
        QCOMPARE(m.dataSource().generator, DataSource().generator);
    }

    void sessionRoundTripsEveryParameter() {
        QTemporaryDir dir;
        Session s;
        s.spec.op = qs::QuantOp::QuantizeAndDequantizeV3;
        s.spec.T = qs::QType::QUInt16;
        s.spec.mode = qs::QuantizeMode::MinFirst;
        s.spec.round_mode = qs::RoundMode::HalfUp;
        s.spec.narrow_range = true;
        s.spec.axis = 1;
        s.spec.ensure_minimum_range = 0.0f;
        s.spec.signed_input = false;
        s.spec.num_bits = 5;
        s.spec.range_given = false;
        s.spec.num_buckets = 17;
        s.spec.min_range = -0.1f;  // not exact in decimal: must survive as the same float
        s.spec.max_range = 3.3f;
        s.spec.range_source = qs::RangeSource::FromData;
        s.data.generator = QStringLiteral("laplace:n=5000,seed=9,loc=0,scale=2");
        s.data.path = dir.filePath(QStringLiteral("weights.npy"));
        s.view.tab = 2;
        s.view.errorLogScale = true;
        s.view.dark = true;
        s.view.channel = 3;
        const QString path = dir.filePath(QStringLiteral("a.qscope"));
        const std::optional<Session> back = savedAndReadBack(path, s);
        QVERIFY(back);
        QVERIFY(back->spec == s.spec);
        QCOMPARE(back->data.generator, s.data.generator);
        QCOMPARE(back->data.path, s.data.path);
        QVERIFY(back->view == s.view);
    }
    void aModelTensorAsDataRoundTrips() {
        QTemporaryDir dir;
        Session s;
        s.data.path = dir.filePath(QStringLiteral("net.tflite"));
        s.data.tensor = QStringLiteral("MobilenetV1/Conv2d_1_depthwise/depthwise_weights/read");
        const QJsonObject data = sessionToJson(s).value("data").toObject();
        QCOMPARE(data.value("model").toString(), s.data.path);
        QCOMPARE(data.value("tensor").toString(), s.data.tensor);
        QVERIFY(!data.contains("file"));
        const QString path = dir.filePath(QStringLiteral("m.qscope"));
        std::optional<Session> back = savedAndReadBack(path, s);
        QVERIFY(back);
        QVERIFY(back->data == s.data);
        QVERIFY(back->data.isModelTensor());
        // A relative model path is the session file's folder's, as data files are.
        QJsonObject json = sessionToJson(s);
        json["data"] = QJsonObject{{"model", "net.tflite"}, {"tensor", "w"}};
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(QJsonDocument(json).toJson());
        f.close();
        QString error;
        back = loadSession(path, &error);
        QVERIFY2(back.has_value(), qPrintable(error));
        QCOMPARE(back->data.path, QDir(dir.path()).filePath(QStringLiteral("net.tflite")));
        // A session with a data file (every session before model files) has no tensor.
        s.data.tensor.clear();
        QVERIFY(saveSession(path, s, &error));
        back = loadSession(path, &error);
        QVERIFY(back && !back->data.isModelTensor() && back->data.path == s.data.path);
    }

    void brokenSessionsAreRefusedWithReasons_data() {
        QTest::addColumn<QByteArray>("content");
        QTest::addColumn<QString>("expected");
        QTest::newRow("not json") << QByteArray("{\n\"format\": \"quantscope-session\",\n oops")
                                  << QStringLiteral("b.qscope: line 3: not valid JSON");
        QTest::newRow("not an object") << QByteArray("[1, 2]") << QStringLiteral("not a JSON object");
        QTest::newRow("not a session") << QByteArray(R"({"cases": []})")
                                       << QStringLiteral("not a QuantScope session");
        QTest::newRow("newer") << QByteArray(R"({"format": "quantscope-session", "version": 7})")
                               << QStringLiteral("written by a newer QuantScope (session format 7");
        // Version-1 sessions with one bad member: {row, members, expected message}.
        const struct { const char* row; const char* members; const char* expected; } badMembers[] = {
            {"bad mode", R"("parameters": {"mode": "MIN_LAST"})", "parameters.mode: 'MIN_LAST' is not one of MIN_COMBINED, MIN_FIRST, SCALED"},
            {"bad type", R"("parameters": {"num_bits": "eight"})", "parameters.num_bits: must be a number"},
            {"huge integer", R"("parameters": {"axis": 1e300})", "parameters.axis: must be an integer"},
            // Values the explorer's controls cannot hold: the form would show another value
            // than the op runs with (the spin box clamps), so they are refused.
            {"num_bits beyond the control", R"("parameters": {"num_bits": 1000})", "parameters.num_bits: 1000 is out of range [0, 64]"},
            {"axis below -1", R"("parameters": {"axis": -9})", "parameters.axis: -9 is out of range [-1, 7]"},
            {"ensure_minimum_range beyond the control", R"("parameters": {"ensure_minimum_range": 1e30})", "parameters.ensure_minimum_range: 1e+30 is out of range [0, 10]"},
            {"min_range beyond float32", R"("parameters": {"min_range": -1e39})", "parameters.min_range: -1e+39 is out of range [-3.4028234663852886e+38, 3.4028234663852886e+38]"},
            {"negative channel", R"("view": {"channel": -7})", "view.channel: -7 is out of range [0, 2147483647]"},
            {"negative tab", R"("view": {"tab": -2})", "view.tab: -2 is out of range [0, 2147483647]"},
            {"model without tensor", R"("data": {"model": "m.tflite"})", "data.tensor: missing: a model file needs the tensor's name"},
            {"tensor without model", R"("data": {"tensor": "w"})", "data.model: missing: a tensor needs its model file"},
            {"model and file", R"("data": {"model": "m.tflite", "tensor": "w", "file": "x.npy"})", "data.model: cannot be given with \"file\""},
            {"tensor not a string", R"("data": {"model": "m.tflite", "tensor": 3})", "data.tensor: must be a string"},
        };
        for (const auto& bad : badMembers)
            QTest::newRow(bad.row) << versionOneSession(bad.members) << QString::fromUtf8(bad.expected);
    }
    void brokenSessionsAreRefusedWithReasons() {
        QFETCH(QByteArray, content);
        QFETCH(QString, expected);
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("b.qscope"));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(content);
        f.close();
        QString error;
        QVERIFY(!loadSession(path, &error).has_value());
        QVERIFY2(error.contains(expected), qPrintable(error));
        QVERIFY(!loadSession(dir.filePath(QStringLiteral("missing.qscope")), &error));
        QVERIFY(error.contains(QStringLiteral("cannot open")));
    }

    // A save that fails (a file-size limit here, a full disk for a user) says so with the
    // file's name and keeps the session saved before byte for byte.
    void failedSaveKeepsPreviousSession() {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("keep.qscope"));
        Session s;
        s.data.generator = QStringLiteral("normal:n=100,seed=1");
        QString error;
        QVERIFY2(saveSession(path, s, &error), qPrintable(error));
        QFile f(path);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray previous = f.readAll();
        f.close();
        s.data.generator = QStringLiteral("uniform:n=100,seed=2,") + QString(8000, QLatin1Char(' '));
        {
            const qs::testing::FileSizeLimit limit(previous.size() + 100);
            QVERIFY(limit.ok());
            QVERIFY(!saveSession(path, s, &error));
        }
        QCOMPARE(error, QStringLiteral("keep.qscope: cannot write: File too large"));
        QVERIFY(f.open(QIODevice::ReadOnly));
        QCOMPARE(f.readAll(), previous);
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden), QStringList{QStringLiteral("keep.qscope")});
    }

    void computeServiceDeliversTheNewestRequest() {
        auto data = DataService::loadNow(DataSource{QStringLiteral("normal:n=200000,seed=1"), {}});
        QVERIFY(data.ok());
        ComputeService service;
        QSignalSpy ready(&service, &ComputeService::resultReady);
        qs::QuantSpec spec;
        quint64 last = 0;
        for (int bits = 2; bits <= 12; ++bits) {
            spec.op = qs::QuantOp::QuantizeAndDequantizeV2;
            spec.round_mode = qs::RoundMode::HalfToEven;
            spec.num_bits = bits;
            last = service.request(spec, *data);
        }
        QTRY_VERIFY_WITH_TIMEOUT(!ready.isEmpty() && ready.last().at(1).toULongLong() == last, 10000);
        // Requests queued behind a running one are skipped: far fewer results than requests.
        QVERIFY(ready.count() < 11);
        const auto result = ready.last().at(0).value<ExplorerResultPtr>();
        QCOMPARE(result->spec.num_bits, qint64{12});
        QCOMPARE(result->stats.count + result->stats.nan_pairs, qint64{200000});
    }
    void computeServiceReportsTfErrors() {
        auto data = DataService::loadNow(DataSource{QStringLiteral("uniform:n=100,seed=1"), {}});
        ComputeService service;
        QSignalSpy failed(&service, &ComputeService::failed);
        qs::QuantSpec spec;
        spec.min_range = 1.0f;
        spec.max_range = -1.0f;
        service.request(spec, *data);
        QTRY_COMPARE(failed.count(), 1);
        QCOMPARE(failed.first().at(0).toString(), QStringLiteral("InvalidArgument"));
        QCOMPARE(failed.first().at(1).toString(),
                 QStringLiteral("input_max_range must be larger than input_min_range."));
    }

    // A new load replaces the running one: the old one reports nothing (no "cancelled"
    // flashes by), the new one loads; cancelling while a load waits behind it stops both.
    void aNewLoadReplacesTheRunningOneSilently() {
        DataService service;
        QSignalSpy loaded(&service, &DataService::loaded);
        QSignalSpy cancelled(&service, &DataService::cancelled);
        service.load(DataSource{QStringLiteral("normal:n=2000000,seed=1"), {}});
        service.load(DataSource{QStringLiteral("uniform:n=100,seed=2"), {}});
        QVERIFY(service.loading());
        QTRY_COMPARE(loaded.count(), 1);
        QTRY_VERIFY(!service.loading());
        QCOMPARE(cancelled.count(), 0);
        QCOMPARE(service.dataset()->values.size(), size_t{100});

        service.load(DataSource{QStringLiteral("normal:n=2000000,seed=3"), {}});
        service.load(DataSource{QStringLiteral("uniform:n=100,seed=4"), {}});
        service.cancel();
        QCOMPARE(cancelled.count(), 1);
        QTRY_VERIFY(!service.loading());
        QTest::qWait(20);
        QCOMPARE(loaded.count(), 1);  // neither replaced load delivered
        QCOMPARE(cancelled.count(), 1);
        QCOMPARE(service.dataset()->values.size(), size_t{100});  // the last good data stays
    }
};

QTEST_MAIN(TstModelSession)
#include "tst_model_session.moc"
