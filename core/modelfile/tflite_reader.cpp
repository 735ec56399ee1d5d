// Placeholder until the tflite reader lands: refuses every file.
#include "core/modelfile/readers.h"
#include "core/data/dataset.h"

namespace qs::modelfile {

Result<ModelPtr> openTflite(const std::string& label, SharedBytes) {
    return data::dataError(label + ": the tflite reader is not built yet");
}

}  // namespace qs::modelfile
