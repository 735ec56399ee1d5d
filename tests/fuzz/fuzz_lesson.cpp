// Fuzz target: lesson files (session/lessons/lesson_file.h), compiled in and read from the
// user's lesson folder.
#include "session/lessons/lesson_file.h"
#include "tests/fuzz/document_checks.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const qs::fuzz::FuzzInputFile file(data, size, ".json");
    (void)qs::fuzz::loadExplained(
        file, [](const std::string& path, QString* error) { return qs::ui::loadLesson(QString::fromStdString(path), error); },
        "lesson");
    return 0;
}
