#include "app/cli/case_spec.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonParseError>
#include <array>
#include <exception>

#include "app/cli/case_attrs.h"
#include "app/cli/case_reader.h"
#include "session/files/native_file.h"

namespace qs::cli {

namespace {

Error inputError(std::string message) { return Error{"InputError", std::move(message)}; }

std::string supportedList() {
    std::string s;
    for (std::string_view op : caseSpecOps()) s += (s.empty() ? "" : ", ") + std::string(op);
    return s;
}

// input_min / input_max: a number, or a list of one number. The explorer feeds one range
// to every slice, so per-slice range lists are refused.
float rangeInput(const CaseReader& c, const char* key) {
    const QJsonValue v = c.value(key);
    if (v.isUndefined()) throw CaseFormatError{key, "is missing"};
    if (v.isArray()) {
        const QJsonArray a = v.toArray();
        if (a.size() != 1)
            throw CaseFormatError{key, "has " + std::to_string(a.size()) +
                                           " values; the explorer takes one range for every slice "
                                           "(a number)"};
        return static_cast<float>(CaseReader::toNumber(a.at(0), std::string(key) + "[0]"));
    }
    return static_cast<float>(CaseReader::toNumber(v, key));
}

QJsonValue requiredAttr(const CaseReader& c, const char* key) {
    const QJsonValue v = c.attr(key);
    if (v.isUndefined()) throw CaseFormatError{std::string("attrs.") + key, "is missing"};
    return v;
}

QuantSpec specOf(const CaseReader& c) {
    if (const QJsonValue a = c.value("attrs"); !a.isUndefined() && !a.isNull() && !a.isObject())
        throw CaseFormatError{"attrs", "must be an object"};
    const std::string op = c.op();
    QuantSpec s;
    if (!parseQuantOpKey(op, s.op))
        throw CaseFormatError{"op", "names an unknown op \"" + op + "\" (supported: " +
                                        supportedList() + ")"};
    for (const OpAttribute& a : opAttributes()) {
        if (!a.tf) continue;
        if (Status read = readCaseAttribute(c, a, s); !read)
            throw CaseFormatError{"attrs." + std::string(a.name), read.error().message};
    }
    const RangeInputNames range = rangeInputNames(s.op);
    const std::string lo(range.case_min), hi(range.case_max);
    if (range.case_in_attrs) {
        s.min_range = static_cast<float>(CaseReader::toNumber(requiredAttr(c, lo.c_str()), "attrs." + lo));
        s.max_range = static_cast<float>(CaseReader::toNumber(requiredAttr(c, hi.c_str()), "attrs." + hi));
        return s;
    }
    // Without a given range QDQ ignores its range inputs (the data's min/max is used).
    const bool needed = !isQdq(s.op) || s.range_given;
    if (needed || c.has(lo.c_str())) s.min_range = rangeInput(c, lo.c_str());
    if (needed || c.has(hi.c_str())) s.max_range = rangeInput(c, hi.c_str());
    return s;
}

}  // namespace

std::span<const std::string_view> caseSpecOps() {
    static const auto keys = [] {
        std::array<std::string_view, std::size(kAllQuantOps)> k{};
        for (size_t i = 0; i < k.size(); ++i) k[i] = quantOpKey(kAllQuantOps[i]);
        return k;
    }();
    return keys;
}

Result<QuantSpec> caseSpecFromJson(const QByteArray& json, const std::string& path) {
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(json, &parseError);
    if (parseError.error != QJsonParseError::NoError)
        return inputError(path + ": not valid JSON (" + jsonLineColumn(json, parseError.offset) +
                          ": " + parseError.errorString().toStdString() + ")");
    if (!doc.isObject())
        return inputError(path + ": must be a JSON object (one case, or {\"cases\": [one case]})");
    QJsonObject object = doc.object();
    std::string where = path;
    if (object.contains(QLatin1String("cases"))) {
        const QJsonValue cases = object.value(QLatin1String("cases"));
        if (!cases.isArray()) return inputError(path + ": field \"cases\" must be a list");
        const QJsonArray list = cases.toArray();
        if (list.size() != 1)
            return inputError(path + ": holds " + std::to_string(list.size()) +
                              " cases; give exactly one (ready one-case files for the common ops are in "
                              "share/quantscope/cases)");
        if (!list.at(0).isObject()) return inputError(path + ": cases[0] must be an object");
        object = list.at(0).toObject();
    }
    const CaseReader reader(object);
    if (const std::string name = reader.name(); !name.empty()) where += ": case \"" + name + "\"";
    try {
        return specOf(reader);
    } catch (const CaseFormatError& e) {
        return inputError(where + ": field \"" + e.field + "\" " + e.problem);
    } catch (const std::exception& e) {
        return inputError(where + ": internal error: " + e.what());
    }
}

Result<QuantSpec> readCaseSpec(const std::string& path) {
    QByteArray bytes;
    QString reason;
    if (!ui::readFileBytes(path, &bytes, &reason))
        return inputError(path + ": cannot open: " + reason.toStdString());
    return caseSpecFromJson(bytes, path);
}

}  // namespace qs::cli
