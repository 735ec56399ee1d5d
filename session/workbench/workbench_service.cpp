#include "session/workbench/workbench_service.h"

#include <functional>

namespace qs::ui {

namespace {

QString q(const std::string& s) { return QString::fromStdString(s); }

template <typename T>
qs::Result<std::shared_ptr<const T>> shared(qs::Result<T> r) {
    if (!r) return r.error();
    return std::make_shared<const T>(std::move(r).value());
}

}  // namespace

template <typename T>
quint64 WorkbenchService::submit(JobRunner& lane, JobRunner::Running running,
                                 std::function<qs::Result<std::shared_ptr<const T>>(const JobContext&)> work,
                                 Ready<T> ready, Failed failed) {
    const quint64 serial = nextSerial_++;
    lane.submit(
        [work = std::move(work), ready = std::move(ready), failed = std::move(failed),
         serial](const JobContext& context) -> JobRunner::Delivery {
            auto r = work(context);
            const double milliseconds = context.elapsedMilliseconds();
            if (r && *r) return [ready, result = *r, serial, milliseconds] { ready(result, serial, milliseconds); };
            const qs::Error error = r ? qs::cancellation("cancelled") : r.error();
            return [failed, error, serial] { failed(error, serial); };
        },
        running, serial);
    return serial;
}

WorkbenchService::WorkbenchService(QObject* parent) : QObject(parent) {
    qRegisterMetaType<qs::ui::EmbeddingTablePtr>();
    qRegisterMetaType<qs::ui::TableAnalysisPtr>();
    qRegisterMetaType<qs::ui::FeatureAnalysisPtr>();
    qRegisterMetaType<qs::ui::PipelineDemoPtr>();
    connect(&load_, &JobRunner::progress, this, &WorkbenchService::progress);
    connect(&demo_, &JobRunner::progress, this, &WorkbenchService::pipelineProgress);
    // A job that threw (bad_alloc on a huge table): its message, as the lane's error.
    const QString exhausted = QStringLiteral("ResourceExhausted");
    connect(&load_, &JobRunner::failed, this, [this, exhausted](const QString& message, quint64 serial) {
        emit loadFailed(exhausted, message, serial);
    });
    connect(&table_, &JobRunner::failed, this, [this, exhausted](const QString& message, quint64 serial) {
        emit analysisFailed(QStringLiteral("table"), exhausted, message, serial);
    });
    connect(&feature_, &JobRunner::failed, this, [this, exhausted](const QString& message, quint64 serial) {
        emit analysisFailed(QStringLiteral("feature"), exhausted, message, serial);
    });
    connect(&demo_, &JobRunner::failed, this, [this, exhausted](const QString& message, quint64 serial) {
        emit pipelineDemoFailed(exhausted, message, serial);
    });
}

WorkbenchService::~WorkbenchService() = default;  // each lane cancels and waits

bool WorkbenchService::loading() const { return load_.busy(); }
bool WorkbenchService::analyzing() const { return table_.busy() || feature_.busy(); }
bool WorkbenchService::demoRunning() const { return demo_.busy(); }

void WorkbenchService::cancel() {
    // A load waiting behind the running one never starts; it reports its cancel here, as the
    // running one does when it stops, so whoever waits for it stops waiting.
    const bool queued = load_.hasQueued();
    load_.dropQueued();
    load_.cancel();
    if (queued) emit loadCancelled(newestLoad_);
}

void WorkbenchService::cancelPipelineDemo() {
    demo_.dropQueued();
    demo_.cancel();
}

// A load or a demo makes the running one pointless (it is cancelled and reports so); an
// analysis lets the running one finish, so a continuous drag still shows results.
quint64 WorkbenchService::loadTable(const qs::embedding::TableSource& source, int64_t vocabulary_size, int64_t dim) {
    newestLoad_ = nextSerial_;
    emit loadingStarted(nextSerial_);
    return submit<qs::embedding::OpenTable>(
        load_, JobRunner::Running::Cancel,
        [source, vocabulary_size, dim](const JobContext& context) {
            return shared(qs::embedding::openTable(source, vocabulary_size, dim, qs::Exec::allCores(),
                                                   context.progressCallback()));
        },
        [this](EmbeddingTablePtr table, quint64 serial, double ms) { emit tableLoaded(table, serial, ms); },
        [this](const qs::Error& error, quint64 serial) {
            if (error.cancelled) emit loadCancelled(serial);
            else emit loadFailed(q(error.kind), q(error.message), serial);
        });
}

quint64 WorkbenchService::analyzeTable(EmbeddingTablePtr table,
                                       const std::optional<qs::tpu::QuantizationConfig>& quantization,
                                       const qs::embedding::TableAnalysisOptions& options) {
    return submit<qs::embedding::TableAnalysis>(
        table_, JobRunner::Running::Finish,
        [table = std::move(table), quantization, options](const JobContext& context) {
            if (!table) return shared<qs::embedding::TableAnalysis>(qs::invalidArgument("no table loaded"));
            return shared(qs::embedding::analyzeTable(*table, quantization, options, qs::Exec::allCores(),
                                                      context.progressCallback()));
        },
        [this](TableAnalysisPtr analysis, quint64 serial, double ms) { emit tableAnalyzed(analysis, serial, ms); },
        analysisFailure(QStringLiteral("table")));
}

quint64 WorkbenchService::analyzeFeature(EmbeddingTablePtr table, IdBatchMaker makeBatch, const std::string& combiner,
                                         const std::optional<qs::tpu::QuantizationConfig>& quantization,
                                         int64_t num_hosts, qs::tpu::PartitionStrategy strategy) {
    return submit<qs::embedding::FeatureAnalysis>(
        feature_, JobRunner::Running::Finish,
        [table = std::move(table), makeBatch = std::move(makeBatch), combiner, quantization, num_hosts,
         strategy](const JobContext&) {
            if (!table || !makeBatch)
                return shared<qs::embedding::FeatureAnalysis>(qs::invalidArgument("no table or no id batch"));
            auto batch = makeBatch();
            if (!batch) return shared<qs::embedding::FeatureAnalysis>(batch.error());
            return shared(qs::embedding::analyzeFeature(*table, *batch, combiner, quantization, num_hosts, strategy,
                                                        qs::Exec::allCores()));
        },
        [this](FeatureAnalysisPtr analysis, quint64 serial, double ms) { emit featureAnalyzed(analysis, serial, ms); },
        analysisFailure(QStringLiteral("feature")));
}

quint64 WorkbenchService::runPipelineDemo(EmbeddingTablePtr table, int64_t max_rows,
                                          const qs::embedding::PipelineDemoSpec& spec) {
    return submit<qs::embedding::PipelineDemoResult>(
        demo_, JobRunner::Running::Cancel,
        [table = std::move(table), max_rows, spec](const JobContext& context) {
            if (!table) return shared<qs::embedding::PipelineDemoResult>(qs::invalidArgument("no table loaded"));
            if (table->memory && table->memory->rows <= max_rows)
                return shared(qs::embedding::runPipelineDemo(*table->memory, spec, context.progressCallback()));
            auto part = qs::embedding::leadingRows(*table, max_rows);
            if (!part) return shared<qs::embedding::PipelineDemoResult>(part.error());
            return shared(qs::embedding::runPipelineDemo(*part, spec, context.progressCallback()));
        },
        [this](PipelineDemoPtr demo, quint64 serial, double ms) { emit pipelineDemoReady(demo, serial, ms); },
        [this](const qs::Error& error, quint64 serial) {
            if (!error.cancelled) emit pipelineDemoFailed(q(error.kind), q(error.message), serial);
        });
}

WorkbenchService::Failed WorkbenchService::analysisFailure(const QString& what) {
    return [this, what](const qs::Error& error, quint64 serial) {
        if (!error.cancelled) emit analysisFailed(what, q(error.kind), q(error.message), serial);
    };
}

}  // namespace qs::ui
