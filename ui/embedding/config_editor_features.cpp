// The feature form of the configuration editor (FeatureConfig's keywords, its table and
// its lookup ids) and the TF1 EmbeddingConfigSpec options.
#include <QCheckBox>
#include <QComboBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <tuple>

#include "session/workbench/embedding_model.h"
#include "ui/embedding/config_editor.h"
#include "ui/embedding/config_editor_widgets.h"

namespace qs::ui {

QWidget* ConfigEditor::buildFeatures() {
    const editor::ObjectSection objects =
        editor::objectSection(tr("Features"), QStringLiteral("feature"), QStringLiteral("Feature"));
    std::tie(featureList_, featureForm_, featureError_, featureName_) =
        std::tuple(objects.list, objects.formWidget, objects.error, objects.name);
    QFormLayout* form = objects.form;
    featureTable_ = new QComboBox;
    featureTable_->setObjectName(QStringLiteral("featureTable"));
    form->addRow(tr("table"), withError(featureTable_, QStringLiteral("featureTable"), &featureTableError_));

    const auto member = [this](QJsonValue EmbeddingFeature::*m, bool noneWhenEmpty) {
        return std::pair{[this, m](const EmbeddingDocument& d) {
                             const int i = featureIndex();
                             return i < 0 ? editor::kUnset : d.features[static_cast<size_t>(i)].*m;
                         },
                         [this, m, noneWhenEmpty](EmbeddingDocument& d, const QJsonValue& v) {
                             d.features[static_cast<size_t>(featureIndex())].*m =
                                 v.isUndefined() && noneWhenEmpty ? QJsonValue(QJsonValue::Null) : v;
                         }};
    };
    const auto feature = QStringLiteral("feature");
    for (const auto& [key, name, m, optional] :
         {std::tuple{"max_sequence_length", "featureMaxSequenceLength", &EmbeddingFeature::max_sequence_length, false},
          std::tuple{"validate_weights_and_indices", "featureValidateWeightsAndIndices",
                     &EmbeddingFeature::validate_weights_and_indices, false},
          std::tuple{"output_shape", "featureOutputShape", &EmbeddingFeature::output_shape, true}}) {
        auto [get, set] = member(m, optional);
        QLineEdit* edit = pyField(form, QLatin1String(key), QLatin1String(name), feature, QLatin1String(key),
                                  fields_, optional, get, set);
        if (optional) edit->setPlaceholderText(QStringLiteral("None"));
    }
    featureIds_ = new QLineEdit;
    featureIds_->setObjectName(QStringLiteral("featureIds"));
    featureIds_->setToolTip(tr("uniform:batch=1024,ids=4,seed=1 or zipf:batch=4096,ids=8,s=1.1,weights=1,seed=7"));
    form->addRow(tr("id batch"), featureIds_);
    const editor::FileRow idsFile =
        editor::addFileRow(form, tr("ids CSV"), QStringLiteral("featureIdsFile"), tr("none: generated ids"));
    featureIdsFile_ = idsFile.edit;

    connectObjects(
        objects, &EmbeddingViewState::feature, [this] { model_->addFeature(); }, [this](int i) { model_->removeFeature(i); },
        [this](int i, const QString& name) { model_->renameFeature(i, name); }, [this] { return featureIndex(); });
    connect(featureTable_, &QComboBox::currentIndexChanged, this, [this](int index) {
        editFeature([&](EmbeddingFeature& f) { f.table = index - 1; }, tr("Change feature table"));
    });
    connect(featureIds_, &QLineEdit::textEdited, this, [this](const QString& spec) {
        editFeature([&](EmbeddingFeature& f) { f.ids = spec; }, tr("Edit id batch"), QStringLiteral("ids"));
    });
    connect(featureIds_, &QLineEdit::editingFinished, model_, &EmbeddingModel::endTyping);
    connect(featureIdsFile_, &QLineEdit::textEdited, this, [this](const QString& path) {
        editFeature([&](EmbeddingFeature& f) { f.ids_file = path; }, tr("Change ids file"), QStringLiteral("ids_file"));
    });
    connect(idsFile.browse, &QPushButton::clicked, this, [this] {
        const QString path = QFileDialog::getOpenFileName(this, tr("Lookup ids"), QString(),
                                                          tr("CSV (*.csv);;All files (*)"));
        if (!path.isEmpty()) editFeature([&](EmbeddingFeature& f) { f.ids_file = path; }, tr("Change ids file"));
    });
    return objects.group;
}

QWidget* ConfigEditor::buildEstimator() {
    auto* group = new QGroupBox(tr("Estimator (TF1)"));
    estimatorGroup_ = group;
    auto* form = new QFormLayout(group);
    estimatorEnabled_ = new QCheckBox(tr("Build an EmbeddingConfigSpec for TPUEstimator"));
    estimatorEnabled_->setObjectName(QStringLiteral("estimatorEnabled"));
    form->addRow(estimatorEnabled_);
    estimatorError_ = editor::errorLabel(QStringLiteral("estimatorError"));
    form->addRow(estimatorError_);

    const auto member = [](QJsonValue EstimatorOptions::*m, bool noneWhenEmpty) {
        return std::pair{[m](const EmbeddingDocument& d) { return d.estimator.*m; },
                         [m, noneWhenEmpty](EmbeddingDocument& d, const QJsonValue& v) {
                             d.estimator.*m = v.isUndefined() && noneWhenEmpty ? QJsonValue(QJsonValue::Null) : v;
                         }};
    };
    const auto scope = QStringLiteral("estimator");
    {
        auto [get, set] = member(&EstimatorOptions::partition_strategy, false);
        auto* combo = new QComboBox;
        combo->addItems({QStringLiteral("div"), QStringLiteral("mod")});
        pyField(form, tr("partition_strategy"), QStringLiteral("estimatorPartitionStrategy"), scope,
                QStringLiteral("partition_strategy"), fields_, false, get, set, combo);
    }
    estimatorPipelining_ = new QCheckBox(tr("pipeline_execution_with_tensor_core"));
    estimatorPipelining_->setObjectName(QStringLiteral("estimatorPipelining"));
    form->addRow(estimatorPipelining_);
    {
        auto [get, set] = member(&EstimatorOptions::clipping_limit, true);
        pyField(form, tr("clipping_limit"), QStringLiteral("estimatorClippingLimit"), scope,
                QStringLiteral("clipping_limit"), fields_, true, get, set)
            ->setPlaceholderText(QStringLiteral("None"));
    }
    estimatorOptimizer_ = new QComboBox;
    estimatorOptimizer_->setObjectName(QStringLiteral("estimatorOptimizer"));
    estimatorOptimizer_->addItems(editor::kParameterClasses);
    form->addRow(tr("optimization_parameters"), estimatorOptimizer_);
    pyField(
        form, tr("    learning_rate"), QStringLiteral("estimatorLearningRate"), scope,
        QStringLiteral("optimization_parameters.learning_rate"), fields_, false,
        [](const EmbeddingDocument& d) {
            return d.estimator.optimization_parameters.value(QStringLiteral("learning_rate"));
        },
        [](EmbeddingDocument& d, const QJsonValue& v) {
            d.estimator.optimization_parameters[QStringLiteral("learning_rate")] = v;
        });

    const auto editEstimator = [this](const std::function<void(EstimatorOptions&)>& change, const QString& what) {
        if (refreshing_) return;
        EstimatorOptions o = model_->document().estimator;
        change(o);
        model_->setEstimator(o, what);
    };
    connect(estimatorEnabled_, &QCheckBox::toggled, this, [editEstimator](bool on) {
        editEstimator([&](EstimatorOptions& o) { o.enabled = on; }, tr("Toggle EmbeddingConfigSpec"));
    });
    connect(estimatorPipelining_, &QCheckBox::toggled, this, [editEstimator](bool on) {
        editEstimator([&](EstimatorOptions& o) { o.pipeline_execution_with_tensor_core = on; },
                      tr("Toggle pipelining"));
    });
    connect(estimatorOptimizer_, &QComboBox::currentTextChanged, this, [editEstimator](const QString& type) {
        editEstimator([&](EstimatorOptions& o) { o.optimization_parameters[QStringLiteral("type")] = type; },
                      tr("Change optimization parameters"));
    });
    return group;
}

}  // namespace qs::ui
