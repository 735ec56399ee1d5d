// The workbench marks the field TF's error is about, from the field the core's check names
// (Error::field), never from the message: typing a bad value into one control shows the
// error under that control, frames it red, and leaves every other control clean. The rows
// include errors whose text does not name the argument (failed comparisons, tuple
// unpacking, "Precondition exponent", TensorShape's TypeError).
#include <QCheckBox>
#include <QComboBox>
#include <QJsonArray>
#include <QLabel>
#include <QLineEdit>
#include <QtTest>

#include "tests/ui/line_edit_typing.h"

#include "session/workbench/embedding_document.h"
#include "session/workbench/embedding_model.h"
#include "session/workbench/embedding_validation.h"
#include "tests/ui/show_exposed.h"
#include "ui/embedding/config_editor.h"

using namespace qs::ui;

namespace {

// The error labels of the editor's fields that are showing ("tableDimError", ...).
QStringList shownErrorLabels(const QWidget& editor) {
    QStringList shown;
    for (const QLabel* l : editor.findChildren<QLabel*>())
        if (l->objectName().endsWith(QLatin1String("Error")) && !l->isHidden()) shown << l->objectName();
    shown.sort();
    return shown;
}

QStringList framedRed(const QWidget& editor) {
    QStringList framed;
    for (const QWidget* w : editor.findChildren<QWidget*>())
        if (w->property("tfError").toBool()) framed << w->objectName();
    framed.sort();
    return framed;
}

}  // namespace

class TestEmbeddingErrorFields : public QObject {
    Q_OBJECT
private slots:
    // The document's checks: each FieldError on the field the core named.
    void validationFields_data() {
        QTest::addColumn<QString>("object");  // "table", "feature", "estimator"
        QTest::addColumn<QString>("field");
        QTest::addColumn<QString>("kind");
        const auto row = [](const char* name, const char* object, const char* field, const char* kind) {
            QTest::newRow(name) << QString::fromLatin1(object) << QString::fromLatin1(field) << QString::fromLatin1(kind);
        };
        row("dim", "table", "dim", "ValueError");
        row("vocabulary_size", "table", "vocabulary_size", "ValueError");
        row("combiner", "table", "combiner", "ValueError");
        row("num_buckets comparison", "table", "quantization_config.num_buckets", "TypeError");
        row("clipvalue unpacking", "table", "optimizer.clipvalue", "ValueError");
        row("exponent", "table", "optimizer.exponent", "ValueError");
        row("lazy_adam", "table", "optimizer.lazy_adam", "ValueError");
        row("unknown keyword", "table", "optimizer.bogus", "TypeError");
        row("output_shape", "feature", "output_shape", "TypeError");
        row("no table", "feature", "table", "ValueError");
        row("partition_strategy", "estimator", "partition_strategy", "ValueError");
        row("missing learning_rate", "estimator", "optimization_parameters.learning_rate", "TypeError");
        row("beta1 comparison", "estimator", "optimization_parameters.beta1", "TypeError");
        row("feature on a rejected table", "estimator", "", "ValueError");
    }
    void validationFields() {
        QFETCH(QString, object);
        QFETCH(QString, field);
        QFETCH(QString, kind);
        const QString name = QString::fromLatin1(QTest::currentDataTag());
        EmbeddingDocument doc = EmbeddingDocument::example();
        // The TF1 spec repeats the tables' and features' values (and their errors): on only
        // for its own rows.
        doc.estimator.enabled = object == QLatin1String("estimator");
        EmbeddingTable& t = doc.tables[0];
        EmbeddingFeature& f = doc.features[0];
        QJsonObject& params = doc.estimator.optimization_parameters;
        if (name == "dim") t.dim = -3;
        if (name == "vocabulary_size") t.vocabulary_size = QStringLiteral("many");
        if (name == "combiner") t.combiner = QStringLiteral("max");
        if (name == "num_buckets comparison") t.quantization = EmbeddingQuantization{QStringLiteral("x"), -1.0, 1.0};
        if (name == "clipvalue unpacking")
            t.optimizer.keywords[QStringLiteral("clipvalue")] = QJsonObject{{QStringLiteral("tuple"), QJsonArray{1, 2, 3}}};
        if (name == "exponent") {
            t.optimizer.type = QStringLiteral("AdagradMomentum");
            t.optimizer.keywords[QStringLiteral("exponent")] = 0;
        }
        if (name == "lazy_adam") {
            t.optimizer.type = QStringLiteral("Adam");
            t.optimizer.keywords[QStringLiteral("use_gradient_accumulation")] = false;
            t.optimizer.keywords[QStringLiteral("lazy_adam")] = false;
        }
        if (name == "unknown keyword") t.optimizer.keywords[QStringLiteral("bogus")] = 1;
        if (name == "output_shape") f.output_shape = 1.5;
        if (name == "no table") f.table = -1;
        if (name == "partition_strategy") doc.estimator.partition_strategy = QStringLiteral("hash");
        if (name == "missing learning_rate") params.remove(QStringLiteral("learning_rate"));
        if (name == "beta1 comparison") {
            params[QStringLiteral("type")] = QStringLiteral("AdamParameters");
            params[QStringLiteral("beta1")] = QStringLiteral("x");
        }
        if (name == "feature on a rejected table") f.table = 7;  // the TF1 feature names no table

        const EmbeddingValidation v = validateEmbeddingDocument(doc);
        const ObjectCheck& check = object == QLatin1String("table")     ? v.tables[0]
                                   : object == QLatin1String("feature") ? v.features[0]
                                                                        : v.estimator;
        QCOMPARE(check.errors.size(), size_t(1));
        QCOMPARE(check.errors[0].field, field);
        QCOMPARE(check.errors[0].kind, kind);
        // A table TF rejects fails its feature too (on the feature's `table`), as does a TF1
        // feature without a table.
        // (TableConfig's own arguments: the optimizer's and quantization_config's are built first.)
        const bool alsoFeature = (object == QLatin1String("table") && !field.contains(u'.')) ||
                                 name == "feature on a rejected table";
        for (const ObjectCheck* other : {&v.tables[0], &v.features[0], &v.estimator}) {
            if (other == &check) continue;
            if (alsoFeature && other == &v.features[0]) {
                QCOMPARE(other->errors.size(), size_t(1));
                QCOMPARE(other->errors[0].field, QStringLiteral("table"));
            } else {
                QVERIFY(other->ok());
            }
        }
    }

    // Typing into one control marks that control only.
    void editorMarksTheControl_data() {
        QTest::addColumn<QString>("control");  // the QLineEdit typed into
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("errorLabels");  // the labels shown, separated by spaces
        QTest::addColumn<QString>("frames");       // the controls framed red
        const auto row = [](const char* name, const char* control, const char* text, const char* label, const char* frame) {
            QTest::newRow(name) << QString::fromLatin1(control) << QString::fromLatin1(text) << QString::fromLatin1(label)
                                << QString::fromLatin1(frame);
        };
        // A table TF rejects also marks its feature's table.
        row("dim", "tableDim", "0", "featureTableError tableDimError", "featureTable tableDim");
        row("vocabulary_size", "tableVocabularySize", "-1", "featureTableError tableVocabularySizeError",
            "featureTable tableVocabularySize");
        row("combiner", "tableCombinerEdit", "max", "featureTableError tableCombinerError", "featureTable tableCombiner");
        row("num_buckets comparison", "quantNumBuckets", "'x'", "quantNumBucketsError", "quantNumBuckets");
        row("upper is not checked by TF", "quantUpper", "'x'", "", "");
        row("clipvalue unpacking", "optimizer_clipvalue", "(1, 2, 3)", "optimizer_clipvalueError", "optimizer_clipvalue");
        row("initial_accumulator_value comparison", "optimizer_initial_accumulator_value", "'x'",
            "optimizer_initial_accumulator_valueError", "optimizer_initial_accumulator_value");
        row("max_sequence_length", "featureMaxSequenceLength", "-1", "featureMaxSequenceLengthError",
            "featureMaxSequenceLength");
        row("output_shape", "featureOutputShape", "1.5", "featureOutputShapeError", "featureOutputShape");
        row("validate_weights_and_indices", "featureValidateWeightsAndIndices", "0",
            "featureValidateWeightsAndIndicesError", "featureValidateWeightsAndIndices");
        row("partition_strategy", "estimatorPartitionStrategyEdit", "hash", "estimatorPartitionStrategyError",
            "estimatorPartitionStrategy");
    }
    void editorMarksTheControl() {
        QFETCH(QString, control);
        QFETCH(QString, text);
        QFETCH(QString, errorLabels);
        QFETCH(QString, frames);
        EmbeddingModel model;
        ConfigEditor editor(&model);
        QVERIFY(showExposed(&editor));
        if (control.startsWith(QLatin1String("estimator")))  // else its TF1 spec would fail as well
            editor.findChild<QCheckBox*>(QStringLiteral("estimatorEnabled"))->setChecked(true);
        editor.findChild<QCheckBox*>(QStringLiteral("quantizationEnabled"))->setChecked(true);
        QCOMPARE(shownErrorLabels(editor), QStringList());
        auto* edit = editor.findChild<QLineEdit*>(control);
        QVERIFY(edit);
        retype(edit, text);
        QCOMPARE(shownErrorLabels(editor), errorLabels.split(u' ', Qt::SkipEmptyParts));
        QCOMPARE(framedRed(editor), frames.split(u' ', Qt::SkipEmptyParts));
    }

    // TF stops at its first bad argument; the workbench shows every wrong field at once (a
    // user fixing one should not discover the next only then).
    void everyWrongFieldShowsItsError() {
        EmbeddingDocument doc = EmbeddingDocument::example();
        EmbeddingTable& t = doc.tables[0];
        t.vocabulary_size = -1;
        t.dim = 0;
        t.optimizer.type = QStringLiteral("AdagradMomentum");
        t.optimizer.keywords[QStringLiteral("exponent")] = 0;
        t.optimizer.keywords[QStringLiteral("clipvalue")] = QJsonObject{{QStringLiteral("tuple"), QJsonArray{1, 2, 3}}};
        QStringList fields;
        const EmbeddingValidation v = validateEmbeddingDocument(doc);
        for (const FieldError& e : v.tables[0].errors) fields << e.field;
        fields.sort();
        QCOMPARE(fields, (QStringList{"dim", "optimizer.clipvalue", "optimizer.exponent", "vocabulary_size"}));

        EmbeddingModel model;
        ConfigEditor editor(&model);
        QVERIFY(showExposed(&editor));
        retype(editor.findChild<QLineEdit*>(QStringLiteral("tableDim")), QStringLiteral("0"));
        retype(editor.findChild<QLineEdit*>(QStringLiteral("tableVocabularySize")), QStringLiteral("-1"));
        QCOMPARE(shownErrorLabels(editor),
                 (QStringList{"featureTableError", "tableDimError", "tableVocabularySizeError"}));
        QVERIFY(editor.findChild<QLabel*>(QStringLiteral("tableDimError"))->text().contains(QStringLiteral("dim")));
        QVERIFY(editor.findChild<QLabel*>(QStringLiteral("tableVocabularySizeError"))->text().contains(QStringLiteral("vocabulary")));
    }

    // Errors of other kinds than the one field: the optimizer's own keywords with the class
    // chosen in its combo box, and the object labels for errors no control holds.
    void editorMarksOptimizerKeywords() {
        EmbeddingModel model;
        ConfigEditor editor(&model);
        editor.show();
        editor.findChild<QComboBox*>(QStringLiteral("optimizerType"))->setCurrentText(QStringLiteral("AdagradMomentum"));
        retype(editor.findChild<QLineEdit*>(QStringLiteral("optimizer_exponent")), QStringLiteral("0"));
        QCOMPARE(shownErrorLabels(editor), QStringList{QStringLiteral("optimizer_exponentError")});
        QCOMPARE(editor.findChild<QLabel*>(QStringLiteral("optimizer_exponentError"))->text(),
                 QStringLiteral("ValueError: Adagrad momentum: Precondition exponent must >0"));

        retype(editor.findChild<QLineEdit*>(QStringLiteral("optimizer_exponent")), QString());  // not passed
        QCOMPARE(shownErrorLabels(editor), QStringList());
        editor.findChild<QComboBox*>(QStringLiteral("optimizerType"))->setCurrentText(QStringLiteral("Adam"));
        QCOMPARE(shownErrorLabels(editor), QStringList());
        retype(editor.findChild<QLineEdit*>(QStringLiteral("optimizer_use_gradient_accumulation")), QStringLiteral("False"));
        retype(editor.findChild<QLineEdit*>(QStringLiteral("optimizer_lazy_adam")), QStringLiteral("False"));
        QCOMPARE(shownErrorLabels(editor), QStringList{QStringLiteral("optimizer_lazy_adamError")});

        // A keyword the class does not take has no control: the table's own label shows it.
        EmbeddingDocument doc = model.document();
        doc.tables[0].optimizer.keywords[QStringLiteral("bogus")] = 1;
        model.reset(doc);
        // (lazy_adam's error, still there, shows too: every wrong field at once.)
        QCOMPARE(shownErrorLabels(editor), (QStringList{"optimizer_lazy_adamError", "tableError"}));
        QCOMPARE(editor.findChild<QLabel*>(QStringLiteral("tableError"))->text(),
                 QStringLiteral("TypeError: Adam.__init__() got an unexpected keyword argument 'bogus'"));
    }
};

QTEST_MAIN(TestEmbeddingErrorFields)
#include "tst_embedding_error_fields.moc"
