#include "session/explorer/data_service.h"

#include <QFileInfo>

#include "core/data/memory_budget.h"
#include "session/explorer/load_data_source.h"

namespace qs::ui {

DataService::DataService(QObject* parent) : QObject(parent), runner_(tr("could not load the data")) {
    connect(&runner_, &JobRunner::progress, this, &DataService::progress);
    connect(&runner_, &JobRunner::idle, this, &DataService::idle);
    connect(&runner_, &JobRunner::failed, this, [this](const QString& message) { emit failed(message); });
}

DataService::~DataService() = default;  // the runner cancels and waits

int64_t DataService::memoryBudget() const { return budget_ ? *budget_ : qs::data::defaultMemoryBudget(); }

void DataService::load(const DataSource& source) {
    emit loadingStarted(source.isModelTensor()
                            ? QStringLiteral("%1 › %2").arg(QFileInfo(source.path).fileName(), source.tensor)
                            : source.isFile() ? QFileInfo(source.path).fileName() : source.generator);
    runner_.submit(
        [this, source, budget = memoryBudget()](const JobContext& context) -> JobRunner::Delivery {
            auto d = loadDataSource(source, context.progressCallback(), budget);
            if (d)
                return [this, dataset = *d] {
                    dataset_ = dataset;
                    emit loaded(dataset_);
                };
            if (d.error().cancelled) return [this] { emit cancelled(); };
            return [this, message = QString::fromStdString(d.error().message)] { emit failed(message); };
        },
        JobRunner::Running::Discard);
}

void DataService::cancel() {
    if (runner_.hasQueued()) {  // a load waiting for a discarded one to stop: it never starts
        runner_.dropQueued();
        emit cancelled();
        return;
    }
    runner_.cancel();
}

}  // namespace qs::ui
