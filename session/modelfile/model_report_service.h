// Runs the whole-model report (core/model_analysis/model_report.h) off the UI thread on a
// JobRunner, with progress and cancel, and keeps it in step with the explorer: it observes
// an ExplorerModel and reruns when the spec changes in a way the report sees (op, type,
// mode, round mode, narrow range, bits, buckets, per tensor or per channel — not the
// range, which the report takes from each tensor's data) or when the calibration tab's
// percentile or symmetry change. Rapid changes coalesce: a short timer collects them, and a newer request
// discards the running report (its result would be stale).
// No widgets: it lives in qs_session; ModelReportView shows what it delivers.
#pragma once

#include <QObject>
#include <QPointer>
#include <QString>
#include <QTimer>
#include <memory>
#include <optional>

#include "core/model_analysis/model_report.h"
#include "core/modelfile/model_file.h"
#include "session/jobs/job_runner.h"

namespace qs::ui {

class ExplorerModel;

using ModelReportPtr = std::shared_ptr<const qs::analysis::ModelReport>;

class ModelReportService : public QObject {
    Q_OBJECT
public:
    explicit ModelReportService(QObject* parent = nullptr);
    ~ModelReportService() override;  // cancels and waits for a running report

    // The model reported on (null: none; the shown report is dropped).
    void setModel(std::shared_ptr<const qs::modelfile::ModelFile> model);
    std::shared_ptr<const qs::modelfile::ModelFile> model() const { return model_; }
    // Follows `explorer`'s spec and calibration options from now on (null: stop following).
    void setExplorerModel(ExplorerModel* explorer);
    // The op settings without an ExplorerModel (tests, tools).
    void setSpec(const qs::QuantSpec& spec);
    qs::QuantSpec spec() const { return spec_; }
    void setOptions(const qs::analysis::ModelReportOptions& options);  // progress is the service's
    // How long changes are collected before a report starts (default 150 ms).
    void setCoalesceInterval(int milliseconds) { timer_.setInterval(milliseconds); }

    ModelReportPtr report() const { return report_; }  // the newest delivered report
    bool busy() const { return runner_.busy() || timer_.isActive(); }

public slots:
    void recompute();  // now, whatever changed
    void cancel();     // the running report (cancelled() follows)

signals:
    void started();
    void progress(double fraction);
    void reportReady(qs::ui::ModelReportPtr report);
    void failed(const QString& message);
    void cancelled();

private:
    void schedule();  // a change: (re)start the coalescing timer if the report would differ
    void followCalibration();  // the explorer's calibration choices the report uses
    void start();

    JobRunner runner_;
    QTimer timer_;
    QPointer<ExplorerModel> explorer_;
    std::shared_ptr<const qs::modelfile::ModelFile> model_;
    qs::QuantSpec spec_;
    qs::analysis::ModelReportOptions options_;
    // What the newest submitted report ran on (to skip changes the report does not see).
    std::optional<qs::QuantSpec> submittedKey_;
    std::shared_ptr<const qs::modelfile::ModelFile> submittedModel_;
    ModelReportPtr report_;
};

// The part of a spec the report depends on (ranges cleared, the axis reduced to per tensor
// (-1) or per channel (0)): two specs with the same key give the same report.
qs::QuantSpec modelReportKey(const qs::QuantSpec& spec);

}  // namespace qs::ui
