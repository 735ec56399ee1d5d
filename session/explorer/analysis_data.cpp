#include "session/explorer/analysis_data.h"

#include <QLocale>
#include <QObject>
#include <mutex>

#include "core/data/stream_sample.h"

namespace qs::ui {

namespace {

// One slot: the streamed data set last sampled and its sample. Held under the mutex while a
// sample is read, so two tabs asking at once read the file once.
struct SampleCache {
    std::mutex mutex;
    std::weak_ptr<const qs::data::Dataset> source;
    std::shared_ptr<const qs::data::Dataset> sample;
};

SampleCache& cache() {
    static SampleCache c;
    return c;
}

}  // namespace

qs::Result<std::shared_ptr<const qs::data::Dataset>> analysisDataset(
    const std::shared_ptr<const qs::data::Dataset>& data, const std::function<bool(double)>& progress) {
    SampleCache& c = cache();
    std::lock_guard lock(c.mutex);
    if (c.source.expired()) c.sample.reset();  // its data set is gone: so goes the sample
    if (!data || !data->streamed()) return data;
    if (c.sample && c.source.lock() == data) return c.sample;
    c.source.reset();
    c.sample.reset();  // the previous data set's sample goes before the next is read
    qs::data::ChunkOptions options;
    options.progress = progress;
    auto values = qs::data::sampleStream(*data->stream, qs::data::kSampleValues, options);
    if (!values) return values.error();
    auto sample = std::make_shared<qs::data::Dataset>();
    sample->shape = {static_cast<int64_t>(values->size())};
    sample->values = std::move(values).value();
    sample->label = data->label + " (sample)";
    c.source = data;
    c.sample = sample;
    return std::shared_ptr<const qs::data::Dataset>(sample);
}

QString sampleNote(const qs::data::Dataset& data) {
    if (!data.streamed()) return {};
    const int64_t n = data.size();
    const QLocale locale;
    return QObject::tr("On a uniform sample: %1 of %2 values (the data set is larger than the memory budget and "
                       "is streamed from its file)")
        .arg(locale.toString(static_cast<qlonglong>(qs::data::sampleCount(n))),
             locale.toString(static_cast<qlonglong>(n)));
}

}  // namespace qs::ui
