#include "ui/compute/data_service.h"

#include <QFileInfo>
#include <QPointer>
#include <QtConcurrent/QtConcurrentRun>

#include "core/data/generator_spec.h"
#include "core/data/load_file.h"
#include "ui/model/native_file.h"

namespace qs::ui {

DataService::DataService(QObject* parent) : QObject(parent) {
    connect(&watcher_, &QFutureWatcher<Outcome>::finished, this, &DataService::finished);
}

DataService::~DataService() {
    cancel();
    watcher_.waitForFinished();
}

qs::Result<DatasetPtr> DataService::loadNow(const DataSource& source,
                                            const std::function<bool(double)>& progress) {
    if (source.isFile()) {
        qs::data::LoadOptions options;
        options.progress = progress;
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
    if (loading_) {
        cancel();
        watcher_.waitForFinished();  // a cancelled load stops at its next progress call
    }
    loading_ = true;
    cancel_ = std::make_shared<std::atomic<bool>>(false);
    emit loadingStarted(source.isFile() ? QFileInfo(source.path).fileName() : source.generator);
    auto cancel = cancel_;
    QPointer<DataService> self(this);
    watcher_.setFuture(QtConcurrent::run([source, cancel, self]() {
        auto report = [cancel, self](double fraction) {
            if (self)
                QMetaObject::invokeMethod(self.data(), [self, fraction] {
                    if (self) emit self->progress(fraction);
                }, Qt::QueuedConnection);
            return !cancel->load();
        };
        Outcome out;
        try {
            auto d = loadNow(source, report);
            if (d) out.dataset = *d;
            else out.error = d.error();
        } catch (const std::exception& e) {  // e.g. bad_alloc on a huge file: report it
            out.error = {"DataError", std::string("could not load the data: ") + e.what()};
        }
        return out;
    }));
}

void DataService::cancel() {
    if (cancel_) cancel_->store(true);
}

void DataService::finished() {
    loading_ = false;
    const Outcome out = watcher_.result();
    if (out.dataset) {
        dataset_ = out.dataset;
        emit loaded(dataset_);
    } else if (out.error.kind == "Cancelled") {
        emit cancelled();
    } else {
        emit failed(QString::fromStdString(out.error.message));
    }
}

}  // namespace qs::ui
