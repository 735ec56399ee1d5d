#include "ui/embedding/workbench_window.h"

#include <QAction>
#include <QApplication>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QPushButton>
#include <QSpinBox>
#include <QSplitter>
#include <QStatusBar>
#include <QTabWidget>
#include <QTableWidget>
#include <QUndoStack>
#include <QVBoxLayout>
#include <algorithm>

#include "session/workbench/embedding_model.h"
#include "session/workbench/workbench_controller.h"
#include "ui/embedding/config_editor.h"
#include "ui/embedding/views/feature_stats_panel.h"
#include "ui/embedding/views/heat_map_view.h"
#include "ui/embedding/views/occupancy_view.h"
#include "ui/embedding/views/pipeline_view.h"
#include "ui/embedding/views/range_suggestions_panel.h"
#include "ui/embedding/views/sharding_view.h"
#include "ui/embedding/views/storage_export_panel.h"
#include "ui/panels/width_adaptive_splitter.h"
#include "ui/status/job_status.h"
#include "ui/window/presentation_mode.h"
#include "ui/window/window_fit.h"

namespace qs::ui {
namespace {

QWidget* column(std::initializer_list<QWidget*> widgets, QWidget* top = nullptr) {
    auto* w = new QWidget;
    auto* layout = new QVBoxLayout(w);
    layout->setContentsMargins(0, 0, 0, 0);
    if (top) layout->addWidget(top);
    for (QWidget* x : widgets) layout->addWidget(x, 1);
    return w;
}

}  // namespace

WorkbenchWindow::WorkbenchWindow(EmbeddingModel* model, QWidget* parent)
    : QMainWindow(parent), model_(model), controller_(new WorkbenchController(model, this)) {
    setObjectName(QStringLiteral("workbenchWindow"));
    setAttribute(Qt::WA_DeleteOnClose, false);
    createTabs();
    editor_ = new ConfigEditor(model_);
    auto* dock = new QDockWidget(tr("Configuration"));
    dock->setObjectName(QStringLiteral("configurationDock"));
    dock->setWidget(editor_);
    addDockWidget(Qt::LeftDockWidgetArea, dock);
    resizeDocks({dock}, {560}, Qt::Horizontal);  // the optimizer keywords are long
    createMenus();
    createStatusBar();
    connectController();
    connect(model_, &EmbeddingModel::viewChanged, this, &WorkbenchWindow::showHeatMapWindow);
    connect(model_, &EmbeddingModel::documentChanged, this, &WorkbenchWindow::showHeatMapWindow);
    connect(editor_, &ConfigEditor::statusMessage, status_, &JobStatus::setText);
    // The editor's own Open/Save buttons change the window's file as the File menu does.
    connect(editor_, &ConfigEditor::fileChanged, this, [this](const QString& path) {
        path_ = path;
        updateTitle();
    });
    fitToAvailableScreen(this, QSize(1500, 950));
    updateTitle();
    showHeatMapWindow();
}

WorkbenchWindow::~WorkbenchWindow() {
    // As MainWindow: hidden while alive, so editors that commit on hide reach a whole model.
    for (QWidget* w : findChildren<QWidget*>())
        if (w->isWindow()) w->hide();
    hide();
}

void WorkbenchWindow::createTabs() {
    tabs_ = new QTabWidget;
    tabs_->setObjectName(QStringLiteral("workbenchTabs"));

    occupancy_ = new OccupancyView;
    suggestions_ = new RangeSuggestionsPanel;
    storage_ = new StorageExportPanel;
    auto* lower = tableLower_ = new WidthAdaptiveSplitter;
    lower->setObjectName(QStringLiteral("tableTabLowerSplitter"));
    lower->addWidget(suggestions_);
    lower->addWidget(storage_);
    lower->setStretchFactor(0, 3);
    lower->setStretchFactor(1, 2);
    auto* tableTab = new QSplitter(Qt::Vertical);
    tableTab->addWidget(occupancy_);
    tableTab->addWidget(lower);
    tableTab->setStretchFactor(0, 3);
    tableTab->setStretchFactor(1, 2);
    tabs_->addTab(tableTab, tr("Table && buckets"));

    heatMap_ = new HeatMapView;
    firstRow_ = new QSpinBox;
    firstRow_->setObjectName(QStringLiteral("heatMapFirstRow"));
    firstRow_->setRange(0, std::numeric_limits<int>::max());
    windowRows_ = new QSpinBox;
    windowRows_->setObjectName(QStringLiteral("heatMapRows"));
    windowRows_->setRange(1, 4096);
    auto* bar = new QWidget;
    auto* barLayout = new QHBoxLayout(bar);
    barLayout->setContentsMargins(6, 2, 6, 2);
    barLayout->addWidget(new QLabel(tr("First row")));
    barLayout->addWidget(firstRow_);
    barLayout->addWidget(new QLabel(tr("Rows")));
    barLayout->addWidget(windowRows_);
    barLayout->addStretch(1);
    auto setWindow = [this] {
        EmbeddingViewState v = model_->document().view;
        v.first_row = firstRow_->value();
        v.rows = windowRows_->value();
        if (!(v == model_->document().view)) model_->setView(v);
    };
    connect(firstRow_, &QSpinBox::valueChanged, this, setWindow);
    connect(windowRows_, &QSpinBox::valueChanged, this, setWindow);
    tabs_->addTab(column({heatMap_}, bar), tr("Heat map"));

    featureStats_ = new FeatureStatsPanel;
    featureCaption_ = new QLabel;
    featureCaption_->setObjectName(QStringLiteral("featureCaption"));
    featureCaption_->setWordWrap(true);
    featureCaption_->setContentsMargins(6, 4, 6, 4);
    tabs_->addTab(column({featureStats_}, featureCaption_), tr("Feature lookup"));

    sharding_ = new ShardingView;
    tabs_->addTab(sharding_, tr("Sharding"));

    pipeline_ = new PipelineView;
    pipelineSteps_ = new QSpinBox;
    pipelineSteps_->setObjectName(QStringLiteral("pipelineSteps"));
    pipelineSteps_->setRange(1, 1000);
    pipelineSteps_->setValue(12);
    runPipeline_ = new QPushButton(tr("Run training steps"));
    runPipeline_->setObjectName(QStringLiteral("runPipelineDemo"));
    auto* pbar = new QWidget;
    auto* pLayout = new QHBoxLayout(pbar);
    pLayout->setContentsMargins(6, 2, 6, 2);
    pLayout->addWidget(new QLabel(tr("Steps")));
    pLayout->addWidget(pipelineSteps_);
    pLayout->addWidget(runPipeline_);
    pLayout->addStretch(1);
    connect(runPipeline_, &QPushButton::clicked, this, &WorkbenchWindow::runPipelineDemo);
    tabs_->addTab(column({pipeline_}, pbar), tr("Pipelining"));

    setCentralWidget(tabs_);
    connect(suggestions_, &RangeSuggestionsPanel::applyRequested, controller_, &WorkbenchController::applySuggestion);
    connect(storage_, &StorageExportPanel::exportRequested, this, &WorkbenchWindow::exportStorageDialog);
}

void WorkbenchWindow::createMenus() {
    QMenu* file = menuBar()->addMenu(tr("&File"));
    file->addAction(tr("&New configuration"), QKeySequence::New, this, [this] {
        model_->reset(EmbeddingDocument::example());
        path_.clear();
        updateTitle();
    });
    file->addAction(tr("&Open configuration…"), QKeySequence::Open, this, &WorkbenchWindow::openDialog);
    file->addAction(tr("&Save configuration"), QKeySequence::Save, this, [this] {
        if (path_.isEmpty()) saveAsDialog(); else saveConfig(path_);
    });
    file->addAction(tr("Save configuration &as…"), QKeySequence::SaveAs, this, &WorkbenchWindow::saveAsDialog);
    file->addSeparator();
    QAction* code = file->addAction(tr("Copy as &TensorFlow code"), editor_, &ConfigEditor::copyPythonCode);
    code->setShortcut(QKeySequence(tr("Ctrl+Shift+C")));
    file->addAction(tr("&Export quantized table…"), this, &WorkbenchWindow::exportStorageDialog);
    file->addSeparator();
    file->addAction(tr("&Close"), QKeySequence::Close, this, &QWidget::close);

    QMenu* edit = menuBar()->addMenu(tr("&Edit"));
    QAction* undo = model_->undoStack()->createUndoAction(this, tr("&Undo"));
    undo->setShortcut(QKeySequence::Undo);
    QAction* redo = model_->undoStack()->createRedoAction(this, tr("&Redo"));
    redo->setShortcut(QKeySequence::Redo);
    edit->addAction(undo);
    edit->addAction(redo);

    QMenu* view = viewMenu_ = menuBar()->addMenu(tr("&View"));
    for (int i = 0; i < tabs_->count(); ++i) {
        // The tab's text as it is: "Table && buckets" is a literal & in a menu too.
        QAction* a = view->addAction(tabs_->tabText(i), this, [this, i] { tabs_->setCurrentIndex(i); });
        a->setShortcut(QKeySequence(QStringLiteral("Alt+%1").arg(i + 1)));
    }
}

QLabel* WorkbenchWindow::statusLabel() const { return status_->label(); }

void WorkbenchWindow::createStatusBar() {
    status_ = new JobStatus(QStringLiteral("workbench"));
    status_->setSingleLine(true);
    status_->setHideWhenEmpty(false);
    status_->setRerunOffered(false);  // a table load is redone by choosing the table again
    timing_ = new QLabel;
    connect(status_, &JobStatus::cancelRequested, controller_, &WorkbenchController::cancelLoad);
    statusBar()->addWidget(status_, 1);
    statusBar()->addPermanentWidget(timing_);
}

void WorkbenchWindow::connectController() {
    WorkbenchController* c = controller_;
    connect(c, &WorkbenchController::loadStarted, this, [this](const QString& name) {
        status_->setRunning(tr("Loading table '%1'…").arg(name));
    });
    connect(c, &WorkbenchController::loadProgress, status_, &JobStatus::setProgress);
    connect(c, &WorkbenchController::loadEnded, status_, &JobStatus::finish);
    connect(c, &WorkbenchController::tableLoaded, this, [this](const EmbeddingTablePtr& table) {
        // The heat-map window cannot start past the last row.
        const QSignalBlocker block(firstRow_);
        firstRow_->setMaximum(static_cast<int>(std::min<int64_t>(table->rows() - 1, std::numeric_limits<int>::max())));
    });
    connect(c, &WorkbenchController::timing, timing_, &QLabel::setText);
    connect(c, &WorkbenchController::statusMessage, status_, &JobStatus::setText);
    connect(c, &WorkbenchController::resultsStale, this, &WorkbenchWindow::setStale);
    connect(c, &WorkbenchController::tableAnalysisReady, this, &WorkbenchWindow::showTableAnalysis);
    connect(c, &WorkbenchController::featureAnalysisReady, this, &WorkbenchWindow::showFeatureAnalysis);
    connect(c, &WorkbenchController::noFeature, this, [this](const QString& table) {
        featureCaption_->setText(tr("No feature looks up table '%1': add one in the configuration.").arg(table));
        featureStats_->setStale(true, tr("no feature on this table"));
        sharding_->setStale(true, tr("no feature on this table"));
    });
    connect(c, &WorkbenchController::analysisFailed, this, &WorkbenchWindow::showAnalysisFailed);
    connect(c, &WorkbenchController::pipelineDemoReady, this, [this](const PipelineDemoPtr& demo, double ms) {
        pipeline_->setDemo(*demo);
        runPipeline_->setEnabled(true);
        status_->setText(tr("pipelining demonstration: %1 steps in %2 ms").arg(demo->steps.size()).arg(ms, 0, 'f', 0));
    });
    connect(c, &WorkbenchController::pipelineDemoFailed, this, [this](const QString& message) {
        runPipeline_->setEnabled(true);
        pipeline_->setStale(true, message);
    });
}

void WorkbenchWindow::showFeatureAnalysis(const FeatureAnalysisPtr& a) {
    const QString feature = featureDisplayName(model_->document(), controller_->analyzedFeature());
    if (const auto& in = controller_->tableInputs())
        featureCaption_->setText(
            tr("Feature '%1' on table '%2' (%3 × %4, combiner %5): %6 ids in %7 examples from %8. "
               "Simulated quantization is applied to every gathered row before the combiner, as on "
               "the TPU; the middle column quantizes after combining, for comparison.")
                .arg(feature, QString::fromStdString(in->name))
                .arg(in->vocabulary_size).arg(in->dim)
                .arg(QString::fromStdString(in->combiner))
                .arg(a->simulation.ids).arg(a->simulation.examples)
                .arg(controller_->featureSource()));
    featureStats_->setSimulation(a->simulation, feature);
    featureStats_->setStale(false);
    sharding_->setReport(a->sharding);
    status_->setText(tr("%1: %2 ids looked up in %3 ms")
                         .arg(feature)
                         .arg(a->simulation.ids)
                         .arg(a->simulation.lookup_ms, 0, 'f', 1));
    emit featureAnalysisShown();
}

void WorkbenchWindow::showAnalysisFailed(const QString& what, const QString& kind, const QString& message) {
    status_->setText(tr("%1 analysis: %2: %3").arg(what, kind, message));
    const QString text = kind + QStringLiteral(": ") + message;
    if (what == QLatin1String("feature")) {
        featureCaption_->setText(text);
        featureStats_->setStale(true, text);
        sharding_->setStale(true, text);
    } else {
        for (PlotFrame* p : {static_cast<PlotFrame*>(occupancy_), static_cast<PlotFrame*>(heatMap_)})
            p->setStale(true, text);
        suggestions_->setStale(true, text);
        storage_->setStale(true, text);
    }
}

void WorkbenchWindow::showTableAnalysis(const TableAnalysisPtr& a) {
    const auto& inputs = controller_->tableInputs();
    if (a->occupancy) occupancy_->setOccupancy(*a->occupancy);
    else if (inputs && inputs->quantization)
        occupancy_->clear(tr("%1 buckets: too many to draw one bar each\n(the histogram stops at 2^24).")
                              .arg(inputs->quantization->num_buckets));
    else occupancy_->clear();
    occupancy_->setSuggestions(a->suggestions);
    suggestions_->setSuggestions(a->suggestions, inputs && inputs->quantization ? inputs->quantization->num_buckets : 256);
    tableLower_->reconsider();  // the suggestions' columns may need the whole width now
    if (a->storage) storage_->setStorage(*a->storage); else storage_->clear();
    heatMap_->setWindow(a->window);
    suggestions_->setStale(false);
    storage_->setStale(false);
    emit tableAnalysisShown();
}

// The heat map's row window as the document's view holds it.
void WorkbenchWindow::showHeatMapWindow() {
    const EmbeddingViewState& view = model_->document().view;
    const QSignalBlocker b1(firstRow_), b2(windowRows_);
    firstRow_->setValue(static_cast<int>(std::min<qint64>(view.first_row, std::numeric_limits<int>::max())));
    windowRows_->setValue(static_cast<int>(std::clamp<qint64>(view.rows, 1, 4096)));
}

void WorkbenchWindow::setStale(const QString& message) {
    for (PlotFrame* p : {static_cast<PlotFrame*>(occupancy_), static_cast<PlotFrame*>(heatMap_),
                         static_cast<PlotFrame*>(sharding_)})
        p->setStale(true, message);
    suggestions_->setStale(true, message);
    storage_->setStale(true, message);
    featureStats_->setStale(true, message);
    status_->setText(message);
}

void WorkbenchWindow::setTheme(Theme theme) {
    theme_ = theme;
    for (PlotFrame* p : findChildren<PlotFrame*>()) p->setTheme(theme);
    for (TablePanel* t : findChildren<TablePanel*>()) t->setTheme(theme);
}

void WorkbenchWindow::setPresentation(bool on) {
    if (on == presentation_) return;
    presentation_ = on;
    if (on) {
        baseFontSize_ = font().pointSizeF();
        layoutBeforePresentation_ = saveState();
        for (QDockWidget* d : findChildren<QDockWidget*>()) d->hide();
    } else {
        restoreState(layoutBeforePresentation_);
    }
    QFont f = font();
    if (baseFontSize_ > 0) f.setPointSizeF(baseFontSize_ * (on ? PresentationMode::kFontScale : 1.0));
    setFont(f);  // the docks, tables and labels follow
    for (PlotFrame* p : findChildren<PlotFrame*>())
        p->setPresentationScale(on ? PresentationMode::kPlotScale : 1.0, on ? PresentationMode::kPlotFontScale : 1.0);
}

void WorkbenchWindow::runPipelineDemo() {
    if (!controller_->runPipelineDemo(pipelineSteps_->value())) return;
    runPipeline_->setEnabled(false);
    status_->setText(tr("training %1 steps with and without pipelining…").arg(pipelineSteps_->value()));
}

void WorkbenchWindow::exportStorageDialog() {
    const QString path = QFileDialog::getSaveFileName(this, tr("Export quantized table codes"),
                                                      QString(), tr("NumPy array (*.npy)"));
    if (!path.isEmpty())
        controller_->exportStorage(path.endsWith(QLatin1String(".npy")) ? path : path + QStringLiteral(".npy"));
}

bool WorkbenchWindow::openConfig(const QString& path, QString* error) {
    return openOrSave(&ConfigEditor::openFrom, path, error);
}

bool WorkbenchWindow::saveConfig(const QString& path, QString* error) {
    return openOrSave(&ConfigEditor::saveTo, path, error);
}

// The editor's open or save; on success the window's file becomes `path`.
bool WorkbenchWindow::openOrSave(bool (ConfigEditor::*action)(const QString&, QString*), const QString& path,
                                 QString* error) {
    QString message;
    if (!(editor_->*action)(path, &message)) {
        if (error) *error = message;
        status_->setText(message);
        return false;
    }
    path_ = path;
    updateTitle();
    return true;
}

void WorkbenchWindow::openDialog() {
    const QString path = QFileDialog::getOpenFileName(this, tr("Open embedding configuration"), QString(),
                                                      tr("Embedding configuration (*.json);;All files (*)"));
    QString error;
    if (!path.isEmpty() && !openConfig(path, &error))
        QMessageBox::warning(this, tr("Cannot open configuration"), error);
}

void WorkbenchWindow::saveAsDialog() {
    const QString path = QFileDialog::getSaveFileName(this, tr("Save embedding configuration"), path_,
                                                      tr("Embedding configuration (*.json)"));
    QString error;
    if (!path.isEmpty() && !saveConfig(path, &error))
        QMessageBox::warning(this, tr("Cannot save configuration"), error);
}

void WorkbenchWindow::updateTitle() {
    const QString name = path_.isEmpty() ? tr("untitled") : QFileInfo(path_).fileName();
    setWindowTitle(tr("%1 — TPU embedding workbench — QuantScope").arg(name));
}

}  // namespace qs::ui
