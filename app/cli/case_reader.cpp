#include "app/cli/case_reader.h"

#include <cmath>
#include <limits>

namespace qs::cli {

namespace {
std::string indexed(const std::string& key, qsizetype i) {
    return key + "[" + std::to_string(i) + "]";
}

// The list `a` found under `key`, each element converted by convert(value, "key[i]").
template <typename T, typename Convert>
std::vector<T> listOf(const QJsonArray& a, const std::string& key, Convert convert) {
    std::vector<T> out;
    out.reserve(static_cast<size_t>(a.size()));
    for (qsizetype i = 0; i < a.size(); ++i) out.push_back(convert(a.at(i), indexed(key, i)));
    return out;
}

// A list of lists under `key`, each element converted by convert(value, "key[i][j]").
template <typename T, typename Convert>
std::vector<std::vector<T>> rowsOf(const QJsonArray& a, const char* key, Convert convert) {
    std::vector<std::vector<T>> rows;
    for (qsizetype i = 0; i < a.size(); ++i) {
        if (!a.at(i).isArray()) throw CaseFormatError{indexed(key, i), "must be a list"};
        rows.push_back(listOf<T>(a.at(i).toArray(), indexed(key, i), convert));
    }
    return rows;
}

float toFloat(const QJsonValue& v, const std::string& field) {
    return static_cast<float>(CaseReader::toNumber(v, field));
}
}  // namespace

std::string CaseReader::name() const {
    const QJsonValue v = value("name");
    return v.isString() ? v.toString().toStdString() : std::string();
}

std::string CaseReader::op() const {
    const QJsonValue v = required("op");
    if (!v.isString()) throw CaseFormatError{"op", "must be a string"};
    return v.toString().toStdString();
}

bool CaseReader::hasAttr(const char* key) const {
    const QJsonValue a = value("attrs");
    return a.isObject() && a.toObject().contains(QLatin1String(key));
}

QJsonValue CaseReader::attr(const char* key) const {
    const QJsonValue a = value("attrs");
    if (a.isUndefined() || a.isNull()) return QJsonValue(QJsonValue::Undefined);
    if (!a.isObject()) throw CaseFormatError{"attrs", "must be an object"};
    return a.toObject().value(QLatin1String(key));
}

std::string CaseReader::attrString(const char* key, const std::string& def) const {
    const QJsonValue v = attr(key);
    if (v.isUndefined()) return def;
    if (!v.isString()) throw CaseFormatError{std::string("attrs.") + key, "must be a string"};
    return v.toString().toStdString();
}

bool CaseReader::attrBool(const char* key, bool def) const {
    const QJsonValue v = attr(key);
    if (v.isUndefined()) return def;
    if (!v.isBool()) throw CaseFormatError{std::string("attrs.") + key, "must be true or false"};
    return v.toBool();
}

int64_t CaseReader::attrInt(const char* key, int64_t def) const {
    const QJsonValue v = attr(key);
    if (v.isUndefined()) return def;
    return toInteger(v, std::string("attrs.") + key);
}

double CaseReader::attrNumber(const char* key, double def) const {
    const QJsonValue v = attr(key);
    if (v.isUndefined()) return def;
    return toNumber(v, std::string("attrs.") + key);
}

double CaseReader::toNumber(const QJsonValue& v, const std::string& field) {
    if (v.isDouble()) return v.toDouble();
    if (v.isString()) {  // the schema's spelling of non-finite values
        const QString s = v.toString().toLower();
        if (s == QLatin1String("nan")) return std::numeric_limits<double>::quiet_NaN();
        if (s == QLatin1String("inf") || s == QLatin1String("+inf"))
            return std::numeric_limits<double>::infinity();
        if (s == QLatin1String("-inf")) return -std::numeric_limits<double>::infinity();
    }
    throw CaseFormatError{field, "must be a number"};
}

int64_t CaseReader::toInteger(const QJsonValue& v, const std::string& field) {
    if (!v.isDouble()) throw CaseFormatError{field, "must be an integer"};
    const double d = v.toDouble();
    if (!(std::floor(d) == d) || std::fabs(d) > 9.0e15)
        throw CaseFormatError{field, "must be an integer"};
    return static_cast<int64_t>(d);
}

QJsonValue CaseReader::required(const char* key) const {
    const QJsonValue v = value(key);
    if (v.isUndefined()) throw CaseFormatError{key, "is missing"};
    return v;
}

QJsonArray CaseReader::requiredArray(const char* key) const {
    const QJsonValue v = required(key);
    if (!v.isArray()) throw CaseFormatError{key, "must be a list"};
    return v.toArray();
}

Shape CaseReader::shape() const {
    const QJsonArray a = requiredArray("shape");
    Shape s;
    for (qsizetype i = 0; i < a.size(); ++i) {
        const int64_t d = toInteger(a.at(i), indexed("shape", i));
        if (d < 0) throw CaseFormatError{indexed("shape", i), "must not be negative"};
        s.push_back(d);
    }
    if (!checkedNumElements(s))
        throw CaseFormatError{"shape", "has more elements than fit in 64 bits"};
    return s;
}

std::vector<float> CaseReader::floats(const char* key) const { return listOf<float>(requiredArray(key), key, toFloat); }

std::vector<double> CaseReader::doubles(const char* key) const {
    return listOf<double>(requiredArray(key), key, &CaseReader::toNumber);
}

std::vector<int64_t> CaseReader::ints(const char* key) const {
    return listOf<int64_t>(requiredArray(key), key, &CaseReader::toInteger);
}

TensorArg<float> CaseReader::floatTensor(const char* key) const {
    const QJsonValue v = required(key);
    TensorArg<float> t;
    if (v.isArray()) {
        t.values = floats(key);
        t.shape = {static_cast<int64_t>(t.values.size())};
    } else {
        t.values = {static_cast<float>(toNumber(v, key))};
        t.shape = {};
    }
    return t;
}

std::vector<std::vector<float>> CaseReader::floatRows(const char* key) const {
    return rowsOf<float>(requiredArray(key), key, toFloat);
}

std::vector<std::vector<int64_t>> CaseReader::intRows(const char* key) const {
    return rowsOf<int64_t>(requiredArray(key), key, &CaseReader::toInteger);
}

int64_t CaseReader::integer(const char* key) const { return toInteger(required(key), key); }

std::string jsonLineColumn(const QByteArray& text, qsizetype offset) {
    qsizetype line = 1, column = 1;
    for (qsizetype i = 0; i < offset && i < text.size(); ++i) {
        if (text[i] == '\n') {
            ++line;
            column = 1;
        } else {
            ++column;
        }
    }
    return "line " + std::to_string(line) + ", column " + std::to_string(column);
}

}  // namespace qs::cli
