// MainWindow: the lessons' stage (ui/lessons/lesson_stage_director.h). Views are shown by
// their stable names through showView() (ui/main_window_layout.cpp, the ViewNavigator).
#include <QDockWidget>

#include "session/modelfile/model_file_controller.h"
#include "ui/lessons/lesson_controller.h"
#include "ui/lessons/lesson_stage_director.h"
#include "ui/main_window.h"
#include "ui/modelfile/model_docks.h"
#include "ui/window/presentation_mode.h"

namespace qs::ui {

void MainWindow::createLessonStage() {
    lessonStage_ = new LessonStageDirector(
        this, presentation_, lessons_->dock(),
        {[this](const QString& name) { return showView(name); }, [this] { return currentView(); }});
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
