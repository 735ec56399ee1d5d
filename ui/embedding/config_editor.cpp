// The editor's frame: its layout and file actions, the Python-literal fields' plumbing
// (commit, merge keys), and refreshing values and TF's errors from the model. The forms
// are built in config_editor_tables.cpp and config_editor_features.cpp.
#include "ui/embedding/config_editor.h"

#include <QApplication>
#include <QCheckBox>
#include <QClipboard>
#include <QComboBox>
#include <QDialog>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFontDatabase>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScrollArea>
#include <QSpinBox>
#include <QVBoxLayout>
#include <limits>

#include "session/workbench/embedding_model.h"
#include "session/workbench/py_json.h"
#include "session/workbench/workbench_inputs.h"
#include "ui/embedding/config_editor_widgets.h"

namespace qs::ui {

using namespace editor;

namespace {

// `change` applied to the selected table / feature (`index`, -1: none) as one edit; edits with
// the same `mergeKey` ("initializer.seed") merge into one undo step per object.
template <typename T>
void editSelected(EmbeddingModel& model, int index, std::vector<T> EmbeddingDocument::*list, const char* listName,
                  void (EmbeddingModel::*set)(int, const T&, const QString&, const QString&),
                  const std::function<void(T&)>& change, const QString& what, const QString& mergeKey) {
    if (index < 0) return;
    T item = (model.document().*list)[static_cast<size_t>(index)];
    change(item);
    (model.*set)(index, item, what,
                 mergeKey.isEmpty() ? QString() : QStringLiteral("%1[%2].%3").arg(QLatin1String(listName)).arg(index).arg(mergeKey));
}

}  // namespace

ConfigEditor::ConfigEditor(EmbeddingModel* model, QWidget* parent) : QWidget(parent), model_(model) {
    auto* content = new QWidget;
    auto* column = new QVBoxLayout(content);

    auto* actions = new QHBoxLayout;
    auto* open = new QPushButton(tr("Open config…"));
    open->setObjectName(QStringLiteral("openConfig"));
    auto* save = new QPushButton(tr("Save config…"));
    save->setObjectName(QStringLiteral("saveConfig"));
    auto* copy = new QPushButton(tr("Copy as TensorFlow code"));
    copy->setObjectName(QStringLiteral("copyPython"));
    actions->addWidget(open);
    actions->addWidget(save);
    actions->addWidget(copy);
    actions->addStretch();
    column->addLayout(actions);
    status_ = new QLabel;
    status_->setObjectName(QStringLiteral("editorStatus"));
    status_->setWordWrap(true);
    column->addWidget(status_);

    column->addWidget(buildTables());
    column->addWidget(buildFeatures());
    column->addWidget(buildEstimator());
    auto* hosts = new QFormLayout;
    numHosts_ = new QSpinBox;
    numHosts_->setObjectName(QStringLiteral("numHosts"));
    numHosts_->setRange(1, 65536);
    hosts->addRow(tr("Number of hosts"), numHosts_);
    column->addLayout(hosts);
    column->addStretch();

    auto* scroll = new QScrollArea;
    scroll->setWidgetResizable(true);
    scroll->setWidget(content);
    auto* outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    outer->addWidget(scroll);

    connect(open, &QPushButton::clicked, this, [this] {
        const QString path = QFileDialog::getOpenFileName(this, tr("Open embedding configuration"), QString(),
                                                          tr("Embedding configuration (*.json);;All files (*)"));
        if (!path.isEmpty()) openFrom(path);
    });
    connect(save, &QPushButton::clicked, this, [this] {
        const QString path = QFileDialog::getSaveFileName(this, tr("Save embedding configuration"), QString(),
                                                          tr("Embedding configuration (*.json)"));
        if (!path.isEmpty()) saveTo(path);
    });
    connect(copy, &QPushButton::clicked, this, [this] { copyPythonCode(); });
    connect(numHosts_, &QSpinBox::valueChanged, this, [this](int n) {
        if (!refreshing_) model_->setNumHosts(n);
    });
    connect(model_, &EmbeddingModel::documentChanged, this, &ConfigEditor::refresh);
    connect(model_, &EmbeddingModel::viewChanged, this, &ConfigEditor::refresh);
    connect(model_, &EmbeddingModel::validationChanged, this, &ConfigEditor::refreshErrors);
    refresh();
}

int ConfigEditor::tableIndex() const {
    const int i = model_->document().view.table;
    return valid(i, model_->document().tables.size()) ? i : -1;
}

int ConfigEditor::featureIndex() const {
    const int i = model_->document().view.feature;
    return valid(i, model_->document().features.size()) ? i : -1;
}

void ConfigEditor::connectObjects(const ObjectSection& section, int EmbeddingViewState::*selection,
                                  std::function<void()> add, std::function<void(int)> remove,
                                  std::function<void(int, const QString&)> rename, std::function<int()> index) {
    // Plain callables, not pointers to member functions: GCC's UBSan (the sanitizer run)
    // misreads a member-function pointer called on a captured `this` as a null object.
    connect(section.list, &QListWidget::currentRowChanged, this, [this, selection](int r) {
        if (refreshing_ || r < 0) return;
        EmbeddingViewState v = model_->document().view;
        v.*selection = r;
        model_->setView(v);
    });
    connect(section.add, &QPushButton::clicked, model_, [add] { add(); });
    connect(section.remove, &QPushButton::clicked, this, [remove, index] { remove(index()); });
    connect(section.name, &QLineEdit::textEdited, this, [this, rename, index](const QString& name) {
        if (!refreshing_) rename(index(), name);
    });
    connect(section.name, &QLineEdit::editingFinished, model_, &EmbeddingModel::endTyping);
}

// An editor with its error label underneath (hidden while the field is fine).
QWidget* ConfigEditor::withError(QWidget* editor, const QString& name, QLabel** error) {
    auto* box = new QWidget;
    auto* v = new QVBoxLayout(box);
    v->setContentsMargins(0, 0, 0, 0);
    v->setSpacing(2);
    v->addWidget(editor);
    QLabel* label = errorLabel(name + QStringLiteral("Error"));
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    v->addWidget(label);
    *error = label;
    return box;
}

QLineEdit* ConfigEditor::pyField(QFormLayout* form, const QString& label, const QString& name,
                                 const QString& scope, const QString& key, std::vector<PyField>& into,
                                 bool optional, std::function<QJsonValue(const EmbeddingDocument&)> get,
                                 std::function<void(EmbeddingDocument&, const QJsonValue&)> set,
                                 QComboBox* combo) {
    PyField f;
    if (combo) {
        combo->setEditable(true);
        combo->setInsertPolicy(QComboBox::NoInsert);  // a typed value is a value, not a new choice
        combo->setObjectName(name);
        f.edit = combo->lineEdit();
        f.edit->setObjectName(name + QStringLiteral("Edit"));
        f.frame = combo;
    } else {
        f.edit = new QLineEdit;
        f.edit->setObjectName(name);
        f.frame = f.edit;
    }
    f.scope = scope;
    f.key = key;
    f.optional = optional;
    f.get = std::move(get);
    f.set = std::move(set);
    form->addRow(label, withError(f.frame, name, &f.error));
    QLineEdit* edit = f.edit;
    const size_t index = into.size();
    std::vector<PyField>* list = &into;
    connect(edit, &QLineEdit::textEdited, this, [this, list, index](const QString& text) {
        commit((*list)[index], text);
    });
    connect(edit, &QLineEdit::editingFinished, model_, &EmbeddingModel::endTyping);
    if (combo)
        connect(combo, &QComboBox::textActivated, this, [this, list, index](const QString& text) {
            commit((*list)[index], text);
            model_->endTyping();
        });
    into.push_back(std::move(f));
    return edit;
}

void ConfigEditor::commit(const PyField& field, const QString& text) {
    if (refreshing_) return;
    QString where;
    if (field.scope == QLatin1String("table")) {
        if (tableIndex() < 0) return;
        where = QStringLiteral("tables[%1].").arg(tableIndex());
    } else if (field.scope == QLatin1String("feature")) {
        if (featureIndex() < 0) return;
        where = QStringLiteral("features[%1].").arg(featureIndex());
    } else {
        where = field.scope + u'.';
    }
    EmbeddingDocument next = model_->document();
    field.set(next, field.optional && text.trimmed().isEmpty() ? kUnset : jsonFromPyLiteral(text));
    model_->edit(next, tr("Edit %1").arg(field.key), where + field.key);
}

void ConfigEditor::editTable(const std::function<void(EmbeddingTable&)>& change, const QString& what,
                             const QString& mergeKey) {
    if (!refreshing_)
        editSelected(*model_, tableIndex(), &EmbeddingDocument::tables, "tables", &EmbeddingModel::setTable, change,
                     what, mergeKey);
}

void ConfigEditor::editFeature(const std::function<void(EmbeddingFeature&)>& change, const QString& what,
                               const QString& mergeKey) {
    if (!refreshing_)
        editSelected(*model_, featureIndex(), &EmbeddingDocument::features, "features", &EmbeddingModel::setFeature,
                     change, what, mergeKey);
}

void ConfigEditor::refresh() {
    const EmbeddingDocument& doc = model_->document();
    refreshing_ = true;

    // An unnamed table or feature is listed by the name its errors and reports give it.
    QStringList tableNames;
    for (int i = 0; i < static_cast<int>(doc.tables.size()); ++i) tableNames << tableDisplayName(doc, i);
    syncList(tableList_, tableNames, tableIndex());
    const int ti = tableIndex();
    tableForm_->setEnabled(ti >= 0);
    rebuildOptimizerFields();
    if (ti >= 0) {
        const EmbeddingTable& t = doc.tables[static_cast<size_t>(ti)];
        setTextIfChanged(tableName_, t.name);
        optimizerType_->setCurrentText(t.optimizer.type);
        quantEnabled_->setChecked(t.quantization.has_value());
        initKind_->setCurrentText(t.initializer.kind);
        initMean_->setValue(t.initializer.mean);
        initStddev_->setValue(t.initializer.stddev);
        initMinval_->setValue(t.initializer.minval);
        initMaxval_->setValue(t.initializer.maxval);
        initValue_->setValue(t.initializer.value);
        initSeed_->setValue(static_cast<int>(std::min<qint64>(t.initializer.seed, std::numeric_limits<int>::max())));
        const QString& kind = t.initializer.kind;
        const bool normal = kind == QLatin1String("truncated_normal"), uniform = kind == QLatin1String("uniform");
        initForm_->setRowVisible(initMean_, normal);
        initForm_->setRowVisible(initStddev_, normal);
        initForm_->setRowVisible(initMinval_, uniform);
        initForm_->setRowVisible(initMaxval_, uniform);
        initForm_->setRowVisible(initValue_, kind == QLatin1String("constant"));
        initForm_->setRowVisible(initSeed_, normal || uniform);
        initKind_->setEnabled(t.data_file.isEmpty());
        setTextIfChanged(tableDataFile_, t.data_file);
    }

    QStringList names;
    for (int i = 0; i < static_cast<int>(doc.features.size()); ++i) names << featureDisplayName(doc, i);
    syncList(featureList_, names, featureIndex());
    const int fi = featureIndex();
    featureForm_->setEnabled(fi >= 0);
    featureTable_->clear();
    featureTable_->addItem(tr("(none)"));
    featureTable_->addItems(tableNames);
    if (fi >= 0) {
        const EmbeddingFeature& f = doc.features[static_cast<size_t>(fi)];
        setTextIfChanged(featureName_, f.name);
        featureTable_->setCurrentIndex(valid(f.table, doc.tables.size()) ? f.table + 1 : 0);
        setTextIfChanged(featureIds_, f.ids);
        setTextIfChanged(featureIdsFile_, f.ids_file);
        featureIds_->setEnabled(f.ids_file.isEmpty());
    }

    estimatorEnabled_->setChecked(doc.estimator.enabled);
    estimatorPipelining_->setChecked(doc.estimator.pipeline_execution_with_tensor_core.toBool(false));
    estimatorPipelining_->setEnabled(doc.estimator.enabled);
    estimatorOptimizer_->setEnabled(doc.estimator.enabled);
    estimatorOptimizer_->setCurrentText(doc.estimator.optimization_parameters.value(QStringLiteral("type")).toString());
    numHosts_->setValue(doc.num_hosts);

    // Keyword fields: rewritten only when the model holds another value than the text says,
    // so typing (and the cursor) is never disturbed by its own edit.
    for (auto* list : {&fields_, &optimizerFields_}) {
        for (const PyField& f : *list) {
            const QJsonValue v = f.get(doc);
            const bool unusedGroup = (f.key.startsWith(QLatin1String("quantization_config")) && v.isUndefined()) ||
                                     (f.scope == QLatin1String("estimator") && !doc.estimator.enabled);
            f.frame->setEnabled(!unusedGroup);
            if (v.isUndefined()) {
                if (f.optional || !f.edit->text().isEmpty()) setTextIfChanged(f.edit, QString());
                continue;
            }
            if (f.optional && v.isNull() && f.edit->text().trimmed().isEmpty()) continue;
            if (f.edit->text().trimmed().isEmpty() || jsonFromPyLiteral(f.edit->text()) != v)
                f.edit->setText(pyLiteralFromJson(v));
        }
    }
    refreshing_ = false;
    refreshErrors();
}

void ConfigEditor::showErrors(const std::vector<PyField>& fields, const ObjectCheck* check, QLabel* objectError) {
    QStringList unplaced;
    if (check)
        for (const FieldError& e : check->errors) {
            bool placed = false;
            for (const PyField& f : fields) placed = placed || f.key == e.field;
            if (!placed) unplaced << (e.kind.isEmpty() ? e.message : e.kind + QStringLiteral(": ") + e.message);
        }
    for (const PyField& f : fields) {
        const FieldError* e = check ? check->error(f.key) : nullptr;
        f.error->setVisible(e != nullptr);
        f.error->setText(e ? (e->kind.isEmpty() ? e->message : e->kind + QStringLiteral(": ") + e->message) : QString());
        f.frame->setProperty("tfError", e != nullptr);
        f.frame->setStyleSheet(e ? QStringLiteral("border: 1px solid %1;").arg(QLatin1String(kErrorColor)) : QString());
    }
    objectError->setText(unplaced.join(u'\n'));
    objectError->setVisible(!unplaced.isEmpty());
}

void ConfigEditor::refreshErrors() {
    const EmbeddingValidation& v = model_->validation();
    const int ti = tableIndex(), fi = featureIndex();
    std::vector<PyField> table, feature, estimator;
    for (auto* list : {&fields_, &optimizerFields_})
        for (const PyField& f : *list)
            (f.scope == QLatin1String("table") ? table : f.scope == QLatin1String("feature") ? feature : estimator)
                .push_back(f);
    // The optimizer type and the feature's table are combo boxes with their own labels.
    PyField typeSlot;
    typeSlot.key = QStringLiteral("optimizer.type");
    typeSlot.frame = optimizerType_;
    typeSlot.error = optimizerTypeError_;
    table.push_back(typeSlot);
    PyField tableSlot;
    tableSlot.key = QStringLiteral("table");
    tableSlot.frame = featureTable_;
    tableSlot.error = featureTableError_;
    feature.push_back(tableSlot);
    showErrors(table, valid(ti, v.tables.size()) ? &v.tables[static_cast<size_t>(ti)] : nullptr, tableError_);
    showErrors(feature, valid(fi, v.features.size()) ? &v.features[static_cast<size_t>(fi)] : nullptr, featureError_);
    showErrors(estimator, model_->document().estimator.enabled ? &v.estimator : nullptr, estimatorError_);
    // What TF only logs (e.g. a table without a name).
    const QStringList warnings = valid(ti, v.tables.size()) ? v.tables[static_cast<size_t>(ti)].warnings : QStringList();
    tableWarning_->setText(warnings.join(u'\n'));
    tableWarning_->setVisible(!warnings.isEmpty());
    markBroken(tableList_, v.tables);
    markBroken(featureList_, v.features);
}

bool ConfigEditor::openFrom(const QString& path, QString* error) {
    QString why;
    const bool ok = reportFileOutcome(model_->load(path, &why), tr("Opened %1").arg(path), why, error);
    if (ok) emit fileChanged(path);
    return ok;
}

bool ConfigEditor::saveTo(const QString& path, QString* error) {
    QString why;
    const bool ok = reportFileOutcome(model_->save(path, &why), tr("Saved %1").arg(path), why, error);
    if (ok) emit fileChanged(path);
    return ok;
}

// The status line says what happened to the file (and so does statusMessage).
bool ConfigEditor::reportFileOutcome(bool ok, const QString& done, const QString& why, QString* error) {
    status_->setText(ok ? done : why);
    emit statusMessage(status_->text());
    if (!ok && error) *error = why;
    return ok;
}

QString ConfigEditor::copyPythonCode() {
    const QString code = embeddingPythonCode(model_->document());
    if (QClipboard* clipboard = QApplication::clipboard()) clipboard->setText(code);
    if (!codeDialog_) {
        codeDialog_ = new QDialog(this);
        codeDialog_->setObjectName(QStringLiteral("pythonCodeDialog"));
        codeDialog_->setWindowTitle(tr("TensorFlow code (copied to the clipboard)"));
        auto* v = new QVBoxLayout(codeDialog_);
        auto* text = new QPlainTextEdit;
        text->setObjectName(QStringLiteral("pythonCodeView"));
        text->setReadOnly(true);
        text->setLineWrapMode(QPlainTextEdit::NoWrap);
        text->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
        v->addWidget(text);
        auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close);
        connect(buttons, &QDialogButtonBox::rejected, codeDialog_.data(), &QDialog::close);
        v->addWidget(buttons);
        codeDialog_->resize(900, 480);
    }
    codeDialog_->findChild<QPlainTextEdit*>(QStringLiteral("pythonCodeView"))->setPlainText(code);
    codeDialog_->show();
    status_->setText(tr("TensorFlow code copied to the clipboard"));
    return code;
}

}  // namespace qs::ui
