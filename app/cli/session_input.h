// The parameters and data of `export` and `analyze`, shared so that both read a session and
// its data source the same way: --case CASE.json or --session FILE.qscope (a session saved by
// the window: its parameters, per-channel ranges from each channel's data included), and
// --data FILE, --generate SPEC or else the session's own data source (a data file, a model
// tensor through the window's own loader, a generator) or the default generator.
#pragma once

#include <optional>
#include <string>

#include "core/analysis/quant_spec.h"
#include "core/data/dataset.h"
#include "core/status.h"
#include "session/explorer/session.h"

namespace qs::cli {

// InputError "FILE.qscope: <what is wrong>" when the session cannot be read.
Result<ui::Session> readSessionFile(const std::string& path);

// What the command line says about the data; both empty: the session's, or the default.
struct DataChoice {
    std::optional<std::string> file;       // --data
    std::optional<std::string> generator;  // --generate
};
Result<data::Dataset> loadInputData(const DataChoice& choice, const ui::Session* session);

}  // namespace qs::cli
