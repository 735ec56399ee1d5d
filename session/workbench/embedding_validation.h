// The workbench's configuration checked by core/tpu (TF's own checks, kinds and texts) and
// written out as the TensorFlow code that builds it. No widgets: the editor shows these
// errors next to their fields, the CLI and tests read them directly.
#pragma once

#include <QString>
#include <QStringList>
#include <optional>
#include <vector>

#include "core/tpu/config.h"
#include "session/workbench/embedding_document.h"

namespace qs::ui {

// One error TF raises, and the field it belongs to: the keyword as the document names it
// ("dim", "optimizer.clipvalue", "quantization_config.num_buckets", "table",
// "partition_strategy", "optimization_parameters.learning_rate"); empty when the error is
// about the object as a whole.
struct FieldError {
    QString field;
    QString kind;     // "ValueError", "TypeError"
    QString message;  // TF's text
    bool operator==(const FieldError&) const = default;
};

// The checks of one table / feature / the EmbeddingConfigSpec. A table's optimizer and
// quantization_config are checked on their own (Python builds them first, as arguments),
// and the table with them, so independent mistakes show at once.
struct ObjectCheck {
    std::vector<FieldError> errors;
    QStringList warnings;  // what TF logs (e.g. a table without a name)
    bool ok() const { return errors.empty(); }
    const FieldError* error(const QString& field) const;  // nullptr when that field is fine
    bool operator==(const ObjectCheck&) const = default;
};

struct EmbeddingValidation {
    std::vector<ObjectCheck> tables;
    std::vector<ObjectCheck> features;
    ObjectCheck estimator;  // only checked when doc.estimator.enabled
    bool ok() const;
    bool operator==(const EmbeddingValidation&) const = default;
};

EmbeddingValidation validateEmbeddingDocument(const EmbeddingDocument& doc);

// The TableConfig TF builds from a table's fields, or nullopt when TF rejects the table,
// its optimizer or its quantization_config (what the workbench can then simulate).
std::optional<tpu::TableConfig> builtTableConfig(const EmbeddingTable& table);

// "Copy as TensorFlow code": imports, `table_<i> = tf.tpu.experimental.embedding.TableConfig(...)`
// per table (initializer included: tf.initializers.* or the data file through numpy),
// `feature_config = {...}` and, when doc.estimator.enabled, the TF1 table/feature dicts and
// `embedding_config_spec = tf.compat.v1.estimator.tpu.experimental.EmbeddingConfigSpec(...)`.
// An object TF rejects is still written, preceded by a comment with TF's error.
QString embeddingPythonCode(const EmbeddingDocument& doc);

// The Python expression of a table's initializer, e.g.
// "tf.initializers.TruncatedNormal(mean=0.0, stddev=0.25, seed=1)" (stddev <= 0: TF's
// default 1/sqrt(dim), left out when dim is not a valid int).
QString initializerPythonExpr(const EmbeddingInitializer& init, const QJsonValue& dim);

}  // namespace qs::ui
