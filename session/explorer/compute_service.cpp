#include "session/explorer/compute_service.h"

#include "session/explorer/explorer_on_dataset.h"

namespace qs::ui {

ComputeService::ComputeService(QObject* parent) : QObject(parent) {
    connect(&runner_, &JobRunner::progress, this, &ComputeService::progress);
    connect(&runner_, &JobRunner::failed, this, [this](const QString& message, quint64 serial) {
        emit failed(QStringLiteral("ResourceExhausted"), message, serial);
    });
}

ComputeService::~ComputeService() = default;  // the runner cancels and waits

quint64 ComputeService::request(const qs::QuantSpec& spec, DatasetPtr data,
                                const qs::analysis::ExplorerOptions& options) {
    const quint64 serial = nextSerial_++;
    runner_.submit(
        [this, spec, data = std::move(data), options, serial](const JobContext& context) -> JobRunner::Delivery {
            qs::analysis::ExplorerOptions cancellable = options;
            cancellable.cancel = context.cancelFlag();
            const qs::data::Dataset empty;
            // The range depends on the data alone: found once per data set (in memory here; a
            // streamed pass finds it in its own first scan).
            if (data && !data->streamed()) cancellable.data_range = dataRangeOf(data, cancellable);
            if (data && data->streamed()) cancellable.data_range = knownRangeOf(data);
            if (data) cancellable.data_histogram = knownHistogramOf(data);
            cancellable.on_curve = [this, serial](qs::analysis::ExplorerResult&& partial) {
                auto curve = std::make_shared<const qs::analysis::ExplorerResult>(std::move(partial));
                // Queued to the service's thread; dropped if the service is gone by then.
                QMetaObject::invokeMethod(this, [this, curve, serial] { emit curveReady(curve, serial); },
                                          Qt::QueuedConnection);
            };
            auto r = computeExplorerOn(spec, data ? *data : empty, cancellable, context.progressCallback());
            // A streamed pass's first scan found the range: later edits skip that scan. The
            // data histogram serves the next edits whose window is the same.
            if (r && data && data->streamed()) rememberRange(data, {r->data_min, r->data_max});
            if (r && data) rememberHistogram(data, r->data_hist);
            const double milliseconds = context.elapsedMilliseconds();
            if (r) {
                auto result = std::make_shared<const qs::analysis::ExplorerResult>(std::move(r).value());
                return [this, result, serial, milliseconds] { emit resultReady(result, serial, milliseconds); };
            }
            if (r.error().cancelled) return [this, serial] { emit cancelled(serial); };
            return [this, error = r.error(), serial] {
                emit failed(QString::fromStdString(error.kind), QString::fromStdString(error.message), serial);
            };
        },
        JobRunner::Running::Finish, serial);
    return serial;
}

void ComputeService::cancelRunning() { runner_.cancel(); }

std::optional<std::pair<float, float>> ComputeService::knownRangeOf(const DatasetPtr& data) {
    const std::lock_guard lock(rangeMutex_);
    if (rangeData_.lock() == data) return range_;
    return std::nullopt;
}

void ComputeService::rememberRange(const DatasetPtr& data, std::pair<float, float> range) {
    const std::lock_guard lock(rangeMutex_);
    rangeData_ = data;
    range_ = range;
}

std::optional<qs::analysis::Histogram> ComputeService::knownHistogramOf(const DatasetPtr& data) {
    const std::lock_guard lock(rangeMutex_);
    if (histogramData_.lock() == data) return histogram_;
    return std::nullopt;
}

void ComputeService::rememberHistogram(const DatasetPtr& data, const qs::analysis::Histogram& histogram) {
    const std::lock_guard lock(rangeMutex_);
    histogramData_ = data;
    histogram_ = histogram;
}

std::pair<float, float> ComputeService::dataRangeOf(const DatasetPtr& data,
                                                    const qs::analysis::ExplorerOptions& options) {
    if (const auto known = knownRangeOf(data)) return *known;
    const auto range = qs::analysis::dataRange(data->values, options.exec);
    rememberRange(data, range);
    return range;
}

}  // namespace qs::ui
