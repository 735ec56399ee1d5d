// Evaluators of the TPU-embedding configuration pseudo-ops (tests/data/tpu_config.json,
// docs/tpu-config.md): TPUEmbeddingLookup, and TableConfig / FeatureConfig / Optimizer /
// EmbeddingConfigSpec, whose attrs are the Python keywords. A config that TF accepts gives
// {"ok": true, "repr", "python", "warnings"} (+ the optimizers' clip_gradient_min/max);
// one that TF rejects gives TF's error kind and message.
//
// JSON -> Python values (converted by session/workbench/py_json.h, shared with the workbench;
// docs/tpu-config.md has the full table): null is None, true/false
// are bools, a number with an integral value is an int and any other number a float
// (Qt's parser cannot tell 1 from 1.0), strings are str, lists are lists. Objects are
// markers: {"float": 1} (a float, also "nan"/"inf"/"-inf"), {"tuple": [...]},
// {"dict": {...} | [[key, value], ...]} (a dict; the pair list keeps Python's insertion
// order, a JSON object is visited in key order), {"callable": "code"},
// {"object": "repr", "class": "module.Class", "is_callable": false}, or {"type": "<Class>",
// keywords...} (an instance of a modelled class, built with its checks). Where TF expects
// one class, a plain object is that class's keywords: FeatureConfig.table (TF2 TableConfig),
// TableConfig.quantization_config (QuantizationConfig), the values of
// feature_to_config_dict / table_to_config_dict (TF1 FeatureConfig / TableConfig), and the
// elements of feature_columns ({"kind", "key", "dimension", "num_buckets"}). Anywhere else
// a plain object is a dict.
#include <QJsonArray>
#include <QJsonObject>
#include <string>
#include <vector>

#include "app/cli/evaluators.h"
#include "app/cli/sparse_case.h"
#include "core/tpu/config.h"
#include "core/tpu/estimator_spec.h"
#include "core/tpu/tpu_embedding_lookup.h"
#include "session/workbench/py_json.h"

namespace qs::cli {

namespace {

using tpu::PyValue;

std::string at(const std::string& field, qsizetype i) {
    return field + "[" + std::to_string(i) + "]";
}

// cls(**o) through the shared JSON -> Python conversion (session/workbench/py_json.h); a
// malformed value is a malformed case.
Result<PyValue> buildFromObject(const QJsonObject& o, const std::string& field,
                                const std::string& cls, const char* skip) {
    try {
        return ui::buildPyClass(o, field, cls, skip);
    } catch (const ui::PyJsonFormatError& e) {
        throw CaseFormatError{e.field, e.problem};
    }
}

JsonOut pyJson(const PyValue& v) {
    switch (v.kind()) {
        case PyValue::Kind::None: return nullptr;
        case PyValue::Kind::Bool: return v.asInt() != 0;
        case PyValue::Kind::Int: return v.asInt();
        case PyValue::Kind::Float: return v.asDouble();
        case PyValue::Kind::Str: return v.str();
        default: return v.repr();
    }
}

QJsonObject attrsOf(const CaseReader& c) {
    const QJsonValue a = c.value("attrs");
    if (a.isUndefined() || a.isNull()) return {};
    if (!a.isObject()) throw CaseFormatError{"attrs", "must be an object"};
    return a.toObject();
}

JsonOut okResult(const PyValue& built) {
    JsonOut r;
    r.set("ok", true);
    r.set("repr", built.repr());
    r.set("python", tpu::toPython(built));
    JsonOut::Array warnings;
    for (const std::string& w : built.instance()->warnings) warnings.emplace_back(w);
    r.set("warnings", std::move(warnings));
    return r;
}

JsonOut evalClass(const CaseReader& c, const std::string& cls, const char* skip = nullptr) {
    auto built = buildFromObject(attrsOf(c), "attrs", cls, skip);
    if (!built) return errorResult(built.error());
    return okResult(*built);
}

JsonOut evalTableConfig(const CaseReader& c) { return evalClass(c, "TableConfig"); }
JsonOut evalFeatureConfig(const CaseReader& c) { return evalClass(c, "FeatureConfig"); }

// attrs.type: SGD, Adagrad, AdagradMomentum, Adam, FTRL (TF2) or a TF1 *Parameters class.
JsonOut evalOptimizer(const CaseReader& c) {
    const QJsonObject attrs = attrsOf(c);
    const QJsonValue t = attrs.value(QLatin1String("type"));
    const std::string type = t.toString().toStdString();
    if (!tpu::optimizerKindFromName(type) && !tpu::isOptimizationParametersName(type))
        throw CaseFormatError{"attrs.type",
                              "must be SGD, Adagrad, AdagradMomentum, Adam, FTRL or a TF1 "
                              "*Parameters class"};
    auto built = buildFromObject(attrs, "attrs", type, "type");
    if (!built) return errorResult(built.error());
    JsonOut r = okResult(*built);
    if (const auto opt = tpu::Optimizer::from(*built)) {
        r.set("clip_gradient_min", pyJson(opt->clipGradientMin()));
        r.set("clip_gradient_max", pyJson(opt->clipGradientMax()));
    } else if (const PyValue* accum = built->instance()->attr("use_gradient_accumulation")) {
        r.set("use_gradient_accumulation", pyJson(*accum));
    }
    return r;
}

// EmbeddingConfigSpec(**attrs); with "then": "get_configs_from_feature_columns" the
// columns are also turned into table/feature configs, as TPUEstimator does next.
JsonOut evalEmbeddingConfigSpec(const CaseReader& c) {
    auto built = buildFromObject(attrsOf(c), "attrs", "EmbeddingConfigSpec", nullptr);
    if (!built) return errorResult(built.error());
    JsonOut r = okResult(*built);
    const QJsonValue then = c.value("then");
    if (then.isUndefined()) return r;
    if (then.toString() != QLatin1String("get_configs_from_feature_columns"))
        throw CaseFormatError{"then", "must be \"get_configs_from_feature_columns\""};
    const PyValue& columns = built->instance()->arg("feature_columns");
    if (!columns.truthy()) throw CaseFormatError{"then", "needs attrs.feature_columns"};
    auto configs = tpu::getConfigsFromFeatureColumns(columns);
    if (!configs) return errorResult(configs.error());
    // [name, repr] pairs (the conformance check compares lists, not objects).
    const auto pairs = [](const auto& entries) {
        JsonOut::Array out;
        for (const auto& [name, cfg] : entries) out.emplace_back(JsonOut::Array{name, cfg.repr()});
        return out;
    };
    r.set("table_to_config", pairs(configs->table_to_config));
    r.set("feature_to_config", pairs(configs->feature_to_config));
    return r;
}

// --- TPUEmbeddingLookup ---------------------------------------------------------------------
tpu::RowMatrix readRows(const CaseReader& c, const char* key) {
    const std::vector<std::vector<float>> rows = c.floatRows(key);
    tpu::RowMatrix m;
    m.rows = static_cast<int64_t>(rows.size());
    m.cols = rows.empty() ? 0 : static_cast<int64_t>(rows[0].size());
    for (size_t i = 0; i < rows.size(); ++i) {
        if (static_cast<int64_t>(rows[i].size()) != m.cols)
            throw CaseFormatError{at(key, static_cast<qsizetype>(i)),
                                  "must have as many values as row 0"};
        m.values.insert(m.values.end(), rows[i].begin(), rows[i].end());
    }
    return m;
}

JsonOut evalTpuEmbeddingLookup(const CaseReader& c) {
    const tpu::RowMatrix params = readRows(c, "params");
    const SparseCase sparse = readSparseCase(c);
    const tpu::SparseIds& sp = sparse.ids;
    const std::optional<std::vector<float>>& weights = sparse.weights;

    const QJsonValue comb = c.attr("combiner");
    const std::string combiner = comb.isNull() ? "mean" : c.attrString("combiner", "mean");
    std::optional<tpu::QuantizationConfig> quant;
    const QJsonValue q = c.attr("quantization");
    if (!q.isUndefined() && !q.isNull()) {
        if (!q.isObject()) throw CaseFormatError{"attrs.quantization", "must be an object or null"};
        const QJsonObject o = q.toObject();
        for (const char* k : {"num_buckets", "lower", "upper"})
            if (!o.contains(QLatin1String(k)))
                throw CaseFormatError{std::string("attrs.quantization.") + k, "is missing"};
        auto cfg = tpu::makeQuantizationConfig(
            CaseReader::toInteger(o.value(QLatin1String("num_buckets")), "attrs.quantization.num_buckets"),
            CaseReader::toNumber(o.value(QLatin1String("lower")), "attrs.quantization.lower"),
            CaseReader::toNumber(o.value(QLatin1String("upper")), "attrs.quantization.upper"));
        if (!cfg) return errorResult(cfg.error());
        quant = *cfg;
    }
    auto rows = tpu::tpuEmbeddingLookup(params, sp, weights, combiner, quant);
    if (!rows) return errorResult(rows.error());
    JsonOut::Array out;
    for (int64_t r = 0; r < rows->rows; ++r) {
        JsonOut::Array row;
        for (float v : rows->row(r)) row.emplace_back(v);
        out.emplace_back(std::move(row));
    }
    JsonOut result;
    result.set("output", std::move(out));
    return result;
}

constexpr EvaluatorEntry kTpuConfigEvaluators[] = {
    {"TPUEmbeddingLookup", evalTpuEmbeddingLookup},
    {"TableConfig", evalTableConfig},
    {"FeatureConfig", evalFeatureConfig},
    {"Optimizer", evalOptimizer},
    {"EmbeddingConfigSpec", evalEmbeddingConfigSpec},
};

}  // namespace

std::span<const EvaluatorEntry> tpuConfigEvaluators() { return kTpuConfigEvaluators; }

}  // namespace qs::cli
