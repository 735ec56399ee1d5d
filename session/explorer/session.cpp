#include "session/explorer/session.h"

#include <QDir>
#include <QJsonArray>
#include <QFileInfo>
#include <QLocale>
#include <cmath>
#include <QStringList>

#include "core/analysis/op_attributes.h"
#include "session/files/json_file.h"
#include "session/files/native_file.h"

namespace qs::ui {

namespace {

QString qstr(std::string_view s) { return QString::fromUtf8(s.data(), static_cast<qsizetype>(s.size())); }

// Reads typed fields of one JSON object, remembering the first problem with its path.
class FieldReader {
public:
    FieldReader(const QJsonObject& o, QString where, QString* error)
        : o_(o), where_(std::move(where)), error_(error) {}
    bool ok() const { return ok_; }

    bool boolean(const char* key, bool def) {
        const QJsonValue v = o_.value(QLatin1String(key));
        if (v.isUndefined()) return def;
        if (!v.isBool()) return fail(key, QStringLiteral("must be true or false")), def;
        return v.toBool();
    }
    double number(const char* key, double def) {
        const QJsonValue v = o_.value(QLatin1String(key));
        if (v.isUndefined()) return def;
        if (!v.isDouble()) return fail(key, QStringLiteral("must be a number")), def;
        return v.toDouble();
    }
    qint64 integer(const char* key, qint64 def) {
        const double d = number(key, static_cast<double>(def));
        // Checked before the cast: converting an out-of-range double is undefined.
        if (!std::isfinite(d) || std::fabs(d) > 9007199254740992.0 || d != std::trunc(d))
            return fail(key, QStringLiteral("must be an integer")), def;
        if (std::fabs(d) > 2147483647.0)
            return fail(key, QStringLiteral("is out of range")), def;
        return static_cast<qint64>(d);
    }
    // The same within [lo, hi] (the values the explorer's controls can hold).
    qint64 integer(const char* key, qint64 def, qint64 lo, qint64 hi) {
        const qint64 v = integer(key, def);
        return inRange(key, double(v), double(lo), double(hi)) ? v : def;
    }
    double number(const char* key, double def, double lo, double hi) {
        const double v = number(key, def);
        return inRange(key, v, lo, hi) ? v : def;
    }
    QString string(const char* key, const QString& def) {
        const QJsonValue v = o_.value(QLatin1String(key));
        if (v.isUndefined()) return def;
        if (!v.isString()) return fail(key, QStringLiteral("must be a string")), def;
        return v.toString();
    }
    bool inRange(const char* key, double v, double lo, double hi) {
        if (v >= lo && v <= hi) return true;
        const auto text = [](double x) { return QString::number(x, 'g', QLocale::FloatingPointShortest); };
        fail(key, QStringLiteral("%1 is out of range [%2, %3]").arg(text(v), text(lo), text(hi)));
        return false;
    }
    void fail(const char* key, const QString& problem) {
        if (ok_ && error_) *error_ = QStringLiteral("%1.%2: %3").arg(where_, QLatin1String(key), problem);
        ok_ = false;
    }

private:
    const QJsonObject o_;  // a copy (implicitly shared): callers pass temporaries
    QString where_;
    QString* error_;
    bool ok_ = true;
};

// The choice of one Enum row, by any of its names (every value any op takes: a session
// may pair an op with a value it rejects, and then shows TF's error).
int64_t choiceOf(FieldReader& r, const OpAttribute& a, int64_t def) {
    const QByteArray key = QByteArray(a.name.data(), static_cast<qsizetype>(a.name.size()));
    const QString s = r.string(key.constData(), QString());
    if (s.isEmpty()) return def;
    QStringList valid;
    for (const AttrChoice& c : a.values()) {
        if (s == qstr(c.name)) return c.value;
        valid << qstr(c.name);
    }
    r.fail(key.constData(), QStringLiteral("'%1' is not one of %2").arg(s, valid.join(QStringLiteral(", "))));
    return def;
}

AttrValue readAttribute(FieldReader& r, const OpAttribute& a, const AttrValue& def) {
    const QByteArray key = QByteArray(a.name.data(), static_cast<qsizetype>(a.name.size()));
    switch (a.kind) {
        case AttrKind::Bool: return r.boolean(key.constData(), std::get<bool>(def));
        case AttrKind::Int:
            return static_cast<int64_t>(r.integer(key.constData(), std::get<int64_t>(def),
                                                  static_cast<qint64>(a.min), static_cast<qint64>(a.max)));
        case AttrKind::Float: return r.number(key.constData(), std::get<double>(def), a.min, a.max);
        case AttrKind::Enum: return choiceOf(r, a, std::get<int64_t>(def));
    }
    return def;
}

QJsonValue attributeJson(const OpAttribute& a, const AttrValue& v) {
    switch (a.kind) {
        case AttrKind::Bool: return std::get<bool>(v);
        case AttrKind::Int: return static_cast<qint64>(std::get<int64_t>(v));
        case AttrKind::Float: return std::get<double>(v);
        case AttrKind::Enum: return qstr(a.choiceName(std::get<int64_t>(v)));
    }
    return {};
}

QuantOp opOf(FieldReader& r) {
    const QString s = r.string("op", QString());
    if (s.isEmpty()) return QuantSpec{}.op;
    QuantOp op{};
    if (parseQuantOpKey(s.toStdString(), op)) return op;
    QStringList valid;
    for (QuantOp o : kAllQuantOps) valid << qstr(quantOpKey(o));
    r.fail("op", QStringLiteral("'%1' is not one of %2").arg(s, valid.join(QStringLiteral(", "))));
    return QuantSpec{}.op;
}

}  // namespace

QJsonObject specToJson(const qs::QuantSpec& s) {
    QJsonObject o;
    o["op"] = qstr(quantOpKey(s.op));
    // Every attribute, also those the op does not take: switching op back keeps them.
    for (const OpAttribute& a : opAttributes()) o[qstr(a.name)] = attributeJson(a, a.get(s));
    o["min_range"] = static_cast<double>(s.min_range);
    o["max_range"] = static_cast<double>(s.max_range);
    return o;
}

std::optional<qs::QuantSpec> specFromJson(const QJsonObject& json, QString* error,
                                          const QString& where) {
    FieldReader r(json, where, error);
    const qs::QuantSpec defaults = defaultSpecFor(opOf(r));
    qs::QuantSpec s = defaults;
    for (const OpAttribute& a : opAttributes()) a.set(s, readAttribute(r, a, a.get(defaults)));
    s.min_range = static_cast<float>(r.number("min_range", s.min_range, -limits::kMaxRangeMagnitude, limits::kMaxRangeMagnitude));
    s.max_range = static_cast<float>(r.number("max_range", s.max_range, -limits::kMaxRangeMagnitude, limits::kMaxRangeMagnitude));
    if (!r.ok()) return std::nullopt;
    return s;
}

namespace {

QJsonObject analysisToJson(const AnalysisState& a) {
    const AnalysisState defaults;
    QJsonObject o;
    if (!a.compared.empty()) {
        QJsonArray list;
        for (const qs::QuantSpec& spec : a.compared) list.append(specToJson(spec));
        o["compare"] = list;
    }
    if (!(a.calibration == defaults.calibration)) {
        o["calibration"] = QJsonObject{{"percentile", a.calibration.percentile},
                                       {"bins", a.calibration.bins},
                                       {"symmetric", a.calibration.symmetric}};
    }
    if (a.scaledR14 != defaults.scaledR14) o["scaled_r14"] = a.scaledR14;
    return o;
}

// The analysis keys: every one optional (sessions before them open with the defaults).
std::optional<AnalysisState> analysisFromJson(const QJsonValue& json, QString* error) {
    auto fail = [error](const QString& m) {
        if (error) *error = m;
        return std::nullopt;
    };
    AnalysisState a;
    if (json.isUndefined()) return a;
    if (!json.isObject()) return fail(QStringLiteral("analysis: must be an object"));
    const QJsonObject o = json.toObject();
    if (const QJsonValue list = o.value("compare"); !list.isUndefined()) {
        if (!list.isArray()) return fail(QStringLiteral("analysis.compare: must be a list"));
        const QJsonArray array = list.toArray();
        if (array.size() > AnalysisState::kMaxCompared)
            return fail(QStringLiteral("analysis.compare: holds %1 configurations; at most %2")
                            .arg(array.size())
                            .arg(AnalysisState::kMaxCompared));
        for (qsizetype i = 0; i < array.size(); ++i) {
            const QString where = QStringLiteral("analysis.compare[%1]").arg(i);
            if (!array.at(i).isObject()) return fail(where + QStringLiteral(": must be an object"));
            auto spec = specFromJson(array.at(i).toObject(), error, where);
            if (!spec) return std::nullopt;
            a.compared.push_back(*spec);
        }
    }
    if (const QJsonValue c = o.value("calibration"); !c.isUndefined() && !c.isObject())
        return fail(QStringLiteral("analysis.calibration: must be an object"));
    // The calibration panel's range for the percentile; the core's for the bins.
    FieldReader calibration(o.value("calibration").toObject(), QStringLiteral("analysis.calibration"), error);
    a.calibration.percentile = calibration.number("percentile", a.calibration.percentile, 50.0, 100.0);
    a.calibration.bins = static_cast<int>(calibration.integer("bins", a.calibration.bins, 2, 65536));
    a.calibration.symmetric = calibration.boolean("symmetric", a.calibration.symmetric);
    if (!calibration.ok()) return std::nullopt;
    FieldReader rest(o, QStringLiteral("analysis"), error);
    a.scaledR14 = rest.boolean("scaled_r14", a.scaledR14);
    if (!rest.ok()) return std::nullopt;
    return a;
}

}  // namespace

QJsonObject sessionToJson(const Session& session) {
    QJsonObject data;
    data["generator"] = session.data.generator;
    if (session.data.isModelTensor()) {  // a tensor of a model file (older versions read "file" only)
        data["model"] = session.data.path;
        data["tensor"] = session.data.tensor;
    } else if (session.data.isFile()) {
        data["file"] = session.data.path;
    }
    QJsonObject view;
    view["tab"] = session.view.tab;
    view["error_log_scale"] = session.view.errorLogScale;
    view["theme"] = session.view.dark ? "dark" : "light";
    view["channel"] = session.view.channel;
    QJsonObject o;
    o["format"] = "quantscope-session";
    o["version"] = kSessionFormatVersion;
    o["parameters"] = specToJson(session.spec);
    o["data"] = data;
    o["view"] = view;
    if (const QJsonObject analysis = analysisToJson(session.analysis); !analysis.isEmpty())
        o["analysis"] = analysis;
    return o;
}

std::optional<Session> sessionFromJson(const QJsonObject& json, QString* error) {
    auto fail = [error](const QString& m) {
        if (error) *error = m;
        return std::nullopt;
    };
    if (const QString header = formatHeaderError(
            json, QStringLiteral("quantscope-session"), QStringLiteral("session"), kSessionFormatVersion,
            QStringLiteral("written by a newer QuantScope (session format %1; this version reads format %2 "
                           "and older). Update QuantScope to open it."));
        !header.isEmpty())
        return fail(header);
    Session s;
    for (const char* key : {"parameters", "data", "view"})
        if (json.contains(QLatin1String(key)) && !json.value(QLatin1String(key)).isObject())
            return fail(QStringLiteral("%1: must be an object").arg(QLatin1String(key)));
    auto spec = specFromJson(json.value("parameters").toObject(), error);
    if (!spec) return std::nullopt;
    s.spec = *spec;
    FieldReader data(json.value("data").toObject(), QStringLiteral("data"), error);
    s.data.generator = data.string("generator", s.data.generator);
    s.data.path = data.string("file", QString());
    // "model" + "tensor": a tensor of a model file as the data (both or neither).
    const QString model = data.string("model", QString());
    const QString tensor = data.string("tensor", QString());
    if (!model.isEmpty() && tensor.isEmpty()) data.fail("tensor", QStringLiteral("missing: a model file needs the tensor's name"));
    else if (model.isEmpty() && !tensor.isEmpty()) data.fail("model", QStringLiteral("missing: a tensor needs its model file"));
    else if (!model.isEmpty() && !s.data.path.isEmpty()) data.fail("model", QStringLiteral("cannot be given with \"file\""));
    else if (!model.isEmpty()) {
        s.data.path = model;
        s.data.tensor = tensor;
    }
    FieldReader view(json.value("view").toObject(), QStringLiteral("view"), error);
    s.view.tab = static_cast<int>(view.integer("tab", 0, 0, 2147483647));  // past the last tab: MainWindow
    s.view.errorLogScale = view.boolean("error_log_scale", false);
    s.view.dark = view.string("theme", QStringLiteral("light")) == QLatin1String("dark");
    s.view.channel = view.integer("channel", 0, 0, limits::kMaxChannel);
    if (!data.ok() || !view.ok()) return std::nullopt;
    auto analysis = analysisFromJson(json.value("analysis"), error);
    if (!analysis) return std::nullopt;
    s.analysis = std::move(*analysis);
    return s;
}

bool saveSession(const QString& path, const Session& session, QString* error) {
    return writeJsonObjectFile(path, sessionToJson(session), error);
}

namespace {
// A read file's session; a relative data path is taken relative to the file's folder.
std::optional<Session> sessionOfFile(const ReadJsonFile& file, QString* error) {
    const auto resolve = [](Session& s, const QDir& folder) {
        if (s.data.isFile() && QFileInfo(s.data.path).isRelative()) s.data.path = folder.filePath(s.data.path);
    };
    return documentOfFile<Session>(file, sessionFromJson, resolve, error);
}
}  // namespace

std::optional<Session> loadSession(const std::string& nativePath, QString* error) {
    return sessionOfFile(readJsonFileFor(nativePath, QStringLiteral("session"), error), error);
}

std::optional<Session> loadSession(const QString& path, QString* error) {
    return sessionOfFile(readJsonFileFor(path, QStringLiteral("session"), error), error);
}

}  // namespace qs::ui
