#include "session/workbench/workbench_controller.h"

#include <QFileInfo>
#include <algorithm>
#include <utility>

#include "core/embedding/storage_quant.h"
#include "session/files/native_file.h"
#include "session/workbench/embedding_model.h"

namespace qs::ui {
namespace {

// The pipelining demo trains a copy of the table twice; larger tables use their first rows.
constexpr int64_t kPipelineMaxRows = 100'000;

bool sameQuantization(const std::optional<qs::tpu::QuantizationConfig>& a,
                      const std::optional<qs::tpu::QuantizationConfig>& b) {
    return a.has_value() == b.has_value() &&
           (!a || (a->num_buckets == b->num_buckets && a->lower == b->lower && a->upper == b->upper));
}

}  // namespace

bool WorkbenchController::TableRequest::operator==(const TableRequest& o) const {
    return table == o.table && sameQuantization(quantization, o.quantization) && first_row == o.first_row &&
           rows == o.rows;
}

WorkbenchController::WorkbenchController(EmbeddingModel* model, QObject* parent)
    : QObject(parent), model_(model), service_(new WorkbenchService(this)), export_(tr("Export failed")) {
    connectService();
    connect(&export_, &JobRunner::failed, this, &WorkbenchController::statusMessage);
    // The runner keeps one waiting job; further exports wait here, in the order asked.
    connect(&export_, &JobRunner::idle, this, [this] {
        if (exportQueue_.empty()) return;
        JobRunner::Job next = std::move(exportQueue_.front());
        exportQueue_.pop_front();
        export_.submit(std::move(next));
    });
    connect(model_, &EmbeddingModel::documentChanged, this, &WorkbenchController::scheduleRefresh);
    connect(model_, &EmbeddingModel::viewChanged, this, &WorkbenchController::scheduleRefresh);
    scheduleRefresh();
}

WorkbenchController::~WorkbenchController() = default;

void WorkbenchController::connectService() {
    connect(service_, &WorkbenchService::loadingStarted, this,
            [this] { emit loadStarted(QString::fromStdString(inputs_ ? inputs_->name : "")); });
    connect(service_, &WorkbenchService::progress, this, &WorkbenchController::loadProgress);
    connect(service_, &WorkbenchService::tableLoaded, this,
            [this](EmbeddingTablePtr table, quint64 serial, double ms) {
                if (serial != loadSerial_) return;
                emit loadEnded();
                table_ = std::move(table);
                loadedKey_ = loadingKey_;
                loadingKey_.reset();
                emit tableLoaded(table_);
                emit timing(table_->stream
                                ? tr("table larger than the memory budget: read from its file in chunks "
                                     "(opened in %1 ms)").arg(ms, 0, 'f', 0)
                                : tr("table loaded in %1 ms").arg(ms, 0, 'f', 0));
                requestAnalyses();
            });
    // A load that did not deliver its table: the views keep what they show, greyed.
    const auto loadLost = [this](quint64 serial, const QString& why) {
        if (serial != loadSerial_) return;
        emit loadEnded();
        loadingKey_.reset();
        setStale(why);
    };
    connect(service_, &WorkbenchService::loadCancelled, this,
            [loadLost](quint64 serial) { loadLost(serial, tr("loading cancelled")); });
    connect(service_, &WorkbenchService::loadFailed, this,
            [loadLost](const QString& kind, const QString& message, quint64 serial) {
                loadLost(serial, kind + QStringLiteral(": ") + message);
            });
    connect(service_, &WorkbenchService::tableAnalyzed, this, [this](TableAnalysisPtr a, quint64 serial, double ms) {
        if (serial == tableSerial_) {  // the analysis of the latest request
            shownTableRequest_ = requestedTable_;
            latestTable_ = a;
        }
        if (!showResults_) return;
        showTableAnalysis(a);
        // A streamed table stays said so: this line replaces the load's.
        emit timing(table_ && table_->stream
                        ? tr("table analysed in %1 ms, streamed from its file (larger than the memory budget)")
                              .arg(ms, 0, 'f', 0)
                        : tr("table analysed in %1 ms").arg(ms, 0, 'f', 0));
    });
    connect(service_, &WorkbenchService::featureAnalyzed, this, [this](FeatureAnalysisPtr a, quint64, double) {
        if (!showFeatureResults_) return;
        lastFeature_ = a;
        emit featureAnalysisReady(a);
    });
    connect(service_, &WorkbenchService::analysisFailed, this,
            [this](const QString& what, const QString& kind, const QString& message, quint64) {
                emit analysisFailed(what, kind, message);
            });
    connect(service_, &WorkbenchService::pipelineDemoReady, this,
            [this](PipelineDemoPtr demo, quint64, double ms) { emit pipelineDemoReady(demo, ms); });
    connect(service_, &WorkbenchService::pipelineDemoFailed, this,
            [this](const QString& kind, const QString& message, quint64) {
                emit pipelineDemoFailed(kind + QStringLiteral(": ") + message);
            });
}

void WorkbenchController::showTableAnalysis(const TableAnalysisPtr& analysis) {
    lastTable_ = analysis;
    emit tableAnalysisReady(analysis);
}

// Every change of the document or the view in one pass, after the edit's other signals.
void WorkbenchController::scheduleRefresh() {
    if (std::exchange(refreshQueued_, true)) return;
    QMetaObject::invokeMethod(this, [this] {
        refreshQueued_ = false;
        refresh();
    }, Qt::QueuedConnection);
}

void WorkbenchController::setStale(const QString& message) {
    showResults_ = showFeatureResults_ = false;
    emit resultsStale(message);
}

int WorkbenchController::featureForTable(int table) const {
    const EmbeddingDocument& doc = model_->document();
    const int selected = doc.view.feature;
    if (selected >= 0 && static_cast<size_t>(selected) < doc.features.size() &&
        doc.features[static_cast<size_t>(selected)].table == table)
        return selected;
    for (size_t i = 0; i < doc.features.size(); ++i)
        if (doc.features[i].table == table) return static_cast<int>(i);
    return -1;
}

void WorkbenchController::refresh() {
    const EmbeddingDocument& doc = model_->document();
    int table = doc.view.table;
    // Selecting a feature shows its table.
    if (doc.view.feature >= 0 && static_cast<size_t>(doc.view.feature) < doc.features.size() &&
        doc.features[static_cast<size_t>(doc.view.feature)].table >= 0)
        table = doc.features[static_cast<size_t>(doc.view.feature)].table;
    if (table < 0 || static_cast<size_t>(table) >= doc.tables.size()) {
        inputs_.reset();
        setStale(doc.tables.empty() ? tr("The configuration has no table: add one in the editor.")
                                    : tr("No table selected."));
        return;
    }
    auto inputs = workbenchTableInputs(doc, table);
    if (!inputs) {
        inputs_.reset();
        setStale(QString::fromStdString(inputs.error().message));
        return;
    }
    inputs_ = *inputs;
    tableIndex_ = table;
    const LoadKey key{inputs->source, inputs->vocabulary_size, inputs->dim};
    if (loadedKey_ == key && table_) {
        if (loadingKey_) {  // back to the loaded table: the other table's load is not wanted
            service_->cancel();
            loadingKey_.reset();
            loadSerial_ = 0;  // its outcome is ignored (serials start at 1)
            emit loadEnded();
        }
        requestAnalyses();
    } else if (!(loadingKey_ == key)) {
        loadingKey_ = key;
        loadSerial_ = service_->loadTable(key.source, key.vocabulary_size, key.dim);
    }
}

void WorkbenchController::requestAnalyses() {
    if (!table_ || !inputs_) return;
    showResults_ = true;
    const EmbeddingDocument& doc = model_->document();
    // The table's analysis (a pass over every value) only when its inputs changed: feature edits
    // (ids, hosts, another feature of the table) reuse it.
    const TableRequest request{table_, inputs_->quantization, doc.view.first_row, doc.view.rows};
    if (shownTableRequest_ == request && latestTable_) {
        showTableAnalysis(latestTable_);  // un-greys the views after an invalid edit was undone
    } else if (!(requestedTable_ == request)) {
        requestedTable_ = request;
        qs::embedding::TableAnalysisOptions options;
        options.window_first_row = request.first_row;
        options.window_rows = request.rows;
        tableSerial_ = service_->analyzeTable(table_, inputs_->quantization, options);
    }

    feature_ = featureForTable(tableIndex_);
    showFeatureResults_ = false;
    if (feature_ < 0) {
        emit noFeature(QString::fromStdString(inputs_->name));
        return;
    }
    const EmbeddingFeature& f = doc.features[static_cast<size_t>(feature_)];
    featureSource_ = f.ids_file.isEmpty() ? f.ids : QFileInfo(f.ids_file).fileName();
    showFeatureResults_ = true;
    // The batch is generated (or its CSV read) on the worker, with the document as it is now.
    IdBatchMaker makeBatch = [doc, feature = feature_, vocabulary = inputs_->vocabulary_size, dim = inputs_->dim] {
        return workbenchFeatureBatch(doc, feature, vocabulary, dim);
    };
    service_->analyzeFeature(table_, std::move(makeBatch), inputs_->combiner, inputs_->quantization,
                             std::max(1, doc.num_hosts), workbenchStrategy(doc));
}

void WorkbenchController::applySuggestion(double lower, double upper) {
    const EmbeddingDocument& doc = model_->document();
    if (!inputs_ || tableIndex_ < 0 || static_cast<size_t>(tableIndex_) >= doc.tables.size()) return;
    EmbeddingTable t = doc.tables[static_cast<size_t>(tableIndex_)];
    if (!t.quantization) t.quantization = EmbeddingQuantization{};
    t.quantization->lower = lower;
    t.quantization->upper = upper;
    model_->setTable(tableIndex_, t, tr("apply suggested range [%1, %2]").arg(lower).arg(upper));
}

bool WorkbenchController::runPipelineDemo(int steps) {
    if (!table_ || !inputs_) return false;
    const EmbeddingDocument& doc = model_->document();
    qs::embedding::PipelineDemoSpec spec;
    spec.steps = steps;
    if (feature_ >= 0) {
        if (auto parsed = qs::embedding::parseIdBatchSpec(doc.features[static_cast<size_t>(feature_)].ids.toStdString()))
            spec.batches = *parsed;
    }
    spec.combiner = inputs_->combiner;
    spec.quantization = inputs_->quantization;
    spec.optimizer = inputs_->optimizer;
    service_->runPipelineDemo(table_, kPipelineMaxRows, spec);
    return true;
}

void WorkbenchController::cancelLoad() { service_->cancel(); }

// The one job here that is not the service's: on its own JobRunner, one export at a time
// (later ones wait, in order; every one asked for is written), every outcome and exception
// reported in the status line.
void WorkbenchController::exportStorage(const QString& codesPath) {
    if (!table_ || !inputs_ || !inputs_->quantization) {
        emit statusMessage(tr("Export needs a loaded table with a quantization_config."));
        return;
    }
    if (!table_->memory) {
        emit statusMessage(tr("Export needs the table in memory: this one (%1 x %2) is larger than the memory "
                              "budget and is read from its file in chunks.")
                               .arg(table_->rows())
                               .arg(table_->dim()));
        return;
    }
    QString params = codesPath;
    if (params.endsWith(QLatin1String(".npy"), Qt::CaseInsensitive)) params.chop(4);
    params += QStringLiteral(".params.json");
    const EmbeddingTablePtr table = table_;
    const qs::tpu::QuantizationConfig config = *inputs_->quantization;
    emit statusMessage(tr("Exporting the quantized table…"));
    JobRunner::Job job = [this, table, config, codesPath, params](const JobContext&) -> JobRunner::Delivery {
        // An exception (e.g. bad_alloc on a huge table) becomes "Export failed: …" (failed()).
        auto r = qs::embedding::exportStorageQuantization(*table->memory, config, nativePath(codesPath), nativePath(params),
                                                          qs::Exec::allCores());
        const QString outcome =
            !r ? QString::fromStdString(r.error().kind + ": " + r.error().message)
               : QObject::tr("Exported %1 and %2: %3 % of the float32 bytes saved, reconstruction MSE %4")
                     .arg(QFileInfo(codesPath).fileName(), QFileInfo(params).fileName())
                     .arg(r->saved_fraction * 100, 0, 'f', 1)
                     .arg(r->reconstruction.mse, 0, 'g', 4);
        return [this, outcome] { emit statusMessage(outcome); };
    };
    if (export_.busy())
        exportQueue_.push_back(std::move(job));
    else
        export_.submit(std::move(job));
}

}  // namespace qs::ui
