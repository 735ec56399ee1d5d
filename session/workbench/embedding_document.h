// The TPU embedding workbench's whole configuration as plain data: tables, features, the
// TF1/TPUEstimator EmbeddingConfigSpec options, sharding and view state. Saved as JSON
// ("format": "quantscope-embedding", "version": 1).
//
// Every value a TF class checks is kept AS ENTERED, as a JSON value in the conventions of
// session/workbench/py_json.h (docs/tpu-config.md): `dim` may hold -3, "abc" or {"float": 16},
// so an invalid configuration is representable, saved and reopened, and shows TF's error
// (session/workbench/embedding_validation.h). Values the workbench owns (initializer
// parameters, id batch specs, host count, view) are typed.
#pragma once

#include <QJsonObject>
#include <QJsonValue>
#include <QString>
#include <optional>
#include <string>
#include <vector>

namespace qs::ui {

// An optimizer: its class ("SGD", "Adagrad", "AdagradMomentum", "Adam", "FTRL") and the
// keywords passed to it (absent = TF's default), e.g. {"learning_rate": 0.1,
// "clipvalue": {"tuple": [-1, 1]}, "use_gradient_accumulation": false}.
struct EmbeddingOptimizer {
    QString type = QStringLiteral("Adagrad");
    QJsonObject keywords{{QStringLiteral("learning_rate"), 0.1}};
    bool operator==(const EmbeddingOptimizer&) const = default;
};

// QuantizationConfig(num_buckets, lower, upper), each as entered (the bounds default to the
// floats -1.0 and 1.0: {"float": x} keeps an integral float a float).
struct EmbeddingQuantization {
    QJsonValue num_buckets = 256;
    QJsonValue lower = QJsonObject{{QStringLiteral("float"), -1.0}};
    QJsonValue upper = QJsonObject{{QStringLiteral("float"), 1.0}};
    bool operator==(const EmbeddingQuantization&) const = default;
};

// The table's initializer (core/embedding/table_init.h InitializerSpec, by name):
// kind "truncated_normal" | "uniform" | "zeros" | "constant"; stddev <= 0 means TF's
// default 1/sqrt(dim).
struct EmbeddingInitializer {
    QString kind = QStringLiteral("truncated_normal");
    double mean = 0.0;
    double stddev = 0.0;
    double minval = -0.05;
    double maxval = 0.05;
    double value = 0.0;
    qint64 seed = 1;
    bool operator==(const EmbeddingInitializer&) const = default;
};

struct EmbeddingTable {
    QString name;  // TableConfig(name=...); empty means None
    QJsonValue vocabulary_size = 1000;
    QJsonValue dim = 16;
    QJsonValue combiner = QStringLiteral("mean");
    EmbeddingOptimizer optimizer;
    std::optional<EmbeddingQuantization> quantization;  // quantization_config=None when unset
    EmbeddingInitializer initializer;
    QString data_file;  // .npy / CSV / .vec; wins over the initializer when not empty
    bool operator==(const EmbeddingTable&) const = default;
};

struct EmbeddingFeature {
    QString name;
    int table = 0;  // index into tables; -1 = none chosen
    QJsonValue max_sequence_length = 0;
    QJsonValue validate_weights_and_indices = true;
    QJsonValue output_shape = QJsonValue::Null;
    // The lookup batch: a generated spec (core/embedding/id_batch.h text form) or a CSV file,
    // which wins when set.
    QString ids = QStringLiteral("uniform:batch=1024,ids=4,seed=1");
    QString ids_file;
    bool operator==(const EmbeddingFeature&) const = default;
};

// The TF1 / TPUEstimator EmbeddingConfigSpec built from the tables and features (the
// table_to_config_dict / feature_to_config_dict path) with these options.
struct EstimatorOptions {
    bool enabled = false;  // emit and check the TF1 spec
    QJsonValue partition_strategy = QStringLiteral("div");
    QJsonValue pipeline_execution_with_tensor_core = false;
    QJsonValue clipping_limit = QJsonValue::Null;
    // {"type": "AdagradParameters" | "AdamParameters" | ..., keywords}.
    QJsonObject optimization_parameters{{QStringLiteral("type"), QStringLiteral("AdagradParameters")},
                                        {QStringLiteral("learning_rate"), 0.1}};
    bool operator==(const EstimatorOptions&) const = default;
};

struct EmbeddingViewState {
    int table = 0;       // selected table (-1 none)
    int feature = 0;     // selected feature (-1 none)
    qint64 first_row = 0;  // heat-map window
    qint64 rows = 64;
    bool operator==(const EmbeddingViewState&) const = default;
};

struct EmbeddingDocument {
    std::vector<EmbeddingTable> tables;
    std::vector<EmbeddingFeature> features;
    EstimatorOptions estimator;
    int num_hosts = 1;
    EmbeddingViewState view;
    bool operator==(const EmbeddingDocument&) const = default;

    // A starting point: one table "table_0" (1000 x 16) and one feature "feature_0" on it.
    static EmbeddingDocument example();
};

constexpr int kEmbeddingFormatVersion = 1;

QJsonObject embeddingDocumentToJson(const EmbeddingDocument& doc);
// `error` gets "tables[1].dim: expected a Python value ..." / "version 2 is newer than this
// QuantScope reads (1)" etc.
std::optional<EmbeddingDocument> embeddingDocumentFromJson(const QJsonObject& json, QString* error);

// Written atomically (native_file.h). Messages start with the file name. Relative data paths in
// a loaded file are taken relative to the file.
bool saveEmbeddingDocument(const QString& path, const EmbeddingDocument& doc, QString* error);
std::optional<EmbeddingDocument> loadEmbeddingDocument(const QString& path, QString* error);
// The same for a file name as the system spells it (native_file.h), e.g. from the command line.
std::optional<EmbeddingDocument> loadEmbeddingDocument(const std::string& nativePath, QString* error);

}  // namespace qs::ui
