// Placeholder until the onnx reader lands: refuses every file.
#include "core/modelfile/readers.h"
#include "core/data/dataset.h"

namespace qs::modelfile {

Result<ModelPtr> openOnnx(const std::string& label, SharedBytes, Sidecars) {
    return data::dataError(label + ": the onnx reader is not built yet");
}

}  // namespace qs::modelfile
