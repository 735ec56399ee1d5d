// The status line under each analysis: "Computing the bit-width sweep…" with a determinate
// bar (the core reports per sweep point / candidate / configuration) and a Cancel button
// (Esc) while the worker runs; "Waiting for the explorer…" with a busy bar while the
// explorer's recompute has priority; "Cancelled" with a Run again button; the error in red
// when the analysis failed; empty when the shown result is current.
#pragma once

#include <QWidget>

#include "ui/plot/theme.h"

class QLabel;
class QProgressBar;
class QPushButton;

namespace qs::ui {

class AnalysisStatus : public QWidget {
    Q_OBJECT
public:
    explicit AnalysisStatus(QWidget* parent = nullptr);

    void setBusy(const QString& text);     // busy bar (no fraction) + text, nothing to cancel
    void setRunning(const QString& text);  // bar at 0 % + text + Cancel
    void setProgress(double fraction);     // while running: the bar's value (0..1)
    void setCancelled(const QString& text);  // text + Run again
    void setError(const QString& text);    // red text, no bar
    void setInfo(const QString& text);     // plain text, no bar (empty: hidden)
    void clear() { setInfo(QString()); }

    bool isBusy() const;     // a bar is shown
    bool isRunning() const;  // a cancellable computation is shown
    // The bar's value in 0..1000 while running; -1 when it shows no fraction.
    int progressPermille() const;
    QString text() const;
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
};

// Colours for series that are one of several of a kind (methods, configurations): distinct
// in both themes and for the common colour-vision deficiencies (Okabe–Ito).
QColor categoryColor(int index, Theme theme);

}  // namespace qs::ui
