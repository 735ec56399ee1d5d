// Stored quantization's job, without widgets: loads a tensor a model file stores as integer
// codes (and, when given, the same tensor from a float original), compares the codes with
// every rule that could have made them (analysis::compareStoredQuantization) off the UI
// thread, the newest request winning, and delivers the comparison or a message naming the
// file and the tensor. StoredQuantView draws what it delivers; ModelFileController owns it.
#pragma once

#include <QObject>
#include <QString>
#include <memory>

#include "core/model_analysis/stored_quant.h"
#include "core/modelfile/model_file.h"
#include "session/jobs/job_runner.h"

namespace qs::ui {

using StoredQuantPtr = std::shared_ptr<const qs::analysis::StoredQuantComparison>;

class StoredQuantService : public QObject {
    Q_OBJECT
public:
    explicit StoredQuantService(QObject* parent = nullptr);
    ~StoredQuantService() override;  // cancels and waits for a comparison in progress

    // Compares tensor `index` of `model`; `original` (optional) is another file holding the
    // same tensor name as floats (the safetensors pair), whose values the rules then
    // quantize. A comparison in progress is dropped.
    void compare(qs::modelfile::ModelPtr model, int index, qs::modelfile::ModelPtr original = {});
    // Drops the comparison in progress: nothing more is delivered for it.
    void discard();
    bool busy() const;

signals:
    void comparisonReady(qs::ui::StoredQuantPtr comparison);
    void failed(const QString& message);

private:
    JobRunner runner_;
};

}  // namespace qs::ui
