#include "session/explorer/load_data_source.h"

#include "core/data/generator_spec.h"
#include "core/data/load_file.h"
#include "core/modelfile/tensor_values.h"
#include "session/files/native_file.h"

namespace qs::ui {

qs::Result<DatasetPtr> loadDataSource(const DataSource& source, const std::function<bool(double)>& progress,
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

}  // namespace qs::ui
