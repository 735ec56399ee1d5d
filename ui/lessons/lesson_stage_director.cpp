#include "ui/lessons/lesson_stage_director.h"

#include <QDockWidget>
#include <QMainWindow>
#include <algorithm>
#include <utility>

#include "ui/window/presentation_mode.h"

namespace qs::ui {

LessonStageDirector::LessonStageDirector(QMainWindow* window, PresentationMode* presentation,
                                         QDockWidget* lessonDock, Views views)
    : QObject(window), window_(window), presentation_(presentation), lessonDock_(lessonDock), views_(std::move(views)) {
    // Presentation mode puts back the docks it hid; the lesson's stage then applies again
    // (the audience may have stepped through several lessons meanwhile).
    connect(presentation_, &PresentationMode::toggled, this, [this](bool on) {
        if (on) return;
        if (active_) setStage();
        else if (std::exchange(endedPresenting_, false)) lessonDock_->hide();
    });
}

void LessonStageDirector::addDock(const QString& name, QDockWidget* dock) { docks_.insert(name, dock); }

bool LessonStageDirector::presenting() const { return presentation_->isOn(); }

void LessonStageDirector::enter(const LessonStage& stage) {
    if (!active_) {
        // In presentation mode the window "as the user had it" is the one presentation
        // mode will restore, not its own full-screen state.
        before_ = presenting() ? presentation_->layoutToRestore() : window_->saveState();
        viewBefore_ = views_.current();
        active_ = true;
    }
    stage_ = stage;
    if (presenting()) {
        applyDocks();  // hides what a model that opened meanwhile showed
        if (!stage_.view.isEmpty()) views_.show(stage_.view);
        return;
    }
    setStage();
}

void LessonStageDirector::leave() {
    if (!active_) return;
    active_ = false;
    stage_ = {};
    // The remembered window already shows the lesson dock (the first lesson showed it just
    // before the stage was set): the dock goes with the lesson.
    if (presenting()) {
        presentation_->setLayoutToRestore(before_);
        endedPresenting_ = true;
    } else {
        window_->restoreState(before_);
        lessonDock_->hide();
    }
    if (!viewBefore_.isEmpty()) views_.show(viewBefore_);
}

void LessonStageDirector::reassertDocks() {
    if (!active_) return;
    applyDocks();
    if (!presenting() && stage_.layout == QLatin1String("compact")) applyCompactLayout();
}

void LessonStageDirector::setStage() {
    // Each lesson starts from the window as it was before the first one, so what the previous
    // lesson showed (its model docks, its view) does not stay behind.
    window_->restoreState(before_);
    lessonDock_->show();
    applyDocks();
    emit stageSet();
    if (stage_.layout == QLatin1String("compact")) applyCompactLayout();
    views_.show(stage_.view.isEmpty() ? viewBefore_ : stage_.view);
}

void LessonStageDirector::applyDocks() {
    if (presenting()) {
        for (const auto& d : std::as_const(docks_))
            if (d && !d->property("qsShowInPresentation").toBool()) d->hide();
        return;
    }
    if (!stage_.docks) return;
    for (auto it = docks_.cbegin(); it != docks_.cend(); ++it)
        if (it.value()) it.value()->setVisible(stage_.docks->contains(it.key()));
    // Docks that share a tab group: the first one the lesson names is the tab on show.
    for (auto it = stage_.docks->crbegin(); it != stage_.docks->crend(); ++it)
        if (QDockWidget* d = docks_.value(*it)) d->raise();
    lessonDock_->raise();
}

void LessonStageDirector::applyCompactLayout() {
    QList<QDockWidget*> bottom;
    for (const auto& d : std::as_const(docks_))
        if (d && d->isVisible() && window_->dockWidgetArea(d) == Qt::BottomDockWidgetArea) bottom << d;
    if (!bottom.isEmpty())
        window_->resizeDocks({bottom.first()}, {std::max(150, window_->height() / 3)}, Qt::Vertical);
    // The side docks at the width their contents need, the rest to the view.
    QList<QDockWidget*> side;
    QList<int> widths;
    for (QDockWidget* d : window_->findChildren<QDockWidget*>()) {
        const Qt::DockWidgetArea a = window_->dockWidgetArea(d);
        if (d->isVisible() && !d->isFloating() && (a == Qt::LeftDockWidgetArea || a == Qt::RightDockWidgetArea)) {
            side << d;
            widths << d->minimumSizeHint().width();
        }
    }
    if (!side.isEmpty()) window_->resizeDocks(side, widths, Qt::Horizontal);
}

}  // namespace qs::ui
