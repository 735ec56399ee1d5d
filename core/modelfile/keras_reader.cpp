// Placeholder until the keras reader lands: refuses every file.
#include "core/modelfile/readers.h"
#include "core/data/dataset.h"

namespace qs::modelfile {

Result<ModelPtr> openKeras(const std::string& label, SharedBytes) {
    return data::dataError(label + ": the keras reader is not built yet");
}

}  // namespace qs::modelfile
