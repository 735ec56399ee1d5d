// MainWindow: the views by name and the lessons' stage (ui/lessons/lesson_stage_director.h).
// showView() is the one place that turns a view's name into what the window shows, so a new
// grouping of the tabs changes this file only.
#include <QDockWidget>
#include <QTabWidget>
#include <utility>

#include "ui/analysis/analysis_tabs.h"
#include "ui/analysis/bit_sweep_view.h"
#include "ui/analysis/calibration_panel.h"
#include "ui/analysis/clip_sweep_view.h"
#include "ui/analysis/comparison_view.h"
#include "ui/lessons/lesson_controller.h"
#include "ui/lessons/lesson_stage_director.h"
#include "ui/main_window.h"
#include "ui/modelfile/model_docks.h"
#include "ui/modelfile/model_file_controller.h"
#include "ui/presentation_mode.h"
#include "ui/views/channel_view.h"
#include "ui/views/error_histogram_view.h"
#include "ui/views/framework_view.h"
#include "ui/views/histogram_view.h"
#include "ui/views/transfer_view.h"

namespace qs::ui {

namespace {
// The tab holding `view` (the view itself, or a panel around it).
int tabOf(const QTabWidget* tabs, const QWidget* view) {
    for (int i = 0; i < tabs->count(); ++i)
        if (tabs->widget(i) == view || tabs->widget(i)->isAncestorOf(view)) return i;
    return -1;
}
}  // namespace

QList<std::pair<QString, QWidget*>> MainWindow::namedViews() const {
    return {{QStringLiteral("transfer"), transferView_},
            {QStringLiteral("histogram"), histogramView_},
            {QStringLiteral("error-histogram"), errorView_},
            {QStringLiteral("per-channel"), channelView_},
            {QStringLiteral("bit-sweep"), analysis_->bitSweepView()},
            {QStringLiteral("clip-sweep"), analysis_->clipSweepView()},
            {QStringLiteral("calibration"), analysis_->calibrationPanel()},
            {QStringLiteral("compare"), analysis_->comparisonView()},
            {QStringLiteral("frameworks"), frameworkView_}};
}

bool MainWindow::showView(const QString& name) {
    for (const auto& [viewName, view] : namedViews()) {
        if (viewName != name) continue;
        const int tab = tabOf(tabs_, view);
        if (tab < 0) return false;
        tabs_->setCurrentIndex(tab);
        return true;
    }
    return false;
}

QString MainWindow::currentViewName() const {
    for (const auto& [name, view] : namedViews())
        if (tabOf(tabs_, view) == tabs_->currentIndex()) return name;
    return {};
}

void MainWindow::createLessonStage() {
    lessonStage_ = new LessonStageDirector(
        this, presentation_, lessons_->dock(),
        {[this](const QString& name) { return showView(name); }, [this] { return currentViewName(); }});
    lessonStage_->addDock(QStringLiteral("parameters"), findChild<QDockWidget*>(QStringLiteral("parametersDock")));
    lessonStage_->addDock(QStringLiteral("data"), findChild<QDockWidget*>(QStringLiteral("dataDock")));
    lessonStage_->addDock(QStringLiteral("statistics"), statsDock_);
    lessonStage_->addDock(QStringLiteral("model"), modelDocks_->modelDockWidget());
    lessonStage_->addDock(QStringLiteral("model-report"), modelDocks_->reportDockWidget());
    lessonStage_->addDock(QStringLiteral("stored-quantization"), modelDocks_->storedDockWidget());
    connect(lessons_, &LessonController::lessonOpened, lessonStage_,
            [this](int index) { lessonStage_->enter(lessons_->lessons()[index].stage); });
    connect(lessons_, &LessonController::lessonClosed, lessonStage_, &LessonStageDirector::leave);
    // A lesson on a model's tensor opens the model, whose docks then show themselves (after
    // the stage was set): the lesson's choice of docks stands.
    connect(modelFiles_, &ModelFileController::opened, lessonStage_, &LessonStageDirector::reassertDocks);
    connect(presentation_, &PresentationMode::toggled, lessons_, &LessonController::setPresenting);
    connect(lessonStage_, &LessonStageDirector::stageSet, this, [this] {
        // The statistics below keep the larger share; the explanation scrolls.
        if (statsDock_->isVisible()) resizeDocks({lessons_->dock(), statsDock_}, {5, 6}, Qt::Vertical);
    });
}

}  // namespace qs::ui
