// Fuzz target: numeric CSV / TSV / text arrays (core/data/csv_reader.h), the explorer's and the workbench's data files.
#include "core/data/csv_reader.h"
#include "tests/fuzz/dataset_checks.h"
#include "tests/fuzz/fuzz_input.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const qs::fuzz::FuzzInputFile file(data, size, ".csv");
    if (const auto dataset = qs::data::readCsv(file.path())) qs::fuzz::checkDataset(*dataset);
    return 0;
}
