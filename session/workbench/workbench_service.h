// Runs the workbench's computations (core/embedding/workbench.h) off the UI thread, in
// three independent lanes:
//   * loading a table: seconds for 1M x 128, so it reports progress and can be cancelled;
//     a new load cancels the running one;
//   * analyses (table; feature): latest request wins, as in ComputeService: while one runs,
//     newer requests replace each other in a one-slot queue, and when it finishes its
//     result is delivered and the newest request starts — dragging a parameter updates the
//     views at the speed of the computation and the UI thread never waits;
//   * the pipelining demonstration, on demand (a new run cancels the running one).
// Results arrive as shared_ptr<const ...> on the UI thread, with the request's serial
// number. Exceptions in the workers (bad_alloc on a huge table) are reported as errors.
#pragma once

#include <QObject>
#include <QString>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "core/embedding/pipeline_demo.h"
#include "core/embedding/workbench.h"
#include "session/jobs/job_runner.h"

namespace qs::ui {

// The loaded table: its values in memory, or its .npy read in chunks when larger than the
// memory budget (OpenTable).
using EmbeddingTablePtr = std::shared_ptr<const qs::embedding::OpenTable>;
using TableAnalysisPtr = std::shared_ptr<const qs::embedding::TableAnalysis>;
using FeatureAnalysisPtr = std::shared_ptr<const qs::embedding::FeatureAnalysis>;
using PipelineDemoPtr = std::shared_ptr<const qs::embedding::PipelineDemoResult>;
// Builds a feature's id batch on the worker (generating 1e8 ids or reading a large CSV
// must not block the window).
using IdBatchMaker = std::function<qs::Result<qs::embedding::IdBatch>()>;

class WorkbenchService : public QObject {
    Q_OBJECT
public:
    explicit WorkbenchService(QObject* parent = nullptr);
    ~WorkbenchService() override;  // cancels and waits for every running computation

    // Each request returns its serial number (increasing over all requests), passed back
    // with its outcome.
    quint64 loadTable(const qs::embedding::TableSource& source, int64_t vocabulary_size, int64_t dim);
    quint64 analyzeTable(EmbeddingTablePtr table, const std::optional<qs::tpu::QuantizationConfig>& quantization,
                         const qs::embedding::TableAnalysisOptions& options = {});
    quint64 analyzeFeature(EmbeddingTablePtr table, IdBatchMaker makeBatch, const std::string& combiner,
                           const std::optional<qs::tpu::QuantizationConfig>& quantization, int64_t num_hosts,
                           qs::tpu::PartitionStrategy strategy);
    // The demo trains on the table's first `max_rows` rows (read from the file when streamed).
    quint64 runPipelineDemo(EmbeddingTablePtr table, int64_t max_rows, const qs::embedding::PipelineDemoSpec& spec);

    bool loading() const;
    bool analyzing() const;
    bool demoRunning() const;

public slots:
    void cancel();              // the table load
    void cancelPipelineDemo();

signals:
    void loadingStarted(quint64 serial);
    void progress(double fraction);  // of the table load, 0..1
    void tableLoaded(qs::ui::EmbeddingTablePtr table, quint64 serial, double milliseconds);
    void loadCancelled(quint64 serial);
    void loadFailed(const QString& kind, const QString& message, quint64 serial);

    void tableAnalyzed(qs::ui::TableAnalysisPtr analysis, quint64 serial, double milliseconds);
    void featureAnalyzed(qs::ui::FeatureAnalysisPtr analysis, quint64 serial, double milliseconds);
    // what: "table" or "feature".
    void analysisFailed(const QString& what, const QString& kind, const QString& message, quint64 serial);

    void pipelineProgress(double fraction);
    void pipelineDemoReady(qs::ui::PipelineDemoPtr demo, quint64 serial, double milliseconds);
    void pipelineDemoFailed(const QString& kind, const QString& message, quint64 serial);

private:
    // Runs `work` on `lane`; its result reaches `ready`, its error `failed` (a cancelled job's
    // "Cancelled" error too), on the UI thread.
    template <typename T>
    using Ready = std::function<void(std::shared_ptr<const T>, quint64 serial, double milliseconds)>;
    using Failed = std::function<void(const qs::Error&, quint64 serial)>;
    template <typename T>
    quint64 submit(JobRunner& lane, JobRunner::Running running,
                   std::function<qs::Result<std::shared_ptr<const T>>(const JobContext&)> work, Ready<T> ready,
                   Failed failed);
    Failed analysisFailure(const QString& what);  // "table" or "feature"

    // One lane per kind of work: each runs one job, with the newest request queued.
    JobRunner load_, table_, feature_, demo_;
    quint64 nextSerial_ = 1;
    quint64 newestLoad_ = 0;  // the serial of the last loadTable (the queued one, if any)
};

}  // namespace qs::ui

Q_DECLARE_METATYPE(qs::ui::EmbeddingTablePtr)
Q_DECLARE_METATYPE(qs::ui::TableAnalysisPtr)
Q_DECLARE_METATYPE(qs::ui::FeatureAnalysisPtr)
Q_DECLARE_METATYPE(qs::ui::PipelineDemoPtr)
