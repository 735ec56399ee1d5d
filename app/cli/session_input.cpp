#include "app/cli/session_input.h"

#include "app/cli/data_input.h"
#include "core/data/load_file.h"
#include "session/explorer/load_data_source.h"
#include "session/files/native_file.h"

namespace qs::cli {

Result<ui::Session> readSessionFile(const std::string& path) {
    QString error;
    std::optional<ui::Session> session = ui::loadSession(path, &error);
    if (!session) return Error{"InputError", error.toStdString()};
    return std::move(*session);
}

Result<data::Dataset> loadInputData(const DataChoice& choice, const ui::Session* session) {
    if (choice.file) return data::loadDataFile(*choice.file);
    if (choice.generator) return generateData(*choice.generator);
    if (session && session->data.isModelTensor()) {  // the window's loader, one copy
        auto loaded = ui::loadDataSource(session->data);
        if (!loaded) return loaded.error();
        return **loaded;
    }
    if (session && session->data.isFile()) return data::loadDataFile(ui::nativePath(session->data.path));
    return generateData(session ? session->data.generator.toStdString() : kDefaultGenerator);
}

}  // namespace qs::cli
