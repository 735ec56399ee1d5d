// Fuzz target: TFLite flatbuffers (core/modelfile/tflite_reader.cpp), through the bytes-based
// open function (no file needed), every listed tensor loaded and converted.
#include "core/modelfile/readers.h"
#include "tests/fuzz/model_checks.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string label = "fuzz.tflite";
    qs::fuzz::checkModel(qs::modelfile::openTflite(
                             label, qs::modelfile::copyBytes({reinterpret_cast<const char*>(data), size})),
                         label);
    return 0;
}
