// Every kind of error the TPU configuration checks raise (core/tpu) names the argument it
// is about in Error::field, set by the check itself: the workbench marks that field with it
// and never reads the message. The messages themselves are tst_tpu_config's subject; here
// each row also checks the kind, so a row cannot pass on some other, earlier error.
#include <QtTest>
#include <functional>
#include <string>

#include "core/tpu/config.h"
#include "core/tpu/estimator_spec.h"
#include "core/tpu/optimizer_clip.h"
#include "core/tpu/sharding.h"
#include "core/tpu/simulated_quantization.h"

using namespace qs;
using namespace qs::tpu;

namespace {

const PyValue kNone;

PyValue table() { return *makeTableConfig({{"vocabulary_size", 10}, {"dim", 4}, {"name", "t"}}); }
PyValue tf1Table() { return *makeTf1TableConfig({{"vocabulary_size", 10}, {"dimension", 4}}); }
PyValue tf1Feature(const char* tableId) { return *makeTf1FeatureConfig({{"table_id", tableId}}); }
PyValue adagradParameters() { return *makeOptimizationParameters("AdagradParameters", {{"learning_rate", 0.1}}); }

// The error of a failed build, or a stand-in that fails the row.
template <typename T>
Error errorOf(const Result<T>& r) {
    return r.ok() ? Error{"<ok>", "<built>", "<none>"} : r.error();
}

using ErrorMaker = std::function<Error()>;

template <typename F>
ErrorMaker failing(F f) {
    return [f] { return errorOf(f()); };
}

// A TF2 / TF1 table of 10 x 4, a feature on one, with one argument set (a repeated keyword: the last wins).
ErrorMaker tableWith(const char* argument, const PyValue& v) {
    return failing([=] { return makeTableConfig({{"vocabulary_size", 10}, {"dim", 4}, {argument, v}}); });
}
ErrorMaker featureWith(const char* argument, const PyValue& v) {
    return failing([=] { return makeFeatureConfig({{"table", table()}, {argument, v}}); });
}
ErrorMaker tf1TableWith(const char* argument, const PyValue& v) {
    return failing([=] { return makeTf1TableConfig({{"vocabulary_size", 10}, {"dimension", 4}, {argument, v}}); });
}

// An optimization parameters class with learning_rate 0.1 and `kwargs`.
ErrorMaker tf1Parameters(const char* cls, Kwargs kwargs) {
    kwargs.insert(kwargs.begin(), {"learning_rate", 0.1});
    return failing([cls, kwargs] { return makeOptimizationParameters(cls, kwargs); });
}

// EmbeddingConfigSpec on the dict path.
ErrorMaker dictSpec(const PyValue& features, const PyValue& tables, Kwargs more = {}) {
    more.emplace_back("feature_to_config_dict", features);
    more.emplace_back("table_to_config_dict", tables);
    return failing([more] { return makeEmbeddingConfigSpec(more); });
}

}  // namespace

Q_DECLARE_METATYPE(ErrorMaker)

class TstTpuErrorFields : public QObject {
    Q_OBJECT
private slots:
    void fieldOfEachCheck_data() {
        QTest::addColumn<ErrorMaker>("make");
        QTest::addColumn<QString>("kind");
        QTest::addColumn<QString>("field");
        const auto row = [](const char* name, ErrorMaker make, const char* kind, const char* field) {
            QTest::newRow(name) << make << QString::fromLatin1(kind) << QString::fromLatin1(field);
        };
        // Binding keywords to a signature (CPython's TypeErrors).
        row("unexpected keyword", failing([] { return makeTableConfig({{"size", 1}}); }), "TypeError", "size");
        row("missing argument", failing([] { return makeTableConfig({{"vocabulary_size", 1}}); }), "TypeError", "dim");
        row("missing arguments: the first",
            failing([] { return makeOptimizationParameters("RMSPropParameters", {{"learning_rate", 0.1}}); }),
            "TypeError", "rho");

        // QuantizationConfig.
        row("num_buckets < 2",
            failing([] { return makeQuantizationConfigValue({{"num_buckets", 1}, {"lower", -1.0}, {"upper", 1.0}}); }),
            "ValueError", "num_buckets");
        row("num_buckets not comparable",
            failing([] { return makeQuantizationConfigValue({{"num_buckets", "x"}, {"lower", -1.0}, {"upper", 1.0}}); }),
            "TypeError", "num_buckets");
        row("typed num_buckets", failing([] { return makeQuantizationConfig(1, -1.0, 1.0); }), "ValueError",
            "num_buckets");

        // TF2 optimizers: the base class's clipvalue, then each class's own checks.
        row("clipvalue without accumulation",
            failing([] { return makeOptimizer(OptimizerKind::SGD, {{"use_gradient_accumulation", false}, {"clipvalue", 1}}); }),
            "ValueError", "clipvalue");
        row("clipvalue of 3",
            failing([] { return makeOptimizer(OptimizerKind::SGD, {{"clipvalue", PyValue::tuple({1, 2, 3})}}); }),
            "ValueError", "clipvalue");
        row("clipvalue tuple of objects",
            failing([] { return makeOptimizer(OptimizerKind::SGD, {{"clipvalue", PyValue::tuple({"a"})}}); }),
            "ValueError", "clipvalue");
        row("clipvalue str",
            failing([] { return makeOptimizer(OptimizerKind::Adam, {{"clipvalue", "abc"}}); }), "TypeError",
            "clipvalue");
        row("clipvalue dict",
            failing([] { return makeOptimizer(OptimizerKind::Adam, {{"clipvalue", PyValue::dict({})}}); }),
            "TypeError", "clipvalue");
        row("typed clipvalue",
            failing([] { return gradientClipLimits(OptimizerKind::SGD, false, ClipValue::number({1.0, false})); }),
            "ValueError", "clipvalue");
        row("slot_variable_creation_fn",
            failing([] { return makeOptimizer(OptimizerKind::Adagrad, {{"slot_variable_creation_fn", 3}}); }),
            "ValueError", "slot_variable_creation_fn");
        row("Adagrad initial_accumulator_value",
            failing([] { return makeOptimizer(OptimizerKind::Adagrad, {{"initial_accumulator_value", 0}}); }),
            "ValueError", "initial_accumulator_value");
        row("FTRL initial_accumulator_value not comparable",
            failing([] { return makeOptimizer(OptimizerKind::FTRL, {{"initial_accumulator_value", kNone}}); }),
            "TypeError", "initial_accumulator_value");
        row("AdagradMomentum epsilon",
            failing([] { return makeOptimizer(OptimizerKind::AdagradMomentum, {{"epsilon", 0}}); }), "ValueError",
            "epsilon");
        row("AdagradMomentum exponent",
            failing([] { return makeOptimizer(OptimizerKind::AdagradMomentum, {{"exponent", "2"}}); }), "TypeError",
            "exponent");
        row("Adam beta_1", failing([] { return makeOptimizer(OptimizerKind::Adam, {{"beta_1", -0.1}}); }),
            "ValueError", "beta_1");
        // Its message prints beta_1 (TF's bug); the field is still beta_2.
        row("Adam beta_2", failing([] { return makeOptimizer(OptimizerKind::Adam, {{"beta_2", 1.0}}); }),
            "ValueError", "beta_2");
        row("Adam epsilon", failing([] { return makeOptimizer(OptimizerKind::Adam, {{"epsilon", 0.0}}); }),
            "ValueError", "epsilon");
        row("Adam lazy_adam without accumulation",
            failing([] {
                return makeOptimizer(OptimizerKind::Adam, {{"use_gradient_accumulation", false}, {"lazy_adam", false}});
            }),
            "ValueError", "lazy_adam");

        // TF2 TableConfig and FeatureConfig.
        row("vocabulary_size", tableWith("vocabulary_size", 0), "ValueError", "vocabulary_size");
        row("dim", tableWith("dim", "abc"), "ValueError", "dim");
        row("initializer", tableWith("initializer", 1), "ValueError", "initializer");
        row("combiner", tableWith("combiner", "max"), "ValueError", "combiner");
        row("dtype", tableWith("dtype", "int8"), "ValueError", "dtype");
        row("feature table", failing([] { return makeFeatureConfig({{"table", kNone}}); }), "ValueError", "table");
        row("max_sequence_length", featureWith("max_sequence_length", -1), "ValueError", "max_sequence_length");
        row("output_shape dimension", featureWith("output_shape", PyValue::list({2, -1})), "ValueError", "output_shape");
        row("output_shape type", featureWith("output_shape", 1.5), "TypeError", "output_shape");
        row("validate_weights_and_indices", featureWith("validate_weights_and_indices", 0), "ValueError",
            "validate_weights_and_indices");

        // TF1 classes.
        row("TF1 vocabulary_size", tf1TableWith("vocabulary_size", 0), "ValueError", "vocabulary_size");
        row("TF1 dimension", tf1TableWith("dimension", 0), "ValueError", "dimension");
        row("TF1 initializer", tf1TableWith("initializer", 1), "ValueError", "initializer");
        row("TF1 combiner", tf1TableWith("combiner", "x"), "ValueError", "combiner");
        row("TF1 optimization_parameters", tf1TableWith("optimization_parameters", 1), "ValueError",
            "optimization_parameters");
        row("TF1 max_sequence_length",
            failing([] { return makeTf1FeatureConfig({{"table_id", "t"}, {"max_sequence_length", -1}}); }),
            "ValueError", "max_sequence_length");
        row("unknown parameters class",
            failing([] { return makeOptimizationParameters("NoSuchParameters", {}); }), "ValueError", "");
        row("initial_accumulator", tf1Parameters("AdagradParameters", {{"initial_accumulator", 0}}), "ValueError",
            "initial_accumulator");
        row("l2_regularization_strength",
            tf1Parameters("ProximalAdagradParameters", {{"l2_regularization_strength", -1.0}}), "ValueError",
            "l2_regularization_strength");
        row("beta2 not comparable", tf1Parameters("AdamParameters", {{"beta2", "x"}}), "TypeError", "beta2");
        row("TF1 epsilon", tf1Parameters("AdamParameters", {{"epsilon", 0.0}}), "ValueError", "epsilon");
        row("TF1 lazy_adam",
            tf1Parameters("AdamParameters", {{"use_gradient_accumulation", false}, {"lazy_adam", false}}), "ValueError",
            "lazy_adam");
        row("learning_rate_power", tf1Parameters("FtrlParameters", {{"learning_rate_power", 1.0}}), "ValueError",
            "learning_rate_power");
        row("TF1 initial_accumulator_value", tf1Parameters("FtrlParameters", {{"initial_accumulator_value", -1.0}}),
            "ValueError", "initial_accumulator_value");

        // EmbeddingConfigSpec: the pair of dicts is about the call; an entry's error is its dict's.
        row("neither columns nor dicts", failing([] { return makeEmbeddingConfigSpec({}); }), "ValueError", "");
        const PyValue features = PyValue::dict({{"f", tf1Feature("t")}});
        const PyValue tables = PyValue::dict({{"t", tf1Table()}});
        row("partition_strategy", dictSpec(features, tables, {{"partition_strategy", "Div"}}), "ValueError",
            "partition_strategy");
        row("feature_columns not iterable",
            failing([] { return makeEmbeddingConfigSpec({{"feature_columns", 3}, {"optimization_parameters", adagradParameters()}}); }),
            "TypeError", "feature_columns");
        row("unsupported column",
            failing([] {
                return makeEmbeddingConfigSpec(
                    {{"feature_columns", PyValue::list({makeFeatureColumn("bucketized_column", "b", 0)})},
                     {"optimization_parameters", adagradParameters()}});
            }),
            "TypeError", "feature_columns");
        row("spec optimization_parameters",
            failing([] {
                return makeEmbeddingConfigSpec(
                    {{"feature_columns", PyValue::list({makeFeatureColumn("tpu_embedding_column", "a", 8, 100)})}});
            }),
            "ValueError", "optimization_parameters");
        row("feature config type", dictSpec(PyValue::dict({{"g", 1}}), tables), "TypeError", "feature_to_config_dict");
        row("feature on an unknown table", dictSpec(PyValue::dict({{"f", tf1Feature("u")}}), tables), "ValueError",
            "feature_to_config_dict");
        row("table config type", dictSpec(features, PyValue::dict({{"t", table()}})), "TypeError",
            "table_to_config_dict");
        row("feature dict not a dict", dictSpec(PyValue::list({1}), tables), "AttributeError", "feature_to_config_dict");
        row("column used twice",
            failing([] {
                const PyValue col = makeFeatureColumn("tpu_embedding_column", "a", 8, 100);
                return getConfigsFromFeatureColumns(PyValue::list({col, col}));
            }),
            "ValueError", "feature_columns");

        // The sharding's strategy name.
        row("strategy name", failing([] { return partitionStrategyFromName("Mod"); }), "ValueError",
            "partition_strategy");
    }
    void fieldOfEachCheck() {
        QFETCH(ErrorMaker, make);
        QFETCH(QString, kind);
        QFETCH(QString, field);
        const Error e = make();
        QCOMPARE(QString::fromStdString(e.kind), kind);
        QCOMPARE(QString::fromStdString(e.field), field);
    }

    // The field is beside the message, never in it: TF's texts stay exactly as TF prints them.
    void fieldIsNotPartOfTheMessage() {
        const Error e = errorOf(makeTableConfig({{"vocabulary_size", 10}, {"dim", -3}}));
        QCOMPARE(QString::fromStdString(e.message),
                 QStringLiteral("Argument `dim` (embedding dimension) must be an int and must be >= 1. Received: -3"));
        QCOMPARE(QString::fromStdString(e.field), QStringLiteral("dim"));
        // Errors compare with their field (two errors of different arguments differ).
        QVERIFY(!(e == Error{e.kind, e.message}));
    }
};

QTEST_APPLESS_MAIN(TstTpuErrorFields)
#include "tst_tpu_error_fields.moc"
