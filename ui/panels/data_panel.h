// Where the samples come from: a generator (kind, sample count or an N-d shape, seed and the
// kind's own parameters, written as the CLI's "normal:n=…,seed=…" or "normal:shape=64x1024,…"
// spec) or a data file. Edits go to the model as one undoable DataSource change each; a shape
// the core refuses stays in its field with the core's message under it and changes nothing.
// The panel shows what was loaded.
#pragma once

#include <QWidget>

class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;

namespace qs::ui {

class ExplorerModel;

class DataPanel : public QWidget {
    Q_OBJECT
public:
    explicit DataPanel(ExplorerModel* model, QWidget* parent = nullptr);

    // "1,000,000 values, shape [1000000] — normal(n=…)" or a load error.
    void setDatasetInfo(const QString& text);
    QLabel* generatorErrorLabel() const { return errorLabel_; }  // empty and hidden when fine

signals:
    void openFileRequested();  // the main window owns the file dialog and its history

private:
    void buildForm();
    void refreshFromModel();
    void applyGenerator();  // widgets -> spec string -> model
    void relabelParameters(const QString& kind);

    ExplorerModel* model_;
    QComboBox* kindCombo_ = nullptr;
    QSpinBox* countSpin_ = nullptr;
    QLineEdit* shapeEdit_ = nullptr;
    QSpinBox* seedSpin_ = nullptr;
    QLabel* paramLabels_[3] = {};
    QDoubleSpinBox* paramSpins_[3] = {};
    QPushButton* openButton_ = nullptr;
    QLabel* infoLabel_ = nullptr;
    QLabel* errorLabel_ = nullptr;
};

}  // namespace qs::ui
