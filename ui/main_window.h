// The main window: docks (parameters, data, statistics), the views as tabs, menus with the
// common shortcuts, the status bar, sessions and recent files. It creates the explorer's
// ExplorerController (services, result state, rules) and connects the widgets to it: the
// controller's results and errors to the views, the widgets' gestures to the controller. It
// holds no maths and no result state.
#pragma once

#include <QMainWindow>
#include <QPointer>
#include <functional>
#include <utility>

#include "session/explorer/explorer_controller.h"

class QDockWidget;
class QDragEnterEvent;
class QDropEvent;
class QMimeData;
class QLabel;
class QMenu;
class QTabWidget;

namespace qs::ui {

class AnalysisTabs;
class DataPanel;
class DataService;
class ErrorHistogramView;
class FrameworkView;
class LessonController;
class LessonStageDirector;
class WelcomePage;
class ExplorerModel;
class ChannelView;
class JobStatus;
class HistogramView;
class ParameterPanel;
class PlotFrame;
class PresentationMode;
class EmbeddingModel;
class WorkbenchWindow;
class StatsPanel;
class TransferView;
class ViewNavigator;
struct Session;

class ModelDock;
class ModelDocks;
class ModelFileController;

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(ExplorerModel* model, QWidget* parent = nullptr);
    ~MainWindow() override;

    // Sessions. Errors go to a message box (interactive) and the status bar.
    bool openSession(const QString& path, QString* error = nullptr);
    bool saveSessionAs(const QString& path);
    QString sessionPath() const { return sessionPath_; }
    Session currentSession() const;

    // The autosaved state restored on start ("restore the last session"); false if none.
    bool restoreLastSession();
    static QString lastSessionPath();

    ExplorerController* controller() const { return controller_; }

    // Model files (the Model dock): opens `path` (a model file or a SavedModel folder) off
    // the UI thread; the dock lists its tensors when it is open, a failure goes to a message
    // box (interactive) and the status bar.
    void openModel(const QString& path);
    ModelFileController* modelFiles() const { return modelFiles_; }
    ModelDocks* modelDocks() const { return modelDocks_; }
    ModelDock* modelDock() const;
    QDockWidget* modelDockWidget() const;
    // The folders and files a drop would open (models, sessions, data files); empty when the
    // drop holds nothing this window opens.
    static QStringList droppableFiles(const QMimeData* mime);
    // Opens a 2-D tensor of the open model as a new table of the TPU embedding workbench
    // (written as float32 .npy to the cache folder, which the table reads).
    void openTensorInWorkbench(const QString& tensor);

    // For tests and the GUI benchmark.
    TransferView* transferView() const { return transferView_; }
    HistogramView* histogramView() const { return histogramView_; }
    ErrorHistogramView* errorHistogramView() const { return errorView_; }
    ChannelView* channelView() const { return channelView_; }
    StatsPanel* statsPanel() const { return statsPanel_; }
    ParameterPanel* parameterPanel() const { return panel_; }
    DataPanel* dataPanel() const { return dataPanel_; }
    QTabWidget* tabs() const { return tabs_; }
    // The views by stable name (ViewNavigator::ids(), the names lessons use too: "transfer", "histogram",
    // "error-histogram", "per-channel", "bit-sweep", "clip-sweep", "calibration", "compare",
    // "frameworks"), grouped Explore / Analyse / Compare above the views.
    bool showView(const QString& id);
    QString currentView() const;
    ViewNavigator* viewNavigator() const { return navigator_; }
    // The controller's, shown here (the result on show and whether it is behind the model).
    ComputeService* computeService() const { return controller_->computeService(); }
    DataService* dataService() const { return controller_->dataService(); }
    ExplorerResultPtr lastResult() const { return controller_->lastResult(); }
    bool resultIsStale() const { return controller_->resultIsStale(); }
    PlotFrame* currentPlot() const;
    PresentationMode* presentationMode() const { return presentation_; }
    // The TPU embedding workbench (created on first use, then shown and raised) and the
    // document it opens on, created by the app; it must outlive this window. Without one the
    // workbench window makes its own.
    WorkbenchWindow* showWorkbench();
    void setWorkbenchModel(EmbeddingModel* model) { workbenchModel_ = model; }
    AnalysisTabs* analysisTabs() const { return analysis_; }
    LessonController* lessons() const { return lessons_; }
    FrameworkView* frameworkView() const { return frameworkView_; }

    LessonStageDirector* lessonStage() const { return lessonStage_; }

    // First-start guidance: the welcome page over the views (try a lesson, open a model, open
    // data). showWelcomeIfFirstStart shows it unless the user has dismissed it before (the
    // settings remember it); the app calls it when started without a file, a session or a
    // lesson. Help > Welcome shows it again.
    bool showWelcomeIfFirstStart();
    void showWelcome();
    WelcomePage* welcomePage() const { return welcome_; }
    // Help > Manual and Help > Keyboard shortcuts (one dialog, two tabs; 0 or 1).
    void showHelp(int tab);

    // What closing the window with unsaved edits does; by default a message box asks
    // (Save / Discard / Cancel). Tests replace the question.
    enum class UnsavedChoice { Save, Discard, Cancel };
    void setUnsavedChangesPrompt(std::function<UnsavedChoice()> prompt) { unsavedPrompt_ = std::move(prompt); }

signals:
    // After the views show a new result (the GUI benchmark's "replotted" moment).
    void resultShown(quint64 serial);

protected:
    void closeEvent(QCloseEvent* event) override;
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;

private:
    void createViewNavigator();  // main_window_layout.cpp
    void fitToScreen();          // main_window_layout.cpp
    void createDocks();
    void createMenus();
    void createStatusBar();
    void placeLessonDock();
    void createLessonStage();
    void createHelpMenu();
    bool confirmClose();  // false: the user cancelled (or the save did not happen)
    void connectController();
    void connectStreamedPasses();
    void applySession(const Session& session);  // the model and the theme from a session
    void showResult(ExplorerResultPtr result, quint64 serial, double ms);
    void showFailure(const QString& text);
    void applyTheme(bool dark);
    void updateTitle();
    void addRecent(const QString& path);
    void refreshRecentMenu();
    void openSessionDialog();
    void saveSession();
    void saveSessionAsDialog();
    void openDataFileDialog();
    void openModelDialog();
    void openSavedModelDialog();
    void addRecentModel(const QString& path);
    void refreshRecentModelsMenu();
    void connectModelFiles();
    void addWorkbenchTable(const QString& tensor, const QString& npyPath);
    void exportStatsDialog();
    void about();

    ExplorerModel* model_;
    ExplorerController* controller_;
    ParameterPanel* panel_ = nullptr;
    DataPanel* dataPanel_ = nullptr;
    StatsPanel* statsPanel_ = nullptr;
    QDockWidget* statsDock_ = nullptr;
    QTabWidget* tabs_ = nullptr;
    ViewNavigator* navigator_ = nullptr;
    TransferView* transferView_ = nullptr;
    quint64 curveShown_ = 0;  // the computation whose curve the transfer view drew ahead of its result
    HistogramView* histogramView_ = nullptr;
    ErrorHistogramView* errorView_ = nullptr;
    ChannelView* channelView_ = nullptr;
    QMenu* recentMenu_ = nullptr;
    QMenu* recentModelsMenu_ = nullptr;
    ModelFileController* modelFiles_ = nullptr;
    ModelDocks* modelDocks_ = nullptr;
    bool modelOpenAsked_ = false;  // the open was the user's: a failure gets a message box
    PresentationMode* presentation_ = nullptr;
    QPointer<WorkbenchWindow> workbench_;  // null again if the window is deleted
    EmbeddingModel* workbenchModel_ = nullptr;
    AnalysisTabs* analysis_ = nullptr;
    LessonController* lessons_ = nullptr;
    LessonStageDirector* lessonStage_ = nullptr;
    WelcomePage* welcome_ = nullptr;
    std::function<UnsavedChoice()> unsavedPrompt_;
    FrameworkView* frameworkView_ = nullptr;
    JobStatus* status_ = nullptr;  // the status bar: message, progress, Cancel
    QLabel* timingLabel_ = nullptr;

    QString sessionPath_;
};

}  // namespace qs::ui
