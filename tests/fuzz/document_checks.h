// What every document file (session, workbench configuration) that loads must satisfy.
#pragma once

#include <QJsonDocument>
#include <QJsonObject>
#include <QString>

#include "tests/fuzz/fuzz_input.h"

namespace qs::fuzz {

// A refused file must say why.
inline void checkRefusalExplained(const QString& error, const char* what) {
    if (error.isEmpty()) propertyFailed(std::string("a refused ") + what + " without a message");
}

// Opens the fuzz input as a document with `load` (path, error) -> optional document; a
// refused file must say why (checkRefusalExplained). Returns what `load` returned.
template <typename Load>
auto loadExplained(const FuzzInputFile& file, Load load, const char* what) {
    QString error;
    auto document = load(file.path(), &error);
    if (!document) checkRefusalExplained(error, what);
    return document;
}

// What the user saved is what comes back: `saved` (the loaded document written as JSON)
// loads again with `fromJson` and writes the same JSON with `toJson`.
template <typename FromJson, typename ToJson>
void checkSavesAndReloads(const QJsonObject& saved, FromJson fromJson, ToJson toJson, const char* what) {
    QString error;
    const auto reopened = fromJson(saved, &error);
    if (!reopened) propertyFailed(std::string("a saved ") + what + " does not load: " + error.toStdString());
    if (toJson(*reopened) != saved)
        propertyFailed(std::string("a ") + what + " changes when saved and loaded again:\n" +
                       QJsonDocument(saved).toJson().toStdString());
}

}  // namespace qs::fuzz
