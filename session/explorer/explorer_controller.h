// The explorer's controller, without widgets. It owns the data, compute and analysis services,
// turns the model's edits into loads and computations, and keeps the result state the windows
// show: the last result, the serial of the newest request and whether the result on show is
// out of date ("stale"). It also holds the explorer's rules that are more than one model edit:
// a range-handle drag is one undo step, Ctrl+] / Ctrl+[ cycle the op's modes, "Range from data"
// takes the shown result's data range, and a new curve channel needs a new computation.
//
// MainWindow lays out the widgets and connects them here; lessons and analysis tabs take this
// controller, never a window. Tests drive it with no widget at all (tst_explorer_controller).
#pragma once

#include <QObject>

#include "session/explorer/compute_service.h"

namespace qs::ui {

class AnalysisService;
class DataService;
class ExplorerModel;
class FrameworkService;

class ExplorerController : public QObject {
    Q_OBJECT
public:
    explicit ExplorerController(ExplorerModel* model, QObject* parent = nullptr);
    ~ExplorerController() override;

    ExplorerModel* model() const { return model_; }
    DataService* dataService() const { return data_; }
    ComputeService* computeService() const { return compute_; }
    AnalysisService* analysisService() const { return analysis_; }
    FrameworkService* frameworkService() const { return frameworks_; }  // the Frameworks tab's

    // The last result delivered (kept on a failure, as the views keep showing it), and
    // whether it is behind the model: an older request's result while a newer one runs, or
    // the last valid result after the newest request failed.
    ExplorerResultPtr lastResult() const { return lastResult_; }
    bool resultIsStale() const { return stale_; }

    // Loads the model's data source; the first result follows. Call it once the views are
    // connected, so they also see the first load's progress.
    void start();

    // One step of a range-handle drag; every step up to the finished one is one undo step.
    void dragRange(float min, float max, bool finished);
    // Cycles QuantizeV2's modes or the op's round modes (+1 next, -1 previous); one undo step.
    void stepMode(int delta);
    // Sets the range to the shown result's data range; false (and nothing) without a result.
    bool rangeFromData();
    // A data file instead of the current source (one undo step, as any data source change).
    void openDataFile(const QString& path);

    // View state the widgets report (saved in sessions, not undoable).
    void setCurrentTab(int tab);
    void setErrorLogScale(bool on);
    void setDarkTheme(bool dark);

signals:
    // The transfer curve of the newest computation, ahead of its result (ComputeService::
    // curveReady); resultChanged for the same serial follows unless it fails.
    void curveChanged(qs::ui::ExplorerResultPtr partial, quint64 serial);
    // A new result for the views (lastResult() is already it; resultIsStale() says whether a
    // newer request is still on its way).
    void resultChanged(qs::ui::ExplorerResultPtr result, quint64 serial, double milliseconds);
    // The newest computation failed: "Kind: message" in TF's words, for the user. The last
    // result stays (lastResult()) and is now stale.
    void computeFailed(const QString& text);
    // The newest computation was cancelled (a pass over a streamed data set the user stopped):
    // the last result stays and is now stale; the next edit computes again.
    void computeCancelled();

private:
    void requestCompute();
    void showResult(ExplorerResultPtr result, quint64 serial, double milliseconds);
    void onViewStateChanged();
    template <typename Edit>
    void editViewState(Edit edit);

    ExplorerModel* model_;
    DataService* data_;
    ComputeService* compute_;
    AnalysisService* analysis_;
    FrameworkService* frameworks_;
    ExplorerResultPtr lastResult_;
    bool stale_ = false;
    bool dragging_ = false;
    bool computeDeferred_ = false;  // a spec edit waits for the data being loaded
    quint64 latestSerial_ = 0;
};

}  // namespace qs::ui
