// Runs computeExplorer off the UI thread. Latest request wins: while a computation runs,
// newer requests replace each other in a one-slot queue, and when it finishes its result is
// shown and the newest request starts. A drag therefore updates the plots continuously at the
// speed of the computation, and the UI thread never waits.
#pragma once

#include <QObject>
#include <memory>
#include <mutex>
#include <utility>

#include "core/analysis/explorer.h"
#include "core/data/dataset.h"
#include "ui/compute/job_runner.h"

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
    // Abandons the running computation (new data makes it pointless).
    void cancelRunning();
    bool busy() const { return runner_.running(); }

signals:
    void resultReady(qs::ui::ExplorerResultPtr result, quint64 serial, double milliseconds);
    void failed(const QString& kind, const QString& message, quint64 serial);

private:
    // The data's min/max depends on the data alone: found once per data set (on the worker
    // thread, by the first computation that needs it), not on every edit.
    std::pair<float, float> dataRangeOf(const DatasetPtr& data, const qs::analysis::ExplorerOptions& options);

    quint64 nextSerial_ = 1;
    std::mutex rangeMutex_;
    std::weak_ptr<const qs::data::Dataset> rangeData_;
    std::pair<float, float> range_{0.0f, 0.0f};
    JobRunner runner_;
};

}  // namespace qs::ui

Q_DECLARE_METATYPE(qs::ui::ExplorerResultPtr)
