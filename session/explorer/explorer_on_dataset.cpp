#include "session/explorer/explorer_on_dataset.h"

namespace qs::ui {

qs::Result<qs::analysis::ExplorerResult> computeExplorerOn(const qs::QuantSpec& spec, const qs::data::Dataset& data,
                                                           const qs::analysis::ExplorerOptions& options,
                                                           const std::function<bool(double)>& progress) {
    if (!data.streamed()) return qs::analysis::computeExplorer(spec, data.ref(), options);
    // A file larger than the memory budget: the core's streamed pass (two scans over the
    // file, bounded memory), nothing per element kept.
    qs::analysis::ExplorerOptions streamed = options;
    streamed.keep_output = false;
    streamed.progress = progress;
    return qs::analysis::computeExplorerStream(spec, *data.stream, data.shape, streamed);
}

qs::analysis::ExplorerOptions viewExplorerOptions(int64_t channel) {
    qs::analysis::ExplorerOptions options;
    options.channel = channel;
    options.curve_samples = 4096;
    options.keep_output = false;
    return options;
}

}  // namespace qs::ui
