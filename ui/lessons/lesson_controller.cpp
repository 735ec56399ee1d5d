#include "ui/lessons/lesson_controller.h"

#include <QAction>
#include <QActionGroup>
#include <QDockWidget>
#include <QEvent>
#include <QMenu>

#include "session/explorer/data_service.h"
#include "session/explorer/explorer_controller.h"
#include "session/explorer/explorer_model.h"
#include "session/jobs/job_runner.h"
#include "ui/lessons/lesson_library.h"
#include "ui/lessons/lesson_panel.h"
#include "ui/panels/parameter_panel.h"

namespace qs::ui {

LessonController::LessonController(ExplorerController* explorer, QWidget* owner)
    : QObject(owner), explorer_(explorer), model_(explorer->model()) {
    lessons_ = loadLessonLibrary(&errors_);
    job_ = new JobRunner({}, this);
    connect(job_, &JobRunner::failed, this, [this](const QString& message) {
        panel_->showCheckError(message);
        emit checkFinished();
    });

    panel_ = new LessonPanel;
    strip_ = new ParameterPanel(model_);
    strip_->setObjectName(QStringLiteral("lessonParameterStrip"));
    connect(strip_, &ParameterPanel::rangeFromDataRequested, explorer_, &ExplorerController::rangeFromData);
    panel_->setParameterStrip(strip_);
    dock_ = new QDockWidget(tr("Lesson"), owner);
    dock_->setObjectName(QStringLiteral("lessonDock"));
    dock_->setProperty("qsShowInPresentation", true);
    dock_->setWidget(panel_);
    dock_->setMinimumWidth(360);
    dock_->hide();
    dock_->installEventFilter(this);  // its close button ends the lesson

    menu_ = new QMenu(tr("&Lessons"), owner);
    menu_->setObjectName(QStringLiteral("lessonsMenu"));
    auto* group = new QActionGroup(this);
    group->setExclusionPolicy(QActionGroup::ExclusionPolicy::ExclusiveOptional);  // End lesson unchecks
    for (int i = 0; i < lessons_.size(); ++i) {
        QAction* a = menu_->addAction(QStringLiteral("&%1  %2").arg(i + 1).arg(lessons_[i].title),
                                      this, [this, i] { openLesson(i); });
        a->setObjectName(QStringLiteral("lesson:") + lessons_[i].id);
        a->setCheckable(true);
        a->setToolTip(lessons_[i].path);
        group->addAction(a);
        actions_ << a;
    }
    if (lessons_.isEmpty()) menu_->addAction(tr("No lessons found"))->setEnabled(false);
    if (!errors_.isEmpty()) {
        menu_->addSeparator();
        QAction* e = menu_->addAction(tr("%n lesson file(s) could not be read", nullptr,
                                         static_cast<int>(errors_.size())));
        e->setToolTip(errors_.join(QLatin1Char('\n')));
        e->setEnabled(false);
    }
    menu_->addSeparator();
    menu_->addAction(tr("&Next lesson"), this, [this] { step(+1); });
    menu_->addAction(tr("&Previous lesson"), this, [this] { step(-1); });
    endAction_ = menu_->addAction(tr("&End lesson"), this, &LessonController::closeLesson);
    endAction_->setObjectName(QStringLiteral("endLessonAction"));
    endAction_->setToolTip(tr("Close the lesson and put the window back as it was before it"));
    endAction_->setEnabled(false);
    menu_->addAction(dock_->toggleViewAction());

    connect(panel_, &LessonPanel::stepRequested, this, &LessonController::step);
    connect(explorer_, &ExplorerController::resultChanged, this, &LessonController::runCheck);
}

bool LessonController::checkBusy() const { return job_->busy(); }

bool LessonController::openLesson(int index) {
    if (index < 0 || index >= lessons_.size()) return false;
    current_ = index;
    const Lesson& l = lessons_[index];
    actions_[index]->setChecked(true);
    job_->discard();  // a verdict on the previous lesson must not reach this one
    panel_->showLesson(l, index, static_cast<int>(lessons_.size()));
    endAction_->setEnabled(true);
    updateStrip();
    ViewState view = model_->viewState();
    view.channel = 0;
    model_->reset(l.spec, l.data, view);
    if (!dock_->isVisible()) {
        dock_->show();
        emit dockRevealed();
    }
    dock_->raise();
    // reset() recomputes only when something changed; reopening the same lesson still checks.
    runCheck();
    emit lessonOpened(index);
    return true;
}

bool LessonController::openLesson(const QString& id) {
    for (int i = 0; i < lessons_.size(); ++i)
        if (lessons_[i].id == id) return openLesson(i);
    return false;
}

void LessonController::step(int delta) {
    if (lessons_.isEmpty()) return;
    if (current_ < 0) {
        openLesson(0);
        return;
    }
    const int next = current_ + delta;
    if (next >= 0 && next < lessons_.size()) openLesson(next);
}

void LessonController::closeLesson() {
    if (current_ < 0) return;
    job_->discard();
    actions_[current_]->setChecked(false);
    current_ = -1;
    endAction_->setEnabled(false);
    panel_->showNoLesson();
    updateStrip();
    dock_->hide();
    emit lessonClosed();
}

void LessonController::setPresenting(bool on) {
    presenting_ = on;
    updateStrip();
}

void LessonController::updateStrip() {
    const QStringList names = current_ >= 0 ? lessons_[current_].stage.parameters : QStringList();
    strip_->showOnly(names);
    panel_->setParameterStripVisible(presenting_ && !names.isEmpty());
}

bool LessonController::eventFilter(QObject* watched, QEvent* event) {
    if (watched == dock_ && event->type() == QEvent::Close) closeLesson();
    return QObject::eventFilter(watched, event);
}

void LessonController::runCheck() {
    if (current_ < 0) return;
    const ExplorerResultPtr result = explorer_->lastResult();
    const DatasetPtr data = explorer_->dataService()->dataset();
    // While the lesson's data loads or a newer spec computes, the result in view is out of
    // date: its verdict would flash the wrong colour. The newer result checks again.
    if (!result || !data || explorer_->dataService()->loading() || !(result->spec == model_->spec()))
        return;
    panel_->showCheckRunning();
    const qs::analysis::LessonCheck check = lessons_[current_].check;
    const qs::QuantSpec spec = result->spec;
    job_->submit([this, check, spec, data](const JobContext&) -> JobRunner::Delivery {
        // A lesson checks its own generated data; a file over the memory budget (streamed) is
        // not what any lesson asks for, and its values are not in memory to check.
        auto r = data->streamed()
                     ? qs::Result<qs::analysis::LessonCheckResult>(qs::data::dataError(
                           "this check needs the lesson's data in memory; the data set on show is streamed "
                           "from a file larger than the memory budget"))
                     : qs::analysis::runLessonCheck(check, data->values, data->shape, spec);
        return [this, r = std::move(r)] {
            if (r) panel_->showCheckResult(*r);
            else panel_->showCheckError(QString::fromStdString(r.error().message));
            emit checkFinished();
        };
    });
}

}  // namespace qs::ui
