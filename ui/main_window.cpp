#include "ui/main_window.h"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QCheckBox>
#include <QCloseEvent>
#include <QDir>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QLocale>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QStandardPaths>
#include <QStatusBar>
#include <QScrollArea>
#include <QTabWidget>
#include <functional>
#include <utility>


#include "session/explorer/compute_service.h"
#include "session/explorer/data_service.h"
#include "session/explorer/explorer_model.h"
#include "session/explorer/session.h"
#include "session/modelfile/model_file_controller.h"
#include "session/modelfile/tensor_text.h"
#include "session/workbench/embedding_model.h"
#include "ui/analysis/analysis_tabs.h"
#include "ui/embedding/workbench_window.h"
#include "ui/lessons/lesson_controller.h"
#include "ui/modelfile/model_dock.h"
#include "ui/modelfile/model_docks.h"
#include "ui/panels/data_panel.h"
#include "ui/panels/parameter_panel.h"
#include "ui/plot/plot_frame.h"
#include "ui/plot/theme.h"
#include "ui/recent_files.h"
#include "ui/status/job_status.h"
#include "ui/views/channel_view.h"
#include "ui/views/error_histogram_view.h"
#include "ui/views/framework_view.h"
#include "ui/views/histogram_view.h"
#include "ui/views/stats_panel.h"
#include "ui/views/transfer_view.h"
#include "ui/window/presentation_mode.h"

namespace qs::ui {

namespace {

const char* kRecentKey = "recentSessions";
const QString kSessionFilter = QObject::tr("QuantScope sessions (*.qscope);;All files (*)");

}  // namespace

MainWindow::MainWindow(ExplorerModel* model, QWidget* parent)
    : QMainWindow(parent),
      model_(model),
      controller_(new ExplorerController(model, this)),
      modelFiles_(new ModelFileController(controller_, this)) {
    setAcceptDrops(true);
    tabs_ = new QTabWidget;
    tabs_->setObjectName("viewTabs");
    tabs_->setDocumentMode(true);
    tabs_->addTab(transferView_ = new TransferView, tr("Transfer curve"));
    tabs_->addTab(histogramView_ = new HistogramView, tr("Data histogram"));
    tabs_->addTab(errorView_ = new ErrorHistogramView, tr("Error histogram"));
    tabs_->addTab(channelView_ = new ChannelView, tr("Per channel"));
    analysis_ = new AnalysisTabs(controller_, tabs_, this);
    tabs_->addTab(frameworkView_ = new FrameworkView(controller_->frameworkService()), tr("Frameworks"));
    // The r1.4 switch is the model's (undo, sessions): the check box edits and shows it.
    connect(frameworkView_->r14Box(), &QCheckBox::toggled, model_, &ExplorerModel::setScaledR14);
    connect(model_, &ExplorerModel::scaledR14Changed, frameworkView_,
            [this] { frameworkView_->r14Box()->setChecked(model_->analysis().scaledR14); });
    createViewNavigator();

    createDocks();
    createMenus();
    createStatusBar();
    connectController();

    fitToScreen();
    updateTitle();
    controller_->start();
}

MainWindow::~MainWindow() {
    // Hide this window and its own windows (floating docks, the workbench) while all of it
    // is alive. Hiding a spin box commits its pending text (QAbstractSpinBox::hideEvent);
    // left to QWidget's destructor, a floating dock hides when it is deleted, after the
    // services, and its edit reached this half-destroyed window and the freed DataService.
    for (QWidget* w : findChildren<QWidget*>())
        if (w->isWindow()) w->hide();
    hide();
}

void MainWindow::createDocks() {
    auto dock = [this](const QString& title, const char* name, QWidget* w, Qt::DockWidgetArea a) {
        auto* d = new QDockWidget(title);
        d->setObjectName(QLatin1String(name));
        d->setWidget(w);
        addDockWidget(a, d);
        return d;
    };
    panel_ = new ParameterPanel(model_);
    panel_->setMinimumWidth(340);
    dataPanel_ = new DataPanel(model_);
    statsPanel_ = new StatsPanel;
    statsPanel_->setMinimumWidth(400);  // values like "0.2642 % (1,262 below, 1,380 above)"
    QDockWidget* params = dock(tr("Parameters"), "parametersDock", panel_, Qt::LeftDockWidgetArea);
    QDockWidget* data = dock(tr("Data"), "dataDock", dataPanel_, Qt::LeftDockWidgetArea);
    // In a scroll area: with the lesson panel above it the dock can get shorter than the
    // table, which then scrolls instead of being drawn over the formula below it.
    auto* statsScroll = new QScrollArea;
    statsScroll->setWidget(statsPanel_);
    statsScroll->setWidgetResizable(true);
    statsScroll->setFrameShape(QFrame::NoFrame);
    statsScroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    statsScroll->setMinimumWidth(statsPanel_->minimumWidth() + 16);
    statsDock_ = dock(tr("Statistics"), "statisticsDock", statsScroll, Qt::RightDockWidgetArea);
    tabifyDockWidget(params, data);
    // Their tabs on top, where they are seen, not at the dock's foot under a long form.
    setTabPosition(Qt::LeftDockWidgetArea, QTabWidget::North);
    params->raise();
    // The model docks (Model, Model report, Stored quantization): below the views, where
    // tables of many columns have the width (beside them on a short window); shown when a
    // model opens.
    modelDocks_ = new ModelDocks(this, modelFiles_, model_);
    modelDocks_->setShortWindowCompanion(statsDock_);
    // A channel's row of the report: a view that shows that channel.
    connect(modelDocks_, &ModelDocks::channelActivated, this, [this] {
        if (currentView() != QLatin1String("transfer") && currentView() != QLatin1String("per-channel"))
            showView(QStringLiteral("transfer"));
    });
}

void MainWindow::createMenus() {
    QMenu* file = menuBar()->addMenu(tr("&File"));
    file->addAction(tr("&Open session…"), QKeySequence::Open, this, &MainWindow::openSessionDialog);
    recentMenu_ = file->addMenu(tr("Open &recent"));
    file->addAction(tr("&Save session"), QKeySequence::Save, this, &MainWindow::saveSession);
    file->addAction(tr("Save session &as…"), QKeySequence::SaveAs, this,
                    &MainWindow::saveSessionAsDialog);
    file->addSeparator();
    file->addAction(tr("Open &data file…"), QKeySequence(tr("Ctrl+D")), this,
                    &MainWindow::openDataFileDialog);
    file->addAction(tr("Open &model…"), QKeySequence(tr("Ctrl+Shift+O")), this, &MainWindow::openModelDialog)
        ->setObjectName("openModelAction");
    file->addAction(tr("Open Saved&Model folder…"), this, &MainWindow::openSavedModelDialog)
        ->setObjectName("openSavedModelAction");
    recentModelsMenu_ = file->addMenu(tr("Recent mode&ls"));
    recentModelsMenu_->setObjectName("recentModelsMenu");
    refreshRecentModelsMenu();
    file->addSeparator();
    auto onPlot = [this](void (PlotFrame::*slot)()) {
        return [this, slot] {
            if (PlotFrame* p = currentPlot()) (p->*slot)();
        };
    };
    file->addAction(tr("&Export view as PNG…"), QKeySequence(tr("Ctrl+E")), this,
                    onPlot(&PlotFrame::exportImageDialog));
    file->addAction(tr("Export view as S&VG…"), this, onPlot(&PlotFrame::exportSvgDialog));
    file->addAction(tr("Export view as P&DF…"), this, onPlot(&PlotFrame::exportPdfDialog));
    file->addAction(tr("Export plotted data as &CSV…"), QKeySequence(tr("Ctrl+Shift+E")), this,
                    onPlot(&PlotFrame::exportCsvDialog));
    file->addAction(tr("Export s&tatistics as CSV…"), this, &MainWindow::exportStatsDialog);
    file->addAction(tr("Cop&y view to clipboard"), QKeySequence(tr("Ctrl+Shift+C")), this, [this] {
        if (PlotFrame* p = currentPlot()) p->copyToClipboard();
        statusBar()->showMessage(tr("View copied to the clipboard."), 3000);
    });
    file->addSeparator();
    file->addAction(tr("&Quit"), QKeySequence::Quit, this, &QWidget::close);
    refreshRecentMenu();

    QMenu* edit = menuBar()->addMenu(tr("&Edit"));
    QAction* undo = model_->undoStack()->createUndoAction(this, tr("&Undo"));
    undo->setShortcuts(QKeySequence::Undo);
    QAction* redo = model_->undoStack()->createRedoAction(this, tr("&Redo"));
    // The platform's Redo keys, plus Ctrl+Y where the platform does not already bind it
    // (binding it twice makes Qt drop it as an ambiguous shortcut).
    QList<QKeySequence> redoKeys = QKeySequence::keyBindings(QKeySequence::Redo);
    if (!redoKeys.contains(QKeySequence(tr("Ctrl+Y")))) redoKeys << QKeySequence(tr("Ctrl+Y"));
    redo->setShortcuts(redoKeys);
    edit->addAction(undo);
    edit->addAction(redo);

    QMenu* quant = menuBar()->addMenu(tr("&Quantize"));
    quant->addAction(tr("&Next mode"), QKeySequence(tr("Ctrl+]")), controller_, [this] { controller_->stepMode(+1); });
    quant->addAction(tr("&Previous mode"), QKeySequence(tr("Ctrl+[")), controller_,
                     [this] { controller_->stepMode(-1); });
    quant->addAction(tr("Range from &data"), QKeySequence(tr("Ctrl+R")), panel_,
                     &ParameterPanel::rangeFromDataRequested);

    QMenu* view = menuBar()->addMenu(tr("&View"));
    view->addAction(tr("&Reset view"), QKeySequence(tr("Ctrl+0")), this, [this] {
        if (PlotFrame* p = currentPlot()) p->resetView();
    });
    QAction* dark = view->addAction(tr("&Dark theme"));
    dark->setObjectName("darkThemeAction");
    dark->setCheckable(true);
    dark->setShortcut(QKeySequence(tr("Ctrl+Shift+T")));
    connect(dark, &QAction::toggled, this, &MainWindow::applyTheme);
    connect(model_, &ExplorerModel::viewStateChanged, dark, [this, dark] {
        dark->setChecked(model_->viewState().dark);
        tabs_->setCurrentIndex(model_->viewState().tab);
        errorView_->setLogScale(model_->viewState().errorLogScale);
    });
    view->addSeparator();
    for (int i = 0; i < tabs_->count(); ++i) {
        QAction* a = view->addAction(tabs_->tabText(i), this, [this, i] { tabs_->setCurrentIndex(i); });
        a->setShortcut(QKeySequence(QStringLiteral("Alt+%1").arg(i + 1)));
    }
    view->addSeparator();
    for (QDockWidget* d : findChildren<QDockWidget*>()) view->addAction(d->toggleViewAction());
    view->addSeparator();
    presentation_ = new PresentationMode(this);
    view->addAction(presentation_->action());
    connect(presentation_, &PresentationMode::toggled, this, [this](bool on) {
        if (workbench_) workbench_->setPresentation(on);
    });

    QMenu* tools = menuBar()->addMenu(tr("&Tools"));
    QAction* workbench = tools->addAction(tr("TPU &embedding workbench…"), this, [this] { showWorkbench(); });
    workbench->setObjectName("workbenchAction");
    workbench->setShortcut(QKeySequence(tr("Ctrl+B")));  // Ctrl+E exports the view
    lessons_ = new LessonController(controller_, this);
    menuBar()->addMenu(lessons_->menu());
    placeLessonDock();
    createLessonStage();
    connect(presentation_, &PresentationMode::stepRequested, lessons_, &LessonController::step);
    createHelpMenu();
}

void MainWindow::placeLessonDock() {
    QDockWidget* lesson = lessons_->dock();
    addDockWidget(Qt::RightDockWidgetArea, lesson);
    splitDockWidget(lesson, statsDock_, Qt::Vertical);  // the lesson above the numbers
    lesson->hide();
    connect(lessons_, &LessonController::dockRevealed, this, [this, lesson] {
        // The statistics below keep the larger share; the explanation scrolls.
        if (statsDock_->isVisible()) resizeDocks({lesson, statsDock_}, {5, 6}, Qt::Vertical);
    });
}

void MainWindow::createStatusBar() {
    // One bar and one Cancel for both long jobs: a load, or a pass over a streamed data set.
    status_ = new JobStatus(QStringLiteral("explorer"));
    status_->setSingleLine(true);
    status_->setHideWhenEmpty(false);
    status_->setRerunOffered(false);  // a load is redone by opening it again, a pass by an edit
    timingLabel_ = new QLabel;
    connect(status_, &JobStatus::cancelRequested, this, [this] {
        if (controller_->dataService()->loading()) controller_->dataService()->cancel();
        else controller_->computeService()->cancelRunning();
    });
    statusBar()->addWidget(status_, 1);
    statusBar()->addPermanentWidget(timingLabel_);
}

void MainWindow::connectController() {
    connect(model_->undoStack(), &QUndoStack::cleanChanged, this, &MainWindow::updateTitle);

    DataService* dataService = controller_->dataService();
    connect(dataService, &DataService::loadingStarted, this, [this](const QString& what) {
        status_->setRunning(tr("Loading %1…").arg(what));
    });
    connect(dataService, &DataService::progress, this,
            [this](double f) { status_->setProgress(f); });
    auto loadingDone = [this] { status_->finish(); };
    connect(dataService, &DataService::loaded, this, [this, loadingDone](DatasetPtr d) {
        loadingDone();
        QString info = tr("%1 values, shape %2\n%3")
                           .arg(QLocale().toString(static_cast<qlonglong>(d->size())), shapeText(d->shape),
                                QString::fromStdString(d->label));
        if (d->streamed())
            info += tr("\nStreamed from the file: larger than the memory budget of %1")
                        .arg(QLocale().formattedDataSize(controller_->dataService()->memoryBudget()));
        dataPanel_->setDatasetInfo(info);
    });
    connect(dataService, &DataService::failed, this, [this, loadingDone](const QString& m) {
        loadingDone();
        dataPanel_->setDatasetInfo(tr("Could not load the data: %1").arg(m));
        status_->setError(tr("Data: %1").arg(m));
        // The views keep the previous data's result: say so on them, not only in the panel.
        if (controller_->lastResult())
            for (PlotFrame* p : findChildren<PlotFrame*>())
                p->setStale(true, tr("Could not load the data (%1); showing the previous data.").arg(m));
    });
    connect(dataService, &DataService::cancelled, this, [this, loadingDone] {
        loadingDone();
        status_->setText(tr("Loading cancelled; the previous data stays."));
    });

    // The transfer curve needs no statistics: it is drawn as soon as the op has run, while
    // the pass over the data goes on, and its result then only adopted (showResult).
    connect(controller_, &ExplorerController::curveChanged, this, [this](ExplorerResultPtr partial, quint64 serial) {
        transferView_->setResult(std::move(partial));
        curveShown_ = serial;
    });
    connect(controller_, &ExplorerController::resultChanged, this, &MainWindow::showResult);
    connect(controller_, &ExplorerController::computeFailed, this, &MainWindow::showFailure);
    connectStreamedPasses();

    for (PlotFrame* p : {static_cast<PlotFrame*>(transferView_), static_cast<PlotFrame*>(histogramView_)})
        connect(p, &PlotFrame::rangeDragged, controller_, &ExplorerController::dragRange);
    connect(panel_, &ParameterPanel::rangeFromDataRequested, controller_, &ExplorerController::rangeFromData);
    connect(tabs_, &QTabWidget::currentChanged, controller_, &ExplorerController::setCurrentTab);
    connect(errorView_->logScaleAction(), &QAction::toggled, controller_, &ExplorerController::setErrorLogScale);
    connect(dataPanel_, &DataPanel::openFileRequested, this, &MainWindow::openDataFileDialog);
    connectModelFiles();
}

void MainWindow::connectStreamedPasses() {
    // A pass over a streamed data set takes seconds: the load's bar and Cancel button show it.
    ComputeService* compute = controller_->computeService();
    connect(compute, &ComputeService::progress, this, [this](double f) {
        if (controller_->dataService()->loading()) return;  // the bar is the load's
        if (!status_->isRunning()) status_->setRunning(tr("Computing over the streamed data set…"));
        status_->setProgress(f);
    });
    auto passDone = [this] {
        if (controller_->dataService()->loading()) return;
        status_->finish();
    };
    connect(compute, &ComputeService::resultReady, this, passDone);
    connect(compute, &ComputeService::failed, this, passDone);
    connect(compute, &ComputeService::cancelled, this, passDone);
    connect(controller_, &ExplorerController::computeCancelled, this, [this] {
        const QString text = tr("Computation cancelled; the views show the previous result. Edit to compute again.");
        if (controller_->lastResult())
            for (PlotFrame* p : findChildren<PlotFrame*>()) p->setStale(true, text);
        status_->setText(text);
    });
}

void MainWindow::showResult(ExplorerResultPtr result, quint64 serial, double ms) {
    if (serial == curveShown_)
        transferView_->adoptResult(result);  // its curve is on show already (curveChanged)
    else
        transferView_->setResult(result);
    histogramView_->setResult(result);
    errorView_->setResult(result);
    channelView_->setResult(result);
    frameworkView_->setInput(result, controller_->dataService()->dataset());
    statsPanel_->setResult(result);
    panel_->setError(QString());
    // A streamed pass stops counting distinct outputs past 16M of them (distinct_levels -1).
    const QString levels = result->stats.distinct_levels >= 0
                               ? tr("%1 levels used").arg(result->stats.distinct_levels)
                               : tr("over 4M levels used (not counted)");
    // No pair without NaN: there is no SQNR to give ("SQNR nan dB" read as a broken number).
    const QString sqnr = result->stats.count == 0
                             ? tr("no value without NaN to compare")
                             : tr("SQNR %1 dB").arg(result->stats.sqnr_db, 0, 'f', 2);
    status_->setText(tr("%1 · %2 values · %3 · %4")
                              .arg(QString::fromUtf8(qs::quantOpName(result->spec.op).data()))
                              .arg(QLocale().toString(static_cast<qlonglong>(result->stats.count + result->stats.nan_pairs)))
                              .arg(sqnr)
                              .arg(levels));
    timingLabel_->setText(tr("computed in %1 ms").arg(ms, 0, 'f', 1));
    emit resultShown(serial);
}

void MainWindow::showFailure(const QString& text) {
    // The last valid result stays on screen, marked stale, with TF's own words.
    for (PlotFrame* p : {static_cast<PlotFrame*>(transferView_), static_cast<PlotFrame*>(histogramView_),
                         static_cast<PlotFrame*>(errorView_), static_cast<PlotFrame*>(channelView_),
                         static_cast<PlotFrame*>(frameworkView_)})
        p->setStale(true, text);
    statsPanel_->setStale(true);
    panel_->setError(text);
    status_->setText(text);
}

void MainWindow::applyTheme(bool dark) {
    const Theme theme = dark ? Theme::Dark : Theme::Light;
    qApp->setPalette(widgetPalette(theme));
    for (PlotFrame* p : findChildren<PlotFrame*>()) p->setTheme(theme);
    statsPanel_->setTheme(theme);
    if (workbench_) workbench_->setTheme(theme);
    controller_->setDarkTheme(dark);
}

WorkbenchWindow* MainWindow::showWorkbench() {
    if (!workbench_) {
        EmbeddingModel* model = workbenchModel_;
        if (!model) {  // no model from the app (tests): one that lives as long as the window
            model = new EmbeddingModel;
            workbench_ = new WorkbenchWindow(model, this);
            model->setParent(workbench_);
        } else {
            workbench_ = new WorkbenchWindow(model, this);
        }
        // It starts in the explorer's look and follows it (applyTheme, presentation mode);
        // its View menu toggles the theme for both windows.
        workbench_->setTheme(model_->viewState().dark ? Theme::Dark : Theme::Light);
        workbench_->setPresentation(presentation_->isOn());
        workbench_->viewMenu()->addSeparator();
        workbench_->viewMenu()->addAction(findChild<QAction*>(QStringLiteral("darkThemeAction")));
    }
    workbench_->show();
    workbench_->raise();
    workbench_->activateWindow();
    return workbench_;
}

PlotFrame* MainWindow::currentPlot() const {
    QWidget* w = tabs_->currentWidget();
    if (auto* plot = qobject_cast<PlotFrame*>(w)) return plot;
    return w ? w->findChild<PlotFrame*>() : nullptr;  // a panel around a plot (Calibration, Compare)
}

Session MainWindow::currentSession() const {
    return Session{model_->spec(), model_->dataSource(), model_->viewState(), model_->analysis()};
}

bool MainWindow::openSession(const QString& path, QString* errorOut) {
    QString error;
    auto session = loadSession(path, &error);
    if (!session) {
        if (errorOut) *errorOut = error;
        status_->setError(tr("Could not open the session: %1").arg(error));
        if (isVisible()) QMessageBox::warning(this, tr("Open session"), error);
        return false;
    }
    applySession(*session);
    sessionPath_ = path;
    addRecent(path);
    updateTitle();
    status_->setText(tr("Opened %1").arg(QFileInfo(path).fileName()));
    return true;
}

bool MainWindow::saveSessionAs(const QString& path) {
    QString error;
    if (!qs::ui::saveSession(path, currentSession(), &error)) {
        status_->setError(tr("Could not save: %1").arg(error));
        if (isVisible()) QMessageBox::warning(this, tr("Save session"), error);
        return false;
    }
    sessionPath_ = path;
    model_->undoStack()->setClean();
    addRecent(path);
    updateTitle();
    status_->setText(tr("Saved %1").arg(QFileInfo(path).fileName()));
    return true;
}

QString MainWindow::lastSessionPath() {
    return QDir(QStandardPaths::writableLocation(QStandardPaths::AppDataLocation))
        .filePath(QStringLiteral("last-session.qscope"));
}

bool MainWindow::restoreLastSession() {
    const QString path = lastSessionPath();
    if (!QFileInfo::exists(path)) return false;
    QString error;
    auto session = loadSession(path, &error);
    if (!session) {
        status_->setError(tr("The last session could not be restored: %1").arg(error));
        return false;
    }
    applySession(*session);
    return true;
}

void MainWindow::applySession(const Session& session) {
    ViewState view = session.view;
    // A tab this window does not have (a session from a build with more tabs) shows the
    // first one; the model must not keep an index the tab widget ignored.
    if (view.tab < 0 || view.tab >= tabs_->count()) view.tab = 0;
    model_->reset(session.spec, session.data, view, session.analysis);
    applyTheme(view.dark);
}

void MainWindow::closeEvent(QCloseEvent* event) {
    if (!confirmClose()) {
        event->ignore();
        return;
    }
    QDir().mkpath(QFileInfo(lastSessionPath()).path());
    QString error;
    qs::ui::saveSession(lastSessionPath(), currentSession(), &error);  // best effort, atomic
    event->accept();
}

void MainWindow::updateTitle() {
    const QString name = sessionPath_.isEmpty() ? tr("Untitled") : QFileInfo(sessionPath_).completeBaseName();
    setWindowTitle(tr("QuantScope — %1[*]").arg(name));
    setWindowModified(!model_->undoStack()->isClean());
}

void MainWindow::addRecent(const QString& path) {
    rememberRecent(kRecentKey, path);
    refreshRecentMenu();
}

void MainWindow::refreshRecentMenu() {
    fillRecentMenu(recentMenu_, kRecentKey, this, [this](const QString& path) { openSession(path); });
}

void MainWindow::openSessionDialog() {
    const QString path = QFileDialog::getOpenFileName(this, tr("Open session"), QString(), kSessionFilter);
    if (!path.isEmpty()) openSession(path);
}

void MainWindow::saveSession() {
    if (sessionPath_.isEmpty()) saveSessionAsDialog();
    else saveSessionAs(sessionPath_);
}

void MainWindow::saveSessionAsDialog() {
    QString path = QFileDialog::getSaveFileName(this, tr("Save session"), sessionPath_, kSessionFilter);
    if (path.isEmpty()) return;
    if (QFileInfo(path).suffix().isEmpty()) path += QStringLiteral(".qscope");
    saveSessionAs(path);
}

void MainWindow::openDataFileDialog() {
    const QString path = QFileDialog::getOpenFileName(
        this, tr("Open data file"), QString(),
        tr("Data files (*.npy *.csv *.tsv *.txt *.vec);;All files (*)"));
    if (!path.isEmpty()) controller_->openDataFile(path);
}

void MainWindow::exportStatsDialog() {
    const QString path = QFileDialog::getSaveFileName(this, tr("Export statistics"),
                                                      QStringLiteral("statistics.csv"),
                                                      tr("CSV files (*.csv)"));
    if (path.isEmpty()) return;
    QString error;
    if (!statsPanel_->exportCsv(path, &error))
        QMessageBox::warning(this, tr("Export statistics"), error);
}

void MainWindow::about() {
    QMessageBox::about(
        this, tr("About QuantScope"),
        tr("<h3>QuantScope %1</h3>"
           "<p>See what quantization does to your numbers. Every value is computed the way "
           "TensorFlow's kernels compute it, bit for bit: QuantizeV2 / Dequantize, "
           "QuantizeAndDequantize V2–V4 and TPU embedding simulated quantization.</p>"
           "<p>Built with Qt %2, QCustomPlot and Eigen.</p>")
            .arg(QApplication::applicationVersion(), QString::fromLatin1(qVersion())));
}

}  // namespace qs::ui
