// Placeholder until the checkpoint reader lands: refuses every file.
#include "core/modelfile/readers.h"
#include "core/data/dataset.h"

namespace qs::modelfile {

Result<ModelPtr> openCheckpoint(const std::string& label, SharedBytes, Sidecars, const std::string&) {
    return data::dataError(label + ": the checkpoint reader is not built yet");
}

}  // namespace qs::modelfile
