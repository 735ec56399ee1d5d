// Produces the explorer's samples from a DataSource off the UI thread: generators run in a
// few milliseconds, files can take seconds, so loading reports progress and can be
// cancelled. The last good dataset stays available while a new one loads (or fails).
// A .npy whose values exceed the memory budget (core/data/memory_budget.h) is not read: it
// loads as a streamed data set (Dataset::stream), whose values every computation reads from
// the file chunk by chunk.
#pragma once

#include <QObject>
#include <memory>
#include <optional>

#include "session/explorer/compute_service.h"
#include "session/explorer/load_data_source.h"
#include "session/explorer/state.h"
#include "session/jobs/job_runner.h"

namespace qs::ui {

class DataService : public QObject {
    Q_OBJECT
public:
    explicit DataService(QObject* parent = nullptr);
    ~DataService() override;  // cancels and waits for a running load

    // Starts loading `source`; a load in progress is cancelled and reports nothing.
    void load(const DataSource& source);
    void cancel();
    bool loading() const { return runner_.busy(); }
    DatasetPtr dataset() const { return dataset_; }
    // The budget of the next loads: the override when one is set, else
    // qs::data::defaultMemoryBudget() (half the RAM, or QS_MEMORY_BUDGET).
    int64_t memoryBudget() const;
    void setMemoryBudget(std::optional<int64_t> bytes) { budget_ = bytes; }

    // Loads synchronously (tests, the GUI benchmark): loadDataSource.
    static qs::Result<DatasetPtr> loadNow(const DataSource& source,
                                          const std::function<bool(double)>& progress = {},
                                          std::optional<int64_t> streamAboveBytes = std::nullopt) {
        return loadDataSource(source, progress, streamAboveBytes);
    }

signals:
    void loadingStarted(const QString& what);
    void progress(double fraction);  // 0..1, on the UI thread
    void loaded(qs::ui::DatasetPtr dataset);
    void failed(const QString& message);  // TF-style kind dropped: a data problem in words
    void cancelled();
    // No load running or waiting any more (after the last one delivered, failed, was
    // cancelled or discarded).
    void idle();

private:
    DatasetPtr dataset_;
    std::optional<int64_t> budget_;
    JobRunner runner_;
};

}  // namespace qs::ui
