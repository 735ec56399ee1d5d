// Fuzz target: the embedding workbench's configuration files (ui/embedding/
// embedding_document.h; `quantscope --workbench CONFIG`, `quantscope-cli embedding CONFIG`):
// load, check every object with TF's rules, write the TensorFlow code, derive each table's
// inputs, and check that a configuration that loads saves and loads again unchanged. Table
// data and id files named in the configuration are not opened (their readers have their
// own targets).
#include "session/workbench/embedding_document.h"
#include "session/workbench/embedding_validation.h"
#include "session/workbench/workbench_inputs.h"
#include "tests/fuzz/document_checks.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const qs::fuzz::FuzzInputFile file(data, size, ".json");
    const auto doc = qs::fuzz::loadExplained(
        file, [](const std::string& path, QString* error) { return qs::ui::loadEmbeddingDocument(path, error); },
        "configuration");
    if (!doc) return 0;
    (void)qs::ui::validateEmbeddingDocument(*doc);
    (void)qs::ui::embeddingPythonCode(*doc);
    for (size_t t = 0; t < doc->tables.size(); ++t) (void)qs::ui::workbenchTableInputs(*doc, static_cast<int>(t));
    (void)qs::ui::workbenchStrategy(*doc);

    qs::fuzz::checkSavesAndReloads(qs::ui::embeddingDocumentToJson(*doc), qs::ui::embeddingDocumentFromJson,
                                   qs::ui::embeddingDocumentToJson, "configuration");
    return 0;
}
