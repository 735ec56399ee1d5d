// Fuzz target: the HDF5 reader (core/modelfile/hdf5_*.cpp), Keras .h5/.hdf5 weights and models.
#include "core/modelfile/readers.h"
#include "tests/fuzz/model_checks.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string label = "fuzz.h5";
    const auto bytes = qs::modelfile::copyBytes({reinterpret_cast<const char*>(data), size});
    qs::fuzz::checkModel(qs::modelfile::openHdf5(label, bytes), label);
    return 0;
}
