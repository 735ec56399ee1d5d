#include "ui/embedding/workbench_window.h"

#include <QAction>
#include <QApplication>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QFutureWatcher>
#include <QHBoxLayout>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QProgressBar>
#include <QPushButton>
#include <QSpinBox>
#include <QSplitter>
#include <QStatusBar>
#include <QTabWidget>
#include <QTimer>
#include <QToolButton>
#include <QUndoStack>
#include <QVBoxLayout>
#include <QtConcurrent>
#include <algorithm>

#include "core/embedding/storage_quant.h"
#include "ui/embedding/config_editor.h"
#include "ui/embedding/embedding_model.h"
#include "ui/embedding/views/feature_stats_panel.h"
#include "ui/embedding/views/heat_map_view.h"
#include "ui/embedding/views/occupancy_view.h"
#include "ui/embedding/views/pipeline_view.h"
#include "ui/embedding/views/range_suggestions_panel.h"
#include "ui/embedding/views/sharding_view.h"
#include "ui/embedding/views/storage_export_panel.h"
#include "ui/model/native_file.h"

namespace qs::ui {
namespace {

// The pipelining demo trains a copy of the table twice; larger tables use their first rows.
constexpr int64_t kPipelineMaxRows = 100'000;

QWidget* column(std::initializer_list<QWidget*> widgets, QWidget* top = nullptr) {
    auto* w = new QWidget;
    auto* layout = new QVBoxLayout(w);
    layout->setContentsMargins(0, 0, 0, 0);
    if (top) layout->addWidget(top);
    for (QWidget* x : widgets) layout->addWidget(x, 1);
    return w;
}

}  // namespace

WorkbenchWindow::WorkbenchWindow(QWidget* parent)
    : QMainWindow(parent), model_(new EmbeddingModel(this)) {
    setObjectName(QStringLiteral("workbenchWindow"));
    setAttribute(Qt::WA_DeleteOnClose, false);
    service_ = new WorkbenchService(this);
    createTabs();
    editor_ = new ConfigEditor(model_);
    auto* dock = new QDockWidget(tr("Configuration"));
    dock->setObjectName(QStringLiteral("configurationDock"));
    dock->setWidget(editor_);
    addDockWidget(Qt::LeftDockWidgetArea, dock);
    resizeDocks({dock}, {560}, Qt::Horizontal);  // the optimizer keywords are long
    createMenus();
    createStatusBar();
    connectService();
    connect(model_, &EmbeddingModel::documentChanged, this, &WorkbenchWindow::scheduleRefresh);
    connect(model_, &EmbeddingModel::viewChanged, this, &WorkbenchWindow::scheduleRefresh);
    connect(editor_, &ConfigEditor::statusMessage, status_, &QLabel::setText);
    resize(1500, 950);
    updateTitle();
    scheduleRefresh();
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
    auto* lower = new QSplitter(Qt::Horizontal);
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
    connect(suggestions_, &RangeSuggestionsPanel::applyRequested, this, &WorkbenchWindow::applySuggestion);
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

    QMenu* view = menuBar()->addMenu(tr("&View"));
    for (int i = 0; i < tabs_->count(); ++i) {
        QAction* a = view->addAction(tabs_->tabText(i).replace(QLatin1String("&&"), QLatin1String("&")),
                                     this, [this, i] { tabs_->setCurrentIndex(i); });
        a->setShortcut(QKeySequence(QStringLiteral("Alt+%1").arg(i + 1)));
    }
}

void WorkbenchWindow::createStatusBar() {
    status_ = new QLabel;
    status_->setObjectName(QStringLiteral("workbenchStatus"));
    timing_ = new QLabel;
    progress_ = new QProgressBar;
    progress_->setRange(0, 1000);
    progress_->setMaximumWidth(220);
    progress_->hide();
    cancel_ = new QToolButton;
    cancel_->setText(tr("Cancel"));
    cancel_->setObjectName(QStringLiteral("cancelLoad"));
    cancel_->hide();
    connect(cancel_, &QToolButton::clicked, service_, &WorkbenchService::cancel);
    statusBar()->addWidget(status_, 1);
    statusBar()->addPermanentWidget(progress_);
    statusBar()->addPermanentWidget(cancel_);
    statusBar()->addPermanentWidget(timing_);
}

void WorkbenchWindow::connectService() {
    connect(service_, &WorkbenchService::loadingStarted, this, [this] {
        progress_->setValue(0);
        progress_->show();
        cancel_->show();
        status_->setText(tr("Loading table '%1'…").arg(QString::fromStdString(inputs_ ? inputs_->name : "")));
    });
    connect(service_, &WorkbenchService::progress, this,
            [this](double f) { progress_->setValue(static_cast<int>(f * 1000)); });
    auto endLoad = [this] {
        progress_->hide();
        cancel_->hide();
    };
    connect(service_, &WorkbenchService::tableLoaded, this,
            [this, endLoad](EmbeddingTablePtr table, quint64 serial, double ms) {
                if (serial != loadSerial_) return;
                endLoad();
                table_ = std::move(table);
                {
                    // The heat-map window cannot start past the last row.
                    const QSignalBlocker block(firstRow_);
                    firstRow_->setMaximum(static_cast<int>(std::min<int64_t>(table_->rows - 1, std::numeric_limits<int>::max())));
                }
                loadedKey_ = loadingKey_;
                loadingKey_.reset();
                timing_->setText(tr("table loaded in %1 ms").arg(ms, 0, 'f', 0));
                requestAnalyses();
            });
    connect(service_, &WorkbenchService::loadCancelled, this, [this, endLoad](quint64 serial) {
        if (serial != loadSerial_) return;
        endLoad();
        loadingKey_.reset();
        setStale(tr("loading cancelled"));
    });
    connect(service_, &WorkbenchService::loadFailed, this,
            [this, endLoad](const QString& kind, const QString& message, quint64 serial) {
                if (serial != loadSerial_) return;
                endLoad();
                loadingKey_.reset();
                setStale(kind + QStringLiteral(": ") + message);
            });
    connect(service_, &WorkbenchService::tableAnalyzed, this,
            [this](TableAnalysisPtr a, quint64 serial, double ms) {
                if (serial == tableSerial_) {  // the analysis of the latest request
                    shownTableRequest_ = requestedTable_;
                    latestTable_ = a;
                }
                if (!showResults_) return;
                showTableAnalysis(a);
                timing_->setText(tr("table analysed in %1 ms").arg(ms, 0, 'f', 0));
            });
    connect(service_, &WorkbenchService::featureAnalyzed, this,
            [this](FeatureAnalysisPtr a, quint64, double) {
                if (!showFeatureResults_) return;
                lastFeature_ = a;
                if (inputs_)
                    featureCaption_->setText(
                        tr("Feature '%1' on table '%2' (%3 × %4, combiner %5): %6 ids in %7 examples from %8. "
                           "Simulated quantization is applied to every gathered row before the combiner, as on "
                           "the TPU; the middle column quantizes after combining, for comparison.")
                            .arg(featureDisplayName(model_->document(), feature_), QString::fromStdString(inputs_->name))
                            .arg(inputs_->vocabulary_size).arg(inputs_->dim)
                            .arg(QString::fromStdString(inputs_->combiner))
                            .arg(a->simulation.ids).arg(a->simulation.examples)
                            .arg(featureSource_));
                featureStats_->setSimulation(a->simulation, featureDisplayName(model_->document(), feature_));
                featureStats_->setStale(false);
                sharding_->setReport(a->sharding);
                status_->setText(tr("%1: %2 ids looked up in %3 ms")
                                     .arg(featureDisplayName(model_->document(), feature_))
                                     .arg(a->simulation.ids)
                                     .arg(a->simulation.lookup_ms, 0, 'f', 1));
                emit featureAnalysisShown();
            });
    connect(service_, &WorkbenchService::analysisFailed, this,
            [this](const QString& what, const QString& kind, const QString& message, quint64) {
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
            });
    connect(service_, &WorkbenchService::pipelineDemoReady, this, [this](PipelineDemoPtr demo, quint64, double ms) {
        pipeline_->setDemo(*demo);
        runPipeline_->setEnabled(true);
        status_->setText(tr("pipelining demonstration: %1 steps in %2 ms").arg(demo->steps.size()).arg(ms, 0, 'f', 0));
    });
    connect(service_, &WorkbenchService::pipelineDemoFailed, this,
            [this](const QString& kind, const QString& message, quint64) {
                runPipeline_->setEnabled(true);
                pipeline_->setStale(true, kind + QStringLiteral(": ") + message);
            });
}

void WorkbenchWindow::showTableAnalysis(const TableAnalysisPtr& a) {
    lastTable_ = a;
    if (a->occupancy) occupancy_->setOccupancy(*a->occupancy);
    else if (inputs_ && inputs_->quantization)
        occupancy_->clear(tr("%1 buckets: too many to draw one bar each\n(the histogram stops at 2^24).")
                              .arg(inputs_->quantization->num_buckets));
    else occupancy_->clear();
    occupancy_->setSuggestions(a->suggestions);
    suggestions_->setSuggestions(a->suggestions, inputs_ && inputs_->quantization
                                                     ? inputs_->quantization->num_buckets : 256);
    if (a->storage) storage_->setStorage(*a->storage); else storage_->clear();
    heatMap_->setWindow(a->window);
    suggestions_->setStale(false);
    storage_->setStale(false);
    emit tableAnalysisShown();
}

void WorkbenchWindow::scheduleRefresh() {
    if (refreshQueued_) return;
    refreshQueued_ = true;
    QTimer::singleShot(0, this, [this] {
        refreshQueued_ = false;
        refresh();
    });
}

void WorkbenchWindow::setStale(const QString& message) {
    showResults_ = showFeatureResults_ = false;
    for (PlotFrame* p : {static_cast<PlotFrame*>(occupancy_), static_cast<PlotFrame*>(heatMap_),
                         static_cast<PlotFrame*>(sharding_)})
        p->setStale(true, message);
    suggestions_->setStale(true, message);
    storage_->setStale(true, message);
    featureStats_->setStale(true, message);
    status_->setText(message);
}

int WorkbenchWindow::featureForTable(int table) const {
    const EmbeddingDocument& doc = model_->document();
    const int selected = doc.view.feature;
    if (selected >= 0 && static_cast<size_t>(selected) < doc.features.size() &&
        doc.features[static_cast<size_t>(selected)].table == table)
        return selected;
    for (size_t i = 0; i < doc.features.size(); ++i)
        if (doc.features[i].table == table) return static_cast<int>(i);
    return -1;
}

void WorkbenchWindow::refresh() {
    const EmbeddingDocument& doc = model_->document();
    updateTitle();
    {
        const QSignalBlocker b1(firstRow_), b2(windowRows_);
        firstRow_->setValue(static_cast<int>(std::min<qint64>(doc.view.first_row, std::numeric_limits<int>::max())));
        windowRows_->setValue(static_cast<int>(std::clamp<qint64>(doc.view.rows, 1, 4096)));
    }
    int table = doc.view.table;
    // Selecting a feature shows its table.
    if (doc.view.feature >= 0 && static_cast<size_t>(doc.view.feature) < doc.features.size() &&
        doc.features[static_cast<size_t>(doc.view.feature)].table >= 0)
        table = doc.features[static_cast<size_t>(doc.view.feature)].table;
    if (table < 0 || static_cast<size_t>(table) >= doc.tables.size()) {
        inputs_.reset();
        setStale(doc.tables.empty() ? tr("The configuration has no table: add one in the editor.")
                                    : tr("No table selected."));
        return;
    }
    auto inputs = workbenchTableInputs(doc, table);
    if (!inputs) {
        inputs_.reset();
        setStale(QString::fromStdString(inputs.error().message));
        return;
    }
    inputs_ = *inputs;
    tableIndex_ = table;
    const LoadKey key{inputs->source, inputs->vocabulary_size, inputs->dim};
    if (loadedKey_ == key && table_) {
        if (loadingKey_) {  // back to the loaded table: the other table's load is not wanted
            service_->cancel();
            loadingKey_.reset();
            loadSerial_ = 0;  // its outcome is ignored (serials start at 1)
            progress_->hide();
            cancel_->hide();
        }
        requestAnalyses();
    } else if (!(loadingKey_ == key)) {
        loadingKey_ = key;
        loadSerial_ = service_->loadTable(key.source, key.vocabulary_size, key.dim);
    }
}

void WorkbenchWindow::requestAnalyses() {
    if (!table_ || !inputs_) return;
    showResults_ = true;
    const EmbeddingDocument& doc = model_->document();
    // The table's analysis (1.5 s for 1M x 128) only when its inputs changed: feature edits
    // (ids, hosts, another feature of the table) reuse it.
    const TableRequest request{table_, inputs_->quantization, doc.view.first_row, doc.view.rows};
    if (shownTableRequest_ == request && latestTable_) {
        showTableAnalysis(latestTable_);  // un-greys the views after an invalid edit was undone
    } else if (!(requestedTable_ == request)) {
        requestedTable_ = request;
        qs::embedding::TableAnalysisOptions options;
        options.window_first_row = request.first_row;
        options.window_rows = request.rows;
        tableSerial_ = service_->analyzeTable(table_, inputs_->quantization, options);
    }

    feature_ = featureForTable(tableIndex_);
    showFeatureResults_ = false;
    if (feature_ < 0) {
        featureCaption_->setText(tr("No feature looks up table '%1': add one in the configuration.")
                                     .arg(QString::fromStdString(inputs_->name)));
        featureStats_->setStale(true, tr("no feature on this table"));
        sharding_->setStale(true, tr("no feature on this table"));
        return;
    }
    const EmbeddingFeature& f = doc.features[static_cast<size_t>(feature_)];
    featureSource_ = f.ids_file.isEmpty() ? f.ids : QFileInfo(f.ids_file).fileName();
    showFeatureResults_ = true;
    // The batch is generated (or its CSV read) on the worker, with the document as it is now.
    IdBatchMaker makeBatch = [doc, feature = feature_, vocabulary = inputs_->vocabulary_size, dim = inputs_->dim] {
        return workbenchFeatureBatch(doc, feature, vocabulary, dim);
    };
    service_->analyzeFeature(table_, std::move(makeBatch), inputs_->combiner, inputs_->quantization,
                             std::max(1, doc.num_hosts), workbenchStrategy(doc));
}

void WorkbenchWindow::applySuggestion(double lower, double upper) {
    const EmbeddingDocument& doc = model_->document();
    if (!inputs_ || tableIndex_ < 0 || static_cast<size_t>(tableIndex_) >= doc.tables.size()) return;
    EmbeddingTable t = doc.tables[static_cast<size_t>(tableIndex_)];
    if (!t.quantization) t.quantization = EmbeddingQuantization{};
    t.quantization->lower = lower;
    t.quantization->upper = upper;
    model_->setTable(tableIndex_, t, tr("apply suggested range [%1, %2]").arg(lower).arg(upper));
}

void WorkbenchWindow::runPipelineDemo() {
    if (!table_ || !inputs_) return;
    const EmbeddingDocument& doc = model_->document();
    qs::embedding::PipelineDemoSpec spec;
    spec.steps = pipelineSteps_->value();
    if (feature_ >= 0) {
        if (auto parsed = qs::embedding::parseIdBatchSpec(doc.features[static_cast<size_t>(feature_)].ids.toStdString()))
            spec.batches = *parsed;
    }
    spec.combiner = inputs_->combiner;
    spec.quantization = inputs_->quantization;
    spec.optimizer = inputs_->optimizer;
    EmbeddingTablePtr demoTable = table_;
    if (table_->rows > kPipelineMaxRows) {
        auto part = std::make_shared<qs::tpu::RowMatrix>();
        part->rows = kPipelineMaxRows;
        part->cols = table_->cols;
        part->values.assign(table_->values.begin(),
                            table_->values.begin() + static_cast<std::ptrdiff_t>(kPipelineMaxRows * table_->cols));
        demoTable = part;
    }
    runPipeline_->setEnabled(false);
    status_->setText(tr("training %1 steps with and without pipelining…").arg(spec.steps));
    service_->runPipelineDemo(demoTable, spec);
}

void WorkbenchWindow::exportStorage(const QString& codesPath) {
    if (!table_ || !inputs_ || !inputs_->quantization) {
        status_->setText(tr("Export needs a loaded table with a quantization_config."));
        return;
    }
    QString params = codesPath;
    if (params.endsWith(QLatin1String(".npy"), Qt::CaseInsensitive)) params.chop(4);
    params += QStringLiteral(".params.json");
    const EmbeddingTablePtr table = table_;
    const qs::tpu::QuantizationConfig config = *inputs_->quantization;
    status_->setText(tr("Exporting the quantized table…"));
    auto* watcher = new QFutureWatcher<QString>(this);
    connect(watcher, &QFutureWatcher<QString>::finished, this, [this, watcher] {
        status_->setText(watcher->result());
        watcher->deleteLater();
    });
    watcher->setFuture(QtConcurrent::run([table, config, codesPath, params]() -> QString {
        // An exception left in the future would be rethrown by result() in the slot above,
        // through the event loop: report it as the outcome instead.
        try {
            auto r = qs::embedding::exportStorageQuantization(*table, config, nativePath(codesPath),
                                                              nativePath(params), qs::Exec::allCores());
            if (!r) return QString::fromStdString(r.error().kind + ": " + r.error().message);
            return QObject::tr("Exported %1 and %2: %3 % of the float32 bytes saved, reconstruction MSE %4")
                .arg(QFileInfo(codesPath).fileName(), QFileInfo(params).fileName())
                .arg(r->saved_fraction * 100, 0, 'f', 1)
                .arg(r->reconstruction.mse, 0, 'g', 4);
        } catch (const std::exception& e) {  // e.g. bad_alloc on a huge table
            return QObject::tr("Export failed: %1").arg(QString::fromLocal8Bit(e.what()));
        }
    }));
}

void WorkbenchWindow::exportStorageDialog() {
    const QString path = QFileDialog::getSaveFileName(this, tr("Export quantized table codes"),
                                                      QString(), tr("NumPy array (*.npy)"));
    if (!path.isEmpty()) exportStorage(path.endsWith(QLatin1String(".npy")) ? path : path + QStringLiteral(".npy"));
}

bool WorkbenchWindow::openConfig(const QString& path, QString* error) {
    QString message;
    if (!editor_->openFrom(path, &message)) {
        if (error) *error = message;
        status_->setText(message);
        return false;
    }
    path_ = path;
    updateTitle();
    return true;
}

bool WorkbenchWindow::saveConfig(const QString& path, QString* error) {
    QString message;
    if (!editor_->saveTo(path, &message)) {
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
