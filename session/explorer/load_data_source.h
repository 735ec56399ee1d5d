// Loads a DataSource synchronously: a generator, a data file or a model file's tensor, as
// the explorer sees it. DataService runs it off the UI thread; the CLI (export and analyze
// --session), tests and the GUI benchmark call it directly. A plain function, apart from
// the QObject services: a program that links it does not pull in their meta-objects (and
// with them QtGui's undo stack), so quantscope-cli stays on QtCore.
#pragma once

#include <functional>
#include <memory>
#include <optional>

#include "core/data/dataset.h"
#include "core/status.h"
#include "session/explorer/state.h"

namespace qs::ui {

using DatasetPtr = std::shared_ptr<const qs::data::Dataset>;  // the same alias as compute_service.h's

// Streams a .npy over `streamAboveBytes` when that is set (unset: everything is read into
// memory). `progress` (0..1) returns false to cancel.
qs::Result<DatasetPtr> loadDataSource(const DataSource& source, const std::function<bool(double)>& progress = {},
                                      std::optional<int64_t> streamAboveBytes = std::nullopt);

}  // namespace qs::ui
