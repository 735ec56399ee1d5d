// Fuzz target: the safetensors model reader (core/modelfile/safetensors_reader.cpp): header
// length, JSON header, entries, and every listed tensor loaded and converted.
#include "core/modelfile/readers.h"
#include "tests/fuzz/model_checks.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string label = "fuzz.safetensors";
    const auto bytes = qs::modelfile::copyBytes({reinterpret_cast<const char*>(data), size});
    qs::fuzz::checkModel(qs::modelfile::openSafetensors(label, bytes), label);
    return 0;
}
