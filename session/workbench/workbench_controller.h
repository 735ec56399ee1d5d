// The embedding workbench's behaviour without its widgets: it owns the WorkbenchService and
// the result state, and turns every document or view change of the EmbeddingModel (which
// the app creates and hands in) into the right requests:
//   * the selected table (or the selected feature's) becomes typed inputs
//     (workbench_inputs.h); the table is loaded again only when its source, size or
//     initializer changed, and going back to the loaded table cancels another table's load;
//   * the table's analysis is requested only when its own inputs changed (feature edits,
//     hosts and an undone invalid edit reuse the kept result), the feature's on every change
//     (latest request wins in the service);
//   * a configuration TF rejects, a failed or cancelled load make the results stale: results
//     still in flight are then not shown;
//   * the pipelining demonstration (on the table's first 100 000 rows) and the storage
//     export (its own JobRunner) run on request.
// The window shows what the signals carry and reads the state below; tests drive this class
// with no widget at all. Holds no maths (core/embedding does it).
#pragma once

#include <deque>

#include <QObject>
#include <QString>
#include <optional>

#include "session/jobs/job_runner.h"
#include "session/workbench/workbench_inputs.h"
#include "session/workbench/workbench_service.h"

namespace qs::ui {

class EmbeddingModel;

class WorkbenchController : public QObject {
    Q_OBJECT
public:
    // `model` must outlive the controller.
    explicit WorkbenchController(EmbeddingModel* model, QObject* parent = nullptr);
    ~WorkbenchController() override;

    EmbeddingModel* model() const { return model_; }
    WorkbenchService* service() const { return service_; }

    // The loaded table and the inputs of the table shown (or being loaded): nullopt while no
    // valid table is selected.
    EmbeddingTablePtr table() const { return table_; }
    const std::optional<WorkbenchTableInputs>& tableInputs() const { return inputs_; }
    int tableIndex() const { return tableIndex_; }
    // The feature whose lookup is analysed (-1: no feature on the shown table) and where its
    // ids come from (the generator spec or the CSV's file name).
    int analyzedFeature() const { return feature_; }
    const QString& featureSource() const { return featureSource_; }
    // The results last shown.
    TableAnalysisPtr lastTableAnalysis() const { return lastTable_; }
    FeatureAnalysisPtr lastFeatureAnalysis() const { return lastFeature_; }
    // False while the results are stale (TF rejects the table, its load failed or was
    // cancelled).
    bool showingResults() const { return showResults_; }

    // Applies a suggested storage range to the shown table (one undo step, quantization_config
    // added when the table has none).
    void applySuggestion(double lower, double upper);
    // Trains `steps` steps with and without pipelining on the shown table (its first
    // 100 000 rows) with the analysed feature's batches; false when no table is loaded.
    bool runPipelineDemo(int steps);
    // Exports the loaded table's storage quantization (codes .npy + "<name>.params.json" next
    // to it) on a worker; the outcome comes as statusMessage.
    void exportStorage(const QString& codesPath);
    // Cancels the running table load.
    void cancelLoad();

signals:
    // A table load started (the progress to show) / ended (loaded, cancelled, failed or
    // no longer wanted).
    void loadStarted(const QString& tableName);
    void loadProgress(double fraction);
    void loadEnded();
    void tableLoaded(qs::ui::EmbeddingTablePtr table);
    // Everything shown is stale, with the reason ("loading cancelled", TF's error, "No
    // table selected.").
    void resultsStale(const QString& message);
    // A result to show: a new one, or the kept table analysis when its inputs are back.
    void tableAnalysisReady(qs::ui::TableAnalysisPtr analysis);
    void featureAnalysisReady(qs::ui::FeatureAnalysisPtr analysis);
    // The shown table has no feature looking it up: the feature's views are stale.
    void noFeature(const QString& tableName);
    // what: "table" or "feature"; the worker's error (a bad id batch, out of memory).
    void analysisFailed(const QString& what, const QString& kind, const QString& message);
    void pipelineDemoReady(qs::ui::PipelineDemoPtr demo, double milliseconds);
    void pipelineDemoFailed(const QString& message);
    // How long the last step took ("table loaded in 812 ms").
    void timing(const QString& text);
    // For the status line (the export's outcome).
    void statusMessage(const QString& text);

private:
    void connectService();
    // A document or view change: the inputs, the load, then the analyses.
    void scheduleRefresh();
    void refresh();
    int featureForTable(int table) const;  // the selected feature if it looks the table up
    void requestAnalyses();
    void showTableAnalysis(const TableAnalysisPtr& analysis);
    void setStale(const QString& message);

    EmbeddingModel* model_;
    WorkbenchService* service_;
    JobRunner export_;  // the storage exports
    std::deque<JobRunner::Job> exportQueue_;  // exports asked for while export_ is busy
    bool refreshQueued_ = false;
    // False while the views are stale: an analysis still running for the previous inputs
    // must not un-grey them.
    bool showResults_ = false;
    bool showFeatureResults_ = false;  // the same for the feature's views
    // What a table analysis was computed from: the latest requested and the one shown.
    struct TableRequest {
        EmbeddingTablePtr table;
        std::optional<qs::tpu::QuantizationConfig> quantization;
        qint64 first_row = 0, rows = 0;
        bool operator==(const TableRequest& o) const;
    };
    std::optional<TableRequest> requestedTable_, shownTableRequest_;
    TableAnalysisPtr latestTable_;  // the result for shownTableRequest_
    quint64 tableSerial_ = 0;
    std::optional<WorkbenchTableInputs> inputs_;  // of the table being shown/loaded
    EmbeddingTablePtr table_;
    struct LoadKey {
        qs::embedding::TableSource source;
        int64_t vocabulary_size = 0, dim = 0;
        bool operator==(const LoadKey&) const = default;
    };
    std::optional<LoadKey> loadedKey_, loadingKey_;
    quint64 loadSerial_ = 0;
    int tableIndex_ = -1;
    int feature_ = -1;
    QString featureSource_;
    TableAnalysisPtr lastTable_;
    FeatureAnalysisPtr lastFeature_;
};

}  // namespace qs::ui
