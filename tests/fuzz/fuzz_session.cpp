// Fuzz target: .qscope session files (session/explorer/session.h), opened from the recent-files
// list, the command line and `quantscope-cli export --session`.
#include "session/explorer/session.h"
#include "tests/fuzz/document_checks.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const qs::fuzz::FuzzInputFile file(data, size, ".qscope");
    const auto session = qs::fuzz::loadExplained(
        file, [](const std::string& path, QString* error) { return qs::ui::loadSession(path, error); }, "session");
    if (!session) return 0;
    qs::fuzz::checkSavesAndReloads(qs::ui::sessionToJson(*session), qs::ui::sessionFromJson,
                                   qs::ui::sessionToJson, "session");
    return 0;
}
