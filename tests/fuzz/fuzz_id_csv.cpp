// Fuzz target: the workbench's lookup batches read from CSV (core/embedding/id_batch.h,
// `quantscope-cli embedding --ids`).
#include <string>

#include "core/embedding/id_batch.h"
#include "tests/fuzz/fuzz_input.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const qs::fuzz::FuzzInputFile file(data, size, ".csv");
    const auto batch = qs::embedding::readIdBatchCsv(file.path());
    if (!batch) return 0;
    const auto& ids = batch->ids;
    if (ids.indices.size() != ids.values.size() || (batch->weights && batch->weights->size() != ids.values.size()))
        qs::fuzz::propertyFailed("ids, indices and weights differ in length");
    if (ids.dense_shape.size() != 2) qs::fuzz::propertyFailed("dense_shape is not 2-d");
    int64_t previous = 0;
    for (const auto& index : ids.indices) {
        if (index[0] < previous || index[0] >= ids.dense_shape[0] || index[1] < 0 || index[1] >= ids.dense_shape[1])
            qs::fuzz::propertyFailed("index [" + std::to_string(index[0]) + ", " + std::to_string(index[1]) +
                                     "] out of order or outside dense_shape");
        previous = index[0];
    }
    return 0;
}
