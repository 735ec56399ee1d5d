// Fuzz target: the op-case JSON of `quantscope-cli eval` and `conformance` (the schema of
// TensorFlow's test vectors, app/cli/case_runner.h): parse, check and evaluate every case
// with the core ops. Everything malformed must come back as a message, never a crash.
#include <QByteArray>

#include "app/cli/case_runner.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const QByteArray json = QByteArray::fromRawData(reinterpret_cast<const char*>(data), static_cast<qsizetype>(size));
    if (auto run = qs::cli::runJson(json, "fuzz.json")) (void)qs::cli::resultsDocument({&*run, 1}).dump();
    return 0;
}
