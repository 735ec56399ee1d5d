// Placeholder until the npz reader lands: refuses every file.
#include "core/modelfile/readers.h"
#include "core/data/dataset.h"

namespace qs::modelfile {

Result<ModelPtr> openNpz(const std::string& label, SharedBytes) {
    return data::dataError(label + ": the npz reader is not built yet");
}

}  // namespace qs::modelfile
