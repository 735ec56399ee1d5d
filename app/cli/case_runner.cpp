#include "app/cli/case_runner.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonParseError>
#include <exception>

#include "session/files/native_file.h"

namespace qs::cli {

namespace {

Error inputError(std::string message) { return Error{"InputError", std::move(message)}; }

std::string indexed(const std::string& key, qsizetype i) {
    return key + "[" + std::to_string(i) + "]";
}

bool isNumberLike(const QJsonValue& v) {
    if (v.isDouble()) return true;
    if (!v.isString()) return false;
    const QString s = v.toString().toLower();
    return s == QLatin1String("nan") || s == QLatin1String("inf") ||
           s == QLatin1String("+inf") || s == QLatin1String("-inf");
}

// A number, or a (possibly nested) list of numbers. Integers only when `integers`.
void checkNumeric(const QJsonValue& v, const std::string& field, bool integers) {
    if (v.isArray()) {
        const QJsonArray a = v.toArray();
        for (qsizetype i = 0; i < a.size(); ++i) checkNumeric(a.at(i), indexed(field, i), integers);
        return;
    }
    if (integers) {
        CaseReader::toInteger(v, field);  // throws naming the field
        return;
    }
    if (!isNumberLike(v)) throw CaseFormatError{field, "must be a number or a list of numbers"};
}

// The schema's fields whose type does not depend on the op: checked before the op is
// looked up, so a mistyped field is reported as such whatever the op.
void checkCommonFields(const CaseReader& c) {
    if (!c.has("name")) throw CaseFormatError{"name", "is missing"};
    if (!c.value("name").isString()) throw CaseFormatError{"name", "must be a string"};
    c.op();  // present and a string
    if (const QJsonValue a = c.value("attrs"); !a.isUndefined() && !a.isNull() && !a.isObject())
        throw CaseFormatError{"attrs", "must be an object"};
    if (c.has("shape")) (void)c.shape();
    if (c.has("num_bits")) (void)c.integer("num_bits");
    for (const char* key : {"input", "input_min", "input_max", "gradients", "params",
                            "params_shards", "sp_weights"})
        if (c.has(key)) checkNumeric(c.value(key), key, false);
    for (const char* key : {"ids", "sp_indices", "sp_values", "dense_shape"})
        if (c.has(key)) checkNumeric(c.value(key), key, true);
}

}  // namespace

std::string caseLabel(const std::string& path, qsizetype index, const std::string& name) {
    return path + ": " + (name.empty() ? "case #" + std::to_string(index) : "case \"" + name + "\"");
}

std::string caseErrorMessage(const std::string& path, qsizetype index, const std::string& name,
                             const CaseFormatError& error) {
    return caseLabel(path, index, name) + ": field \"" + error.field + "\" " + error.problem;
}

Result<FileRun> runJson(const QByteArray& json, const std::string& path, EvaluatorLookup lookup) {
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(json, &parseError);
    if (parseError.error != QJsonParseError::NoError)
        return inputError(path + ": not valid JSON (" + jsonLineColumn(json, parseError.offset) +
                          ": " + parseError.errorString().toStdString() + ")");
    if (!doc.isObject()) return inputError(path + ": must be a JSON object {\"cases\": [...]}");
    const QJsonObject root = doc.object();
    if (!root.contains(QLatin1String("cases")))
        return inputError(path + ": field \"cases\" is missing");
    if (!root.value(QLatin1String("cases")).isArray())
        return inputError(path + ": field \"cases\" must be a list");
    const QJsonArray cases = root.value(QLatin1String("cases")).toArray();

    FileRun run;
    run.path = path;
    run.cases.reserve(static_cast<size_t>(cases.size()));
    for (qsizetype i = 0; i < cases.size(); ++i) {
        if (!cases.at(i).isObject())
            return inputError(path + ": " + indexed("cases", i) + " must be an object");
        CaseRun cr;
        cr.index = i;
        cr.object = cases.at(i).toObject();
        const CaseReader reader(cr.object);
        cr.name = reader.name();
        try {
            checkCommonFields(reader);
            const std::string op = reader.op();
            const Evaluator fn = lookup ? lookup(op) : nullptr;
            if (!fn) throw CaseFormatError{"op", "names an unknown op \"" + op + "\""};
            JsonOut outputs = fn(reader);
            const auto* fields = std::get_if<JsonOut::Object>(&outputs.variant());
            if (!fields)
                return inputError(caseLabel(path, i, cr.name) +
                                  ": internal error: the evaluator of " + op +
                                  " returned no object");
            cr.result.set("name", cr.name);
            for (const auto& [key, value] : *fields)
                if (key != "name") cr.result.set(key, value);
        } catch (const CaseFormatError& e) {
            return inputError(caseErrorMessage(path, i, cr.name, e));
        } catch (const std::exception& e) {
            return inputError(caseLabel(path, i, cr.name) + ": internal error: " + e.what());
        }
        run.cases.push_back(std::move(cr));
    }
    return run;
}

Result<FileRun> runFile(const std::string& path, EvaluatorLookup lookup) {
    QByteArray bytes;
    QString reason;
    if (!ui::readFileBytes(path, &bytes, &reason))
        return inputError(path + ": cannot open: " + reason.toStdString());
    return runJson(bytes, path, lookup);
}

JsonOut resultsDocument(std::span<const FileRun> files) {
    JsonOut::Array results;
    for (const FileRun& f : files)
        for (const CaseRun& c : f.cases) results.push_back(c.result);
    JsonOut doc;
    doc.set("results", std::move(results));
    return doc;
}

}  // namespace qs::cli
