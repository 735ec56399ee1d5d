// The lesson dock's contents: the lesson's title, its explanation (rich text), "Lesson k of
// N" with Previous / Next, and the live check — "measured … vs theory …" in green when the
// measurement agrees with the theory, red when it does not. Shows what it is given; the
// LessonController decides which lesson and runs the check.
#pragma once

#include <memory>

#include <QWidget>

#include "core/model_analysis/lesson_check.h"

class QLabel;
class QPushButton;
class QTextBrowser;

namespace qs::ui {

struct Lesson;

enum class CheckState { None, Running, Passed, Failed, Error };

class LessonPanel : public QWidget {
    Q_OBJECT
public:
    explicit LessonPanel(QWidget* parent = nullptr);
    ~LessonPanel() override;

    void showLesson(const Lesson& lesson, int index, int count);
    void showNoLesson();  // the lesson ended
    void showCheckRunning();
    void showCheckResult(const qs::analysis::LessonCheckResult& result);
    void showCheckError(const QString& message);

    // The parameters the lesson asks to change (a form the controller owns), shown under
    // the explanation when visible (presentation mode).
    void setParameterStrip(QWidget* strip);
    void setParameterStripVisible(bool visible);

    CheckState checkState() const { return state_; }
    QString checkText() const;
    QString title() const;
    QString position() const;  // "Lesson 3 of 11"
    QPushButton* previousButton() const;
    QPushButton* nextButton() const;

signals:
    void stepRequested(int delta);

protected:
    void changeEvent(QEvent* event) override;

private:
    void updateFonts();
    void setState(CheckState state, const QString& verdict, const QString& detail);

    struct Items;  // the child widgets, defined in the .cpp
    std::unique_ptr<Items> items_;
    CheckState state_ = CheckState::None;
};

}  // namespace qs::ui
