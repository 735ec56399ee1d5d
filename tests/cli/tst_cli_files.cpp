// Where the CLI's outputs and inputs meet the file system (issue 9): a write that fails (a
// file-size limit, a full device) exits 2 with a message naming the file and keeps the
// previous file byte for byte; devices, FIFOs and standard output are written where they are,
// not replaced by regular files; file names that are not UTF-8 are read and written exactly
// as given. The CLI runs through /bin/sh (runCliShell) for `ulimit -f` and for arguments
// holding the byte 0xFF.
#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QScopeGuard>
#include <QTemporaryDir>
#include <QtTest>
#include <algorithm>
#include <optional>

#include "session/explorer/session.h"
#include "tests/cli/cli_process.h"

namespace {

using namespace qs::testing;

const QString kExample = QStringLiteral(QS_SOURCE_DIR "/resources/embedding/example.json");
const QString kVectors = QStringLiteral(QS_TEST_DATA_DIR "/dequantize.json");
// A file-size limit of one 512-byte block; SIGXFSZ ignored so a write fails with EFBIG.
const QString kSizeLimit = QStringLiteral("trap '' XFSZ; ulimit -f 1");

// A name holding the byte 0xFF as the system spells it, and as the QString that stands for it
// in runCliShell's arguments.
QByteArray native(const QString& dir, const QByteArray& name) { return QFile::encodeName(dir) + '/' + name; }
QString arg(const QByteArray& nativeName) { return QFile::decodeName(nativeName); }

bool writeNative(const QByteArray& path, const QByteArray& bytes) {
    const int fd = ::open(path.constData(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0) return false;
    const bool ok = ::write(fd, bytes.constData(), static_cast<size_t>(bytes.size())) == bytes.size();
    return ::close(fd) == 0 && ok;
}

std::optional<QByteArray> readNative(const QByteArray& path) {
    const int fd = ::open(path.constData(), O_RDONLY);
    if (fd < 0) return std::nullopt;
    QFile f;
    if (!f.open(fd, QIODevice::ReadOnly, QFileDevice::AutoCloseHandle)) return std::nullopt;
    return f.readAll();
}

// The names in a folder as the system spells them (QDir leaves out names that are not UTF-8).
QList<QByteArray> nativeEntries(const QString& dir) {
    QList<QByteArray> names;
    if (DIR* d = ::opendir(QFile::encodeName(dir).constData())) {
        while (const dirent* e = ::readdir(d))
            if (qstrcmp(e->d_name, ".") != 0 && qstrcmp(e->d_name, "..") != 0) names << QByteArray(e->d_name);
        ::closedir(d);
    }
    std::sort(names.begin(), names.end());
    return names;
}

// QTemporaryDir cannot remove names it cannot decode: remove every file first.
void removeNativeEntries(const QString& dir) {
    for (const QByteArray& name : nativeEntries(dir)) ::unlink(native(dir, name).constData());
}

mode_t fileType(const QString& path) {
    struct stat st{};
    return ::lstat(QFile::encodeName(path).constData(), &st) == 0 ? (st.st_mode & S_IFMT) : 0;
}

// A character device of our own (mknod as root), so a CLI that replaced devices could not
// break the machine's /dev/null or /dev/full; /dev/<name> itself when not root (then no
// version of the CLI could replace it, but it still must write to it).
QString deviceNode(const QTemporaryDir& dir, const char* name, unsigned minor) {
    const QString path = dir.filePath(QString::fromLatin1(name));
    if (::mknod(QFile::encodeName(path).constData(), S_IFCHR | 0666, makedev(1, minor)) == 0) return path;
    return ::geteuid() == 0 ? QString() : QStringLiteral("/dev/") + QString::fromLatin1(name);
}

// The example's "country" table (3 x 8) and its feature only: an embedding run takes
// milliseconds.
QByteArray smallEmbeddingConfig() {
    QFile in(kExample);
    if (!in.open(QIODevice::ReadOnly)) return {};
    QJsonObject doc = QJsonDocument::fromJson(in.readAll()).object();
    doc["tables"] = QJsonArray{doc["tables"].toArray()[1]};
    QJsonObject feature = doc["features"].toArray()[1].toObject();
    feature["table"] = 0;
    doc["features"] = QJsonArray{feature};
    QJsonObject view = doc["view"].toObject();
    view["feature"] = 0;
    doc["view"] = view;
    return QJsonDocument(doc).toJson();
}

const char* kCase = R"({"op": "QuantizeV2", "attrs": {"T": "quint8", "mode": "MIN_FIRST"},
                        "input_min": -1, "input_max": 3})";

}  // namespace

class TstCliFiles : public QObject {
    Q_OBJECT
    QTemporaryDir inputs_;
    QString case_, config_;

private slots:
    void initTestCase() {
        QVERIFY(inputs_.isValid());
        case_ = writeFile(inputs_, "case.json", kCase);
        config_ = writeFile(inputs_, "config.json", smallEmbeddingConfig());
        QVERIFY(!case_.isEmpty() && !config_.isEmpty());
    }

    // Under a file-size limit every output fails: exit 2, one line naming the file and the
    // reason, the previous contents intact, no temporary left beside it.
    void failedWriteKeepsPreviousFile_data() {
        QTest::addColumn<QStringList>("args");  // "OUT" stands for the target
        QTest::newRow("eval -o") << QStringList{"eval", kVectors, "-o", "OUT"};
        QTest::newRow("analyze --json") << QStringList{"analyze", "sweep-bits", "--case", case_, "--generate",
                                                       "normal:n=1000", "--json", "OUT"};
        QTest::newRow("analyze --csv") << QStringList{"analyze", "sweep-clip", "--case", case_, "--generate",
                                                      "normal:n=1000", "--points", "200", "--csv", "OUT"};
        QTest::newRow("analyze --png") << QStringList{"analyze", "sweep-bits", "--case", case_, "--generate",
                                                      "normal:n=1000", "--png", "OUT"};
        QTest::newRow("embedding --report") << QStringList{"embedding", config_, "--report", "OUT"};
        QTest::newRow("export --csv") << QStringList{"export", "--case", case_, "--view", "transfer", "--csv", "OUT"};
        QTest::newRow("export --png") << QStringList{"export", "--case", case_, "--view", "histogram", "--png", "OUT"};
        QTest::newRow("export --svg") << QStringList{"export", "--case", case_, "--view", "histogram", "--svg", "OUT"};
        QTest::newRow("export --pdf") << QStringList{"export", "--case", case_, "--view", "histogram", "--pdf", "OUT"};
    }
    void failedWriteKeepsPreviousFile() {
        QFETCH(QStringList, args);
        QTemporaryDir dir;
        const QString target = dir.filePath(QStringLiteral("previous.out"));
        QByteArray previous;
        for (int i = 0; i < 4000; ++i) previous += "previous work " + QByteArray::number(i) + '\n';
        QVERIFY(!writeFile(dir, QStringLiteral("previous.out"), previous).isEmpty());
        args.replace(args.indexOf(QStringLiteral("OUT")), target);

        const Run r = runCliShell(args, kSizeLimit);
        QCOMPARE(r.exitCode, 2);
        QCOMPARE(r.errLines().size(), 1);
        QVERIFY2(r.err.startsWith(QStringLiteral("quantscope-cli ") + args.front() + QStringLiteral(": cannot write ") +
                                  target + QStringLiteral(": File too large")),
                 qPrintable(r.err));
        QCOMPARE(readAll(target), previous);
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden), QStringList{QStringLiteral("previous.out")});
    }

    // The limit is not what fails the command: the same run without it writes the file. (The
    // CLI ignores SIGXFSZ itself, so no trap is needed for the error either.)
    void sizeLimitWithoutTrapIsReported() {
        QTemporaryDir dir;
        const QString target = dir.filePath(QStringLiteral("r.json"));
        const Run limited = runCliShell({"eval", kVectors, "-o", target}, QStringLiteral("ulimit -f 1"));
        QCOMPARE(limited.exitCode, 2);
        QVERIFY2(limited.err.contains(QStringLiteral("File too large")), qPrintable(limited.err));
        QVERIFY(!QFile::exists(target));
        QCOMPARE(runCliShell({"eval", kVectors, "-o", target}).exitCode, 0);
        QVERIFY(readAll(target).size() > 4096);
    }

    // A device that refuses the bytes (/dev/full): the error, and the device is still one.
    void fullDeviceIsReported() {
        QTemporaryDir dir;
        const QString full = deviceNode(dir, "full", 7);
        if (full.isEmpty()) QSKIP("cannot make a device node");
        const Run r = runCli({"eval", kVectors, "-o", full});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(QStringLiteral("cannot write ") + full + QStringLiteral(": No space left on device")),
                 qPrintable(r.err));
        QCOMPARE(fileType(full), mode_t(S_IFCHR));
    }

    // `-o /dev/null` (here a node of our own with the same numbers) stays a character device.
    void deviceStaysDevice() {
        QTemporaryDir dir;
        const QString null = deviceNode(dir, "null", 3);
        if (null.isEmpty()) QSKIP("cannot make a device node");
        QCOMPARE(runCli({"eval", kVectors, "-o", null}).exitCode, 0);
        QCOMPARE(fileType(null), mode_t(S_IFCHR));
        QCOMPARE(runCli({"export", "--case", case_, "--view", "histogram", "--pdf", null}).exitCode, 0);
        QCOMPARE(fileType(null), mode_t(S_IFCHR));
        if (null.startsWith(dir.path()))  // no temporary left beside our own node
            QCOMPARE(QDir(dir.path()).entryList(QDir::AllEntries | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot),
                     QStringList{QStringLiteral("null")});
    }

    // --report /dev/stdout writes to the standard output the CLI was given (a pipe here).
    void standardOutputPath() {
        const Run r = runCli({"embedding", config_, "--report", QStringLiteral("/dev/stdout")});
        QCOMPARE(r.exitCode, 0);
        const QJsonObject report = QJsonDocument::fromJson(r.out.toUtf8()).object();
        QCOMPARE(report["tables"].toArray().size(), 1);
        QCOMPARE(fileType(QStringLiteral("/dev/stdout")), mode_t(S_IFLNK));
    }

    // A named pipe receives the bytes (a reader process on the other end) and stays a FIFO.
    void fifoReceivesOutput() {
        QTemporaryDir dir;
        const QString fifo = dir.filePath(QStringLiteral("pipe"));
        QCOMPARE(::mkfifo(QFile::encodeName(fifo).constData(), 0600), 0);
        const QString plain = dir.filePath(QStringLiteral("plain.json"));
        QCOMPARE(runCli({"eval", kVectors, "-o", plain}).exitCode, 0);

        QProcess reader;
        reader.start(QStringLiteral("cat"), {fifo});
        QVERIFY(reader.waitForStarted());
        const Run r = runCli({"eval", kVectors, "-o", fifo});
        const bool readerDone = reader.waitForFinished(10000);
        if (!readerDone) {  // the CLI did not write into the pipe: release the reader
            reader.kill();
            reader.waitForFinished();
        }
        QCOMPARE(r.exitCode, 0);
        QVERIFY(readerDone);
        QCOMPARE(reader.readAllStandardOutput(), readAll(plain));
        QCOMPARE(fileType(fifo), mode_t(S_IFIFO));
    }

    // Names holding the byte 0xFF: eval's inputs and -o, export's --case, --data and
    // --session, embedding's configuration, --table and --ids.
    void nonUtf8Names() {
        QTemporaryDir dir;
        const QString d = dir.path();
        const auto cleanup = qScopeGuard([&d] { removeNativeEntries(d); });
        // eval: read from and written to exactly the names given.
        const QByteArray cases = native(d, "case-\xff.json"), out = native(d, "out-\xff.json");
        QVERIFY(writeNative(cases, readAll(kVectors)));
        Run r = runCliShell({"eval", arg(cases), "-o", arg(out)});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const QString plain = dir.filePath(QStringLiteral("plain.json"));
        QCOMPARE(runCli({"eval", kVectors, "-o", plain}).exitCode, 0);
        QCOMPARE(readNative(out), std::optional<QByteArray>(readAll(plain)));
        QCOMPARE(nativeEntries(d), (QList<QByteArray>{"case-\xff.json", "out-\xff.json", "plain.json"}));

        // export --case and --data; the CSV to standard output.
        const QByteArray caseFile = native(d, "spec-\xff.json"), data = native(d, "data-\xff.csv");
        QVERIFY(writeNative(caseFile, kCase));
        QVERIFY(writeNative(data, "0.5\n1.5\n-0.25\n2.75\n"));
        r = runCliShell({"export", "--case", arg(caseFile), "--data", arg(data), "--view", "histogram", "--csv", "-"});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QVERIFY2(r.out.startsWith(QStringLiteral("bin_lo,bin_hi,count,clipped\n")), qPrintable(r.out.left(200)));

        // export --session, and the picture written under a name with the byte.
        QString error;
        const QString sessionPlain = dir.filePath(QStringLiteral("s.qscope"));
        QVERIFY2(qs::ui::saveSession(sessionPlain, qs::ui::Session{}, &error), qPrintable(error));
        const QByteArray session = native(d, "s-\xff.qscope"), svg = native(d, "view-\xff.svg");
        QCOMPARE(::rename(QFile::encodeName(sessionPlain).constData(), session.constData()), 0);
        r = runCliShell({"export", "--session", arg(session), "--view", "transfer", "--svg", arg(svg)});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QVERIFY(readNative(svg).value_or(QByteArray()).contains("<svg"));

        // embedding: the configuration, --table and --ids (3 x 8 table, two examples).
        const QByteArray config = native(d, "config-\xff.json"), table = native(d, "table-\xff.csv"),
                         ids = native(d, "ids-\xff.csv"), report = native(d, "report-\xff.json");
        QVERIFY(writeNative(config, smallEmbeddingConfig()));
        QByteArray rows;
        for (int i = 0; i < 3; ++i) rows += "0.1,0.2,0.3,0.4,0.5,0.6,0.7,0.8\n";
        QVERIFY(writeNative(table, rows));
        QVERIFY(writeNative(ids, "example,id\n0,1\n1,2\n1,0\n"));
        r = runCliShell({"embedding", arg(config), "--table", arg(table), "--ids", arg(ids), "--report", arg(report)});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const QJsonObject json = QJsonDocument::fromJson(readNative(report).value_or(QByteArray())).object();
        QVERIFY(json["valid"].toBool());
        // Names that are not UTF-8 print with U+FFFD: the report stays JSON.
        QVERIFY2(json["config"].toString().endsWith(QStringLiteral("config-\uFFFD.json")),
                 qPrintable(json["config"].toString()));
        const QJsonObject t = json["tables"].toArray()[0].toObject();
        QVERIFY2(t["source"].toString().endsWith(QStringLiteral("table-\uFFFD.csv")), qPrintable(t["source"].toString()));
        QCOMPARE(json["features"].toArray()[0].toObject()["ids"].toInteger(), qint64(3));

        // A missing file's message names it readably.
        r = runCliShell({"eval", arg(native(d, "missing-\xff.json"))});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(QStringLiteral("missing-\uFFFD.json: cannot open: No such file or directory")),
                 qPrintable(r.err));
    }
};

QTEST_GUILESS_MAIN(TstCliFiles)
#include "tst_cli_files.moc"
