// Fuzz target: the .keras reader (core/modelfile/keras_reader.cpp): the zip, then its model.weights.h5.
#include "core/modelfile/readers.h"
#include "tests/fuzz/model_checks.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string label = "fuzz.keras";
    const auto bytes = qs::modelfile::copyBytes({reinterpret_cast<const char*>(data), size});
    qs::fuzz::checkModel(qs::modelfile::openKeras(label, bytes), label);
    return 0;
}
