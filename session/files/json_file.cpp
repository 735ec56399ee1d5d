#include "session/files/json_file.h"

#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonParseError>

#include "session/files/native_file.h"

namespace qs::ui {

namespace {

std::optional<QJsonObject> parseJsonObject(const QByteArray& bytes, const QString& name, const QString& what,
                                           QString* error) {
    QJsonParseError parse{};
    const QJsonDocument doc = QJsonDocument::fromJson(bytes, &parse);
    if (parse.error != QJsonParseError::NoError) {
        const int line = static_cast<int>(bytes.left(parse.offset).count('\n')) + 1;
        if (error)
            *error = QStringLiteral("%1: line %2: not valid JSON (%3)").arg(name).arg(line).arg(parse.errorString());
        return std::nullopt;
    }
    if (!doc.isObject()) {
        if (error) *error = QStringLiteral("%1: not a QuantScope %2 (not a JSON object)").arg(name, what);
        return std::nullopt;
    }
    return doc.object();
}

}  // namespace

std::optional<QJsonObject> readJsonObjectFile(const std::string& nativePath, const QString& what, QString* error) {
    const QString name = displayFileName(nativePath);
    QByteArray bytes;
    QString reason;
    if (!readFileBytes(nativePath, &bytes, &reason)) {
        if (error) *error = QStringLiteral("%1: cannot open: %2").arg(name, reason);
        return std::nullopt;
    }
    return parseJsonObject(bytes, name, what, error);
}

std::optional<QJsonObject> readJsonObjectFile(const QString& path, const QString& what, QString* error) {
    // QFile, not the native name: lessons and examples are also read from Qt resources (":/").
    const QString name = QFileInfo(path).fileName();
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        if (error) *error = QStringLiteral("%1: cannot open: %2").arg(name, file.errorString());
        return std::nullopt;
    }
    return parseJsonObject(file.readAll(), name, what, error);
}

ReadJsonFile readJsonFileFor(const QString& path, const QString& what, QString* error) {
    const QFileInfo info(path);
    return {readJsonObjectFile(path, what, error), info.fileName(), info.dir()};
}

ReadJsonFile readJsonFileFor(const std::string& nativePath, const QString& what, QString* error) {
    return {readJsonObjectFile(nativePath, what, error), displayFileName(nativePath),
            QFileInfo(displayPath(nativePath)).dir()};
}

bool writeJsonObjectFile(const QString& path, const QJsonObject& json, QString* error) {
    QString reason;
    if (writeFileBytes(path, QJsonDocument(json).toJson(QJsonDocument::Indented), &reason)) return true;
    if (error) *error = QStringLiteral("%1: cannot write: %2").arg(displayFileName(nativePath(path)), reason);
    return false;
}

QString formatHeaderError(const QJsonObject& json, const QString& format, const QString& what, int newest,
                          const QString& newerMessage) {
    if (json.value("format").toString() != format)
        return QStringLiteral("not a QuantScope %1 (\"format\" is not \"%2\")").arg(what, format);
    const QJsonValue version = json.value("version");
    if (!version.isDouble()) return QStringLiteral("version: missing or not a number");
    if (version.toInt() > newest) return newerMessage.arg(version.toInt()).arg(newest);
    return {};
}

}  // namespace qs::ui
