#include "app/cli/case_spec.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonParseError>
#include <exception>

#include "app/cli/case_reader.h"
#include "core/ops/modes.h"
#include "core/ops/qtype.h"
#include "ui/model/native_file.h"

namespace qs::cli {

namespace {

constexpr std::string_view kOps[] = {"QuantizeV2", "QuantizeAndDequantizeV2",
                                     "QuantizeAndDequantizeV3", "QuantizeAndDequantizeV4",
                                     "TPUSimulatedQuantization"};

Error inputError(std::string message) { return Error{"InputError", std::move(message)}; }

std::string supportedList() {
    std::string s;
    for (std::string_view op : kOps) s += (s.empty() ? "" : ", ") + std::string(op);
    return s;
}

// A parse helper's Result, or the field's error carrying TF's own text.
template <typename T>
T orFieldError(Result<T> r, const char* field) {
    if (!r) throw CaseFormatError{field, r.error().message};
    return *r;
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
    if (op == "QuantizeV2") {
        s.op = QuantOp::QuantizeV2;
        const QJsonValue t = requiredAttr(c, "T");
        if (!t.isString()) throw CaseFormatError{"attrs.T", "must be a string"};
        const std::string tName = t.toString().toStdString();
        const auto type = parseQType(tName);
        if (!type)
            throw CaseFormatError{"attrs.T", "Value for attr 'T' of " + tName +
                                                 " is not in the list of allowed values: qint8, "
                                                 "quint8, qint32, qint16, quint16"};
        s.T = *type;
        s.mode = orFieldError(parseQuantizeMode(c.attrString("mode", "MIN_COMBINED")),
                              "attrs.mode");
        s.round_mode = orFieldError(
            parseQuantizeRoundMode(c.attrString("round_mode", "HALF_AWAY_FROM_ZERO")),
            "attrs.round_mode");
        s.narrow_range = c.attrBool("narrow_range", false);
        s.axis = c.attrInt("axis", -1);
        s.ensure_minimum_range = static_cast<float>(c.attrNumber("ensure_minimum_range", 0.01));
        s.min_range = rangeInput(c, "input_min");
        s.max_range = rangeInput(c, "input_max");
        return s;
    }
    if (op == "QuantizeAndDequantizeV2" || op == "QuantizeAndDequantizeV4" ||
        op == "QuantizeAndDequantizeV3") {
        const bool v3 = op == "QuantizeAndDequantizeV3";
        s.op = v3 ? QuantOp::QuantizeAndDequantizeV3
                  : op == "QuantizeAndDequantizeV2" ? QuantOp::QuantizeAndDequantizeV2
                                                    : QuantOp::QuantizeAndDequantizeV4;
        s.signed_input = c.attrBool("signed_input", true);
        s.range_given = c.attrBool("range_given", v3);
        s.narrow_range = c.attrBool("narrow_range", false);
        s.axis = c.attrInt("axis", -1);
        if (v3) {
            // num_bits is an input tensor of V3: top-level, or in attrs as some files put it.
            if (c.has("num_bits")) {
                s.num_bits = CaseReader::toInteger(c.value("num_bits"), "num_bits");
            } else if (c.hasAttr("num_bits")) {
                s.num_bits = CaseReader::toInteger(c.attr("num_bits"), "attrs.num_bits");
            } else {
                throw CaseFormatError{"num_bits", "is missing"};
            }
            s.round_mode = defaultRoundMode(s.op);
        } else {
            s.num_bits = c.attrInt("num_bits", 8);
            s.round_mode = orFieldError(
                parseQdqRoundMode(c.attrString("round_mode", "HALF_TO_EVEN")), "attrs.round_mode");
        }
        // Without a given range the op ignores its range inputs (the data's min/max is used).
        if (s.range_given || c.has("input_min")) s.min_range = rangeInput(c, "input_min");
        if (s.range_given || c.has("input_max")) s.max_range = rangeInput(c, "input_max");
        return s;
    }
    if (op == "TPUSimulatedQuantization") {
        s.op = QuantOp::TpuSimulatedQuantization;
        s.num_buckets = CaseReader::toInteger(requiredAttr(c, "num_buckets"), "attrs.num_buckets");
        s.min_range = static_cast<float>(CaseReader::toNumber(requiredAttr(c, "lower"), "attrs.lower"));
        s.max_range = static_cast<float>(CaseReader::toNumber(requiredAttr(c, "upper"), "attrs.upper"));
        return s;
    }
    throw CaseFormatError{"op", "names an unknown op \"" + op + "\" (supported: " +
                                    supportedList() + ")"};
}

}  // namespace

std::span<const std::string_view> caseSpecOps() { return kOps; }

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
                              " cases; give exactly one");
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
