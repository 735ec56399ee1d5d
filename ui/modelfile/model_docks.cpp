#include "ui/modelfile/model_docks.h"

#include <algorithm>

#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QMainWindow>
#include <QPushButton>
#include <QScrollArea>
#include <QVBoxLayout>

#include "session/explorer/explorer_model.h"
#include "session/files/native_file.h"
#include "session/modelfile/model_file_controller.h"
#include "ui/modelfile/model_dock.h"
#include "ui/modelfile/model_report_view.h"
#include "ui/modelfile/stored_quant_view.h"

namespace qs::ui {

namespace {
QDockWidget* bottomDock(QMainWindow* window, const QString& title, const char* name, QWidget* content) {
    auto* d = new QDockWidget(title);
    d->setObjectName(QLatin1String(name));
    d->setWidget(content);
    window->addDockWidget(Qt::BottomDockWidgetArea, d);
    d->hide();
    return d;
}
}  // namespace

ModelDocks::ModelDocks(QMainWindow* window, ModelFileController* controller, ExplorerModel* explorer)
    : QObject(window), window_(window), controller_(controller) {
    modelDock_ = new ModelDock(controller);
    report_ = new ModelReportView(controller->reportService());
    stored_ = new StoredQuantView(controller->storedQuantService());
    originalLabel_ = new QLabel;
    originalLabel_->setObjectName("storedOriginalLabel");
    originalButton_ = new QPushButton(tr("Float original…"));
    originalButton_->setObjectName("storedOriginalButton");
    originalButton_->setToolTip(tr("A model file holding the same tensors as floats (e.g. the float32 "
                                   "safetensors beside an int8 copy): the rules then quantize its values."));
    auto* storedPanel = new QWidget;
    auto* row = new QHBoxLayout;
    row->addWidget(originalLabel_, 1);
    row->addWidget(originalButton_);
    auto* layout = new QVBoxLayout(storedPanel);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(row);
    layout->addWidget(stored_, 1);
    setOriginal(QString());

    modelDockWidget_ = bottomDock(window, tr("Model"), "modelDock", modelDock_);
    reportDockWidget_ = bottomDock(window, tr("Model report"), "modelReportDock", report_);
    // The plot sits between two lines of text and the rules table; the view lays them out
    // side by side when the dock is wide and low (StoredQuantView), and below this height the
    // dock scrolls instead of squeezing them.
    storedPanel->setMinimumHeight(220);
    auto* storedScroll = new QScrollArea;
    storedScroll->setWidget(storedPanel);
    storedScroll->setWidgetResizable(true);
    storedScroll->setFrameShape(QFrame::NoFrame);
    storedDockWidget_ = bottomDock(window, tr("Stored quantization"), "storedQuantDock", storedScroll);
    window->tabifyDockWidget(modelDockWidget_, reportDockWidget_);
    window->tabifyDockWidget(reportDockWidget_, storedDockWidget_);

    connect(controller_, &ModelFileController::opened, this, &ModelDocks::modelOpened);
    connect(controller_, &ModelFileController::selectionChanged, this, &ModelDocks::showStored);
    connect(report_, &ModelReportView::tensorActivated, this,
            [this, explorer](const QString& name, const qs::QuantSpec& spec, qint64 channel) {
                if (!controller_->selectTensorWithSpec(name, spec) || channel < 0) return;
                // A channel's row: its transfer curve, in the view that compares channels.
                ViewState view = explorer->viewState();
                view.channel = channel;
                explorer->setViewState(view);
                emit channelActivated();
            });
    connect(originalButton_, &QPushButton::clicked, this, &ModelDocks::chooseOriginal);
    connect(stored_, &StoredQuantView::applyRequested, this, [this](int rule) {
        QString error;
        if (stored_->comparison() && !controller_->applyStoredRule(*stored_->comparison(), rule, originalPath_, &error))
            emit controller_->notice(error);
    });
}

void ModelDocks::modelOpened() {
    const bool first = modelDockWidget_->isHidden();
    const bool beside = first && companion_ && companion_->isVisible() && !companion_->isFloating() &&
                        window_->height() < kShortWindowHeight;
    if (beside) {
        // A short window: the explorer keeps its height, the tensors share the side dock's
        // place (a tab away from the statistics).
        for (QDockWidget* d : {modelDockWidget_, reportDockWidget_, storedDockWidget_})
            window_->tabifyDockWidget(companion_, d);
    }
    for (QDockWidget* d : {modelDockWidget_, reportDockWidget_, storedDockWidget_}) d->show();
    // The first time below the explorer, 28 % of the window (180 to 320 pixels): the plots
    // above keep a usable size (at half the window the transfer plot was 250 pixels high,
    // half of it under its legend) and the stored codes' plot and table show whole; the
    // dock's splitter gives it more. Later opens keep what the user made of it.
    if (first && !beside)
        window_->resizeDocks({modelDockWidget_}, {std::clamp(window_->height() * 28 / 100, 180, 320)}, Qt::Vertical);
    modelDockWidget_->raise();
    report_->setModel(controller_->model());
    showStored(controller_->selectedTensor());
}

void ModelDocks::showStored(const QString& tensor) {
    const auto model = controller_->model();
    const int64_t index = model && !tensor.isEmpty() ? model->find(tensor.toStdString()) : -1;
    if (index < 0) {
        stored_->clear(tr("Choose a tensor stored as integer codes in the Model dock."));
        return;
    }
    const auto& info = model->tensors()[static_cast<size_t>(index)];
    if (!qs::modelfile::isInteger(info.dtype)) {
        stored_->clear(tr("'%1' is stored as %2: there are no codes to compare.")
                           .arg(tensor, QString::fromStdString(info.dtype_name)));
        return;
    }
    stored_->setTensor(model, static_cast<int>(index), original_);
}

bool ModelDocks::setOriginal(const QString& path, QString* error) {
    if (path.isEmpty()) {
        original_.reset();
    } else {
        // Listing reads the headers only, so it is quick enough for the UI thread.
        auto model = qs::modelfile::openModel(nativePath(path));
        if (!model) {
            if (error) *error = QString::fromStdString(model.error().message);
            return false;
        }
        original_ = *model;
    }
    originalPath_ = original_ ? path : QString();
    originalLabel_->setText(original_ ? tr("Compared with the floats of %1")
                                            .arg(QFileInfo(path).fileName())
                                      : tr("Compared with the file's own scales (no float original)."));
    showStored(controller_->selectedTensor());
    return true;
}

void ModelDocks::chooseOriginal() {
    const QString path = QFileDialog::getOpenFileName(window_, tr("Float original"), QFileInfo(controller_->path()).path());
    if (path.isEmpty()) return;
    QString error;
    if (!setOriginal(path, &error)) originalLabel_->setText(tr("Could not open the original: %1").arg(error));
}

}  // namespace qs::ui
