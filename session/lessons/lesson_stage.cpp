#include "session/lessons/lesson_stage.h"

#include <QJsonArray>
#include <QJsonObject>

#include "core/analysis/op_attributes.h"

namespace qs::ui {

const QStringList& lessonViewNames() {
    static const QStringList names{QStringLiteral("transfer"),   QStringLiteral("histogram"),
                                   QStringLiteral("error-histogram"), QStringLiteral("per-channel"),
                                   QStringLiteral("bit-sweep"),  QStringLiteral("clip-sweep"),
                                   QStringLiteral("calibration"), QStringLiteral("compare"),
                                   QStringLiteral("frameworks")};
    return names;
}

const QStringList& lessonDockNames() {
    static const QStringList names{QStringLiteral("parameters"), QStringLiteral("data"),
                                   QStringLiteral("statistics"), QStringLiteral("model"),
                                   QStringLiteral("model-report"), QStringLiteral("stored-quantization")};
    return names;
}

const QStringList& lessonLayoutNames() {
    static const QStringList names{QStringLiteral("standard"), QStringLiteral("compact")};
    return names;
}

QStringList lessonParameterNames() {
    QStringList names{QStringLiteral("op")};
    for (const qs::OpAttribute& a : qs::opAttributes())
        names << QString::fromUtf8(a.name.data(), static_cast<qsizetype>(a.name.size()));
    names << QStringLiteral("min_range") << QStringLiteral("max_range");
    return names;
}

namespace {

// A string that must be one of `valid`; the message names the key and the choices.
std::optional<QString> oneOf(const QJsonValue& v, const QStringList& valid, const QString& key, QString* error) {
    if (!v.isString()) {
        if (error) *error = QStringLiteral("%1: must be a string").arg(key);
        return std::nullopt;
    }
    const QString s = v.toString();
    if (!valid.contains(s)) {
        if (error) *error = QStringLiteral("%1: '%2' is not one of %3").arg(key, s, valid.join(QStringLiteral(", ")));
        return std::nullopt;
    }
    return s;
}

std::optional<QStringList> listOf(const QJsonValue& v, const QStringList& valid, const QString& key, QString* error) {
    if (!v.isArray()) {
        if (error) *error = QStringLiteral("%1: must be a list of names").arg(key);
        return std::nullopt;
    }
    QStringList out;
    const QJsonArray a = v.toArray();
    for (qsizetype i = 0; i < a.size(); ++i) {
        auto name = oneOf(a.at(i), valid, QStringLiteral("%1[%2]").arg(key).arg(i), error);
        if (!name) return std::nullopt;
        if (out.contains(*name)) {
            if (error) *error = QStringLiteral("%1: '%2' is named twice").arg(key, *name);
            return std::nullopt;
        }
        out << *name;
    }
    return out;
}

}  // namespace

std::optional<LessonStage> lessonStageFromJson(const QJsonValue& json, QString* error) {
    LessonStage stage;
    if (json.isUndefined()) return stage;
    if (!json.isObject()) {
        if (error) *error = QStringLiteral("stage: must be an object");
        return std::nullopt;
    }
    const QJsonObject o = json.toObject();
    for (auto it = o.begin(); it != o.end(); ++it) {
        const QString key = it.key();
        const QString path = QStringLiteral("stage.") + key;
        if (key == QLatin1String("view")) {
            auto v = oneOf(it.value(), lessonViewNames(), path, error);
            if (!v) return std::nullopt;
            stage.view = *v;
        } else if (key == QLatin1String("docks")) {
            stage.docks = listOf(it.value(), lessonDockNames(), path, error);
            if (!stage.docks) return std::nullopt;
        } else if (key == QLatin1String("layout")) {
            auto v = oneOf(it.value(), lessonLayoutNames(), path, error);
            if (!v) return std::nullopt;
            stage.layout = *v;
        } else if (key == QLatin1String("parameters")) {
            auto v = listOf(it.value(), lessonParameterNames(), path, error);
            if (!v) return std::nullopt;
            stage.parameters = *v;
        } else {
            // A typo ("dock") would otherwise be ignored and the lesson open on the wrong stage.
            if (error) *error = QStringLiteral("%1: unknown key (stage takes view, docks, layout, parameters)").arg(path);
            return std::nullopt;
        }
    }
    return stage;
}

}  // namespace qs::ui
