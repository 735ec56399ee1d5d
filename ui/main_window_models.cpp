// MainWindow's model files: File → Open model…, recent models, drag and drop, and a tensor
// opened in the TPU embedding workbench (the rest of the window is in main_window.cpp).
#include <QDir>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QMessageBox>
#include <QMimeData>
#include <QStandardPaths>
#include <QUrl>
#include <utility>

#include "core/modelfile/model_file.h"
#include "session/explorer/explorer_controller.h"
#include "session/modelfile/model_file_controller.h"
#include "session/modelfile/tensor_text.h"
#include "session/modelfile/workbench_table.h"
#include "session/workbench/embedding_model.h"
#include "ui/embedding/workbench_window.h"
#include "ui/main_window.h"
#include "ui/modelfile/model_dock.h"
#include "ui/modelfile/model_docks.h"
#include "ui/recent_files.h"
#include "ui/status/job_status.h"

namespace qs::ui {

namespace {

const char* kRecentModelsKey = "recentModels";

}  // namespace

void MainWindow::connectModelFiles() {
    connect(modelFiles_, &ModelFileController::openingStarted, this, [this](const QString& path) {
        status_->setText(tr("Opening model %1…").arg(QFileInfo(path).fileName()));
    });
    connect(modelFiles_, &ModelFileController::opened, this, [this] {
        modelOpenAsked_ = false;
        addRecentModel(modelFiles_->path());
        status_->setText(tr("Opened model %1: %2")
                                  .arg(QFileInfo(modelFiles_->path()).fileName(),
                                       tensorCountText(modelFiles_->model()->tensors().size())));
    });
    connect(modelFiles_, &ModelFileController::openFailed, this, [this](const QString& message) {
        status_->setError(tr("Could not open the model: %1").arg(message));
        if (std::exchange(modelOpenAsked_, false) && isVisible())
            QMessageBox::warning(this, tr("Open model"), message);
    });
    connect(modelFiles_, &ModelFileController::notice, this, [this](const QString& text) { status_->setText(text); });
    connect(modelDock(), &ModelDock::openModelRequested, this, &MainWindow::openModelDialog);
    connect(modelDock(), &ModelDock::openAsTableRequested, this, &MainWindow::openTensorInWorkbench);
    connect(modelFiles_, &ModelFileController::tensorExported, this, &MainWindow::addWorkbenchTable);
    connect(modelFiles_, &ModelFileController::exportFailed, this, [this](const QString& message) {
        status_->setError(tr("Could not open the tensor in the workbench: %1").arg(message));
        if (isVisible()) QMessageBox::warning(this, tr("Open in workbench"), message);
    });
}

ModelDock* MainWindow::modelDock() const { return modelDocks_->modelDock(); }
QDockWidget* MainWindow::modelDockWidget() const { return modelDocks_->modelDockWidget(); }

void MainWindow::openModel(const QString& path) {
    modelOpenAsked_ = true;
    modelFiles_->open(path);
}

void MainWindow::openModelDialog() {
    const QString path = QFileDialog::getOpenFileName(this, tr("Open model"), QString(), modelFileFilter());
    if (!path.isEmpty()) openModel(path);
}

void MainWindow::openSavedModelDialog() {
    const QString path = QFileDialog::getExistingDirectory(this, tr("Open SavedModel folder"));
    if (!path.isEmpty()) openModel(path);
}

void MainWindow::addRecentModel(const QString& path) {
    rememberRecent(kRecentModelsKey, path);
    refreshRecentModelsMenu();
}

void MainWindow::refreshRecentModelsMenu() {
    fillRecentMenu(recentModelsMenu_, kRecentModelsKey, this, [this](const QString& path) { openModel(path); });
}

QStringList MainWindow::droppableFiles(const QMimeData* mime) {
    QStringList files;
    if (!mime || !mime->hasUrls()) return files;
    for (const QUrl& url : mime->urls())
        if (url.isLocalFile()) files << url.toLocalFile();
    return files;
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event) {
    if (!droppableFiles(event->mimeData()).isEmpty()) event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* event) {
    const QStringList files = droppableFiles(event->mimeData());
    if (files.isEmpty()) return;
    event->acceptProposedAction();
    // One file at a time is what the window shows: the first one dropped.
    const QString& path = files.first();
    if (path.endsWith(QStringLiteral(".qscope"), Qt::CaseInsensitive)) openSession(path);
    else if (path.endsWith(QStringLiteral(".npy"), Qt::CaseInsensitive)) controller_->openDataFile(path);
    else if (isModelFilePath(path)) openModel(path);
    else controller_->openDataFile(path);  // CSV, .vec, …: the data reader says if it cannot
}

void MainWindow::openTensorInWorkbench(const QString& tensor) {
    const QString folder = QDir(QStandardPaths::writableLocation(QStandardPaths::CacheLocation))
                               .filePath(QStringLiteral("model-tables"));
    QDir().mkpath(folder);
    status_->setText(tr("Writing %1 for the workbench…").arg(tensor));
    modelFiles_->exportTensor(tensor, workbenchTableFile(folder, modelFiles_->path(), tensor));
}

void MainWindow::addWorkbenchTable(const QString& tensor, const QString& npyPath) {
    const auto model = modelFiles_->model();
    const int64_t index = model ? model->find(tensor.toStdString()) : -1;
    if (index < 0) return;
    const qs::Shape& shape = model->tensors()[static_cast<size_t>(index)].shape;
    WorkbenchWindow* w = showWorkbench();
    const EmbeddingDocument doc = withModelTable(w->model()->document(), tensor, shape, npyPath);
    const QString name = doc.tables.back().name;
    w->model()->edit(doc, tr("Add table %1 from the model").arg(name));
    status_->setText(tr("Workbench: table %1 (%2 × %3) from %4")
                         .arg(name).arg(shape[0]).arg(shape[1]).arg(QFileInfo(modelFiles_->path()).fileName()));
}

}  // namespace qs::ui
