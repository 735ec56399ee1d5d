// The Model dock: every stored tensor of the open model file in a tree grouped by layer
// path, with a filter box and sortable columns (name, shape, dtype, size, stored
// quantization, origin). Choosing a tensor (click, keys, Enter) makes it the explorer's
// data through the ModelFileController; the dock follows the controller's selection (undo,
// sessions). A 2-D tensor can go to the TPU embedding workbench as a table (button and
// context menu): the dock asks, MainWindow does it.
#pragma once

#include <QWidget>

class QLabel;
class QLineEdit;
class QPushButton;
class QSortFilterProxyModel;
class QTreeView;

namespace qs::ui {

class ModelFileController;
class TensorTreeModel;

class ModelDock : public QWidget {
    Q_OBJECT
public:
    explicit ModelDock(ModelFileController* controller, QWidget* parent = nullptr);

    QTreeView* view() const { return view_; }
    QLineEdit* filterEdit() const { return filter_; }
    QPushButton* workbenchButton() const { return workbenchButton_; }
    TensorTreeModel* tensorModel() const { return tensors_; }
    QSortFilterProxyModel* proxy() const { return proxy_; }
    // The tensor under the view's current row (empty for a group row or none).
    QString currentTensor() const;

signals:
    void openAsTableRequested(const QString& tensor);
    void openModelRequested();  // the "Open model…" button of the empty dock

private:
    void refresh();
    void applyFilter(const QString& text);
    void fitColumns();
    void showSelection(const QString& name);
    void updateButtons();
    void showContextMenu(const QPoint& pos);

    ModelFileController* controller_;
    TensorTreeModel* tensors_;
    QSortFilterProxyModel* proxy_;
    QLabel* header_;
    QLineEdit* filter_;
    QTreeView* view_;
    QPushButton* openButton_;
    QPushButton* workbenchButton_;
    bool following_ = false;  // the view moves to the controller's selection: no new edit
};

}  // namespace qs::ui
