#include "session/explorer/framework_service.h"

#include "session/explorer/analysis_data.h"

namespace qs::ui {

FrameworkService::FrameworkService(QObject* parent) : QObject(parent) {
    qRegisterMetaType<FrameworkComparisonPtr>();
    connect(&runner_, &JobRunner::failed, this, [this](const QString& message) { emit failed(message); });
    connect(&runner_, &JobRunner::progress, this, &FrameworkService::progress);
}

void FrameworkService::request(const qs::analysis::FrameworkSetup& setup,
                               std::shared_ptr<const qs::data::Dataset> data) {
    runner_.submit([this, setup, data = std::move(data)](const JobContext& context) -> JobRunner::Delivery {
        // A streamed data set compares on its uniform sample, never its n values.
        auto r = analyseData(data, context.progressCallback(),
                             [&setup](const qs::data::Dataset& d, const std::function<bool(double)>& progress) {
                                 return qs::analysis::compareFrameworks(d.values, setup, progress);
                             });
        if (!r && r.error().cancelled && context.cancelled()) return [this] { emit cancelled(); };
        if (!r) return [this, message = QString::fromStdString(r.error().message)] { emit failed(message); };
        return [this, result = std::make_shared<const qs::analysis::FrameworkComparison>(std::move(r).value())] {
            emit compared(result);
        };
    }, JobRunner::Running::Discard);
}

}  // namespace qs::ui
