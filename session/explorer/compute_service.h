// Runs computeExplorer off the UI thread. Latest request wins: while a computation runs,
// newer requests replace each other in a one-slot queue, and when it finishes its result is
// shown and the newest request starts. A drag therefore updates the plots continuously at the
// speed of the computation, and the UI thread never waits. On a data set streamed from a
// file (larger than the memory budget) a computation is a pass over the file: it reports
// progress and can be cancelled (cancelRunning), and its result has no per-element output.
#pragma once

#include <QObject>
#include <memory>
#include <mutex>
#include <optional>
#include <utility>

#include "core/analysis/explorer.h"
#include "core/data/dataset.h"
#include "session/jobs/job_runner.h"

namespace qs::ui {

using ExplorerResultPtr = std::shared_ptr<const qs::analysis::ExplorerResult>;
using DatasetPtr = std::shared_ptr<const qs::data::Dataset>;

class ComputeService : public QObject {
    Q_OBJECT
public:
    explicit ComputeService(QObject* parent = nullptr);
    ~ComputeService() override;  // waits for a running computation

    // Queues a computation; replaces a queued one that has not started. Each request gets
    // a serial number, returned here and passed back with its outcome.
    quint64 request(const qs::QuantSpec& spec, DatasetPtr data,
                    const qs::analysis::ExplorerOptions& options = {});
    // Abandons the running computation (new data makes it pointless, or the user asked);
    // it ends with cancelled().
    void cancelRunning();
    bool busy() const { return runner_.running(); }

signals:
    // The transfer curve of the computation `serial`, ahead of its statistics: a partial
    // result (spec, run, curve, curve_channel) sent as soon as the op has run, so the
    // transfer view can draw while the pass over the data goes on. resultReady follows
    // with the same curve, unless the computation fails or is cancelled.
    void curveReady(qs::ui::ExplorerResultPtr partial, quint64 serial);
    void resultReady(qs::ui::ExplorerResultPtr result, quint64 serial, double milliseconds);
    void failed(const QString& kind, const QString& message, quint64 serial);
    // The computation `serial` was cancelled: no result for it.
    void cancelled(quint64 serial);
    // 0..1 through a pass over a streamed data set (in-memory passes report none).
    void progress(double fraction);

private:
    // The data's min/max depends on the data alone: found once per data set (on the worker
    // thread, by the first computation that needs it), not on every edit. So does its
    // histogram for a given window: the last one is offered to the next computation.
    std::pair<float, float> dataRangeOf(const DatasetPtr& data, const qs::analysis::ExplorerOptions& options);
    std::optional<std::pair<float, float>> knownRangeOf(const DatasetPtr& data);
    void rememberRange(const DatasetPtr& data, std::pair<float, float> range);
    std::optional<qs::analysis::Histogram> knownHistogramOf(const DatasetPtr& data);
    void rememberHistogram(const DatasetPtr& data, const qs::analysis::Histogram& histogram);

    quint64 nextSerial_ = 1;
    std::mutex rangeMutex_;
    std::weak_ptr<const qs::data::Dataset> rangeData_;
    std::pair<float, float> range_{0.0f, 0.0f};
    std::weak_ptr<const qs::data::Dataset> histogramData_;
    qs::analysis::Histogram histogram_;
    JobRunner runner_;
};

}  // namespace qs::ui

Q_DECLARE_METATYPE(qs::ui::ExplorerResultPtr)
