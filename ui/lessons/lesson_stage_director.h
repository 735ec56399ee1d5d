// Sets the window's stage for a lesson (lesson_stage.h) and takes it down again. The first
// lesson opened remembers the window as the user had it (its docks and their sizes, the view
// on show); every lesson then starts from that and shows exactly what its file names: the view,
// the docks (the lesson dock always), the layout. Ending the lesson puts the remembered window
// back. In presentation mode only the view changes (presentation keeps every dock but the
// lesson's hidden); leaving presentation mode sets the current lesson's stage again.
//
// The window provides two functions, so this class needs no knowledge of how views are
// grouped: showView(name) (false for a name it does not know) and currentView().
#pragma once

#include <QByteArray>
#include <QDockWidget>
#include <QHash>
#include <QObject>
#include <QPointer>
#include <functional>

#include "session/lessons/lesson_stage.h"

class QMainWindow;

namespace qs::ui {

class PresentationMode;

class LessonStageDirector : public QObject {
    Q_OBJECT
public:
    struct Views {
        std::function<bool(const QString&)> show;
        std::function<QString()> current;
    };
    LessonStageDirector(QMainWindow* window, PresentationMode* presentation, QDockWidget* lessonDock, Views views);

    // A dock a lesson may name (lessonDockNames()).
    void addDock(const QString& name, QDockWidget* dock);
    QDockWidget* dock(const QString& name) const { return docks_.value(name); }

    void enter(const LessonStage& stage);  // opening a lesson (or the next one)
    void leave();                          // the lesson ended: the window as it was before
    bool active() const { return active_; }
    // Something else showed docks (a model opened and brought its docks): the lesson's wins.
    void reassertDocks();

signals:
    // The docks of a lesson's stage are on show (outside presentation mode): the window may
    // share the room between them (the lesson above the statistics).
    void stageSet();

private:
    void setStage();  // from the remembered window: docks, layout, view
    void applyDocks();
    void applyCompactLayout();
    bool presenting() const;

    QMainWindow* window_;
    PresentationMode* presentation_;
    QDockWidget* lessonDock_;
    Views views_;
    QHash<QString, QPointer<QDockWidget>> docks_;
    bool active_ = false;
    bool endedPresenting_ = false;  // the lesson ended in presentation mode: hide its dock after
    LessonStage stage_;
    QByteArray before_;     // the window's docks before the first lesson
    QString viewBefore_;    // and its view
};

}  // namespace qs::ui
