// The parameter form: one widget per attribute of the chosen op, built from the attribute
// table (core/analysis/op_attributes.h: TF's names, defaults and allowed values, a tooltip
// each), bound both ways to the ExplorerModel: a widget edit calls the model's setter (one
// undo step); a model change (edit, undo, session) refreshes the widgets without echoing
// back. Rows an op does not have are hidden. No maths, no state of its own.
#pragma once

#include <QWidget>
#include <vector>

#include "core/analysis/op_attributes.h"

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QFormLayout;
class QLabel;
class QPushButton;
class QSpinBox;

namespace qs::ui {

class ExplorerModel;

class ParameterPanel : public QWidget {
    Q_OBJECT
public:
    explicit ParameterPanel(ExplorerModel* model, QWidget* parent = nullptr);

    // Shows TF's error text under the form; an empty message hides the label.
    void setError(const QString& message);
    // Only the rows named here ("op", an attribute's name, "min_range", "max_range"), where
    // the op has them: the compact form a lesson shows in presentation mode. Empty: every row.
    void showOnly(const QStringList& names);

signals:
    void rangeFromDataRequested();  // the "From data" button

private:
    // One attribute's widget: a QCheckBox (Bool), QSpinBox (Int), QDoubleSpinBox (Float) or
    // QComboBox (Enum), named after the attribute ("narrowRangeCheck", "numBitsSpin", ...).
    struct AttributeField {
        const qs::OpAttribute* attribute;
        QWidget* widget;
    };

    void buildForm();
    QWidget* makeField(const qs::OpAttribute& attribute);
    void showValue(const AttributeField& field, const qs::QuantSpec& spec);
    void connectWidgetsToModel();
    void refreshFromModel();  // every widget from the model, signals blocked
    void refreshChannel();
    void setRowVisible(QWidget* field, bool visible);

    ExplorerModel* model_;
    QFormLayout* form_ = nullptr;
    QComboBox* opCombo_ = nullptr;
    std::vector<AttributeField> fields_;  // in the table's order
    QSpinBox* channelSpin_ = nullptr;  // which channel's transfer curve is drawn (view state)
    QDoubleSpinBox* minRangeSpin_ = nullptr;
    QDoubleSpinBox* maxRangeSpin_ = nullptr;
    QPushButton* fromDataButton_ = nullptr;
    QLabel* errorLabel_ = nullptr;
    QLabel* rangeNotice_ = nullptr;  // a typed value out of its field's range, and what was set
    QStringList shownOnly_;
};

}  // namespace qs::ui
