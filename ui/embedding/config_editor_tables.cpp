// The table form of the configuration editor: TableConfig's keywords, its optimizer (one
// field per keyword of the chosen class), quantization_config, the initializer and the
// table's data file.
#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QSpinBox>
#include <limits>
#include <tuple>

#include "core/tpu/config.h"
#include "session/workbench/embedding_model.h"
#include "ui/embedding/config_editor.h"
#include "ui/embedding/config_editor_widgets.h"

namespace qs::ui {

using namespace editor;

QWidget* ConfigEditor::buildTables() {
    const ObjectSection objects = objectSection(tr("Tables"), QStringLiteral("table"), QStringLiteral("Table"));
    std::tie(tableList_, tableForm_, tableError_, tableName_) =
        std::tuple(objects.list, objects.formWidget, objects.error, objects.name);
    // What TF only logs, in amber under the error label.
    tableWarning_ = errorLabel(QStringLiteral("tableWarning"));
    tableWarning_->setStyleSheet(QStringLiteral("color: #b26a00;"));
    objects.form->insertRow(1, tableWarning_);
    QFormLayout* form = objects.form;

    const auto member = [this](QJsonValue EmbeddingTable::*m) {
        return std::pair{[this, m](const EmbeddingDocument& d) {
                             const int i = tableIndex();
                             return i < 0 ? kUnset : d.tables[static_cast<size_t>(i)].*m;
                         },
                         [this, m](EmbeddingDocument& d, const QJsonValue& v) {
                             d.tables[static_cast<size_t>(tableIndex())].*m = v;
                         }};
    };
    const auto table = QStringLiteral("table");
    {
        auto [get, set] = member(&EmbeddingTable::vocabulary_size);
        pyField(form, tr("vocabulary_size"), QStringLiteral("tableVocabularySize"), table,
                QStringLiteral("vocabulary_size"), fields_, false, get, set);
    }
    {
        auto [get, set] = member(&EmbeddingTable::dim);
        pyField(form, tr("dim"), QStringLiteral("tableDim"), table, QStringLiteral("dim"), fields_, false, get, set);
    }
    {
        auto [get, set] = member(&EmbeddingTable::combiner);
        auto* combo = new QComboBox;
        combo->addItems({QStringLiteral("mean"), QStringLiteral("sum"), QStringLiteral("sqrtn")});
        pyField(form, tr("combiner"), QStringLiteral("tableCombiner"), table, QStringLiteral("combiner"), fields_,
                false, get, set, combo);
    }

    optimizerType_ = new QComboBox;
    optimizerType_->setObjectName(QStringLiteral("optimizerType"));
    optimizerType_->addItems(kOptimizers);
    form->addRow(tr("optimizer"), withError(optimizerType_, QStringLiteral("optimizerType"), &optimizerTypeError_));
    auto* optimizerBox = new QWidget;
    optimizerBox->setObjectName(QStringLiteral("optimizerParameters"));
    optimizerForm_ = new QFormLayout(optimizerBox);
    optimizerForm_->setContentsMargins(16, 0, 0, 0);
    // Keyword names are long ("multiply_weight_decay_factor_by_learning_rate"): a field that
    // does not fit beside its name goes under it rather than shrinking to "T…".
    optimizerForm_->setRowWrapPolicy(QFormLayout::WrapLongRows);
    form->addRow(optimizerBox);

    quantEnabled_ = new QCheckBox(tr("quantization_config (simulated quantization)"));
    quantEnabled_->setObjectName(QStringLiteral("quantizationEnabled"));
    form->addRow(quantEnabled_);
    const auto quant = [this](QJsonValue EmbeddingQuantization::*m) {
        return std::pair{[this, m](const EmbeddingDocument& d) {
                             const int i = tableIndex();
                             if (i < 0 || !d.tables[static_cast<size_t>(i)].quantization) return kUnset;
                             return *d.tables[static_cast<size_t>(i)].quantization.*m;
                         },
                         [this, m](EmbeddingDocument& d, const QJsonValue& v) {
                             auto& q = d.tables[static_cast<size_t>(tableIndex())].quantization;
                             if (!q) q = EmbeddingQuantization{};
                             *q.*m = v;
                         }};
    };
    for (const auto& [key, name, m] :
         {std::tuple{"num_buckets", "quantNumBuckets", &EmbeddingQuantization::num_buckets},
          std::tuple{"lower", "quantLower", &EmbeddingQuantization::lower},
          std::tuple{"upper", "quantUpper", &EmbeddingQuantization::upper}}) {
        auto [get, set] = quant(m);
        pyField(form, QStringLiteral("    %1").arg(QLatin1String(key)), QLatin1String(name), table,
                QStringLiteral("quantization_config.") + QLatin1String(key), fields_, false, get, set);
    }

    initKind_ = new QComboBox;
    initKind_->setObjectName(QStringLiteral("initializerKind"));
    initKind_->addItems(kInitializers);
    form->addRow(tr("initializer"), initKind_);
    auto* initBox = new QWidget;
    initForm_ = new QFormLayout(initBox);
    initForm_->setContentsMargins(16, 0, 0, 0);
    initMean_ = doubleSpin(QStringLiteral("initializerMean"));
    initStddev_ = doubleSpin(QStringLiteral("initializerStddev"));
    initStddev_->setMinimum(0.0);
    initStddev_->setSpecialValueText(tr("1/sqrt(dim)"));
    initMinval_ = doubleSpin(QStringLiteral("initializerMinval"));
    initMaxval_ = doubleSpin(QStringLiteral("initializerMaxval"));
    initValue_ = doubleSpin(QStringLiteral("initializerValue"));
    initSeed_ = new QSpinBox;
    initSeed_->setObjectName(QStringLiteral("initializerSeed"));
    initSeed_->setRange(0, std::numeric_limits<int>::max());
    initForm_->addRow(tr("mean"), initMean_);
    initForm_->addRow(tr("stddev"), initStddev_);
    initForm_->addRow(tr("minval"), initMinval_);
    initForm_->addRow(tr("maxval"), initMaxval_);
    initForm_->addRow(tr("value"), initValue_);
    initForm_->addRow(tr("seed"), initSeed_);
    form->addRow(initBox);
    const FileRow dataFile = addFileRow(form, tr("data file"), QStringLiteral("tableDataFile"),
                                        tr("none: values from the initializer"));
    tableDataFile_ = dataFile.edit;

    connectObjects(
        objects, &EmbeddingViewState::table, [this] { model_->addTable(); }, [this](int i) { model_->removeTable(i); },
        [this](int i, const QString& name) { model_->renameTable(i, name); }, [this] { return tableIndex(); });
    connect(optimizerType_, &QComboBox::currentTextChanged, this, [this](const QString& type) {
        editTable([&](EmbeddingTable& t) { t.optimizer.type = type; }, tr("Change optimizer"));
    });
    connect(quantEnabled_, &QCheckBox::toggled, this, [this](bool on) {
        editTable([&](EmbeddingTable& t) {
            if (on && !t.quantization) t.quantization = EmbeddingQuantization{};
            if (!on) t.quantization.reset();
        }, on ? tr("Enable quantization") : tr("Disable quantization"));
    });
    connect(initKind_, &QComboBox::currentTextChanged, this, [this](const QString& kind) {
        editTable([&](EmbeddingTable& t) { t.initializer.kind = kind; }, tr("Change initializer"));
    });
    for (const auto& [spin, m, key] :
         {std::tuple{initMean_, &EmbeddingInitializer::mean, "mean"},
          std::tuple{initStddev_, &EmbeddingInitializer::stddev, "stddev"},
          std::tuple{initMinval_, &EmbeddingInitializer::minval, "minval"},
          std::tuple{initMaxval_, &EmbeddingInitializer::maxval, "maxval"},
          std::tuple{initValue_, &EmbeddingInitializer::value, "value"}}) {
        connect(spin, &QDoubleSpinBox::valueChanged, this, [this, m = m, key = key](double v) {
            editTable([&](EmbeddingTable& t) { t.initializer.*m = v; }, tr("Edit initializer %1").arg(QLatin1String(key)),
                      QStringLiteral("initializer.") + QLatin1String(key));
        });
    }
    connect(initSeed_, &QSpinBox::valueChanged, this, [this](int seed) {
        editTable([&](EmbeddingTable& t) { t.initializer.seed = seed; }, tr("Edit initializer seed"),
                  QStringLiteral("initializer.seed"));
    });
    connect(tableDataFile_, &QLineEdit::textEdited, this, [this](const QString& path) {
        editTable([&](EmbeddingTable& t) { t.data_file = path; }, tr("Change table data file"), QStringLiteral("data_file"));
    });
    connect(dataFile.browse, &QPushButton::clicked, this, [this] {
        const QString path = QFileDialog::getOpenFileName(this, tr("Table data"), QString(),
                                                          tr("Tables (*.npy *.csv *.vec);;All files (*)"));
        if (!path.isEmpty())
            editTable([&](EmbeddingTable& t) { t.data_file = path; }, tr("Change table data file"));
    });
    return objects.group;
}

// The selected table's optimizer keywords, one field per keyword of its class (TF's default
// as placeholder; empty = not passed).
void ConfigEditor::rebuildOptimizerFields() {
    const int i = tableIndex();
    const QString type = i < 0 ? QString() : model_->document().tables[static_cast<size_t>(i)].optimizer.type;
    if (type == optimizerFieldsType_) return;
    optimizerFieldsType_ = type;
    while (optimizerForm_->rowCount() > 0) optimizerForm_->removeRow(0);
    optimizerFields_.clear();
    const auto kind = tpu::optimizerKindFromName(type.toStdString());
    if (!kind) return;
    const auto defaults = tpu::makeOptimizer(*kind, {});
    if (!defaults) return;
    optimizerFields_.reserve(defaults->instance()->args.size());
    for (const auto& [name, def] : defaults->instance()->args) {
        if (name == "slot_variable_creation_fn") continue;  // a Python function: not editable here
        const QString key = QString::fromStdString(name);
        QLineEdit* edit = pyField(
            optimizerForm_, key, QStringLiteral("optimizer_") + key, QStringLiteral("table"),
            QStringLiteral("optimizer.") + key, optimizerFields_, true,
            [this, key](const EmbeddingDocument& d) {
                const int t = tableIndex();
                return t < 0 ? kUnset : d.tables[static_cast<size_t>(t)].optimizer.keywords.value(key);
            },
            [this, key](EmbeddingDocument& d, const QJsonValue& v) {
                QJsonObject& kw = d.tables[static_cast<size_t>(tableIndex())].optimizer.keywords;
                if (v.isUndefined()) kw.remove(key);
                else kw[key] = v;
            });
        edit->setPlaceholderText(QString::fromStdString(def.repr()));
        edit->setMinimumWidth(edit->fontMetrics().horizontalAdvance(QStringLiteral("0.000001  ")) + 16);
    }
}

}  // namespace qs::ui
