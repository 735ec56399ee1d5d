#include "session/explorer/analysis_service.h"

#include <algorithm>

#include "session/explorer/analysis_data.h"

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

namespace {

// The explorer's spec as the analyses can run it on `data`: itself for data in memory; on a
// streamed data set's flat sample a per-channel spec cannot run (its channels need every
// value), so the error says so.
qs::Result<qs::QuantSpec> specForAnalysis(const qs::QuantSpec& spec, bool sampled) {
    if (sampled && spec.axis >= 0 && qs::usesAxis(spec.op))
        return qs::invalidArgument("Off for this data set: a per-channel configuration needs every value of "
                                   "each channel, and the data set is larger than the memory budget (streamed "
                                   "from its file, analysed on a uniform sample)");
    return spec;
}

}  // namespace

quint64 AnalysisService::requestBitSweep(const qs::QuantSpec& spec, DatasetPtr data,
                                         qs::analysis::DataKind kind) {
    const bool sampled = data && data->streamed();
    return enqueue<qs::analysis::BitSweep>(
        AnalysisKind::BitSweep, data,
        [spec, kind, sampled](const qs::data::Dataset& d, const qs::analysis::ProgressCallback& progress)
            -> qs::Result<qs::analysis::BitSweep> {
            auto s = specForAnalysis(spec, sampled);
            if (!s) return s.error();
            // Every width the op has, the spec otherwise exactly the explorer's.
            const auto [lo, hi] = qs::analysis::sweepBitRange(spec);
            return qs::analysis::sweepBits(d.ref(), *s, lo, hi, kind, analysisExec(), progress);
        },
        &AnalysisService::bitSweepReady);
}

quint64 AnalysisService::requestClipSweep(const qs::QuantSpec& spec, DatasetPtr data) {
    const bool sampled = data && data->streamed();
    return enqueue<ClipAnalysis>(
        AnalysisKind::ClipSweep, data,
        [spec, sampled](const qs::data::Dataset& d, const qs::analysis::ProgressCallback& progress)
            -> qs::Result<ClipAnalysis> {
            auto s = specForAnalysis(spec, sampled);
            if (!s) return s.error();
            return computeClipAnalysis(d.ref(), *s, analysisExec(), progress);
        },
        &AnalysisService::clipSweepReady);
}

quint64 AnalysisService::requestCalibration(const qs::QuantSpec& spec, DatasetPtr data,
                                            const qs::analysis::CalibrationOptions& options) {
    const bool sampled = data && data->streamed();
    return enqueue<CalibrationAnalysis>(
        AnalysisKind::Calibration, data,
        [spec, options, sampled](const qs::data::Dataset& d, const qs::analysis::ProgressCallback& progress)
            -> qs::Result<CalibrationAnalysis> {
            auto s = specForAnalysis(spec, sampled);
            if (!s) return s.error();
            return computeCalibration(d.ref(), *s, options, analysisExec(), progress);
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
            if (r.error().cancelled && context.cancelled())
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
