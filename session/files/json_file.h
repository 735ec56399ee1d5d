// JSON object files of the UI (sessions, lessons, embedding configurations): read and
// written with messages that name the file, as "broken.qscope: line 3: not valid JSON
// (unterminated string)". Writes are atomic (native_file.h: a crash or a full disk never
// leaves half a file, the previous one stays).
#pragma once

#include <QDir>
#include <QJsonObject>
#include <QString>
#include <optional>
#include <string>

namespace qs::ui {

// `what` names the expected content in "NAME: not a QuantScope <what> (not a JSON object)".
// Other errors: "NAME: cannot open: <reason>", "NAME: line N: not valid JSON (<reason>)".
std::optional<QJsonObject> readJsonObjectFile(const QString& path, const QString& what, QString* error);
// The same for a file name as the system spells it (native_file.h).
std::optional<QJsonObject> readJsonObjectFile(const std::string& nativePath, const QString& what, QString* error);

// A JSON object file as read for a document: the object (nothing when reading failed, the
// error then set), the file's name for messages, and its folder, to which the document's
// relative paths are relative.
struct ReadJsonFile {
    std::optional<QJsonObject> json;
    QString name;
    QDir folder;
};
ReadJsonFile readJsonFileFor(const QString& path, const QString& what, QString* error);
ReadJsonFile readJsonFileFor(const std::string& nativePath, const QString& what, QString* error);

// The document `file` holds: `fromJson(object, &why)` gives it, or the error
// "NAME: <why>"; then `resolvePaths(document, folder)` makes its relative paths the file's.
template <class Document, class FromJson, class ResolvePaths>
std::optional<Document> documentOfFile(const ReadJsonFile& file, FromJson fromJson, ResolvePaths resolvePaths,
                                       QString* error) {
    if (!file.json) return std::nullopt;
    QString why;
    std::optional<Document> document = fromJson(*file.json, &why);
    if (!document) {
        if (error) *error = file.name + QStringLiteral(": ") + why;
        return std::nullopt;
    }
    resolvePaths(*document, file.folder);
    return document;
}

// The "format"/"version" header of a QuantScope JSON file: empty when `json` is a `format`
// file ("quantscope-session") of a version up to `newest`; otherwise the message:
// "not a QuantScope <what> ("format" is not "<format>")", "version: missing or not a
// number", or `newerMessage` with %1 the file's version and %2 `newest`.
QString formatHeaderError(const QJsonObject& json, const QString& format, const QString& what, int newest,
                          const QString& newerMessage);

// Indented JSON; "NAME: cannot write: <reason>" on failure.
bool writeJsonObjectFile(const QString& path, const QJsonObject& json, QString* error);

}  // namespace qs::ui
