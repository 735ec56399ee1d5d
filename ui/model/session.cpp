#include "ui/model/session.h"

#include <QDir>
#include <QFileInfo>
#include <QLocale>
#include <cmath>
#include <QStringList>

#include "ui/model/json_file.h"
#include "ui/model/native_file.h"

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
    // A string that must be one of `names` (index returned).
    template <typename Enum, size_t N>
    Enum choice(const char* key, Enum def, const std::pair<const char*, Enum> (&names)[N]) {
        const QString s = string(key, QString());
        if (s.isEmpty()) return def;
        QStringList valid;
        for (const auto& [name, value] : names) {
            if (s == QLatin1String(name)) return value;
            valid << QLatin1String(name);
        }
        fail(key, QStringLiteral("'%1' is not one of %2").arg(s, valid.join(QStringLiteral(", "))));
        return def;
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

constexpr std::pair<const char*, QuantizeMode> kModes[] = {
    {"MIN_COMBINED", QuantizeMode::MinCombined}, {"MIN_FIRST", QuantizeMode::MinFirst},
    {"SCALED", QuantizeMode::Scaled}};
constexpr std::pair<const char*, RoundMode> kRoundModes[] = {
    {"HALF_AWAY_FROM_ZERO", RoundMode::HalfAwayFromZero}, {"HALF_TO_EVEN", RoundMode::HalfToEven},
    {"HALF_UP", RoundMode::HalfUp}};
constexpr std::pair<const char*, QType> kTypes[] = {{"qint8", QType::QInt8},
                                                     {"quint8", QType::QUInt8},
                                                     {"qint16", QType::QInt16},
                                                     {"quint16", QType::QUInt16},
                                                     {"qint32", QType::QInt32}};
constexpr std::pair<const char*, QuantOp> kOps[] = {
    {"QuantizeV2", QuantOp::QuantizeV2},
    {"QuantizeAndDequantizeV2", QuantOp::QuantizeAndDequantizeV2},
    {"QuantizeAndDequantizeV3", QuantOp::QuantizeAndDequantizeV3},
    {"QuantizeAndDequantizeV4", QuantOp::QuantizeAndDequantizeV4},
    {"TPUSimulatedQuantization", QuantOp::TpuSimulatedQuantization}};
constexpr std::pair<const char*, RangeSource> kRangeSources[] = {
    {"given", RangeSource::Given}, {"from_data", RangeSource::FromData}};

}  // namespace

QJsonObject specToJson(const qs::QuantSpec& s) {
    QJsonObject o;
    o["op"] = qstr(quantOpKey(s.op));
    o["T"] = qstr(qtypeInfo(s.T).name);
    o["mode"] = qstr(modeName(s.mode));
    o["round_mode"] = qstr(roundModeName(s.round_mode));
    o["narrow_range"] = s.narrow_range;
    o["axis"] = static_cast<qint64>(s.axis);
    o["ensure_minimum_range"] = static_cast<double>(s.ensure_minimum_range);
    o["signed_input"] = s.signed_input;
    o["num_bits"] = static_cast<qint64>(s.num_bits);
    o["range_given"] = s.range_given;
    o["num_buckets"] = static_cast<qint64>(s.num_buckets);
    o["min_range"] = static_cast<double>(s.min_range);
    o["max_range"] = static_cast<double>(s.max_range);
    o["range_source"] = s.range_source == RangeSource::Given ? "given" : "from_data";
    return o;
}

std::optional<qs::QuantSpec> specFromJson(const QJsonObject& json, QString* error,
                                          const QString& where) {
    FieldReader r(json, where, error);
    qs::QuantSpec s;
    s.op = r.choice("op", s.op, kOps);
    s.T = r.choice("T", s.T, kTypes);
    s.mode = r.choice("mode", s.mode, kModes);
    s.round_mode = r.choice("round_mode", defaultRoundMode(s.op), kRoundModes);
    s.narrow_range = r.boolean("narrow_range", s.narrow_range);
    s.axis = r.integer("axis", s.axis, limits::kMinAxis, limits::kMaxAxis);
    s.ensure_minimum_range = static_cast<float>(
        r.number("ensure_minimum_range", s.ensure_minimum_range, 0.0, limits::kMaxEnsureMinimumRange));
    s.signed_input = r.boolean("signed_input", s.signed_input);
    s.num_bits = r.integer("num_bits", s.num_bits, limits::kMinNumBits, limits::kMaxNumBits);
    s.range_given = r.boolean("range_given", s.range_given);
    s.num_buckets = r.integer("num_buckets", s.num_buckets, limits::kMinNumBuckets, limits::kMaxNumBuckets);
    s.min_range = static_cast<float>(r.number("min_range", s.min_range, -limits::kMaxRangeMagnitude, limits::kMaxRangeMagnitude));
    s.max_range = static_cast<float>(r.number("max_range", s.max_range, -limits::kMaxRangeMagnitude, limits::kMaxRangeMagnitude));
    s.range_source = r.choice("range_source", s.range_source, kRangeSources);
    if (!r.ok()) return std::nullopt;
    return s;
}

QJsonObject sessionToJson(const Session& session) {
    QJsonObject data;
    data["generator"] = session.data.generator;
    if (session.data.isFile()) data["file"] = session.data.path;
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
    return o;
}

std::optional<Session> sessionFromJson(const QJsonObject& json, QString* error) {
    auto fail = [error](const QString& m) {
        if (error) *error = m;
        return std::nullopt;
    };
    if (json.value("format").toString() != QLatin1String("quantscope-session"))
        return fail(QStringLiteral("not a QuantScope session (\"format\" is not \"quantscope-session\")"));
    const QJsonValue version = json.value("version");
    if (!version.isDouble()) return fail(QStringLiteral("version: missing or not a number"));
    if (version.toInt() > kSessionFormatVersion)
        return fail(QStringLiteral("written by a newer QuantScope (session format %1; this "
                                   "version reads format %2 and older). Update QuantScope to "
                                   "open it.")
                        .arg(version.toInt())
                        .arg(kSessionFormatVersion));
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
    FieldReader view(json.value("view").toObject(), QStringLiteral("view"), error);
    s.view.tab = static_cast<int>(view.integer("tab", 0, 0, 2147483647));  // past the last tab: MainWindow
    s.view.errorLogScale = view.boolean("error_log_scale", false);
    s.view.dark = view.string("theme", QStringLiteral("light")) == QLatin1String("dark");
    s.view.channel = view.integer("channel", 0, 0, limits::kMaxChannel);
    if (!data.ok() || !view.ok()) return std::nullopt;
    return s;
}

bool saveSession(const QString& path, const Session& session, QString* error) {
    return writeJsonObjectFile(path, sessionToJson(session), error);
}

namespace {
// A read file's session; a relative data path is taken relative to `folder`, the file's.
std::optional<Session> sessionOfFile(const std::optional<QJsonObject>& json, const QString& name,
                                     const QDir& folder, QString* error) {
    if (!json) return std::nullopt;
    QString why;
    auto s = sessionFromJson(*json, &why);
    if (!s) {
        if (error) *error = QStringLiteral("%1: %2").arg(name, why);
        return std::nullopt;
    }
    if (s->data.isFile() && QFileInfo(s->data.path).isRelative()) s->data.path = folder.filePath(s->data.path);
    return s;
}
}  // namespace

std::optional<Session> loadSession(const std::string& nativePath, QString* error) {
    return sessionOfFile(readJsonObjectFile(nativePath, QStringLiteral("session"), error),
                         displayFileName(nativePath), QFileInfo(displayPath(nativePath)).dir(), error);
}

std::optional<Session> loadSession(const QString& path, QString* error) {
    return sessionOfFile(readJsonObjectFile(path, QStringLiteral("session"), error), QFileInfo(path).fileName(),
                         QFileInfo(path).dir(), error);
}

}  // namespace qs::ui
