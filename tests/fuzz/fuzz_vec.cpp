// Fuzz target: word2vec / fastText .vec vectors (core/data/vec_reader.h), the explorer's and the workbench's data files.
#include "core/data/vec_reader.h"
#include "tests/fuzz/dataset_checks.h"
#include "tests/fuzz/fuzz_input.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const qs::fuzz::FuzzInputFile file(data, size, ".vec");
    if (const auto dataset = qs::data::readVec(file.path())) qs::fuzz::checkDataset(*dataset);
    return 0;
}
