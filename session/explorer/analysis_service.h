// Runs the analyses (bit sweep, clipping sweep, calibration, side-by-side comparison) off the
// UI thread on a JobRunner: a new request cancels the running analysis and drops whatever it
// would have delivered (it answered settings or a tab that are no longer the user's), results
// arrive as shared_ptr<const …> with their serial, errors as messages. While one runs, the
// core's fraction done arrives as progress(); cancelRunning() stops it with cancelled().
// It never decides WHEN to run: AnalysisTabs asks only for the visible tab and only while the
// explorer's own computation is idle, so the explorer keeps priority.
#pragma once

#include <QObject>
#include <QString>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/analysis/bit_sweep.h"
#include "core/analysis/calibration.h"
#include "core/analysis/clip_sweep.h"
#include "core/analysis/comparison.h"
#include "core/analysis/histogram.h"
#include "core/analysis/transfer_curve.h"
#include "session/explorer/compute_service.h"  // DatasetPtr
#include "session/jobs/job_runner.h"

namespace qs::ui {

enum class AnalysisKind { BitSweep, ClipSweep, Calibration, Comparison };
QString analysisName(AnalysisKind kind);  // "bit sweep", ... (status lines)

// The results are core's (core/analysis): the UI names them as before.
using qs::analysis::CalibrationAnalysis;
using qs::analysis::ClipAnalysis;
using qs::analysis::ComparisonAnalysis;
using qs::analysis::ComparisonEntry;
using qs::analysis::computeCalibration;
using qs::analysis::computeClipAnalysis;
using qs::analysis::computeComparison;

using BitSweepPtr = std::shared_ptr<const qs::analysis::BitSweep>;
using ClipAnalysisPtr = std::shared_ptr<const ClipAnalysis>;
using CalibrationPtr = std::shared_ptr<const CalibrationAnalysis>;
using ComparisonPtr = std::shared_ptr<const ComparisonAnalysis>;

class AnalysisService : public QObject {
    Q_OBJECT
public:
    explicit AnalysisService(QObject* parent = nullptr);
    ~AnalysisService() override;  // waits for a running analysis

    // Each queues one analysis (replacing a queued one that has not started) and returns
    // its serial. The analyses run per tensor on the flat data (comparisons keep the shape);
    // on a streamed data set they run on its uniform sample (session/explorer/analysis_data.h).
    quint64 requestBitSweep(const qs::QuantSpec& spec, DatasetPtr data, qs::analysis::DataKind kind);
    quint64 requestClipSweep(const qs::QuantSpec& spec, DatasetPtr data);
    quint64 requestCalibration(const qs::QuantSpec& spec, DatasetPtr data,
                               const qs::analysis::CalibrationOptions& options);
    quint64 requestComparison(const std::vector<qs::QuantSpec>& specs, DatasetPtr data);

    // The user's Cancel: the running analysis stops and ends with cancelled().
    void cancelRunning();
    // Settings changed under the running and queued analyses: they stop and deliver nothing.
    void abandon();

    bool busy() const { return runner_.running(); }
    std::optional<AnalysisKind> runningKind() const;
    // The analyses asked for whose outcome has not arrived (running, then queued).
    std::vector<AnalysisKind> pendingKinds() const;

signals:
    void started(qs::ui::AnalysisKind kind);
    void bitSweepReady(qs::ui::BitSweepPtr result, quint64 serial);
    void clipSweepReady(qs::ui::ClipAnalysisPtr result, quint64 serial);
    void calibrationReady(qs::ui::CalibrationPtr result, quint64 serial);
    void comparisonReady(qs::ui::ComparisonPtr result, quint64 serial);
    void failed(qs::ui::AnalysisKind kind, const QString& message, quint64 serial);
    // 0..1 through the running analysis, never decreasing within one run.
    void progress(qs::ui::AnalysisKind kind, double fraction);
    // cancelRunning() stopped the analysis `serial`: no result for it.
    void cancelled(qs::ui::AnalysisKind kind, quint64 serial);
    void idle();  // nothing running or queued any more

private:
    template <typename T>
    quint64 enqueue(AnalysisKind kind, DatasetPtr data, std::function<qs::Result<T>(const qs::data::Dataset&, const qs::analysis::ProgressCallback&)> run,
                    void (AnalysisService::*ready)(std::shared_ptr<const T>, quint64));

    JobRunner runner_;
    // The kind of the newest request (the one the runner starts next) and of the running one.
    AnalysisKind queuedKind_ = AnalysisKind::BitSweep, runningKind_ = AnalysisKind::BitSweep;
    quint64 nextSerial_ = 1;
};

}  // namespace qs::ui

// No Q_DECLARE_METATYPE: Qt 6 knows every copyable type; the constructor registers the
// result pointers for queued connections by name.
