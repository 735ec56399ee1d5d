#include "ui/analysis/analysis_service.h"

#include <algorithm>

#include "ui/compute/analysis_data.h"

namespace qs::ui {

namespace {

// The explorer computes on every core; an analysis leaves it one, so a recompute started
// while an analysis runs is not starved.
qs::Exec analysisExec() {
    return qs::Exec{std::max(1, qs::Exec::allCores().threads - 1)};
}

}  // namespace

QString analysisName(AnalysisKind kind) {
    switch (kind) {
        case AnalysisKind::BitSweep: return QObject::tr("bit-width sweep");
        case AnalysisKind::ClipSweep: return QObject::tr("clipping sweep");
        case AnalysisKind::Calibration: return QObject::tr("calibration");
        case AnalysisKind::Comparison: return QObject::tr("comparison");
    }
    return {};
}

AnalysisService::AnalysisService(QObject* parent) : QObject(parent), runner_(tr("the analysis failed")) {
    qRegisterMetaType<BitSweepPtr>();
    qRegisterMetaType<ClipAnalysisPtr>();
    qRegisterMetaType<CalibrationPtr>();
    qRegisterMetaType<ComparisonPtr>();
    connect(&runner_, &JobRunner::started, this, [this] {
        runningKind_ = queuedKind_;  // the runner always starts the newest request
        emit started(runningKind_);
    });
    connect(&runner_, &JobRunner::failed, this, [this](const QString& message, quint64 serial) {
        emit failed(runningKind_, QStringLiteral("ResourceExhausted: ") + message, serial);
    });
    connect(&runner_, &JobRunner::idle, this, &AnalysisService::idle);
    connect(&runner_, &JobRunner::progress, this, [this](double fraction) { emit progress(runningKind_, fraction); });
}

AnalysisService::~AnalysisService() = default;  // the runner waits

std::optional<AnalysisKind> AnalysisService::runningKind() const {
    return runner_.running() ? std::optional(runningKind_) : std::nullopt;
}

std::vector<AnalysisKind> AnalysisService::pendingKinds() const {
    std::vector<AnalysisKind> kinds;
    if (runner_.running()) kinds.push_back(runningKind_);
    if (runner_.hasQueued()) kinds.push_back(queuedKind_);
    return kinds;
}

void AnalysisService::cancelRunning() { runner_.cancel(); }

void AnalysisService::abandon() { runner_.discard(); }

quint64 AnalysisService::requestBitSweep(const qs::QuantSpec& spec, DatasetPtr data,
                                         qs::analysis::DataKind kind) {
    return enqueue<qs::analysis::BitSweep>(
        AnalysisKind::BitSweep, data,
        [spec, kind](const qs::data::Dataset& d, const qs::analysis::ProgressCallback& progress) {
            return qs::analysis::sweepBits(d.values, spec, 2, 16, kind, analysisExec(), progress);
        },
        &AnalysisService::bitSweepReady);
}

quint64 AnalysisService::requestClipSweep(const qs::QuantSpec& spec, DatasetPtr data) {
    return enqueue<ClipAnalysis>(
        AnalysisKind::ClipSweep, data,
        [spec](const qs::data::Dataset& d, const qs::analysis::ProgressCallback& progress) {
            return computeClipAnalysis(d.values, spec, analysisExec(), progress);
        },
        &AnalysisService::clipSweepReady);
}

quint64 AnalysisService::requestCalibration(const qs::QuantSpec& spec, DatasetPtr data,
                                            const qs::analysis::CalibrationOptions& options) {
    return enqueue<CalibrationAnalysis>(
        AnalysisKind::Calibration, data,
        [spec, options](const qs::data::Dataset& d, const qs::analysis::ProgressCallback& progress) {
            return computeCalibration(d.values, spec, options, analysisExec(), progress);
        },
        &AnalysisService::calibrationReady);
}

quint64 AnalysisService::requestComparison(const std::vector<qs::QuantSpec>& specs, DatasetPtr data) {
    return enqueue<ComparisonAnalysis>(
        AnalysisKind::Comparison, data,
        [specs](const qs::data::Dataset& d, const qs::analysis::ProgressCallback& progress) {
            return computeComparison(d.ref(), specs, analysisExec(), progress);
        },
        &AnalysisService::comparisonReady);
}

template <typename T>
quint64 AnalysisService::enqueue(AnalysisKind kind, DatasetPtr data,
                                 std::function<qs::Result<T>(const qs::data::Dataset&, const qs::analysis::ProgressCallback&)> run,
                                 void (AnalysisService::*ready)(std::shared_ptr<const T>, quint64)) {
    const quint64 serial = nextSerial_++;
    queuedKind_ = kind;
    runner_.submit(
        [this, kind, data = std::move(data), run = std::move(run), ready,
         serial](const JobContext& context) -> JobRunner::Delivery {
            // A streamed data set: its sample (read once, then cached), never its n values.
            qs::Result<T> r = analyseData(data, context.progressCallback(), run);
            if (r)
                return [this, ready, serial, result = std::make_shared<const T>(std::move(r).value())] {
                    (this->*ready)(result, serial);
                };
            if (r.error().kind == "Cancelled" && context.cancelled())
                return [this, kind, serial] { emit cancelled(kind, serial); };
            return [this, kind, serial, error = r.error()] {
                emit failed(kind, QStringLiteral("%1: %2").arg(QString::fromStdString(error.kind),
                                                               QString::fromStdString(error.message)),
                            serial);
            };
        },
        JobRunner::Running::Discard, serial);
    return serial;
}

}  // namespace qs::ui
