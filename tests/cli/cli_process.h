// What the CLI tests share: running the built quantscope-cli (QS_CLI_PATH) and the small file
// helpers around it. Header-only, included by each tests/cli program.
#pragma once

#include <QByteArray>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QProcessEnvironment>
#include <QString>
#include <QStringList>
#include <QTemporaryDir>
#include <optional>

namespace qs::testing {

struct Run {
    int exitCode = -1;  // -1: did not finish in time, -2: crashed
    QString out;
    QString err;
    QStringList outLines() const { return out.split('\n', Qt::SkipEmptyParts); }
    QStringList errLines() const { return err.split('\n', Qt::SkipEmptyParts); }
};

// Waits (2 minutes at most) for a started process and collects what it printed.
inline Run finish(QProcess& p) {
    Run r;
    if (!p.waitForFinished(120000)) {
        p.kill();
        p.waitForFinished();
        return r;
    }
    r.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -2;
    r.out = QString::fromUtf8(p.readAllStandardOutput());
    r.err = QString::fromUtf8(p.readAllStandardError());
    return r;
}

inline Run runCli(const QStringList& args, const std::optional<QProcessEnvironment>& env = {}) {
    QProcess p;
    if (env) p.setProcessEnvironment(*env);
    p.start(QStringLiteral(QS_CLI_PATH), args);
    return finish(p);
}

// Runs the CLI through /bin/sh, which first runs `shellSetup` (e.g. "trap '' XFSZ; ulimit -f 1"
// for a file-size limit). In `args` U+FFFD stands for the byte 0xFF: QProcess passes arguments
// as UTF-8, which cannot carry a file name that is not UTF-8, so the shell puts the byte in
// (QFile::decodeName("case-\xff.json") is "case-\uFFFD.json").
inline Run runCliShell(const QStringList& args, const QString& shellSetup = {}) {
    QString script = QStringLiteral("FF=$(printf '\\377')\n") + shellSetup + QStringLiteral("\nexec \"$0\"");
    for (QString a : args) {
        a.replace(QLatin1Char('\''), QLatin1String("'\\''"));
        a.replace(QChar(0xFFFD), QLatin1String("'\"$FF\"'"));
        script += QLatin1String(" '") + a + QLatin1Char('\'');
    }
    QProcess p;
    p.start(QStringLiteral("/bin/sh"), {QStringLiteral("-c"), script, QStringLiteral(QS_CLI_PATH)});
    return finish(p);
}

// Writes `text` to dir/name; returns the path ("" when it cannot be written).
inline QString writeFile(const QTemporaryDir& dir, const QString& name, const QByteArray& text) {
    const QString path = dir.filePath(name);
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly)) return {};
    f.write(text);
    return path;
}

inline QByteArray readAll(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

inline QJsonObject readJson(const QString& path) { return QJsonDocument::fromJson(readAll(path)).object(); }

}  // namespace qs::testing
