// The analysis tabs ("Bit sweep", "Clipping sweep", "Calibration", "Compare") and when they
// compute. Each analysis runs on the explorer's current data and spec, but only for the tab
// that is visible, and only once the explorer's own computation (which has priority) and any
// data load are done: a parameter edit recomputes the explorer first, then the visible
// analysis. Hidden tabs are marked out of date and catch up when shown. Apply buttons and
// "Load into explorer" edit the model, so each is one undo step.
//
// A running analysis shows its fraction done and a Cancel button (Esc). An edit that makes it
// out of date, or another tab's analysis starting, stops it at once and drops its outcome (a
// hidden tab catches up when shown). After Cancel the tab keeps its previous result, greyed
// and labelled as from other settings, rather than an empty plot: a user who cancels a long
// sweep usually still wants the last curve to compare against, and the label says it is not
// the current one. It stays so (no automatic rerun, even when shown again) until the user
// presses Run again or changes what it depends on.
#pragma once

#include <QObject>
#include <array>
#include <optional>

#include "session/explorer/analysis_service.h"

class QTabWidget;

namespace qs::ui {

class JobStatus;
class BitSweepView;
class CalibrationPanel;
class ClipSweepView;
class ComparisonView;
class ComputeService;
class DataService;
class ExplorerController;
class ExplorerModel;
class PlotFrame;

class AnalysisTabs : public QObject {
    Q_OBJECT
public:
    // Adds the four tabs to `tabs` (after the explorer's); runs them on the explorer's
    // analysis service.
    AnalysisTabs(ExplorerController* explorer, QTabWidget* tabs, QObject* parent = nullptr);
    ~AnalysisTabs() override;

    AnalysisService* service() const { return service_; }
    BitSweepView* bitSweepView() const { return bits_; }
    ClipSweepView* clipSweepView() const { return clip_; }
    CalibrationPanel* calibrationPanel() const { return calibration_; }
    ComparisonView* comparisonView() const { return comparison_; }

    // The analysis of the visible tab, if it is one of these.
    std::optional<AnalysisKind> visibleKind() const;
    // Whether an analysis's shown result is behind the model/data (it reruns when shown).
    bool isOutOfDate(AnalysisKind kind) const { return dirty_[index(kind)]; }
    // Whether the user cancelled the analysis (it waits for Run again or an edit).
    bool isCancelled(AnalysisKind kind) const { return cancelled_[index(kind)]; }
    // How the data source's samples are distributed, for the bit sweep's theory.
    static qs::analysis::DataKind dataKindOf(const QString& generator);

signals:
    // After a view shows a new result of its latest request.
    void resultShown(qs::ui::AnalysisKind kind);
    // After the user's Cancel stopped an analysis (its tab says so; no result arrives).
    void analysisCancelled(qs::ui::AnalysisKind kind);

private:
    static size_t index(AnalysisKind k) { return static_cast<size_t>(k); }
    void markDirty(std::initializer_list<AnalysisKind> kinds);
    void schedule();  // runs the visible analysis once the event loop is back
    void runVisible();
    void applyRange(float min, float max, const QString& what);
    JobStatus* statusOf(AnalysisKind kind) const;
    PlotFrame* plotOf(AnalysisKind kind) const;
    void showFailure(AnalysisKind kind, const QString& message, quint64 serial);
    void cancel(AnalysisKind kind);
    void showCancelled(AnalysisKind kind, quint64 serial);
    void rerun(AnalysisKind kind);
    // Stops analyses still pending for `kind`s other than `except` (marked out of date).
    void stopPending(std::optional<AnalysisKind> except);

    ExplorerModel* model_;
    DataService* data_;
    ComputeService* compute_;
    QTabWidget* tabs_;
    AnalysisService* service_ = nullptr;
    BitSweepView* bits_ = nullptr;
    ClipSweepView* clip_ = nullptr;
    CalibrationPanel* calibration_ = nullptr;
    ComparisonView* comparison_ = nullptr;
    std::array<bool, 4> dirty_{true, true, true, true};
    std::array<bool, 4> cancelled_{false, false, false, false};
    std::array<quint64, 4> serial_{0, 0, 0, 0};  // the latest request of each kind
    bool scheduled_ = false;
};

}  // namespace qs::ui
