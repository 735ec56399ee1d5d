#include "ui/compute/data_service.h"

#include <QFileInfo>

#include "core/data/generator_spec.h"
#include "core/data/load_file.h"
#include "core/data/memory_budget.h"
#include "core/modelfile/tensor_values.h"
#include "ui/model/native_file.h"

namespace qs::ui {

DataService::DataService(QObject* parent) : QObject(parent), runner_(tr("could not load the data")) {
    connect(&runner_, &JobRunner::progress, this, &DataService::progress);
    connect(&runner_, &JobRunner::idle, this, &DataService::idle);
    connect(&runner_, &JobRunner::failed, this, [this](const QString& message) { emit failed(message); });
}

DataService::~DataService() = default;  // the runner cancels and waits

int64_t DataService::memoryBudget() const { return budget_ ? *budget_ : qs::data::defaultMemoryBudget(); }

qs::Result<DatasetPtr> DataService::loadNow(const DataSource& source, const std::function<bool(double)>& progress,
                                            std::optional<int64_t> streamAboveBytes) {
    if (source.isModelTensor()) {
        // Opening reads only the headers; the tensor's bytes are mapped or decoded on demand.
        auto model = qs::modelfile::openModel(nativePath(source.path));
        if (!model) return model.error();
        const int64_t index = (*model)->find(source.tensor.toStdString());
        if (index < 0)
            return qs::data::dataError(QStringLiteral("%1: no tensor '%2'")
                                           .arg(QString::fromStdString((*model)->label()), source.tensor)
                                           .toStdString());
        auto d = qs::modelfile::toDataset(**model, static_cast<size_t>(index), streamAboveBytes);
        if (!d) return d.error();
        return DatasetPtr(std::make_shared<const qs::data::Dataset>(std::move(d).value()));
    }
    if (source.isFile()) {
        qs::data::LoadOptions options;
        options.progress = progress;
        options.stream_above_bytes = streamAboveBytes;
        auto d = qs::data::loadDataFile(nativePath(source.path), options);
        if (!d) return d.error();
        return DatasetPtr(std::make_shared<const qs::data::Dataset>(std::move(d).value()));
    }
    auto spec = qs::data::parseGeneratorSpec(source.generator.toStdString());
    if (!spec) return spec.error();
    auto d = qs::data::generate(*spec);
    if (!d) return d.error();
    return DatasetPtr(std::make_shared<const qs::data::Dataset>(std::move(d).value()));
}

void DataService::load(const DataSource& source) {
    emit loadingStarted(source.isModelTensor()
                            ? QStringLiteral("%1 › %2").arg(QFileInfo(source.path).fileName(), source.tensor)
                            : source.isFile() ? QFileInfo(source.path).fileName() : source.generator);
    runner_.submit(
        [this, source, budget = memoryBudget()](const JobContext& context) -> JobRunner::Delivery {
            auto d = loadNow(source, context.progressCallback(), budget);
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
