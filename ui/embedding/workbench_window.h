// The TPU embedding workbench: its own main window (opened from the explorer's Tools menu
// or with `quantscope --workbench [CONFIG]`). The configuration editor is a dock; the
// central tabs show the selected table (bucket occupancy, suggested ranges, storage
// quantization), a heat map of a window of its rows, the selected feature's lookup
// statistics, the sharding over hosts and the pipelining demonstration.
//
// The window only lays out widgets and connects them: every document or view change goes
// through the EmbeddingModel (created by the app and handed in), and the
// WorkbenchController decides what to load and analyse and which results are stale; the
// window shows what it reports. A configuration TF rejects leaves the last results on
// screen, greyed, with TF's message.
//
// Its look follows the explorer's (the app's one setting, kept in the explorer's session):
// MainWindow hands the theme and presentation mode to the window when it creates it and on
// every toggle (setTheme, setPresentation).
#pragma once

#include <QByteArray>
#include <QMainWindow>

#include "session/workbench/workbench_service.h"
#include "ui/plot/theme.h"

class QLabel;
class QMenu;
class QSpinBox;
class QTabWidget;
class QPushButton;

namespace qs::ui {

class ConfigEditor;
class EmbeddingModel;
class FeatureStatsPanel;
class HeatMapView;
class JobStatus;
class OccupancyView;
class PipelineView;
class RangeSuggestionsPanel;
class WidthAdaptiveSplitter;
class ShardingView;
class StorageExportPanel;
class WorkbenchController;

class WorkbenchWindow : public QMainWindow {
    Q_OBJECT
public:
    // `model` must outlive the window (the app makes it the window's child).
    explicit WorkbenchWindow(EmbeddingModel* model, QWidget* parent = nullptr);
    ~WorkbenchWindow() override;

    bool openConfig(const QString& path, QString* error = nullptr);
    bool saveConfig(const QString& path, QString* error = nullptr);

    EmbeddingModel* model() const { return model_; }
    WorkbenchController* controller() const { return controller_; }

    // For tests and the app's screenshots: the tabs and the views on them,
    QTabWidget* tabs() const { return tabs_; }
    OccupancyView* occupancyView() const { return occupancy_; }
    RangeSuggestionsPanel* suggestions() const { return suggestions_; }
    FeatureStatsPanel* featureStats() const { return featureStats_; }
    ShardingView* shardingView() const { return sharding_; }
    PipelineView* pipelineView() const { return pipeline_; }
    // the editor dock and the controls.
    ConfigEditor* editor() const { return editor_; }
    QPushButton* pipelineRunButton() const { return runPipeline_; }
    QLabel* statusLabel() const;
    HeatMapView* heatMapView() const { return heatMap_; }
    QMenu* viewMenu() const { return viewMenu_; }  // the explorer adds its theme toggle

    // Every plot and table panel in `theme` (the widgets' palette is the application's).
    void setTheme(qs::ui::Theme theme);
    Theme theme() const { return theme_; }
    // Presentation mode's large text and thick lines (PresentationMode's factors), and, as
    // in the explorer, the docks hidden so the plots get the room (restored after); the
    // explorer goes full screen, this window keeps its size.
    void setPresentation(bool on);
    bool presentation() const { return presentation_; }

signals:
    void tableAnalysisShown();
    void featureAnalysisShown();

private:
    void createTabs();
    void createMenus();
    void createStatusBar();
    void connectController();
    // What the controller reports, on the views.
    void showTableAnalysis(const TableAnalysisPtr& analysis);
    void showFeatureAnalysis(const FeatureAnalysisPtr& analysis);
    void showAnalysisFailed(const QString& what, const QString& kind, const QString& message);
    void setStale(const QString& message);
    void showHeatMapWindow();
    // The buttons and menus.
    void runPipelineDemo();
    void exportStorageDialog();
    void openDialog();
    void saveAsDialog();
    bool openOrSave(bool (ConfigEditor::*action)(const QString&, QString*), const QString& path, QString* error);
    void updateTitle();

    EmbeddingModel* model_;
    WorkbenchController* controller_;
    ConfigEditor* editor_ = nullptr;
    QTabWidget* tabs_ = nullptr;
    OccupancyView* occupancy_ = nullptr;
    RangeSuggestionsPanel* suggestions_ = nullptr;
    WidthAdaptiveSplitter* tableLower_ = nullptr;
    StorageExportPanel* storage_ = nullptr;
    HeatMapView* heatMap_ = nullptr;
    QSpinBox* firstRow_ = nullptr;
    QSpinBox* windowRows_ = nullptr;
    FeatureStatsPanel* featureStats_ = nullptr;
    QLabel* featureCaption_ = nullptr;
    ShardingView* sharding_ = nullptr;
    PipelineView* pipeline_ = nullptr;
    QSpinBox* pipelineSteps_ = nullptr;
    QPushButton* runPipeline_ = nullptr;
    JobStatus* status_ = nullptr;  // the status bar: message, progress, Cancel
    QLabel* timing_ = nullptr;
    QMenu* viewMenu_ = nullptr;
    QString path_;
    Theme theme_ = Theme::Light;
    bool presentation_ = false;
    double baseFontSize_ = 0;  // the window's text size outside presentation mode
    QByteArray layoutBeforePresentation_;
};

}  // namespace qs::ui
