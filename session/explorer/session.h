// .qscope session files: the explorer's parameters, data source and view state as JSON
// with a format version. Written atomically (native_file.h: a crash or a full disk never
// leaves half a file, the previous one stays);
// read with a message naming the file and the field for anything wrong, and a clear refusal
// for files from a newer QuantScope.
#pragma once

#include <QJsonObject>
#include <QString>
#include <optional>
#include <string>

#include "session/explorer/state.h"

namespace qs::ui {

struct Session {
    qs::QuantSpec spec;
    DataSource data;
    ViewState view;
    AnalysisState analysis = {};  // "analysis": written only where it differs from the defaults,
                                  // so sessions that do not use it stay as they were
};

constexpr int kSessionFormatVersion = 1;

QJsonObject sessionToJson(const Session& session);
// `error` gets "parameters.mode: 'FOO' is not one of MIN_COMBINED, MIN_FIRST, SCALED" etc.
std::optional<Session> sessionFromJson(const QJsonObject& json, QString* error);

// File name in messages: "broken.qscope: line 3: unterminated string".
bool saveSession(const QString& path, const Session& session, QString* error);
std::optional<Session> loadSession(const QString& path, QString* error);
// The same for a file name as the system spells it (native_file.h), e.g. from the command line.
std::optional<Session> loadSession(const std::string& nativePath, QString* error);

// The JSON of a QuantSpec alone (attrs with TF's names), shared with the CLI.
QJsonObject specToJson(const qs::QuantSpec& spec);
std::optional<qs::QuantSpec> specFromJson(const QJsonObject& json, QString* error,
                                          const QString& where = QStringLiteral("parameters"));

}  // namespace qs::ui
