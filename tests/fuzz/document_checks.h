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
