#include "session/modelfile/stored_quant_service.h"

#include <QFileInfo>
#include <optional>
#include <string>

namespace qs::ui {

StoredQuantService::StoredQuantService(QObject* parent)
    : QObject(parent), runner_(tr("Comparing the stored codes failed")) {
    connect(&runner_, &JobRunner::failed, this, &StoredQuantService::failed);
}

StoredQuantService::~StoredQuantService() = default;

void StoredQuantService::compare(qs::modelfile::ModelPtr model, int index, qs::modelfile::ModelPtr original) {
    if (!model || index < 0 || index >= static_cast<int>(model->tensors().size())) {
        discard();
        emit failed(tr("No such tensor to compare (index %1).").arg(index));
        return;
    }
    runner_.submit(
        [this, model = std::move(model), index, original = std::move(original)](const JobContext& context) -> JobRunner::Delivery {
            auto fail = [this](const std::string& message) {
                return [this, m = QString::fromStdString(message)] { emit failed(m); };
            };
            auto stored = model->load(static_cast<size_t>(index));
            if (!stored) return fail(stored.error().message);
            std::optional<qs::modelfile::TensorData> originalData;
            std::string originalLabel;
            if (original) {
                const int64_t o = original->find(stored->info.name);
                if (o < 0) return fail(original->label() + ": no tensor '" + stored->info.name + "' to compare with");
                auto loaded = original->load(static_cast<size_t>(o));
                if (!loaded) return fail(loaded.error().message);
                originalData = std::move(loaded).value();
                // The file's name, not its path: the line above the plot stays short.
                originalLabel = QFileInfo(QString::fromStdString(original->label())).fileName().toStdString() +
                                " › " + stored->info.name;
            }
            auto result = qs::analysis::compareStoredQuantization(*stored, originalData ? &*originalData : nullptr,
                                                                  originalLabel, context.cancelFlag());
            if (!result && result.error().cancelled) return {};  // a newer tensor replaced it
            if (!result) return fail(model->label() + ": " + result.error().message);
            return [this, r = std::make_shared<const qs::analysis::StoredQuantComparison>(std::move(result).value())] {
                emit comparisonReady(r);
            };
        },
        JobRunner::Running::Discard);
}

void StoredQuantService::discard() { runner_.discard(); }
bool StoredQuantService::busy() const { return runner_.busy(); }

}  // namespace qs::ui
