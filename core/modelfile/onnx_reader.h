// ONNX beyond openOnnx (readers.h): a standalone serialized TensorProto, as ONNX's node
// tests store their inputs and expected outputs (test_data_set_0/input_0.pb).
#pragma once

#include <string>

#include "core/modelfile/model_file.h"

namespace qs::modelfile {

// The TensorProto in `bytes` as a one-tensor model (format "onnx"), named by its name field
// ("tensor" when it has none). External data is refused: there is no model folder.
Result<ModelPtr> readOnnxTensorProto(const std::string& label, SharedBytes bytes);

}  // namespace qs::modelfile
