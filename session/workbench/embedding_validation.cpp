#include "session/workbench/embedding_validation.h"

#include <algorithm>
#include <set>

#include <QSet>
#include <cmath>
#include <functional>
#include <string>

#include "core/tpu/config.h"
#include "core/tpu/estimator_spec.h"
#include "core/tpu/simulated_quantization.h"  // pyFloatRepr
#include "session/workbench/py_json.h"

namespace qs::ui {

namespace {

using tpu::Kwargs;
using tpu::PyValue;

QString qstr(const std::string& s) { return QString::fromStdString(s); }
std::string pyStr(const QString& s) { return tpu::pyStrRepr(s.toStdString()); }

// A document value as the Python value it stands for; a malformed one (only possible in a
// hand-made document) is reported like a TF error on its field.
Result<PyValue> pyValue(const QJsonValue& v, const std::string& field) {
    try {
        return pyFromJson(v, field);
    } catch (const PyJsonFormatError& e) {
        return Error{"FormatError", e.field + ": " + e.problem};
    }
}

// `prefix` + `field` ("optimizer." + "clipvalue"); the object's own prefix without its dot
// when the error is about no field.
FieldError fieldError(const QString& prefix, const QString& field, const Error& e) {
    return {field.isEmpty() ? prefix.chopped(prefix.isEmpty() ? 0 : 1) : prefix + field,
            qstr(e.kind), qstr(e.message)};
}

// An error of a TF class's check: on the argument the check named (Error::field).
FieldError checkError(const QString& prefix, const Error& e) { return fieldError(prefix, qstr(e.field), e); }

// TF raises at the first bad argument, so two wrong fields showed one error. After an error on
// a field, the check runs again with that field at `defaults`' value (or left out, for TF's
// own default) to find the next, for as many fields as are wrong; the errors go to `check`.
// Returns the first outcome: the object is still rejected.
Result<PyValue> checkEveryField(Kwargs kw, const std::function<Result<PyValue>(const Kwargs&)>& make,
                                const Kwargs& defaults, const QString& prefix, ObjectCheck& check) {
    Result<PyValue> first = make(kw);
    if (first) return first;
    Error e = first.error();
    std::set<std::string> replaced;
    for (;;) {
        check.errors.push_back(checkError(prefix, e));
        if (e.field.empty()) break;
        replaced.insert(e.field);
        const auto key = [&](const auto& entry) { return entry.first == e.field; };
        const auto at = std::find_if(kw.begin(), kw.end(), key);
        if (at == kw.end()) break;
        if (const auto d = std::find_if(defaults.begin(), defaults.end(), key); d != defaults.end())
            at->second = d->second;
        else
            kw.erase(at);
        const Result<PyValue> again = make(kw);
        if (again) break;
        e = again.error();
        // Only errors of other fields are news: one about the call as a whole may come from
        // the keyword left out.
        if (e.field.empty() || replaced.count(e.field)) break;
    }
    return first;
}

// Appends document values as keywords; a malformed one (hand-made documents only) passes
// None and, with `check`, is an error on its field (`prefix` + key).
void addKeywords(Kwargs& kw, std::initializer_list<std::pair<const char*, QJsonValue>> values,
                 ObjectCheck* check = nullptr, const QString& prefix = {}) {
    for (const auto& [key, v] : values) {
        auto py = pyValue(v, key);
        if (!py && check) check->errors.push_back(fieldError(prefix, QLatin1String(key), py.error()));
        kw.emplace_back(key, py ? *py : PyValue());
    }
}

// Keywords of a document keyword object (the optimizer's, the TF1 parameters'), in the
// class's signature order so errors and code come out as TF's would.
Result<Kwargs> kwargsOf(const QJsonObject& o, const std::vector<std::string>& order, const char* skip) {
    Kwargs kw;
    QSet<QString> done;
    const auto add = [&](const QString& key) -> std::optional<Error> {
        if ((skip && key == QLatin1String(skip)) || done.contains(key) || !o.contains(key)) return std::nullopt;
        done.insert(key);
        auto v = pyValue(o.value(key), key.toStdString());
        if (!v) return v.error();
        kw.emplace_back(key.toStdString(), std::move(v).value());
        return std::nullopt;
    };
    for (const std::string& k : order)
        if (auto e = add(qstr(k))) return *e;
    for (auto it = o.begin(); it != o.end(); ++it)
        if (auto e = add(it.key())) return *e;
    return kw;
}

// `api(k=v, ...)`: the Python call with exactly these keywords (what toPython writes for a
// built object, also for one TF rejects).
std::string callText(const std::string& api, const Kwargs& kw) {
    std::string s = api + "(";
    for (size_t i = 0; i < kw.size(); ++i) {
        if (i) s += ", ";
        s += kw[i].first + "=" + tpu::pythonExpr(kw[i].second);
    }
    return s + ")";
}

// A built object, or a stand-in that prints as its code (TF would have raised already).
PyValue valueOr(const Result<PyValue>& built, const std::string& type, const std::string& code) {
    return built.ok() ? *built : PyValue::object(type, code);
}

std::optional<int64_t> validInt(const QJsonValue& v) {
    auto py = pyValue(v, "value");
    if (!py || py->kind() != PyValue::Kind::Int || py->asInt() < 1) return std::nullopt;
    return py->asInt();
}

// The initializer that puts a data file's values into the table (numpy reads it).
QString dataFileInitializer(const QString& file, const QJsonValue& dim) {
    const std::string path = pyStr(file);
    if (file.endsWith(QLatin1String(".npy"), Qt::CaseInsensitive))
        return qstr("tf.constant_initializer(np.load(" + path + "))");
    if (file.endsWith(QLatin1String(".vec"), Qt::CaseInsensitive))  // a header line, then "word v1 ... vdim"
        return qstr("tf.constant_initializer(np.loadtxt(" + path +
                    ", skiprows=1, comments=None, encoding='utf-8', usecols=range(1, " +
                    std::to_string(validInt(dim).value_or(1) + 1) + ")))");
    return qstr("tf.constant_initializer(np.loadtxt(" + path + ", delimiter=',', ndmin=2))");
}

QString tableVariable(size_t i) { return QStringLiteral("table_%1").arg(i); }
QString tableKey(const EmbeddingTable& t, size_t i) { return t.name.isEmpty() ? tableVariable(i) : t.name; }
QString featureKey(const EmbeddingFeature& f, size_t i) {
    return f.name.isEmpty() ? QStringLiteral("feature_%1").arg(i) : f.name;
}

std::vector<std::string> signatureOf(const Result<PyValue>& defaults) {
    std::vector<std::string> names;
    if (defaults.ok())
        for (const auto& [k, v] : defaults->instance()->args) names.push_back(k);
    return names;
}

// Everything the code and the checks need of one table.
struct BuiltTable {
    ObjectCheck check;
    Kwargs kwargs;                 // of TableConfig, optimizer/quantization as values
    std::optional<PyValue> value;  // the TableConfig when TF accepts its own arguments
};

BuiltTable buildTable(const EmbeddingTable& t) {
    BuiltTable out;
    // The optimizer.
    const auto kind = tpu::optimizerKindFromName(t.optimizer.type.toStdString());
    const std::string optType = t.optimizer.type.toStdString();
    PyValue optimizer;
    if (!kind) {
        out.check.errors.push_back({QStringLiteral("optimizer.type"), QStringLiteral("ValueError"),
                                    QStringLiteral("unknown optimizer %1: expected SGD, Adagrad, "
                                                   "AdagradMomentum, Adam or FTRL").arg(t.optimizer.type)});
    } else {
        auto kw = kwargsOf(t.optimizer.keywords, signatureOf(tpu::makeOptimizer(*kind, {})), "type");
        if (!kw) {
            out.check.errors.push_back(fieldError(QStringLiteral("optimizer."), {}, kw.error()));
        } else {
            const auto built = checkEveryField(
                *kw, [&](const Kwargs& k) { return tpu::makeOptimizer(*kind, k); }, {}, QStringLiteral("optimizer."),
                out.check);
            optimizer = valueOr(built, optType, callText(tpu::tf2Class(optType).api, *kw));
        }
    }
    // The quantization config.
    std::optional<PyValue> quantization;
    if (t.quantization) {
        Kwargs kw;
        addKeywords(kw,
                    {{"num_buckets", t.quantization->num_buckets},
                     {"lower", t.quantization->lower},
                     {"upper", t.quantization->upper}},
                    &out.check, QStringLiteral("quantization_config."));
        Kwargs defaults;
        const EmbeddingQuantization fine;
        addKeywords(defaults, {{"num_buckets", fine.num_buckets}, {"lower", fine.lower}, {"upper", fine.upper}});
        const auto built = checkEveryField(kw, tpu::makeQuantizationConfigValue, defaults,
                                           QStringLiteral("quantization_config."), out.check);
        quantization = valueOr(built, "QuantizationConfig",
                               callText(tpu::tf2Class("QuantizationConfig").api, kw));
    }
    // The table itself.
    Kwargs& kw = out.kwargs;
    addKeywords(kw, {{"vocabulary_size", t.vocabulary_size}, {"dim", t.dim}}, &out.check);
    // The initializer: a callable object that prints as its Python expression.
    const QString init = t.data_file.isEmpty() ? initializerPythonExpr(t.initializer, t.dim)
                                               : dataFileInitializer(t.data_file, t.dim);
    kw.emplace_back("initializer", PyValue::object("initializer", init.toStdString(), true));
    if (!optimizer.isNone()) kw.emplace_back("optimizer", optimizer);
    addKeywords(kw, {{"combiner", t.combiner}}, &out.check);
    if (!t.name.isEmpty()) kw.emplace_back("name", t.name.toStdString());
    if (quantization) kw.emplace_back("quantization_config", *quantization);
    Kwargs defaults;
    const EmbeddingTable fine;
    addKeywords(defaults, {{"vocabulary_size", fine.vocabulary_size}, {"dim", fine.dim}, {"combiner", fine.combiner}});
    const auto built = checkEveryField(kw, tpu::makeTableConfig, defaults, {}, out.check);
    if (built) {
        for (const std::string& w : built->instance()->warnings) out.check.warnings << qstr(w);
        out.value = *built;  // the feature can use it even if its optimizer is rejected
    }
    return out;
}

struct BuiltFeature {
    ObjectCheck check;
    Kwargs kwargs;  // "table" holds a stand-in printing as the table's variable
};

// `tables` are the built tables; a feature on a table TF rejects is checked with a stand-in
// valid table so its own fields still show their errors.
BuiltFeature buildFeature(const EmbeddingFeature& f, const std::vector<BuiltTable>& tables) {
    BuiltFeature out;
    PyValue table;
    const bool hasTable = f.table >= 0 && static_cast<size_t>(f.table) < tables.size();
    if (hasTable) {
        const BuiltTable& t = tables[static_cast<size_t>(f.table)];
        if (t.value) {
            tpu::PyInstance inst = *t.value->instance();
            inst.code = tableVariable(static_cast<size_t>(f.table)).toStdString();
            table = PyValue::instance(std::move(inst));
        } else {
            out.check.errors.push_back({QStringLiteral("table"), QString(),
                                        QStringLiteral("%1 is not a valid TableConfig (see its errors)")
                                            .arg(tableVariable(static_cast<size_t>(f.table)))});
            auto standIn = tpu::makeTableConfig({{"vocabulary_size", 1}, {"dim", 1}, {"name", "stand_in"}});
            tpu::PyInstance inst = *standIn->instance();
            inst.code = tableVariable(static_cast<size_t>(f.table)).toStdString();
            table = PyValue::instance(std::move(inst));
        }
    }
    Kwargs& kw = out.kwargs;
    kw.emplace_back("table", table);
    addKeywords(kw,
                {{"max_sequence_length", f.max_sequence_length},
                 {"validate_weights_and_indices", f.validate_weights_and_indices},
                 {"output_shape", f.output_shape}},
                &out.check);
    if (!f.name.isEmpty()) kw.emplace_back("name", f.name.toStdString());
    const auto built = tpu::makeFeatureConfig(kw);
    if (!built) out.check.errors.push_back(checkError({}, built.error()));
    return out;
}

struct BuiltSpec {
    ObjectCheck check;
    Kwargs tf1Tables, tf1Features;  // name -> TF1 config (stand-ins for rejected ones)
    Kwargs kwargs;                  // of EmbeddingConfigSpec
};

BuiltSpec buildSpec(const EmbeddingDocument& doc) {
    BuiltSpec out;
    const EstimatorOptions& e = doc.estimator;
    const auto tf1 = [&](const std::string& cls, const Kwargs& kw, const QString& what,
                         const std::function<Result<PyValue>(const Kwargs&)>& build) {
        const auto built = build(kw);
        const std::string api = tpu::tf1Class(cls).api;
        if (!built) {
            FieldError fe = fieldError({}, {}, built.error());
            fe.message = what + QStringLiteral(": ") + fe.message;
            out.check.errors.push_back(fe);
        }
        return valueOr(built, cls, callText(api, kw));
    };
    for (size_t i = 0; i < doc.tables.size(); ++i) {
        const EmbeddingTable& t = doc.tables[i];
        Kwargs kw;
        addKeywords(kw, {{"vocabulary_size", t.vocabulary_size}, {"dimension", t.dim}, {"combiner", t.combiner}});
        const QString name = tableKey(t, i);
        out.tf1Tables.emplace_back(name.toStdString(),
                                   tf1("TableConfig", kw, name, [](const Kwargs& k) { return tpu::makeTf1TableConfig(k); }));
    }
    for (size_t i = 0; i < doc.features.size(); ++i) {
        const EmbeddingFeature& f = doc.features[i];
        const bool hasTable = f.table >= 0 && static_cast<size_t>(f.table) < doc.tables.size();
        Kwargs kw;
        kw.emplace_back("table_id", hasTable ? PyValue(tableKey(doc.tables[static_cast<size_t>(f.table)],
                                                                static_cast<size_t>(f.table)).toStdString())
                                             : PyValue());
        addKeywords(kw, {{"max_sequence_length", f.max_sequence_length}});
        const QString name = featureKey(f, i);
        out.tf1Features.emplace_back(name.toStdString(),
                                     tf1("FeatureConfig", kw, name, [](const Kwargs& k) { return tpu::makeTf1FeatureConfig(k); }));
    }
    // optimization_parameters: built first (Python evaluates arguments first).
    PyValue params;
    const std::string type = e.optimization_parameters.value(QStringLiteral("type")).toString().toStdString();
    if (!tpu::isOptimizationParametersName(type)) {
        out.check.errors.push_back({QStringLiteral("optimization_parameters.type"), QStringLiteral("ValueError"),
                                    QStringLiteral("unknown optimization parameters class '%1'").arg(qstr(type))});
    } else {
        auto kw = kwargsOf(e.optimization_parameters, {"learning_rate"}, "type");
        if (!kw) {
            out.check.errors.push_back(fieldError(QStringLiteral("optimization_parameters."), {}, kw.error()));
        } else {
            const auto built = tpu::makeOptimizationParameters(type, *kw);
            if (!built)
                out.check.errors.push_back(checkError(QStringLiteral("optimization_parameters."), built.error()));
            params = valueOr(built, type, callText(tpu::tf1Class(type).api, *kw));
        }
    }
    Kwargs& kw = out.kwargs;
    kw.emplace_back("table_to_config_dict", PyValue::object("dict", "table_to_config_dict"));
    kw.emplace_back("feature_to_config_dict", PyValue::object("dict", "feature_to_config_dict"));
    kw.emplace_back("optimization_parameters", params);
    addKeywords(kw,
                {{"clipping_limit", e.clipping_limit},
                 {"pipeline_execution_with_tensor_core", e.pipeline_execution_with_tensor_core},
                 {"partition_strategy", e.partition_strategy}},
                &out.check);
    // The spec is checked with the real dicts; the code refers to them by name.
    Kwargs real = kw;
    real[0].second = PyValue::dict(out.tf1Tables);
    real[1].second = PyValue::dict(out.tf1Features);
    const auto built = tpu::makeEmbeddingConfigSpec(real);
    if (!built) {
        QString field = qstr(built.error().field);
        if (field == QLatin1String("table_to_config_dict") || field == QLatin1String("feature_to_config_dict"))
            field.clear();  // about the tables and features (their own errors show there), not an option
        out.check.errors.push_back(fieldError({}, field, built.error()));
    }
    return out;
}

std::vector<BuiltTable> buildTables(const EmbeddingDocument& doc) {
    std::vector<BuiltTable> tables;
    for (const EmbeddingTable& t : doc.tables) tables.push_back(buildTable(t));
    return tables;
}

std::string errorComment(const ObjectCheck& check) {
    std::string s;
    for (const FieldError& e : check.errors)
        s += "# TensorFlow rejects this: " + (e.kind.isEmpty() ? std::string() : e.kind.toStdString() + ": ") +
             e.message.toStdString() + "\n";
    return s;
}

}  // namespace

const FieldError* ObjectCheck::error(const QString& field) const {
    for (const FieldError& e : errors)
        if (e.field == field) return &e;
    return nullptr;
}

bool EmbeddingValidation::ok() const {
    for (const auto* list : {&tables, &features})
        for (const ObjectCheck& c : *list)
            if (!c.ok()) return false;
    return estimator.ok();
}

std::optional<tpu::TableConfig> builtTableConfig(const EmbeddingTable& table) {
    const BuiltTable built = buildTable(table);
    if (!built.check.ok() || !built.value) return std::nullopt;
    return tpu::TableConfig::from(*built.value);
}

EmbeddingValidation validateEmbeddingDocument(const EmbeddingDocument& doc) {
    EmbeddingValidation v;
    const std::vector<BuiltTable> tables = buildTables(doc);
    for (const BuiltTable& t : tables) v.tables.push_back(t.check);
    for (const EmbeddingFeature& f : doc.features) v.features.push_back(buildFeature(f, tables).check);
    if (doc.estimator.enabled) v.estimator = buildSpec(doc).check;
    return v;
}

QString initializerPythonExpr(const EmbeddingInitializer& init, const QJsonValue& dim) {
    const auto num = [](double d) { return tpu::pyFloatRepr(d); };
    const std::string seed = "seed=" + std::to_string(init.seed);
    std::string s;
    if (init.kind == QLatin1String("uniform")) {
        s = "tf.initializers.RandomUniform(minval=" + num(init.minval) + ", maxval=" + num(init.maxval) +
            ", " + seed + ")";
    } else if (init.kind == QLatin1String("zeros")) {
        s = "tf.initializers.Zeros()";
    } else if (init.kind == QLatin1String("constant")) {
        s = "tf.initializers.Constant(value=" + num(init.value) + ")";
    } else {
        std::string stddev;
        if (init.stddev > 0) stddev = ", stddev=" + num(init.stddev);
        else if (const auto d = validInt(dim)) stddev = ", stddev=" + num(1.0 / std::sqrt(static_cast<double>(*d)));
        s = "tf.initializers.TruncatedNormal(mean=" + num(init.mean) + stddev + ", " + seed + ")";
    }
    return qstr(s);
}

QString embeddingPythonCode(const EmbeddingDocument& doc) {
    const std::vector<BuiltTable> tables = buildTables(doc);
    std::string body;
    for (size_t i = 0; i < tables.size(); ++i)
        body += errorComment(tables[i].check) + tableVariable(i).toStdString() + " = " +
                callText(tpu::tf2Class("TableConfig").api, tables[i].kwargs) + "\n";
    body += "\nfeature_config = {\n";
    for (size_t i = 0; i < doc.features.size(); ++i) {
        const BuiltFeature f = buildFeature(doc.features[i], tables);
        std::string comment = errorComment(f.check);
        for (size_t p = 0; (p = comment.find("# ", p)) != std::string::npos; p += 6) comment.insert(p, "    ");
        body += comment + "    " + pyStr(featureKey(doc.features[i], i)) + ": " +
                callText(tpu::tf2Class("FeatureConfig").api, f.kwargs) + ",\n";
    }
    body += "}\n";
    if (doc.estimator.enabled) {
        const BuiltSpec spec = buildSpec(doc);
        body += "\n# TF1 / TPUEstimator\ntable_to_config_dict = " + tpu::pythonExpr(PyValue::dict(spec.tf1Tables)) +
                "\nfeature_to_config_dict = " + tpu::pythonExpr(PyValue::dict(spec.tf1Features)) + "\n" +
                errorComment(spec.check) + "embedding_config_spec = " +
                "tf.compat.v1.estimator.tpu.experimental.EmbeddingConfigSpec(" + [&] {
                    std::string args;
                    for (const auto& [k, v] : spec.kwargs)
                        args += (args.empty() ? "" : ", ") + k + "=" + tpu::pythonExpr(v);
                    return args;
                }() + ")\n";
    }
    std::string head = "import tensorflow as tf\n";
    if (body.find("np.") != std::string::npos) head += "import numpy as np\n";
    if (body.find("tpu_embedding.") != std::string::npos)
        head += "from tensorflow.python.tpu import tpu_embedding\n";
    return qstr(head + "\n" + body);
}

}  // namespace qs::ui
