// Placeholder until the npy reader lands: refuses every file.
#include "core/modelfile/readers.h"
#include "core/data/dataset.h"

namespace qs::modelfile {

Result<ModelPtr> openNpy(const std::string& label, SharedBytes) {
    return data::dataError(label + ": the npy reader is not built yet");
}

}  // namespace qs::modelfile
