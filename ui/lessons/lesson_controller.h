// Guided lessons in the explorer: the Lessons menu (one entry per lesson, in order), the
// lesson dock (a LessonPanel, kept visible in presentation mode) and the live check. The
// window places the menu and the dock; this class knows the explorer only through its
// ExplorerController.
//
// Opening a lesson resets the explorer to the lesson's preset (ExplorerModel::reset, as
// opening a session does) instead of pushing an undo step: a lesson is a fresh starting
// point, its data source changes with it, and an undo that crossed into the previous lesson
// would leave the panel explaining a preset that is no longer shown. Edits made during the
// lesson are undoable as usual.
//
// What the window shows for a lesson (its stage: view, docks, layout) is set by the window's
// LessonStageDirector on lessonOpened and taken down on lessonClosed. In presentation mode,
// where the Parameters dock is hidden, the lesson dock shows the parameters the lesson asks
// the audience to change (its stage's "parameters") as a compact form of its own.
//
// After every result the explorer delivers, the check runs on that data and the result's spec
// off the UI thread (latest wins), so changing a parameter turns it red or green.
#pragma once

#include <QList>
#include <QObject>
#include <QStringList>

#include "session/lessons/lesson_file.h"

class QAction;
class QDockWidget;
class QMenu;
class QWidget;

namespace qs::ui {

class ExplorerController;
class ExplorerModel;
class JobRunner;
class LessonPanel;
class ParameterPanel;

class LessonController : public QObject {
    Q_OBJECT
public:
    // Loads the lesson library (built-in + user folder) and builds the menu and the dock (a
    // hidden child of `owner`, for its window to place).
    LessonController(ExplorerController* explorer, QWidget* owner);

    QMenu* menu() const { return menu_; }
    QDockWidget* dock() const { return dock_; }
    LessonPanel* panel() const { return panel_; }
    const QList<Lesson>& lessons() const { return lessons_; }
    QStringList loadErrors() const { return errors_; }
    int currentIndex() const { return current_; }  // -1: none open
    bool checkBusy() const;

    bool openLesson(int index);
    bool openLesson(const QString& id);
    void step(int delta);  // next/previous; opens the first lesson when none is open
    // Ends the open lesson (Lessons > End lesson, or closing the lesson dock): the dock hides
    // and lessonClosed() lets the window put back what the lesson changed.
    void closeLesson();
    // Presentation mode on: the lesson dock shows the lesson's parameters (if it names any).
    void setPresenting(bool on);
    ParameterPanel* parameterStrip() const { return strip_; }

signals:
    void lessonOpened(int index);
    void lessonClosed();
    void checkFinished();  // the panel shows a new verdict
    void dockRevealed();   // the dock was hidden and opening a lesson showed it

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void runCheck();
    void updateStrip();

    ExplorerController* explorer_;
    ExplorerModel* model_;
    QList<Lesson> lessons_;
    QStringList errors_;
    QMenu* menu_ = nullptr;
    QDockWidget* dock_ = nullptr;
    LessonPanel* panel_ = nullptr;
    ParameterPanel* strip_ = nullptr;
    QAction* endAction_ = nullptr;
    bool presenting_ = false;
    JobRunner* job_ = nullptr;
    QList<QAction*> actions_;
    int current_ = -1;
};

}  // namespace qs::ui
