// The workbench's configuration editor: tables and features as lists with forms, the TF1
// EmbeddingConfigSpec options and the host count. Every value goes through EmbeddingModel
// (undoable); TF's errors from the model's validation appear live under the field that
// caused them (a red label "<field>Error", the field framed red) and vanish when fixed.
// Keyword fields take Python literals as typed ("16", "16.0", "'sum'", "(-1.0, 1.0)",
// "None"), so any value reaches TF's checks. Widgets hold no maths.
#pragma once

#include <QJsonValue>
#include <QPointer>
#include <QString>
#include <QWidget>
#include <functional>
#include <vector>

class QCheckBox;
class QComboBox;
class QDialog;
class QDoubleSpinBox;
class QFormLayout;
class QLabel;
class QLineEdit;
class QListWidget;
class QSpinBox;

namespace qs::ui {

class EmbeddingModel;
struct EmbeddingDocument;
struct EmbeddingFeature;
struct EmbeddingTable;
struct EmbeddingViewState;
struct ObjectCheck;
namespace editor {
struct ObjectSection;
}

class ConfigEditor : public QWidget {
    Q_OBJECT
public:
    explicit ConfigEditor(EmbeddingModel* model, QWidget* parent = nullptr);

    // The actions behind the buttons, callable without file dialogs (tests, the window's
    // menu). Failures are shown in the editor's status line and returned in `error`.
    bool openFrom(const QString& path, QString* error = nullptr);
    bool saveTo(const QString& path, QString* error = nullptr);
    // Puts the TensorFlow code on the clipboard and shows it in a read-only dialog.
    QString copyPythonCode();

signals:
    void statusMessage(const QString& text);
    // After a configuration was opened from or saved to `path` (the document's file now).
    void fileChanged(const QString& path);

private:
    // A Python-literal field bound to one keyword of the selected table / feature / the
    // estimator options. get() returns undefined when the keyword is not set (optional
    // keywords: empty text = TF's default, shown as placeholder).
    struct PyField {
        QLineEdit* edit = nullptr;
        QWidget* frame = nullptr;  // the widget framed red (the edit or its combo box)
        QLabel* error = nullptr;
        QString scope;  // "table", "feature", "estimator"
        QString key;    // the FieldError field and merge key: "dim", "optimizer.clipvalue"
        bool optional = false;
        std::function<QJsonValue(const EmbeddingDocument&)> get;
        std::function<void(EmbeddingDocument&, const QJsonValue&)> set;
    };

    QWidget* buildTables();
    QWidget* buildFeatures();
    QWidget* buildEstimator();
    QWidget* withError(QWidget* editor, const QString& name, QLabel** error);
    QLineEdit* pyField(QFormLayout* form, const QString& label, const QString& name, const QString& scope,
                       const QString& key, std::vector<PyField>& into, bool optional,
                       std::function<QJsonValue(const EmbeddingDocument&)> get,
                       std::function<void(EmbeddingDocument&, const QJsonValue&)> set,
                       QComboBox* combo = nullptr);
    void rebuildOptimizerFields();
    void commit(const PyField& field, const QString& text);
    void editTable(const std::function<void(EmbeddingTable&)>& change, const QString& what,
                   const QString& mergeKey = {});
    void editFeature(const std::function<void(EmbeddingFeature&)>& change, const QString& what,
                     const QString& mergeKey = {});
    void refresh();
    void refreshErrors();
    void showErrors(const std::vector<PyField>& fields, const ObjectCheck* check, QLabel* objectError);
    // The tables' / features' list, buttons and name field drive the model: a row chosen
    // selects that object (view.*selection), the others add, remove and rename the selected
    // one (`index`).
    void connectObjects(const editor::ObjectSection& section, int EmbeddingViewState::*selection,
                        std::function<void()> add, std::function<void(int)> remove,
                        std::function<void(int, const QString&)> rename, std::function<int()> index);
    bool reportFileOutcome(bool ok, const QString& done, const QString& why, QString* error);
    int tableIndex() const;
    int featureIndex() const;

    EmbeddingModel* model_;
    bool refreshing_ = false;
    std::vector<PyField> fields_;           // fixed fields
    std::vector<PyField> optimizerFields_;  // rebuilt with the optimizer type
    QString optimizerFieldsType_;

    QListWidget* tableList_ = nullptr;
    QWidget* tableForm_ = nullptr;
    QLabel* tableError_ = nullptr;
    QLabel* tableWarning_ = nullptr;
    QLineEdit* tableName_ = nullptr;
    QComboBox* optimizerType_ = nullptr;
    QLabel* optimizerTypeError_ = nullptr;
    QFormLayout* optimizerForm_ = nullptr;
    QCheckBox* quantEnabled_ = nullptr;
    QComboBox* initKind_ = nullptr;
    QFormLayout* initForm_ = nullptr;
    QDoubleSpinBox *initMean_ = nullptr, *initStddev_ = nullptr, *initMinval_ = nullptr,
                   *initMaxval_ = nullptr, *initValue_ = nullptr;
    QSpinBox* initSeed_ = nullptr;
    QLineEdit* tableDataFile_ = nullptr;

    QListWidget* featureList_ = nullptr;
    QWidget* featureForm_ = nullptr;
    QLabel* featureError_ = nullptr;
    QLineEdit* featureName_ = nullptr;
    QComboBox* featureTable_ = nullptr;
    QLabel* featureTableError_ = nullptr;
    QLineEdit* featureIds_ = nullptr;
    QLineEdit* featureIdsFile_ = nullptr;

    QWidget* estimatorGroup_ = nullptr;
    QCheckBox* estimatorEnabled_ = nullptr;
    QCheckBox* estimatorPipelining_ = nullptr;
    QComboBox* estimatorOptimizer_ = nullptr;
    QLabel* estimatorError_ = nullptr;
    QSpinBox* numHosts_ = nullptr;
    QLabel* status_ = nullptr;
    QPointer<QDialog> codeDialog_;
};

}  // namespace qs::ui
