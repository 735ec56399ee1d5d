#include "ui/modelfile/model_dock.h"

#include <QApplication>
#include <QClipboard>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QTreeView>
#include <QVBoxLayout>

#include "core/modelfile/model_formats.h"
#include "session/modelfile/model_file_controller.h"
#include "session/modelfile/tensor_text.h"
#include "session/modelfile/tensor_tree_model.h"

namespace qs::ui {

ModelDock::ModelDock(ModelFileController* controller, QWidget* parent)
    : QWidget(parent), controller_(controller), tensors_(new TensorTreeModel(this)),
      proxy_(new QSortFilterProxyModel(this)) {
    proxy_->setSourceModel(tensors_);
    proxy_->setSortRole(TensorTreeModel::SortRole);
    proxy_->setFilterRole(TensorTreeModel::FilterRole);
    proxy_->setFilterCaseSensitivity(Qt::CaseInsensitive);
    proxy_->setRecursiveFilteringEnabled(true);  // a matching tensor keeps its groups
    proxy_->setAutoAcceptChildRows(true);        // a matching group keeps its tensors

    header_ = new QLabel;
    header_->setObjectName("modelHeader");
    header_->setWordWrap(true);
    header_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    filter_ = new QLineEdit;
    filter_->setObjectName("modelFilter");
    filter_->setPlaceholderText(tr("Filter tensors (name or layer)…"));
    filter_->setClearButtonEnabled(true);
    view_ = new QTreeView;
    view_->setObjectName("modelTensors");
    view_->setModel(proxy_);
    view_->setSortingEnabled(true);
    view_->sortByColumn(-1, Qt::AscendingOrder);  // the file's order until a header is clicked
    view_->setUniformRowHeights(true);
    view_->setAlternatingRowColors(true);
    view_->setSelectionMode(QAbstractItemView::SingleSelection);
    view_->setContextMenuPolicy(Qt::CustomContextMenu);
    view_->header()->setStretchLastSection(true);
    view_->header()->setSectionResizeMode(QHeaderView::Interactive);
    openButton_ = new QPushButton(tr("Open model…"));
    openButton_->setObjectName("modelOpenButton");
    workbenchButton_ = new QPushButton(tr("Open in workbench as table"));
    workbenchButton_->setObjectName("modelWorkbenchButton");
    workbenchButton_->setToolTip(tr("Open this 2-D tensor in the TPU embedding workbench as a table "
                                    "(rows = vocabulary, columns = dimension)."));

    auto* buttons = new QHBoxLayout;
    buttons->addWidget(openButton_);
    buttons->addStretch();
    buttons->addWidget(workbenchButton_);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(header_);
    layout->addWidget(filter_);
    layout->addWidget(view_, 1);
    layout->addLayout(buttons);

    connect(filter_, &QLineEdit::textChanged, this, &ModelDock::applyFilter);
    connect(view_->selectionModel(), &QItemSelectionModel::currentChanged, this, [this] {
        updateButtons();
        const QString name = currentTensor();
        if (following_ || name.isEmpty()) return;
        QString error;
        if (!controller_->selectTensor(name, &error)) header_->setText(error);
    });
    connect(view_, &QTreeView::activated, this, [this](const QModelIndex&) {
        if (const QString name = currentTensor(); !name.isEmpty()) controller_->selectTensor(name);
    });
    connect(view_, &QTreeView::customContextMenuRequested, this, &ModelDock::showContextMenu);
    connect(openButton_, &QPushButton::clicked, this, &ModelDock::openModelRequested);
    connect(workbenchButton_, &QPushButton::clicked, this, [this] {
        if (const QString name = currentTensor(); !name.isEmpty()) emit openAsTableRequested(name);
    });
    connect(controller_, &ModelFileController::opened, this, &ModelDock::refresh);
    connect(controller_, &ModelFileController::openingStarted, this,
            [this](const QString& path) { header_->setText(tr("Opening %1…").arg(QFileInfo(path).fileName())); });
    connect(controller_, &ModelFileController::openFailed, this,
            [this](const QString& message) { header_->setText(tr("Could not open the model: %1").arg(message)); });
    connect(controller_, &ModelFileController::selectionChanged, this, &ModelDock::showSelection);
    refresh();
}

QString ModelDock::currentTensor() const {
    return view_->currentIndex().siblingAtColumn(0).data(TensorTreeModel::TensorNameRole).toString();
}

void ModelDock::applyFilter(const QString& text) {
    // Rows the filter takes out move the view's current row to a neighbour: that is the
    // view's housekeeping, not a choice, so the explorer's data stays. The row of the
    // explorer's tensor is current again whenever the filter lets it through.
    following_ = true;
    proxy_->setFilterFixedString(text);
    following_ = false;
    if (!text.isEmpty()) view_->expandAll();
    showSelection(controller_->selectedTensor());
}

void ModelDock::fitColumns() {
    // Sized to the rows' contents (the name column at most 440 px, the last one stretches);
    // done with every row listed, never with a filter that hides them.
    for (int c = 0; c < TensorTreeModel::ColumnCount; ++c) view_->resizeColumnToContents(c);
    view_->setColumnWidth(0, std::min(view_->columnWidth(0), 440));
}

void ModelDock::refresh() {
    // Another model: the previous model's filter would hide its tensors.
    filter_->clear();
    tensors_->setModel(controller_->model());
    const auto model = controller_->model();
    if (!model) {
        header_->setText(tr("No model open. File → Open model… (or drop a model file on the window): %1.")
                             .arg(QString::fromStdString(qs::modelfile::modelFormatNames())));
    } else {
        qint64 bytes = 0;
        for (const auto& t : model->tensors()) bytes += std::max<int64_t>(0, t.byteSize());
        header_->setText(tr("<b>%1</b> · %2 · %3 · %4")
                             .arg(QFileInfo(controller_->path()).fileName().toHtmlEscaped(),
                                  QString::fromUtf8(model->format().data(), static_cast<qsizetype>(model->format().size())),
                                  tensorCountText(model->tensors().size()), byteSizeText(bytes)));
        header_->setToolTip(controller_->path());
    }
    view_->expandAll();
    fitColumns();
    showSelection(controller_->selectedTensor());
}

void ModelDock::showSelection(const QString& name) {
    const QModelIndex source = tensors_->indexOfTensor(name);
    const QModelIndex index = proxy_->mapFromSource(source);
    following_ = true;
    if (index.isValid()) {
        view_->setCurrentIndex(index);
        view_->scrollTo(index);
    } else {  // not from this model, or filtered out: no row stands for the data
        view_->setCurrentIndex(QModelIndex());
        view_->selectionModel()->clearSelection();
    }
    following_ = false;
    updateButtons();
}

void ModelDock::updateButtons() {
    const QString name = currentTensor();
    const auto model = controller_->model();
    const int64_t index = model && !name.isEmpty() ? model->find(name.toStdString()) : -1;
    workbenchButton_->setEnabled(index >= 0 && isTableTensor(model->tensors()[static_cast<size_t>(index)]));
}

void ModelDock::showContextMenu(const QPoint& pos) {
    const QModelIndex index = view_->indexAt(pos);
    const QString name = index.siblingAtColumn(0).data(TensorTreeModel::TensorNameRole).toString();
    if (name.isEmpty()) return;
    view_->setCurrentIndex(index);
    QMenu menu(this);
    menu.addAction(tr("Explore this tensor"), this, [this, name] { controller_->selectTensor(name); });
    QAction* table = menu.addAction(tr("Open in TPU embedding workbench as table"), this,
                                    [this, name] { emit openAsTableRequested(name); });
    table->setEnabled(workbenchButton_->isEnabled());
    menu.addAction(tr("Copy name"), this, [name] { QApplication::clipboard()->setText(name); });
    menu.exec(view_->viewport()->mapToGlobal(pos));
}

}  // namespace qs::ui
