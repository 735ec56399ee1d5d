// Fuzz target: the ONNX reader (core/modelfile/onnx_*): a ModelProto listed, every tensor
// loaded and converted; the same bytes read as a standalone TensorProto (node-test .pb).
#include "core/modelfile/onnx_reader.h"
#include "core/modelfile/readers.h"
#include "tests/fuzz/model_checks.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string label = "fuzz.onnx";
    const auto bytes = qs::modelfile::copyBytes({reinterpret_cast<const char*>(data), size});
    qs::fuzz::checkModel(qs::modelfile::openOnnx(label, bytes, qs::modelfile::noSidecars()), label);
    qs::fuzz::checkModel(qs::modelfile::readOnnxTensorProto(label, bytes), label);
    return 0;
}
