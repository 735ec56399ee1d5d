// Over 500 lines on purpose: the document, its checks and the editor share one set of documents
// and typing helpers.
// The embedding workbench's configuration layer: the document's JSON (round trip, error
// paths, versions), TF's checks mapped to fields, "Copy as TensorFlow code", the model's
// undo, and the editor driven by keystrokes (errors appear and disappear live).
#include <QApplication>
#include <QCheckBox>
#include <QClipboard>
#include <QComboBox>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

#include "session/workbench/embedding_document.h"
#include "session/workbench/embedding_model.h"
#include "session/workbench/embedding_validation.h"
#include "session/workbench/py_json.h"
#include "tests/ui/line_edit_typing.h"
#include "ui/embedding/config_editor.h"

using namespace qs::ui;

namespace {

QJsonObject floatMarker(double v) { return QJsonObject{{QStringLiteral("float"), v}}; }

// Two tables (the second quantized, with an Adam optimizer and a clip tuple), three
// features, the TF1 spec on: every part of the document set to a non-default value.
EmbeddingDocument richDocument() {
    EmbeddingDocument doc = EmbeddingDocument::example();
    EmbeddingTable t;
    t.name = QStringLiteral("words");
    t.vocabulary_size = 50000;
    t.dim = floatMarker(16);  // 16.0: a float, which TF rejects
    t.combiner = QStringLiteral("sqrtn");
    t.optimizer.type = QStringLiteral("Adam");
    t.optimizer.keywords = QJsonObject{{QStringLiteral("learning_rate"), 0.002},
                                       {QStringLiteral("clipvalue"),
                                        QJsonObject{{QStringLiteral("tuple"), QJsonArray{-1.5, QJsonValue::Null}}}}};
    t.quantization = EmbeddingQuantization{128, -0.5, 0.5};
    t.initializer = {QStringLiteral("uniform"), 0.0, 0.0, -0.1, 0.2, 0.0, 7};
    t.data_file = QStringLiteral("/data/words.npy");
    doc.tables.push_back(t);
    EmbeddingFeature f;
    f.name = QStringLiteral("query");
    f.table = 1;
    f.max_sequence_length = 20;
    f.output_shape = QJsonArray{64, 20};
    f.ids = QStringLiteral("zipf:batch=4096,ids=8,s=1.1,seed=1");
    doc.features.push_back(f);
    EmbeddingFeature g;
    g.name = QStringLiteral("orphan");
    g.table = -1;
    g.ids_file = QStringLiteral("/data/ids.csv");
    doc.features.push_back(g);
    doc.estimator.enabled = true;
    doc.estimator.partition_strategy = QStringLiteral("mod");
    doc.estimator.pipeline_execution_with_tensor_core = true;
    doc.estimator.clipping_limit = 2.5;
    doc.num_hosts = 8;
    doc.view = {1, 2, 100, 32};
    return doc;
}

QString loadError(const QJsonObject& json) {
    QString error;
    const auto doc = embeddingDocumentFromJson(json, &error);
    return doc ? QStringLiteral("(loaded)") : error;
}

QJsonObject withTableField(const QString& key, const QJsonValue& v, int table = 1) {
    QJsonObject json = embeddingDocumentToJson(richDocument());
    QJsonArray tables = json[QStringLiteral("tables")].toArray();
    QJsonObject t = tables[table].toObject();
    t[key] = v;
    tables[table] = t;
    json[QStringLiteral("tables")] = tables;
    return json;
}

std::optional<FieldError> firstError(const ObjectCheck& check) {
    if (check.errors.empty()) return std::nullopt;
    return check.errors[0];
}

}  // namespace

class TestEmbeddingConfig : public QObject {
    Q_OBJECT
private slots:
    void pythonLiterals();
    void pythonStringsReadBackWhatIsPrinted();
    void documentRoundTrip();
    void documentFileRoundTrip();
    void documentErrorsNameTheField();
    void validationDimZero();
    void validationClipvalueWithoutAccumulation();
    void validationMaxSequenceLength();
    void validationMapsMessagesWithoutKeyword();
    void validationEstimatorSpec();
    void validationWarnings();
    void pythonCode();
    void modelUndoMergesTyping();
    void modelRemoveTableRenumbersFeatures();
    void editorShowsErrorsLive();
    void editorOptimizerFieldError();
    void editorCopyPythonCode();
};

// Found by the py_literal fuzz target: a string the workbench prints with Python's escapes
// ('a\x00 ', 'a\tb ') read back with the escapes as plain letters, so the value changed
// when the field was edited; a pasted "((((…" recursed until the stack ran out.
void TestEmbeddingConfig::pythonStringsReadBackWhatIsPrinted() {
    const QString strings[] = {QStringLiteral("a\tb "), QString(QChar(0)) + QStringLiteral("x "),
                               QStringLiteral("line\nbreak "), QStringLiteral("it's \"quoted\" "),
                               QStringLiteral("back\\slash "), QStringLiteral("emoji \U0001F600 "),
                               QStringLiteral("\x7f ")};
    for (const QString& s : strings) {
        const QString printed = pyLiteralFromJson(QJsonValue(s));
        QCOMPARE(jsonFromPyLiteral(printed), QJsonValue(s));
    }
    QCOMPARE(jsonFromPyLiteral(QStringLiteral("'a\\x41\\n'")), QJsonValue(QStringLiteral("aA\n")));
    QCOMPARE(jsonFromPyLiteral(QStringLiteral("'\\q'")), QJsonValue(QStringLiteral("q")));
    const QString deep = QString(100000, u'(') + u'1' + QString(100000, u')');
    QCOMPARE(jsonFromPyLiteral(deep), QJsonValue(deep));  // too deep for a value: kept as text
    const QString nested = QString(10, u'[') + u'1' + QString(10, u']');
    QVERIFY(jsonFromPyLiteral(nested).isObject() || jsonFromPyLiteral(nested).isArray());
}

void TestEmbeddingConfig::pythonLiterals() {
    QCOMPARE(jsonFromPyLiteral(QStringLiteral("16")), QJsonValue(16));
    QCOMPARE(jsonFromPyLiteral(QStringLiteral("-3")), QJsonValue(-3));
    QCOMPARE(jsonFromPyLiteral(QStringLiteral("16.0")), QJsonValue(floatMarker(16)));
    QCOMPARE(jsonFromPyLiteral(QStringLiteral("1e-3")), QJsonValue(0.001));
    QCOMPARE(jsonFromPyLiteral(QStringLiteral("abc")), QJsonValue(QStringLiteral("abc")));
    QCOMPARE(jsonFromPyLiteral(QStringLiteral("'16'")), QJsonValue(QStringLiteral("16")));
    QCOMPARE(jsonFromPyLiteral(QStringLiteral("None")), QJsonValue(QJsonValue::Null));
    QCOMPARE(jsonFromPyLiteral(QStringLiteral("False")), QJsonValue(false));
    QCOMPARE(jsonFromPyLiteral(QStringLiteral("(-1, 1.5)")),
             QJsonValue(QJsonObject{{QStringLiteral("tuple"), QJsonArray{-1, 1.5}}}));
    QCOMPARE(jsonFromPyLiteral(QStringLiteral("(2,)")),
             QJsonValue(QJsonObject{{QStringLiteral("tuple"), QJsonArray{2}}}));
    QCOMPARE(jsonFromPyLiteral(QStringLiteral("[64, None]")), QJsonValue(QJsonArray{64, QJsonValue::Null}));
    QCOMPARE(jsonFromPyLiteral(QStringLiteral("(1, 2")), QJsonValue(QStringLiteral("(1, 2")));  // not a literal
    // Text back: what parses to the same value.
    QCOMPARE(pyLiteralFromJson(floatMarker(16)), QStringLiteral("16.0"));
    QCOMPARE(pyLiteralFromJson(QJsonValue(QStringLiteral("sum"))), QStringLiteral("sum"));
    QCOMPARE(pyLiteralFromJson(QJsonValue(QStringLiteral("16"))), QStringLiteral("'16'"));
    QCOMPARE(pyLiteralFromJson(QJsonValue(QStringLiteral("None"))), QStringLiteral("'None'"));
    QCOMPARE(pyLiteralFromJson(QJsonObject{{QStringLiteral("tuple"), QJsonArray{-1, QJsonValue::Null}}}),
             QStringLiteral("(-1, None)"));
    for (const char* text : {"0.1", "(-1.5, None)", "[1, 2]", "True", "'x y'", "1e-07", "nan"})
        QCOMPARE(jsonFromPyLiteral(pyLiteralFromJson(jsonFromPyLiteral(QLatin1String(text)))),
                 jsonFromPyLiteral(QLatin1String(text)));
}

void TestEmbeddingConfig::documentRoundTrip() {
    const EmbeddingDocument doc = richDocument();
    const QJsonObject json = embeddingDocumentToJson(doc);
    QCOMPARE(json[QStringLiteral("format")].toString(), QStringLiteral("quantscope-embedding"));
    QCOMPARE(json[QStringLiteral("version")].toInt(), 1);
    // Through text, as on disk.
    const QJsonObject reread = QJsonDocument::fromJson(QJsonDocument(json).toJson()).object();
    QString error;
    const auto back = embeddingDocumentFromJson(reread, &error);
    QVERIFY2(back.has_value(), qPrintable(error));
    QVERIFY(*back == doc);
    QCOMPARE(back->tables[1].dim, QJsonValue(floatMarker(16)));
    QCOMPARE(back->features[2].table, -1);
    // An invalid value as entered stays representable.
    EmbeddingDocument bad = doc;
    bad.tables[0].dim = QStringLiteral("abc");
    bad.tables[0].vocabulary_size = -3;
    const auto badBack = embeddingDocumentFromJson(embeddingDocumentToJson(bad), &error);
    QVERIFY(badBack && *badBack == bad);
}

void TestEmbeddingConfig::documentFileRoundTrip() {
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    EmbeddingDocument doc = richDocument();
    doc.tables[1].data_file = QStringLiteral("words.npy");  // relative: to the file's folder
    const QString path = dir.filePath(QStringLiteral("config.json"));
    QString error;
    QVERIFY2(saveEmbeddingDocument(path, doc, &error), qPrintable(error));
    const auto back = loadEmbeddingDocument(path, &error);
    QVERIFY2(back.has_value(), qPrintable(error));
    QCOMPARE(back->tables[1].data_file, dir.filePath(QStringLiteral("words.npy")));
    QCOMPARE(back->features[2].ids_file, QStringLiteral("/data/ids.csv"));
    QCOMPARE(back->num_hosts, 8);

    QFile broken(dir.filePath(QStringLiteral("broken.json")));
    QVERIFY(broken.open(QIODevice::WriteOnly));
    broken.write("{\n  \"format\": \"quantscope-embedding\",\n  \"version\": 1,\n  oops\n}");
    broken.close();
    QVERIFY(!loadEmbeddingDocument(broken.fileName(), &error));
    QVERIFY2(error.startsWith(QStringLiteral("broken.json: line 4: not valid JSON")), qPrintable(error));
    QVERIFY(!loadEmbeddingDocument(dir.filePath(QStringLiteral("missing.json")), &error));
    QVERIFY2(error.startsWith(QStringLiteral("missing.json: cannot open")), qPrintable(error));
    QVERIFY(!saveEmbeddingDocument(dir.filePath(QStringLiteral("no/such/dir/x.json")), doc, &error));
    QVERIFY2(error.startsWith(QStringLiteral("x.json: cannot write")), qPrintable(error));
}

void TestEmbeddingConfig::documentErrorsNameTheField() {
    QCOMPARE(loadError(withTableField(QStringLiteral("dim"), QJsonObject{{QStringLiteral("tuple"), 3}})),
             QStringLiteral("tables[1].dim.tuple: expected a Python value (must be a list)"));
    QCOMPARE(loadError(withTableField(QStringLiteral("name"), 3)), QStringLiteral("tables[1].name: expected a string"));
    QCOMPARE(loadError(withTableField(QStringLiteral("initializer"),
                                      QJsonObject{{QStringLiteral("seed"), 1.5}})),
             QStringLiteral("tables[1].initializer.seed: expected an integer"));
    QCOMPARE(loadError(withTableField(QStringLiteral("initializer"),
                                      QJsonObject{{QStringLiteral("kind"), QStringLiteral("normal")}})),
             QStringLiteral("tables[1].initializer.kind: 'normal' is not one of truncated_normal, uniform, zeros, constant"));
    QCOMPARE(loadError(withTableField(QStringLiteral("quantization_config"), 5, 0)),
             QStringLiteral("tables[0].quantization_config: expected null or {num_buckets, lower, upper}"));
    QCOMPARE(loadError(withTableField(QStringLiteral("optimizer"),
                                      QJsonObject{{QStringLiteral("type"), QStringLiteral("SGD")},
                                                  {QStringLiteral("clipvalue"), QJsonObject{{QStringLiteral("dict"), 1}}}})),
             QStringLiteral("tables[1].optimizer.clipvalue.dict: expected a Python value (must be an object or a list "
                            "of [key, value] pairs)"));
    QJsonObject json = embeddingDocumentToJson(richDocument());
    QJsonArray features = json[QStringLiteral("features")].toArray();
    QJsonObject f = features[1].toObject();
    f[QStringLiteral("table")] = 2;
    features[1] = f;
    json[QStringLiteral("features")] = features;
    QCOMPARE(loadError(json), QStringLiteral("features[1].table: 2 is not a table index (there are 2 tables)"));

    json = embeddingDocumentToJson(richDocument());
    json[QStringLiteral("sharding")] = QJsonObject{{QStringLiteral("num_hosts"), QStringLiteral("x")}};
    QCOMPARE(loadError(json), QStringLiteral("sharding.num_hosts: expected an integer"));
    json[QStringLiteral("sharding")] = QJsonObject{{QStringLiteral("num_hosts"), 0}};
    QCOMPARE(loadError(json), QStringLiteral("sharding.num_hosts: 0 is out of range [1, 65536]"));

    json = embeddingDocumentToJson(richDocument());
    json[QStringLiteral("version")] = 2;
    QVERIFY2(loadError(json).startsWith(QStringLiteral("version 2 is newer than this QuantScope reads (1)")),
             qPrintable(loadError(json)));
    json.remove(QStringLiteral("version"));
    QCOMPARE(loadError(json), QStringLiteral("version: is missing"));
    json[QStringLiteral("format")] = QStringLiteral("quantscope-session");
    QVERIFY(loadError(json).startsWith(QStringLiteral("not a QuantScope embedding configuration")));
}

void TestEmbeddingConfig::validationDimZero() {
    EmbeddingDocument doc = EmbeddingDocument::example();
    QVERIFY(validateEmbeddingDocument(doc).ok());
    doc.tables[0].dim = 0;
    const EmbeddingValidation v = validateEmbeddingDocument(doc);
    QVERIFY(!v.ok());
    QCOMPARE(v.tables[0].errors.size(), size_t(1));
    const FieldError* e = v.tables[0].error(QStringLiteral("dim"));
    QVERIFY(e);
    QCOMPARE(e->kind, QStringLiteral("ValueError"));
    QCOMPARE(e->message,
             QStringLiteral("Argument `dim` (embedding dimension) must be an int and must be >= 1. Received: 0"));
    // The feature on it reports its table, not a FeatureConfig text of its own.
    QVERIFY(v.features[0].error(QStringLiteral("table")));

    doc.tables[0].dim = 1e300;  // huge: a float for Python, no overflow here
    QCOMPARE(validateEmbeddingDocument(doc).tables[0].error(QStringLiteral("dim"))->message,
             QStringLiteral("Argument `dim` (embedding dimension) must be an int and must be >= 1. Received: 1e+300"));
    doc.tables[0].dim = QStringLiteral("abc");
    doc.tables[0].vocabulary_size = floatMarker(10);
    const EmbeddingValidation w = validateEmbeddingDocument(doc);
    QCOMPARE(firstError(w.tables[0])->field, QStringLiteral("vocabulary_size"));  // TF checks it first
    QCOMPARE(firstError(w.tables[0])->message,
             QStringLiteral("Argument `vocabulary_size` must be an int and must be >= 1. Received: 10.0"));
}

void TestEmbeddingConfig::validationClipvalueWithoutAccumulation() {
    EmbeddingDocument doc = EmbeddingDocument::example();
    doc.tables[0].optimizer.keywords[QStringLiteral("use_gradient_accumulation")] = false;
    doc.tables[0].optimizer.keywords[QStringLiteral("clipvalue")] = floatMarker(1);
    const EmbeddingValidation v = validateEmbeddingDocument(doc);
    const FieldError* e = v.tables[0].error(QStringLiteral("optimizer.clipvalue"));
    QVERIFY(e);
    QCOMPARE(e->kind, QStringLiteral("ValueError"));
    QCOMPARE(e->message, QStringLiteral("When `use_gradient_accumulation` is False, gradient clipping cannot be used "
                                        "and `clipvalue` should be left as None. Received value 1.0 for argument "
                                        "`clipvalue`."));
    QCOMPARE(v.tables[0].errors.size(), size_t(1));  // the table itself is fine
    QVERIFY(v.features[0].ok());                     // and so is the feature built on it
}

void TestEmbeddingConfig::validationMaxSequenceLength() {
    EmbeddingDocument doc = EmbeddingDocument::example();
    doc.features[0].max_sequence_length = -1;
    const EmbeddingValidation v = validateEmbeddingDocument(doc);
    const FieldError* e = v.features[0].error(QStringLiteral("max_sequence_length"));
    QVERIFY(e);
    QCOMPARE(e->kind, QStringLiteral("ValueError"));
    QCOMPARE(e->message, QStringLiteral("Argument `max_sequence_length` must be an int and must be >= 0. Received: -1"));
    QVERIFY(v.tables[0].ok());

    doc.features[0].max_sequence_length = 0;
    doc.features[0].table = -1;  // FeatureConfig(table=None)
    const auto t = firstError(validateEmbeddingDocument(doc).features[0]);
    QVERIFY(t);
    QCOMPARE(t->field, QStringLiteral("table"));
    QCOMPARE(t->message, QStringLiteral("Argument `table` has invalid type <class 'NoneType'>. Expected "
                                        "`tf.tpu.experimental.embedding.TableConfig`."));
}

void TestEmbeddingConfig::validationMapsMessagesWithoutKeyword() {
    EmbeddingDocument doc = EmbeddingDocument::example();
    doc.tables[0].quantization = EmbeddingQuantization{QStringLiteral("x"), -1.0, 1.0};
    auto e = firstError(validateEmbeddingDocument(doc).tables[0]);
    QVERIFY(e);
    QCOMPARE(e->kind, QStringLiteral("TypeError"));
    QCOMPARE(e->message, QStringLiteral("'<' not supported between instances of 'str' and 'int'"));
    QCOMPARE(e->field, QStringLiteral("quantization_config.num_buckets"));

    doc.tables[0].quantization = EmbeddingQuantization{1, -1.0, 1.0};
    e = firstError(validateEmbeddingDocument(doc).tables[0]);
    QCOMPARE(e->field, QStringLiteral("quantization_config.num_buckets"));
    QCOMPARE(e->message, QStringLiteral("num_buckets is 1, must be at least 2 for simulated quantization."));

    // A clip tuple of three: Python's unpacking error, on clipvalue.
    doc.tables[0].quantization.reset();
    doc.tables[0].optimizer.keywords[QStringLiteral("clipvalue")] =
        QJsonObject{{QStringLiteral("tuple"), QJsonArray{1, 2, 3}}};
    e = firstError(validateEmbeddingDocument(doc).tables[0]);
    QCOMPARE(e->message, QStringLiteral("too many values to unpack (expected 2)"));
    QCOMPARE(e->field, QStringLiteral("optimizer.clipvalue"));

    // Adagrad momentum's epsilon: named without backticks.
    doc.tables[0].optimizer = {QStringLiteral("AdagradMomentum"), QJsonObject{{QStringLiteral("epsilon"), 0}}};
    e = firstError(validateEmbeddingDocument(doc).tables[0]);
    QCOMPARE(e->message, QStringLiteral("Adagrad momentum: epsilon must be positive"));
    QCOMPARE(e->field, QStringLiteral("optimizer.epsilon"));
}

void TestEmbeddingConfig::validationEstimatorSpec() {
    EmbeddingDocument doc = EmbeddingDocument::example();
    doc.estimator.partition_strategy = QStringLiteral("foo");
    QVERIFY(validateEmbeddingDocument(doc).ok());  // not checked while the TF1 spec is off
    doc.estimator.enabled = true;
    const EmbeddingValidation v = validateEmbeddingDocument(doc);
    const FieldError* strategy = v.estimator.error(QStringLiteral("partition_strategy"));
    QVERIFY(strategy);
    QCOMPARE(strategy->message, QStringLiteral("Invalid partition_strategy foo. Must be one of \"mod\" or \"div\"."));

    doc.estimator.partition_strategy = QStringLiteral("mod");
    doc.estimator.optimization_parameters[QStringLiteral("initial_accumulator")] = 0;
    auto e = firstError(validateEmbeddingDocument(doc).estimator);
    QVERIFY(e);
    QCOMPARE(e->message, QStringLiteral("Adagrad initial_accumulator must be positive"));
    QCOMPARE(e->field, QStringLiteral("optimization_parameters.initial_accumulator"));

    doc.estimator.optimization_parameters.remove(QStringLiteral("initial_accumulator"));
    doc.features.clear();  // no features: neither columns nor both dicts
    e = firstError(validateEmbeddingDocument(doc).estimator);
    QVERIFY(e);
    QCOMPARE(e->field, QString());
    QCOMPARE(e->message, QStringLiteral("Exactly one of `feature_columns` and the pair `feature_to_config_dict` and "
                                        "`table_to_config_dict` must be be specified."));
}

void TestEmbeddingConfig::validationWarnings() {
    EmbeddingDocument doc = EmbeddingDocument::example();
    doc.tables[0].name.clear();
    const EmbeddingValidation v = validateEmbeddingDocument(doc);
    QVERIFY(v.ok());
    QCOMPARE(v.tables[0].warnings,
             QStringList{QStringLiteral("Name of the table config must be specified for running on SparseCore. "
                                        "Different table configs must have unique names.")});
}

namespace {

// Runs python3 -c "ast.parse(...)" on `code`; empty when it parses, else the error (or
// "skip" without python3).
QString pythonSyntaxError(const QString& code) {
    const QString python = QStandardPaths::findExecutable(QStringLiteral("python3"));
    if (python.isEmpty()) return QStringLiteral("skip");
    QProcess p;
    p.start(python, {QStringLiteral("-c"), QStringLiteral("import ast, sys; ast.parse(sys.stdin.read())")});
    if (!p.waitForStarted()) return QStringLiteral("skip");
    p.write(code.toUtf8());
    p.closeWriteChannel();
    p.waitForFinished(30000);
    return p.exitCode() == 0 ? QString() : QString::fromUtf8(p.readAllStandardError());
}

}  // namespace

void TestEmbeddingConfig::pythonCode() {
    EmbeddingDocument doc = EmbeddingDocument::example();
    doc.tables[0].combiner = QStringLiteral("sum");
    doc.tables[0].quantization = EmbeddingQuantization{};  // 256, -1.0, 1.0
    QString code = embeddingPythonCode(doc);
    QVERIFY2(code.startsWith(QStringLiteral("import tensorflow as tf\n")), qPrintable(code));
    QVERIFY2(code.contains(QStringLiteral(
                 "table_0 = tf.tpu.experimental.embedding.TableConfig(vocabulary_size=1000, dim=16, "
                 "initializer=tf.initializers.TruncatedNormal(mean=0.0, stddev=0.25, seed=1), "
                 "optimizer=tf.tpu.experimental.embedding.Adagrad(learning_rate=0.1), combiner='sum', "
                 "name='table_0', quantization_config=tf.tpu.experimental.embedding.QuantizationConfig("
                 "num_buckets=256, lower=-1.0, upper=1.0))\n")),
             qPrintable(code));
    QVERIFY2(code.contains(QStringLiteral("feature_config = {\n    'feature_0': "
                                          "tf.tpu.experimental.embedding.FeatureConfig(table=table_0, "
                                          "max_sequence_length=0, validate_weights_and_indices=True, "
                                          "output_shape=None, name='feature_0'),\n}\n")),
             qPrintable(code));
    QVERIFY(!code.contains(QStringLiteral("EmbeddingConfigSpec")));
    doc.tables[0].data_file = QStringLiteral("/d/emb.vec");  // word2vec text: word, then dim values
    QVERIFY2(embeddingPythonCode(doc).contains(QStringLiteral(
                 "initializer=tf.constant_initializer(np.loadtxt('/d/emb.vec', skiprows=1, comments=None, "
                 "encoding='utf-8', usecols=range(1, 17)))")),
             qPrintable(embeddingPythonCode(doc)));

    // Everything else: data files, rejected objects (written with TF's error as comment),
    // the TF1 spec. Still valid Python.
    code = embeddingPythonCode(richDocument());
    QVERIFY2(code.contains(QStringLiteral("import numpy as np\n")), qPrintable(code));
    QVERIFY2(code.contains(QStringLiteral("initializer=tf.constant_initializer(np.load('/data/words.npy'))")),
             qPrintable(code));
    QVERIFY2(code.contains(QStringLiteral("# TensorFlow rejects this: ValueError: Argument `dim` (embedding "
                                          "dimension) must be an int and must be >= 1. Received: 16.0\n"
                                          "table_1 = ")),
             qPrintable(code));
    QVERIFY2(code.contains(QStringLiteral("optimizer=tf.tpu.experimental.embedding.Adam(learning_rate=0.002, "
                                          "clipvalue=(-1.5, None))")),
             qPrintable(code));
    QVERIFY2(code.contains(QStringLiteral("embedding_config_spec = "
                                          "tf.compat.v1.estimator.tpu.experimental.EmbeddingConfigSpec(")),
             qPrintable(code));
    QVERIFY2(code.contains(QStringLiteral("partition_strategy='mod'")), qPrintable(code));
    QVERIFY2(code.contains(QStringLiteral("clipping_limit=2.5")), qPrintable(code));
    const QString syntax = pythonSyntaxError(code);
    if (syntax == QLatin1String("skip")) QSKIP("python3 not available");
    QVERIFY2(syntax.isEmpty(), qPrintable(syntax + QStringLiteral("\n") + code));
}

void TestEmbeddingConfig::modelUndoMergesTyping() {
    EmbeddingModel model;
    QSignalSpy tableSpy(&model, &EmbeddingModel::tableChanged);
    QSignalSpy validationSpy(&model, &EmbeddingModel::validationChanged);
    EmbeddingTable t = model.document().tables[0];
    for (const QJsonValue& v : {QJsonValue(3), QJsonValue(32)}) {
        t.dim = v;
        model.setTable(0, t, QStringLiteral("Edit dim"), QStringLiteral("tables[0].dim"));
    }
    QCOMPARE(model.undoStack()->count(), 1);  // typing "3", "32": one step
    QCOMPARE(tableSpy.count(), 2);
    QCOMPARE(tableSpy.last().at(0).toInt(), 0);
    model.endTyping();
    t.dim = 0;
    model.setTable(0, t, QStringLiteral("Edit dim"), QStringLiteral("tables[0].dim"));
    QCOMPARE(model.undoStack()->count(), 2);
    QVERIFY(model.validation().tables[0].error(QStringLiteral("dim")));
    QCOMPARE(validationSpy.count(), 1);
    model.undoStack()->undo();
    QCOMPARE(model.document().tables[0].dim, QJsonValue(32));
    QVERIFY(model.validation().ok());
    QCOMPARE(validationSpy.count(), 2);
    model.undoStack()->undo();
    QCOMPARE(model.document().tables[0].dim, QJsonValue(16));
    model.undoStack()->redo();
    QCOMPARE(model.document().tables[0].dim, QJsonValue(32));
}

void TestEmbeddingConfig::modelRemoveTableRenumbersFeatures() {
    EmbeddingModel model;
    QCOMPARE(model.addTable(), 1);
    QCOMPARE(model.document().tables[1].name, QStringLiteral("table_1"));
    model.renameTable(0, QStringLiteral("users"));
    QCOMPARE(model.addTable(), 2);
    QCOMPARE(model.document().tables[2].name, QStringLiteral("table_0"));  // the free name
    QCOMPARE(model.addFeature(), 1);
    QCOMPARE(model.document().features[1].table, 2);  // on the selected table
    QCOMPARE(model.document().features[1].name, QStringLiteral("feature_1"));
    model.removeTable(0);
    QCOMPARE(model.document().features[0].table, -1);
    QCOMPARE(model.document().features[1].table, 1);
    model.undoStack()->undo();
    QCOMPARE(model.document().tables.size(), size_t(3));
    QCOMPARE(model.document().features[0].table, 0);
    QCOMPARE(model.document().features[1].table, 2);
}

namespace {

template <typename W>
W* child(QWidget& parent, const char* name) {
    W* w = parent.findChild<W*>(QLatin1String(name));
    if (!w) qFatal("no widget %s", name);
    return w;
}

}  // namespace

void TestEmbeddingConfig::editorShowsErrorsLive() {
    EmbeddingModel model;
    ConfigEditor editor(&model);
    editor.show();
    auto* dim = child<QLineEdit>(editor, "tableDim");
    auto* dimError = child<QLabel>(editor, "tableDimError");
    QCOMPARE(dim->text(), QStringLiteral("16"));
    QVERIFY(dimError->isHidden());

    retype(dim, QStringLiteral("-3"));
    QCOMPARE(model.document().tables[0].dim, QJsonValue(-3));
    QVERIFY(!dimError->isHidden());
    QCOMPARE(dimError->text(), QStringLiteral("ValueError: Argument `dim` (embedding dimension) must be an int and "
                                              "must be >= 1. Received: -3"));
    QVERIFY(dim->property("tfError").toBool());
    QVERIFY(child<QLabel>(editor, "tableVocabularySizeError")->isHidden());

    retype(dim, QStringLiteral("abc"));
    QCOMPARE(dimError->text(), QStringLiteral("ValueError: Argument `dim` (embedding dimension) must be an int and "
                                              "must be >= 1. Received: abc"));

    retype(dim, QStringLiteral("32"));
    QVERIFY(dimError->isHidden());
    QVERIFY(!dim->property("tfError").toBool());
    QCOMPARE(model.document().tables[0].dim, QJsonValue(32));

    // All of that typing is one undo step: undo brings back 16, in the field too.
    model.undoStack()->undo();
    QCOMPARE(model.document().tables[0].dim, QJsonValue(16));
    QCOMPARE(dim->text(), QStringLiteral("16"));
    model.undoStack()->redo();
    QCOMPARE(dim->text(), QStringLiteral("32"));

    // A feature's field, and the feature's error when its table goes.
    auto* length = child<QLineEdit>(editor, "featureMaxSequenceLength");
    retype(length, QStringLiteral("-1"));
    auto* lengthError = child<QLabel>(editor, "featureMaxSequenceLengthError");
    QVERIFY(!lengthError->isHidden());
    QVERIFY(lengthError->text().contains(QStringLiteral("Received: -1")));
    child<QComboBox>(editor, "featureTable")->setCurrentIndex(0);  // (none)
    QCOMPARE(model.document().features[0].table, -1);
    QVERIFY(!child<QLabel>(editor, "featureTableError")->isHidden());
    model.undoStack()->undo();
    QVERIFY(child<QLabel>(editor, "featureTableError")->isHidden());
    QCOMPARE(child<QComboBox>(editor, "featureTable")->currentIndex(), 1);
}

void TestEmbeddingConfig::editorOptimizerFieldError() {
    EmbeddingModel model;
    ConfigEditor editor(&model);
    editor.show();
    retype(child<QLineEdit>(editor, "optimizer_use_gradient_accumulation"), QStringLiteral("False"));
    retype(child<QLineEdit>(editor, "optimizer_clipvalue"), QStringLiteral("1.0"));
    auto* error = child<QLabel>(editor, "optimizer_clipvalueError");
    QVERIFY(!error->isHidden());
    QVERIFY2(error->text().endsWith(QStringLiteral("Received value 1.0 for argument `clipvalue`.")),
             qPrintable(error->text()));
    // Clearing the field passes no clipvalue: TF's default None, fine again.
    retype(child<QLineEdit>(editor, "optimizer_clipvalue"), QString());
    QVERIFY(error->isHidden());
    QVERIFY(!model.document().tables[0].optimizer.keywords.contains(QStringLiteral("clipvalue")));

    // A table without a name: TF's logged warning, shown apart from errors.
    auto* warning = child<QLabel>(editor, "tableWarning");
    QVERIFY(warning->isHidden());
    retype(child<QLineEdit>(editor, "tableName"), QString());
    QVERIFY(!warning->isHidden());
    QVERIFY(warning->text().startsWith(QStringLiteral("Name of the table config must be specified")));
    QVERIFY(child<QLabel>(editor, "tableError")->isHidden());

    // Another optimizer shows its own keywords.
    child<QComboBox>(editor, "optimizerType")->setCurrentText(QStringLiteral("Adam"));
    QCOMPARE(model.document().tables[0].optimizer.type, QStringLiteral("Adam"));
    QCOMPARE(child<QLineEdit>(editor, "optimizer_beta_1")->placeholderText(), QStringLiteral("0.9"));
    QVERIFY(!editor.findChild<QLineEdit*>(QStringLiteral("optimizer_initial_accumulator_value")));
}

void TestEmbeddingConfig::editorCopyPythonCode() {
    EmbeddingModel model;
    ConfigEditor editor(&model);
    retype(child<QLineEdit>(editor, "tableVocabularySize"), QStringLiteral("123456"));
    const QString code = editor.copyPythonCode();
    QVERIFY(code.contains(QStringLiteral("vocabulary_size=123456")));
    QCOMPARE(QApplication::clipboard()->text(), code);
    auto* view = editor.findChild<QPlainTextEdit*>(QStringLiteral("pythonCodeView"));
    QVERIFY(view);
    QCOMPARE(view->toPlainText(), code);
    QVERIFY(view->isReadOnly());
    const QString syntax = pythonSyntaxError(code);
    if (syntax == QLatin1String("skip")) QSKIP("python3 not available");
    QVERIFY2(syntax.isEmpty(), qPrintable(syntax));

    // The TF1 group: its fields are live once the spec is wanted.
    auto* strategy = child<QComboBox>(editor, "estimatorPartitionStrategy");
    QVERIFY(!strategy->isEnabled());
    child<QCheckBox>(editor, "estimatorEnabled")->setChecked(true);
    QVERIFY(strategy->isEnabled());
    retype(child<QLineEdit>(editor, "estimatorPartitionStrategyEdit"), QStringLiteral("hash"));
    QCOMPARE(model.document().estimator.partition_strategy, QJsonValue(QStringLiteral("hash")));
    auto* strategyError = child<QLabel>(editor, "estimatorPartitionStrategyError");
    QVERIFY(!strategyError->isHidden());
    QCOMPARE(strategyError->text(),
             QStringLiteral("ValueError: Invalid partition_strategy hash. Must be one of \"mod\" or \"div\"."));
    QVERIFY(editor.copyPythonCode().contains(QStringLiteral("partition_strategy='hash'")));

    // Save and reopen through the editor's actions.
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("c.json"));
    QVERIFY(editor.saveTo(path));
    model.reset(EmbeddingDocument::example());
    QVERIFY(editor.openFrom(path));
    QCOMPARE(child<QLineEdit>(editor, "tableVocabularySize")->text(), QStringLiteral("123456"));
    QString error;
    QVERIFY(!editor.openFrom(dir.filePath(QStringLiteral("none.json")), &error));
    QCOMPARE(child<QLabel>(editor, "editorStatus")->text(), error);
}

QTEST_MAIN(TestEmbeddingConfig)
#include "tst_embedding_config.moc"
