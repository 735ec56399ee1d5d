#include "ui/compute/compute_service.h"

namespace qs::ui {

ComputeService::ComputeService(QObject* parent) : QObject(parent) {
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
            if (data) cancellable.data_range = dataRangeOf(data, cancellable);
            auto r = qs::analysis::computeExplorer(spec, (data ? *data : empty).ref(), cancellable);
            const double milliseconds = context.elapsedMilliseconds();
            if (r) {
                auto result = std::make_shared<const qs::analysis::ExplorerResult>(std::move(r).value());
                return [this, result, serial, milliseconds] { emit resultReady(result, serial, milliseconds); };
            }
            if (r.error().kind == "Cancelled") return {};
            return [this, error = r.error(), serial] {
                emit failed(QString::fromStdString(error.kind), QString::fromStdString(error.message), serial);
            };
        },
        JobRunner::Running::Finish, serial);
    return serial;
}

void ComputeService::cancelRunning() { runner_.cancel(); }

std::pair<float, float> ComputeService::dataRangeOf(const DatasetPtr& data,
                                                    const qs::analysis::ExplorerOptions& options) {
    {
        const std::lock_guard lock(rangeMutex_);
        if (rangeData_.lock() == data) return range_;
    }
    const auto range = qs::analysis::dataRange(data->values, options.exec);
    const std::lock_guard lock(rangeMutex_);
    rangeData_ = data;
    range_ = range;
    return range;
}

}  // namespace qs::ui
