#include "session/workbench/workbench_inputs.h"

#include <cstdint>

#include "core/tpu/tpu_embedding_lookup.h"

#include "session/files/native_file.h"
#include "session/workbench/embedding_validation.h"
#include "session/workbench/py_json.h"

namespace qs::ui {

QString tableDisplayName(const EmbeddingDocument& doc, int table) {
    if (table < 0 || static_cast<size_t>(table) >= doc.tables.size()) return {};
    const QString& name = doc.tables[static_cast<size_t>(table)].name;
    return name.isEmpty() ? QStringLiteral("table_%1").arg(table) : name;
}

QString featureDisplayName(const EmbeddingDocument& doc, int feature) {
    if (feature < 0 || static_cast<size_t>(feature) >= doc.features.size()) return {};
    const QString& name = doc.features[static_cast<size_t>(feature)].name;
    return name.isEmpty() ? QStringLiteral("feature_%1").arg(feature) : name;
}

qs::embedding::InitializerSpec initializerSpec(const EmbeddingInitializer& init) {
    qs::embedding::InitializerSpec spec;
    if (auto kind = qs::embedding::initializerFromName(init.kind.toStdString())) spec.kind = *kind;
    spec.mean = init.mean;
    spec.stddev = init.stddev;
    spec.minval = init.minval;
    spec.maxval = init.maxval;
    spec.value = init.value;
    spec.seed = static_cast<uint64_t>(init.seed);
    return spec;
}

Result<WorkbenchTableInputs> workbenchTableInputs(const EmbeddingDocument& doc, int table) {
    if (table < 0 || static_cast<size_t>(table) >= doc.tables.size())
        return invalidArgument("no table " + std::to_string(table));
    const EmbeddingTable& t = doc.tables[static_cast<size_t>(table)];
    WorkbenchTableInputs in;
    in.name = tableDisplayName(doc, table).toStdString();
    const std::optional<qs::tpu::TableConfig> config = builtTableConfig(t);
    if (!config) {
        const EmbeddingValidation v = validateEmbeddingDocument(doc);
        const ObjectCheck& check = v.tables[static_cast<size_t>(table)];
        const std::string first = check.errors.empty()
                                      ? std::string("TF rejects it")
                                      : (check.errors.front().kind + ": " + check.errors.front().message).toStdString();
        return invalidArgument("table '" + in.name + "' is not valid: " + first);
    }
    in.vocabulary_size = config->vocabularySize();
    in.dim = config->dim();
    in.combiner = config->combiner();
    in.quantization = config->quantization();
    if (t.quantization && !in.quantization) {
        // TF's constructor checks only num_buckets >= 2, so it accepts num_buckets=256.5 or
        // lower='a'; the TPU's proto fields are int64 / float and cannot hold them. Analysing
        // the table without quantization would show a silent zero error instead.
        const auto text = [](const QJsonValue& v) { return pyLiteralFromJson(v).toStdString(); };
        return invalidArgument("table '" + in.name + "': QuantizationConfig(num_buckets=" +
                               text(t.quantization->num_buckets) + ", lower=" + text(t.quantization->lower) +
                               ", upper=" + text(t.quantization->upper) +
                               ") cannot be simulated: num_buckets must be an int and lower, upper numbers "
                               "(TF accepts it here, the TPU's int64/float fields cannot hold it)");
    }
    if (const auto optimizer = config->optimizer()) {
        auto params = qs::embedding::optimizerParams(*optimizer);
        if (!params) return params.error();
        in.optimizer = *params;
    } else {
        in.default_optimizer = true;
    }
    in.source.initializer = initializerSpec(t.initializer);
    in.source.path = nativePath(t.data_file);
    return in;
}

Result<qs::embedding::IdBatch> workbenchFeatureBatch(const EmbeddingDocument& doc, int feature,
                                                     int64_t vocabulary_size, int64_t dim,
                                                     const std::string& override_ids_file,
                                                     const QString& override_spec) {
    if (feature < 0 || static_cast<size_t>(feature) >= doc.features.size())
        return invalidArgument("no feature " + std::to_string(feature));
    const EmbeddingFeature& f = doc.features[static_cast<size_t>(feature)];
    std::string file = override_ids_file;
    QString spec = override_spec;
    if (file.empty() && spec.isEmpty()) {
        file = nativePath(f.ids_file);
        spec = f.ids;
    }
    if (!file.empty()) return qs::embedding::readIdBatchCsv(file);
    auto parsed = qs::embedding::parseIdBatchSpec(spec.toStdString());
    if (!parsed) return parsed.error();
    if (parsed->batch_size >= 1 && parsed->ids_per_example >= 1) {  // else generateIdBatch says why
        int64_t ids = 0;
        if (__builtin_mul_overflow(parsed->batch_size, parsed->ids_per_example, &ids)) ids = INT64_MAX;
        if (Status size = qs::tpu::checkLookupSize(parsed->batch_size, ids, dim); !size)
            return invalidArgument("id batch " + spec.toStdString() + ": " + size.error().message);
    }
    return qs::embedding::generateIdBatch(*parsed, vocabulary_size);
}

qs::tpu::PartitionStrategy workbenchStrategy(const EmbeddingDocument& doc) {
    const QJsonValue& s = doc.estimator.partition_strategy;
    return s.isString() && s.toString() == QLatin1String("mod") ? qs::tpu::PartitionStrategy::Mod
                                                                 : qs::tpu::PartitionStrategy::Div;
}

}  // namespace qs::ui
