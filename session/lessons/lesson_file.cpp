#include "session/lessons/lesson_file.h"

#include <QDir>
#include <QFileInfo>
#include <QJsonObject>
#include <algorithm>

#include "session/explorer/session.h"
#include "session/files/json_file.h"

namespace qs::ui {

namespace {

// stored_codes_match's model file, resolved against the lesson's folder, must exist now: a
// broken lesson is reported when the lessons load. (Built-in files are Qt resources the core
// cannot open: the library copies them to disk, and the check itself reports a file it
// cannot read or a tensor it lacks.)
QString storedModelError(qs::analysis::LessonCheck& c, const QString& dir) {
    if (c.stored_model.empty() || c.stored_tensor.empty())
        return QStringLiteral("stored_model, stored_tensor: the kind stored_codes_match needs both (a model file "
                              "and the name of its tensor of stored codes)");
    QString path = QString::fromStdString(c.stored_model);
    if (QFileInfo(path).isRelative() && !dir.isEmpty()) path = QDir(dir).filePath(path);
    if (!QFileInfo(path).isFile()) return QStringLiteral("stored_model: '%1' is not a file").arg(path);
    c.stored_model = path.toStdString();
    return {};
}

std::optional<qs::analysis::LessonCheck> checkFromJson(const QJsonObject& o, const QString& dir, QString* error) {
    auto fail = [error](const QString& m) {
        if (error) *error = QStringLiteral("check.") + m;
        return std::nullopt;
    };
    qs::analysis::LessonCheck c;
    if (!o.value("kind").isString()) return fail(QStringLiteral("kind: must be a string"));
    c.kind = o.value("kind").toString().toStdString();
    for (auto it = o.begin(); it != o.end(); ++it) {
        const QString key = it.key();
        if (key == QLatin1String("kind")) continue;
        if (key == QLatin1String("relative")) {
            if (!it.value().isBool()) return fail(QStringLiteral("relative: must be true or false"));
            c.relative = it.value().toBool();
        } else if (key == QLatin1String("comparison")) {
            const QString s = it.value().toString();
            if (s == QLatin1String("near")) c.comparison = qs::analysis::CheckComparison::Near;
            else if (s == QLatin1String("at_least")) c.comparison = qs::analysis::CheckComparison::AtLeast;
            else if (s == QLatin1String("at_most")) c.comparison = qs::analysis::CheckComparison::AtMost;
            else return fail(QStringLiteral("comparison: '%1' is not one of near, at_least, at_most").arg(s));
        } else if (key == QLatin1String("stored_model") || key == QLatin1String("stored_tensor")) {
            if (!it.value().isString() || it.value().toString().isEmpty())
                return fail(QStringLiteral("%1: must be a non-empty string").arg(key));
            (key == QLatin1String("stored_model") ? c.stored_model : c.stored_tensor) =
                it.value().toString().toStdString();
        } else if (!it.value().isDouble()) {
            return fail(QStringLiteral("%1: must be a number").arg(key));
        } else if (key == QLatin1String("tolerance")) {
            c.tolerance = it.value().toDouble();
            if (!(c.tolerance >= 0)) return fail(QStringLiteral("tolerance: must be >= 0"));
        } else {
            c.params[key.toStdString()] = it.value().toDouble();
        }
    }
    const auto& kinds = qs::analysis::lessonCheckKinds();
    if (std::find(kinds.begin(), kinds.end(), c.kind) == kinds.end()) {
        QStringList valid;
        for (const auto& k : kinds) valid << QString::fromStdString(k);
        return fail(QStringLiteral("kind: '%1' is not one of %2")
                        .arg(QString::fromStdString(c.kind), valid.join(QStringLiteral(", "))));
    }
    if (c.kind == "stored_codes_match") {
        if (const QString why = storedModelError(c, dir); !why.isEmpty()) return fail(why);
    } else if (!c.stored_model.empty() || !c.stored_tensor.empty()) {
        return fail(QStringLiteral("stored_model, stored_tensor: only the kind stored_codes_match takes them"));
    }
    return c;
}

}  // namespace

std::optional<Lesson> lessonFromJson(const QJsonObject& json, const QString& dir, QString* error) {
    auto fail = [error](const QString& m) {
        if (error) *error = m;
        return std::nullopt;
    };
    if (const QString header = formatHeaderError(
            json, QStringLiteral("quantscope-lesson"), QStringLiteral("lesson"), kLessonFormatVersion,
            QStringLiteral("written for a newer QuantScope (lesson format %1; this version reads format %2 and older)"));
        !header.isEmpty())
        return fail(header);
    Lesson l;
    for (const char* key : {"id", "title", "explanation"})
        if (!json.value(QLatin1String(key)).isString())
            return fail(QStringLiteral("%1: missing or not a string").arg(QLatin1String(key)));
    l.id = json.value("id").toString();
    l.title = json.value("title").toString();
    l.explanation = json.value("explanation").toString();
    const QJsonValue order = json.value("order");
    if (!order.isUndefined() && !order.isDouble()) return fail(QStringLiteral("order: must be a number"));
    l.order = order.toInt();
    if (!json.value("spec").isObject()) return fail(QStringLiteral("spec: missing or not an object"));
    auto spec = specFromJson(json.value("spec").toObject(), error, QStringLiteral("spec"));
    if (!spec) return std::nullopt;
    l.spec = *spec;
    const QJsonValue data = json.value("data");
    if (data.isString()) {
        l.data.generator = data.toString();
    } else if (data.isObject()) {
        const QJsonObject d = data.toObject();
        if (d.contains("generator") && !d.value("generator").isString())
            return fail(QStringLiteral("data.generator: must be a string"));
        if (d.contains("file") && !d.value("file").isString())
            return fail(QStringLiteral("data.file: must be a string"));
        for (const char* key : {"model", "tensor"})
            if (d.contains(QLatin1String(key)) && !d.value(QLatin1String(key)).isString())
                return fail(QStringLiteral("data.%1: must be a string").arg(QLatin1String(key)));
        if (d.contains("model") != d.contains("tensor"))
            return fail(QStringLiteral("data: \"model\" and \"tensor\" go together (a tensor of a model file)"));
        if (d.contains("model") && d.contains("file"))
            return fail(QStringLiteral("data: either \"file\" or \"model\", not both"));
        if (d.contains("generator")) l.data.generator = d.value("generator").toString();
        l.data.path = d.contains("model") ? d.value("model").toString() : d.value("file").toString();
        l.data.tensor = d.value("tensor").toString();
        if (l.data.isFile() && QFileInfo(l.data.path).isRelative() && !dir.isEmpty())
            l.data.path = QDir(dir).filePath(l.data.path);
    } else {
        return fail(QStringLiteral("data: must be a generator string or an object"));
    }
    if (!json.value("check").isObject()) return fail(QStringLiteral("check: missing or not an object"));
    auto check = checkFromJson(json.value("check").toObject(), dir, error);
    if (!check) return std::nullopt;
    l.check = *check;
    auto stage = lessonStageFromJson(json.value("stage"), error);
    if (!stage) return std::nullopt;
    l.stage = *stage;
    return l;
}

std::optional<Lesson> loadLesson(const QString& path, QString* error) {
    const auto json = readJsonObjectFile(path, QStringLiteral("lesson"), error);
    if (!json) return std::nullopt;
    const QString name = QFileInfo(path).fileName();
    QString why;
    auto l = lessonFromJson(*json, QFileInfo(path).dir().path(), &why);
    if (!l) {
        if (error) *error = QStringLiteral("%1: %2").arg(name, why);
        return std::nullopt;
    }
    l->path = path;
    return l;
}

QList<Lesson> loadLessons(const QString& dir, QStringList* errors) {
    QList<Lesson> lessons;
    const QStringList files = QDir(dir).entryList({QStringLiteral("*.json")}, QDir::Files, QDir::Name);
    for (const QString& f : files) {
        QString error;
        if (auto l = loadLesson(QDir(dir).filePath(f), &error)) lessons << *l;
        else if (errors) *errors << error;
    }
    std::stable_sort(lessons.begin(), lessons.end(), [](const Lesson& a, const Lesson& b) {
        return a.order != b.order ? a.order < b.order : a.id < b.id;
    });
    return lessons;
}

}  // namespace qs::ui
