#include "session/workbench/py_json.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <cmath>
#include <initializer_list>
#include <optional>
#include <utility>
#include <vector>

#include "core/tpu/config.h"
#include "core/tpu/estimator_spec.h"

namespace qs::ui {

namespace {

using tpu::PyValue;
using Ctx = PyJsonContext;

std::string sub(const std::string& field, const std::string& key) { return field + "." + key; }
std::string at(const std::string& field, qsizetype i) {
    return field + "[" + std::to_string(i) + "]";
}

// Integral doubles up to 9e15 are ints (beyond, a double no longer holds every integer).
bool isIntegral(double d) { return std::floor(d) == d && std::fabs(d) <= 9.0e15; }

double numberOf(const QJsonValue& v, const std::string& field) {
    if (v.isDouble()) return v.toDouble();
    if (v.isString()) {  // the schema's spelling of non-finite values
        const QString s = v.toString().toLower();
        if (s == QLatin1String("nan")) return std::nan("");
        if (s == QLatin1String("inf") || s == QLatin1String("+inf")) return INFINITY;
        if (s == QLatin1String("-inf")) return -INFINITY;
    }
    throw PyJsonFormatError{field, "must be a number"};
}

int64_t integerOf(const QJsonValue& v, const std::string& field) {
    if (!v.isDouble() || !isIntegral(v.toDouble())) throw PyJsonFormatError{field, "must be an integer"};
    return static_cast<int64_t>(v.toDouble());
}

// The context of each keyword of a class (what a plain JSON object means there).
Ctx keywordContext(const std::string& cls, const std::string& key) {
    if (cls == "TableConfig" && key == "quantization_config") return Ctx::Tf2Quant;
    if (cls == "FeatureConfig" && key == "table") return Ctx::Tf2Table;
    if (cls == "EmbeddingConfigSpec") {
        if (key == "feature_columns") return Ctx::ListOfColumns;
        if (key == "feature_to_config_dict") return Ctx::DictOfTf1Feature;
        if (key == "table_to_config_dict") return Ctx::DictOfTf1Table;
    }
    return Ctx::Plain;
}

Result<tpu::Kwargs> kwargsOf(const QJsonObject& o, const std::string& field, const std::string& cls,
                             const char* skip) {
    tpu::Kwargs kw;
    for (auto it = o.begin(); it != o.end(); ++it) {
        const std::string key = it.key().toStdString();
        if (skip && key == skip) continue;
        auto v = pyFromJson(it.value(), sub(field, key), keywordContext(cls, key));
        if (!v) return v.error();
        kw.emplace_back(key, std::move(v).value());
    }
    return kw;
}

// Builds an instance of a modelled class from its keywords.
Result<PyValue> build(const std::string& cls, const tpu::Kwargs& kw, const std::string& field) {
    if (cls == "TableConfig") return tpu::makeTableConfig(kw);
    if (cls == "FeatureConfig") return tpu::makeFeatureConfig(kw);
    if (cls == "QuantizationConfig") return tpu::makeQuantizationConfigValue(kw);
    if (const auto kind = tpu::optimizerKindFromName(cls)) return tpu::makeOptimizer(*kind, kw);
    if (cls == "tpu_embedding.TableConfig") return tpu::makeTf1TableConfig(kw);
    if (cls == "tpu_embedding.FeatureConfig") return tpu::makeTf1FeatureConfig(kw);
    if (tpu::isOptimizationParametersName(cls)) return tpu::makeOptimizationParameters(cls, kw);
    if (cls == "EmbeddingConfigSpec") return tpu::makeEmbeddingConfigSpec(kw);
    throw PyJsonFormatError{field, "names no modelled class: " + cls};
}

Result<PyValue> dictOf(const QJsonValue& v, const std::string& field, Ctx valueCtx) {
    PyValue::Entries entries;
    if (v.isObject()) {
        const QJsonObject o = v.toObject();
        for (auto it = o.begin(); it != o.end(); ++it) {
            auto x = pyFromJson(it.value(), sub(field, it.key().toStdString()), valueCtx);
            if (!x) return x.error();
            entries.emplace_back(it.key().toStdString(), std::move(x).value());
        }
    } else if (v.isArray()) {
        const QJsonArray a = v.toArray();
        for (qsizetype i = 0; i < a.size(); ++i) {
            const QJsonArray pair = a.at(i).toArray();
            if (!a.at(i).isArray() || pair.size() != 2 || !pair.at(0).isString())
                throw PyJsonFormatError{at(field, i), "must be a [\"key\", value] pair"};
            auto x = pyFromJson(pair.at(1), at(field, i), valueCtx);
            if (!x) return x.error();
            entries.emplace_back(pair.at(0).toString().toStdString(), std::move(x).value());
        }
    } else {
        throw PyJsonFormatError{field, "must be an object or a list of [key, value] pairs"};
    }
    return PyValue::dict(std::move(entries));
}

Result<PyValue> listOf(const QJsonArray& a, const std::string& field, Ctx elemCtx, bool tuple) {
    PyValue::Items items;
    for (qsizetype i = 0; i < a.size(); ++i) {
        auto x = pyFromJson(a.at(i), at(field, i), elemCtx);
        if (!x) return x.error();
        items.push_back(std::move(x).value());
    }
    return tuple ? PyValue::tuple(std::move(items)) : PyValue::list(std::move(items));
}

PyValue columnOf(const QJsonObject& o, const std::string& field) {
    const QJsonValue kind = o.value(QLatin1String("kind"));
    if (!kind.isString()) throw PyJsonFormatError{sub(field, "kind"), "must be a string"};
    const QJsonValue key = o.value(QLatin1String("key"));
    const auto optionalInt = [&](const char* name) {
        return o.contains(QLatin1String(name))
                   ? integerOf(o.value(QLatin1String(name)), sub(field, name))
                   : int64_t{0};
    };
    return tpu::makeFeatureColumn(
        kind.toString().toStdString(),
        key.isString() ? key.toString().toStdString() : std::string("feature"),
        optionalInt("dimension"), optionalInt("num_buckets"));
}

}  // namespace

Result<PyValue> buildPyClass(const QJsonObject& keywords, const std::string& field,
                             const std::string& cls, const char* skip) {
    auto kw = kwargsOf(keywords, field, cls, skip);
    if (!kw) return kw.error();
    return build(cls, *kw, field);
}

Result<PyValue> pyFromJson(const QJsonValue& v, const std::string& field, PyJsonContext ctx) {
    if (v.isNull() || v.isUndefined()) return PyValue();
    if (v.isBool()) return PyValue(v.toBool());
    if (v.isString()) return PyValue(v.toString().toStdString());
    if (v.isDouble()) {
        const double d = v.toDouble();
        if (isIntegral(d)) return PyValue(static_cast<int64_t>(d));
        return PyValue(d);
    }
    if (v.isArray()) {
        const Ctx elem = ctx == Ctx::ListOfColumns ? Ctx::Column : Ctx::Plain;
        return listOf(v.toArray(), field, elem, false);
    }
    const QJsonObject o = v.toObject();
    const auto only = [&](std::initializer_list<const char*> allowed) {
        for (auto it = o.begin(); it != o.end(); ++it) {
            bool ok = false;
            for (const char* k : allowed) ok = ok || it.key() == QLatin1String(k);
            if (!ok) return false;
        }
        return true;
    };
    // Markers.
    if (o.contains(QLatin1String("type"))) {
        const QJsonValue t = o.value(QLatin1String("type"));
        if (!t.isString()) throw PyJsonFormatError{sub(field, "type"), "must be a class name"};
        return buildPyClass(o, field, t.toString().toStdString(), "type");
    }
    if (o.size() == 1 && o.contains(QLatin1String("float")))
        return PyValue(numberOf(o.value(QLatin1String("float")), sub(field, "float")));
    if (o.size() == 1 && o.contains(QLatin1String("tuple"))) {
        const QJsonValue t = o.value(QLatin1String("tuple"));
        if (!t.isArray()) throw PyJsonFormatError{sub(field, "tuple"), "must be a list"};
        return listOf(t.toArray(), sub(field, "tuple"), Ctx::Plain, true);
    }
    const Ctx dictValues = ctx == Ctx::DictOfTf1Feature ? Ctx::Tf1Feature
                           : ctx == Ctx::DictOfTf1Table ? Ctx::Tf1Table
                                                        : Ctx::Plain;
    if (o.size() == 1 && o.contains(QLatin1String("dict")))
        return dictOf(o.value(QLatin1String("dict")), sub(field, "dict"), dictValues);
    if (o.size() == 1 && o.contains(QLatin1String("callable"))) {
        const QJsonValue c = o.value(QLatin1String("callable"));
        if (!c.isString()) throw PyJsonFormatError{sub(field, "callable"), "must be a string"};
        return PyValue::callable(c.toString().toStdString());
    }
    if (o.contains(QLatin1String("object")) && only({"object", "class", "is_callable"}))
        return PyValue::object(o.value(QLatin1String("class")).toString().toStdString(),
                               o.value(QLatin1String("object")).toString().toStdString(),
                               o.value(QLatin1String("is_callable")).toBool(false));
    // A plain object: the class expected here, or a dict.
    switch (ctx) {
        case Ctx::Tf2Table: return buildPyClass(o, field, "TableConfig");
        case Ctx::Tf2Quant: return buildPyClass(o, field, "QuantizationConfig");
        case Ctx::Tf1Feature: return buildPyClass(o, field, "tpu_embedding.FeatureConfig");
        case Ctx::Tf1Table: return buildPyClass(o, field, "tpu_embedding.TableConfig");
        case Ctx::Column: return columnOf(o, field);
        case Ctx::DictOfTf1Feature:
        case Ctx::DictOfTf1Table: return dictOf(v, field, dictValues);
        default: return dictOf(v, field, Ctx::Plain);
    }
}

QJsonValue jsonFromPy(const PyValue& v) {
    switch (v.kind()) {
        case PyValue::Kind::None: return QJsonValue::Null;
        case PyValue::Kind::Bool: return v.asInt() != 0;
        case PyValue::Kind::Int: return static_cast<double>(v.asInt());
        case PyValue::Kind::Float: {
            const double d = v.asDouble();
            if (std::isnan(d)) return QJsonObject{{QStringLiteral("float"), QStringLiteral("nan")}};
            if (std::isinf(d))
                return QJsonObject{{QStringLiteral("float"), d > 0 ? QStringLiteral("inf") : QStringLiteral("-inf")}};
            if (isIntegral(d)) return QJsonObject{{QStringLiteral("float"), d}};
            return d;
        }
        case PyValue::Kind::Str: return QString::fromStdString(v.str());
        case PyValue::Kind::List:
        case PyValue::Kind::Tuple: {
            QJsonArray a;
            for (const PyValue& x : v.items()) a.append(jsonFromPy(x));
            if (v.kind() == PyValue::Kind::List) return a;
            return QJsonObject{{QStringLiteral("tuple"), a}};
        }
        default: return QString::fromStdString(v.repr());
    }
}

// --- Python literals as typed ---------------------------------------------------------------
namespace {

// A tiny parser of the literals a configuration field holds; nullopt when the text is not
// one (then it is taken as a str).
class LiteralParser {
public:
    explicit LiteralParser(const QString& text) : s_(text) {}

    std::optional<PyValue> parseAll() {
        auto v = value();
        skipSpace();
        if (!v || pos_ != s_.size()) return std::nullopt;
        return v;
    }

private:
    void skipSpace() {
        while (pos_ < s_.size() && s_[pos_].isSpace()) ++pos_;
    }
    bool eat(QChar c) {
        skipSpace();
        if (pos_ < s_.size() && s_[pos_] == c) return ++pos_, true;
        return false;
    }

    std::optional<PyValue> value() {
        skipSpace();
        if (pos_ >= s_.size()) return std::nullopt;
        const QChar c = s_[pos_];
        if (c == u'(' || c == u'[') {
            // No configuration value nests deeply; a pasted "((((…" stays text instead of
            // recursing until the stack runs out.
            if (depth_ == kMaxDepth) return std::nullopt;
            ++depth_;
            auto v = sequence(c == u'(' ? u')' : u']');
            --depth_;
            return v;
        }
        if (c == u'\'' || c == u'"') return quoted(c);
        return scalar();
    }

    std::optional<PyValue> sequence(QChar close) {
        ++pos_;
        PyValue::Items items;
        bool trailingComma = false;
        while (!eat(close)) {
            auto x = value();
            if (!x) return std::nullopt;
            items.push_back(*x);
            trailingComma = eat(u',');
            if (!trailingComma) {
                if (!eat(close)) return std::nullopt;
                break;
            }
        }
        if (close == u']') return PyValue::list(std::move(items));
        if (items.size() == 1 && !trailingComma) return items[0];  // (x) is just x
        return PyValue::tuple(std::move(items));
    }

    // A Python string literal with the escapes tpu::pyStrRepr writes (\\ \' \" \n \r \t
    // \xNN), so every string the workbench prints reads back to itself. Another escaped
    // character stands for itself.
    std::optional<PyValue> quoted(QChar quote) {
        QString out;
        for (++pos_; pos_ < s_.size(); ++pos_) {
            const QChar c = s_[pos_];
            if (c == quote) {
                ++pos_;
                return PyValue(out.toStdString());
            }
            if (c != u'\\' || pos_ + 1 >= s_.size()) {
                out += c;
                continue;
            }
            const QChar e = s_[++pos_];
            if (e == u'n') out += u'\n';
            else if (e == u'r') out += u'\r';
            else if (e == u't') out += u'\t';
            else if (e == u'x' && pos_ + 2 < s_.size() && hexByte(s_.mid(pos_ + 1, 2))) {
                out += QChar(*hexByte(s_.mid(pos_ + 1, 2)));
                pos_ += 2;
            } else {
                out += e;
            }
        }
        return std::nullopt;  // unterminated
    }

    static std::optional<char16_t> hexByte(const QString& two) {
        bool ok = false;
        const uint v = two.toUInt(&ok, 16);
        if (!ok || two.size() != 2 || two.startsWith(u'+') || two.startsWith(u'-')) return std::nullopt;
        return static_cast<char16_t>(v);
    }

    std::optional<PyValue> scalar() {
        const qsizetype start = pos_;
        while (pos_ < s_.size() && s_[pos_] != u',' && s_[pos_] != u')' && s_[pos_] != u']')
            ++pos_;
        const QString t = s_.mid(start, pos_ - start).trimmed();
        if (t == QLatin1String("None")) return PyValue();
        if (t == QLatin1String("True")) return PyValue(true);
        if (t == QLatin1String("False")) return PyValue(false);
        if (t == QLatin1String("nan") || t == QLatin1String("+nan") || t == QLatin1String("-nan"))
            return PyValue(std::nan(""));
        if (t == QLatin1String("inf") || t == QLatin1String("+inf")) return PyValue(double(INFINITY));
        if (t == QLatin1String("-inf")) return PyValue(-double(INFINITY));
        bool ok = false;
        const qlonglong i = t.toLongLong(&ok, 10);
        if (ok && std::fabs(static_cast<double>(i)) <= 9.0e15) return PyValue(static_cast<int64_t>(i));
        const double d = t.toDouble(&ok);
        if (ok && !t.isEmpty()) return PyValue(d);
        return std::nullopt;
    }

    static constexpr int kMaxDepth = 64;
    const QString s_;
    qsizetype pos_ = 0;
    int depth_ = 0;
};

}  // namespace

QJsonValue jsonFromPyLiteral(const QString& text) {
    if (auto v = LiteralParser(text).parseAll()) return jsonFromPy(*v);
    return text.trimmed();
}

QString pyLiteralFromJson(const QJsonValue& v) {
    if (v.isString()) {
        const QString s = v.toString();
        if (jsonFromPyLiteral(s) == QJsonValue(s)) return s;
        return QString::fromStdString(tpu::pyStrRepr(s.toStdString()));
    }
    try {
        auto py = pyFromJson(v, "value");
        if (py) {
            // Non-finite floats print as Python prints them; the parser reads them back.
            return QString::fromStdString(py->repr());
        }
    } catch (const PyJsonFormatError&) {
    }
    return QString::fromUtf8(QJsonDocument(QJsonArray{v}).toJson(QJsonDocument::Compact)).mid(1).chopped(1);
}

}  // namespace qs::ui
