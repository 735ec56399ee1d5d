// data::writeOutputFile, through which every export is written: a regular file is replaced
// only by a complete new one (a failed write keeps it byte for byte, leaves no temporary and
// keeps its permissions), a symbolic link keeps pointing where it did, and devices and FIFOs
// are written where they are instead of being replaced by regular files. The .npy writer
// goes through it too.
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>
#include <string>
#include <vector>

#include "core/data/npy_writer.h"
#include "core/data/output_file.h"
#include "tests/file_size_limit.h"

using qs::data::writeOutputFile;

namespace {

std::string path(const QTemporaryDir& dir, const char* name) {
    return QFile::encodeName(dir.filePath(QString::fromLatin1(name))).toStdString();
}

QByteArray contents(const std::string& p) {
    QFile f(QFile::decodeName(QByteArray::fromStdString(p)));
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray("<unreadable>");
}

mode_t lmode(const std::string& p) {
    struct stat st{};
    return ::lstat(p.c_str(), &st) == 0 ? st.st_mode : 0;
}

QStringList files(const QTemporaryDir& dir) {
    return QDir(dir.path()).entryList(QDir::AllEntries | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot);
}

std::string previousWork() {
    std::string s;
    for (int i = 0; i < 1000; ++i) s += "previous work " + std::to_string(i) + "\n";
    return s;
}

}  // namespace

class TstOutputFile : public QObject {
    Q_OBJECT
private slots:
    void replacesAndKeepsPermissions() {
        QTemporaryDir dir;
        const std::string p = path(dir, "out.txt");
        QVERIFY(writeOutputFile(p, "first").ok());
        QCOMPARE(contents(p), QByteArray("first"));
        QCOMPARE(::chmod(p.c_str(), 0640), 0);
        QVERIFY(writeOutputFile(p, "second").ok());
        QCOMPARE(contents(p), QByteArray("second"));
        QCOMPARE(lmode(p) & 07777, mode_t(0640));
        QCOMPARE(files(dir), QStringList{QStringLiteral("out.txt")});
        if (::geteuid() == 0) {  // root saving a user's file leaves it the user's
            QCOMPARE(::chown(p.c_str(), 4321, 4321), 0);
            QVERIFY(writeOutputFile(p, "third").ok());
            struct stat st{};
            QCOMPARE(::stat(p.c_str(), &st), 0);
            QCOMPARE(st.st_uid, uid_t(4321));
            QCOMPARE(st.st_gid, gid_t(4321));
        }
    }

    void failedWriteKeepsPreviousFile() {
        QTemporaryDir dir;
        const std::string p = path(dir, "out.txt"), npy = path(dir, "codes.npy");
        const std::string previous = previousWork();
        QVERIFY(writeOutputFile(p, previous).ok());
        QVERIFY(writeOutputFile(npy, previous).ok());
        const std::vector<float> values(10000, 1.5f);
        {
            const qs::testing::FileSizeLimit limit(4096);
            QVERIFY(limit.ok());
            const auto s = writeOutputFile(p, std::string(20000, 'x'));
            QVERIFY(!s.ok());
            QCOMPARE(s.error().kind, std::string("DataError"));
            QCOMPARE(s.error().message, "cannot write " + p + ": File too large");
            const auto n = qs::data::writeNpy(npy, std::span<const float>(values), {10000});
            QVERIFY(!n.ok());
            QCOMPARE(n.error().message, "cannot write " + npy + ": File too large");
        }
        QCOMPARE(contents(p), QByteArray::fromStdString(previous));
        QCOMPARE(contents(npy), QByteArray::fromStdString(previous));
        QCOMPARE(files(dir), (QStringList{QStringLiteral("codes.npy"), QStringLiteral("out.txt")}));
    }

    void symbolicLinkKeepsPointing() {
        QTemporaryDir dir;
        const std::string target = path(dir, "target.txt"), link = path(dir, "link.txt");
        QVERIFY(writeOutputFile(target, "old").ok());
        QCOMPARE(::symlink("target.txt", link.c_str()), 0);
        QVERIFY(writeOutputFile(link, "new").ok());
        QVERIFY(S_ISLNK(lmode(link)));
        QCOMPARE(contents(target), QByteArray("new"));
    }

    void directoryIsAnError() {
        QTemporaryDir dir;
        const auto s = writeOutputFile(QFile::encodeName(dir.path()).toStdString(), "x");
        QVERIFY(!s.ok());
        QVERIFY2(s.error().message.ends_with(": Is a directory"), s.error().message.c_str());
    }

    // A device (a node of our own with /dev/null's numbers) stays a device.
    void deviceIsWrittenInPlace() {
        QTemporaryDir dir;
        const std::string null = path(dir, "null");
        if (::mknod(null.c_str(), S_IFCHR | 0666, makedev(1, 3)) != 0) QSKIP("cannot make a device node");
        QVERIFY(writeOutputFile(null, previousWork()).ok());
        QVERIFY(S_ISCHR(lmode(null)));
        const std::vector<float> values(100, 1.5f);
        QVERIFY(qs::data::writeNpy(null, std::span<const float>(values), {100}).ok());
        QVERIFY(S_ISCHR(lmode(null)));
        QCOMPARE(files(dir), QStringList{QStringLiteral("null")});
    }

    // A FIFO gets the bytes (a reader process on the other end) and stays a FIFO.
    void fifoIsWrittenInPlace() {
        QTemporaryDir dir;
        const std::string fifo = path(dir, "pipe");
        QCOMPARE(::mkfifo(fifo.c_str(), 0600), 0);
        QProcess reader;
        reader.start(QStringLiteral("cat"), {QFile::decodeName(QByteArray::fromStdString(fifo))});
        QVERIFY(reader.waitForStarted());
        const std::string bytes = previousWork();
        const bool ok = writeOutputFile(fifo, bytes).ok();
        const bool readerDone = reader.waitForFinished(10000);
        if (!readerDone) {  // nothing was written into the pipe: release the reader
            reader.kill();
            reader.waitForFinished();
        }
        QVERIFY(ok);
        QVERIFY(readerDone);
        QCOMPARE(reader.readAllStandardOutput(), QByteArray::fromStdString(bytes));
        QVERIFY(S_ISFIFO(lmode(fifo)));
    }
};

QTEST_GUILESS_MAIN(TstOutputFile)
#include "tst_output_file.moc"
