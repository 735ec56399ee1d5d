// The one status widget of every window and dock: a message, a progress bar and Cancel while
// a job runs, "Run again" after a cancel, the error in red when it failed. The explorer's
// status bar, the workbench's, the model report and each analysis tab show their jobs with
// it, so a job looks and cancels the same everywhere:
//   running:   [=====     ] Computing the bit-width sweep…   [Cancel]
//   busy:      [<->       ] Waiting for the explorer…          (no fraction, nothing to cancel)
//   cancelled: Cancelled; the previous result stays.            [Run again]
// Its children are named after the widget (name + "StatusLabel", "Progress", "Cancel",
// "Rerun"), so tests and scripts find each status's parts.
#pragma once

#include <QWidget>

class QLabel;
class QProgressBar;
class QPushButton;

namespace qs::ui {

class JobStatus : public QWidget {
    Q_OBJECT
public:
    // `name` names the widget (name + "Status") and its parts.
    explicit JobStatus(const QString& name, QWidget* parent = nullptr);
    // An analysis tab's status: Esc cancels (only the visible tab's: a hidden button's
    // shortcut is inactive) and the previous result stays, marked out of date.
    static JobStatus* forAnalysis(QWidget* parent = nullptr);

    void setBusy(const QString& text);     // busy bar (no fraction) + text, nothing to cancel
    void setRunning(const QString& text);  // bar at 0 % + text + Cancel
    void setProgress(double fraction);     // while running: the bar's value (0..1)
    void setCancelled(const QString& text);  // text + Run again (when offered)
    void setError(const QString& text);    // red text, no bar
    void setInfo(const QString& text);     // plain text, no bar (empty: hidden)
    void clear() { setInfo(QString()); }
    // The message alone: a running job keeps its bar and Cancel.
    void setText(const QString& text);
    // A job ended: the bar and Cancel go, the message stays.
    void finish();

    // One line that never widens the window (a status bar's); else the text wraps.
    void setSingleLine(bool single);
    // Whether a cancelled job offers "Run again" (the analyses do; a load is redone by
    // opening the file again).
    void setRerunOffered(bool offered) { rerunOffered_ = offered; }
    // Whether the widget hides itself when it has neither text nor bar (a status bar's
    // stays, holding its place).
    void setHideWhenEmpty(bool hide) { hideWhenEmpty_ = hide; }

    bool isBusy() const;     // a bar is shown
    bool isRunning() const;  // a cancellable computation is shown
    // The bar's value in 0..1000 while running; -1 when it shows no fraction.
    int progressPermille() const;
    QString text() const;
    QLabel* label() const { return label_; }
    QProgressBar* progressBar() const { return bar_; }
    QPushButton* cancelButton() const { return cancel_; }
    QPushButton* rerunButton() const { return rerun_; }

signals:
    void cancelRequested();
    void rerunRequested();

private:
    void present(const QString& text, const QString& style, bool bar, bool cancel, bool rerun);

    QLabel* label_ = nullptr;
    QProgressBar* bar_ = nullptr;
    QPushButton* cancel_ = nullptr;
    QPushButton* rerun_ = nullptr;
    bool rerunOffered_ = true;
    bool hideWhenEmpty_ = true;
};

}  // namespace qs::ui
