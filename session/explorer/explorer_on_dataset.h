// The explorer's computation on a data set wherever its values live: in memory
// (computeExplorer on the values) or streamed from a file larger than the memory budget (the
// streamed pass, chunk by chunk, with progress; no per-element output is kept, nothing of
// the data's size is allocated). ComputeService and the GUI benchmark call this, so the
// switch to the core's streamed entry point is made here once.
#pragma once

#include <functional>

#include "core/analysis/explorer.h"
#include "core/data/dataset.h"

namespace qs::ui {

// `progress` (0..1; false cancels) is called for streamed data sets only: an in-memory pass
// takes milliseconds. Errors: the op's; "Cancelled" when options.cancel is set or progress
// returned false; the file's read errors (naming the file and offset).
qs::Result<qs::analysis::ExplorerResult> computeExplorerOn(const qs::QuantSpec& spec, const qs::data::Dataset& data,
                                                           const qs::analysis::ExplorerOptions& options,
                                                           const std::function<bool(double)>& progress = {});

// The options the window computes its views with (ExplorerController) and with which
// `quantscope-cli export` draws and writes them, so that both make the same files for the
// same view: the transfer curve of `channel` in 4096 samples (the transfer CSV's rows), no
// per-element output (the views show statistics and histograms, never Q(x) itself).
qs::analysis::ExplorerOptions viewExplorerOptions(int64_t channel);

}  // namespace qs::ui
