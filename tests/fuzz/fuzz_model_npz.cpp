// Fuzz target: the .npz model reader (core/modelfile/npz_reader.cpp) and the zip layer under
// it (zip_archive.cpp: central directory, local headers, inflating with limits), and for
// inputs that start like a .npy the single-array reader: every listed tensor is loaded and
// converted.
#include <cstring>

#include "core/modelfile/readers.h"
#include "tests/fuzz/model_checks.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const auto bytes = qs::modelfile::copyBytes({reinterpret_cast<const char*>(data), size});
    if (size >= 6 && std::memcmp(data, "\x93NUMPY", 6) == 0) {
        qs::fuzz::checkModel(qs::modelfile::openNpy("fuzz.npy", bytes), "fuzz.npy");
        return 0;
    }
    qs::fuzz::checkModel(qs::modelfile::openNpz("fuzz.npz", bytes), "fuzz.npz");
    return 0;
}
