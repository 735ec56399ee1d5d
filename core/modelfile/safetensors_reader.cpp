// Placeholder until the safetensors reader lands: refuses every file.
#include "core/modelfile/readers.h"
#include "core/data/dataset.h"

namespace qs::modelfile {

Result<ModelPtr> openSafetensors(const std::string& label, SharedBytes) {
    return data::dataError(label + ": the safetensors reader is not built yet");
}

}  // namespace qs::modelfile
