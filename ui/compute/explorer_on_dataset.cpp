#include "ui/compute/explorer_on_dataset.h"

#include <new>
#include <vector>

#include "core/data/memory_budget.h"

namespace qs::ui {

namespace {

// STOPGAP until core/analysis/explorer gets its streamed pass; then this whole function is
//   qs::analysis::ExplorerOptions streamed = options;
//   streamed.keep_output = false;
//   streamed.progress = progress;
//   return qs::analysis::computeExplorerStream(spec, *data.stream, data.shape, streamed);
// Meanwhile the stream is read into memory when that fits half the machine (the user's
// lowered QS_MEMORY_BUDGET aside, so tests and small files work), and refused otherwise:
// never n floats on a machine that cannot hold them.
qs::Result<qs::analysis::ExplorerResult> computeStreamed(const qs::QuantSpec& spec, const qs::data::Dataset& data,
                                                         const qs::analysis::ExplorerOptions& options,
                                                         const std::function<bool(double)>& progress) {
    const qs::data::FloatStream& stream = *data.stream;
    const int64_t bytes = stream.size() * static_cast<int64_t>(sizeof(float));
    if (bytes > qs::data::physicalMemoryBytes() / 2)
        return qs::unimplemented(stream.name() + ": " + std::to_string(bytes) +
                                 " bytes of values exceed the memory, and this build has no streamed explorer pass");
    std::vector<float> values;
    try {
        values.resize(static_cast<size_t>(stream.size()));
    } catch (const std::bad_alloc&) {
        return qs::Error{"ResourceExhausted", stream.name() + ": out of memory for the values"};
    }
    qs::data::ChunkOptions chunks;
    chunks.progress = [&](double f) {
        if (options.cancel && options.cancel->load()) return false;
        return !progress || progress(f);
    };
    if (qs::Status s = qs::data::forEachChunk(
            stream,
            [&values](int64_t begin, std::span<const float> chunk) {
                std::copy(chunk.begin(), chunk.end(), values.begin() + begin);
                return qs::okStatus();
            },
            chunks);
        !s)
        return s.error();
    auto r = qs::analysis::computeExplorer(spec, qs::TensorRef<float>{values, data.shape}, options);
    if (r) {  // as keep_output = false will: no per-element output for a streamed data set
        r.value().output.clear();
        r.value().output.shrink_to_fit();
    }
    return r;
}

}  // namespace

qs::Result<qs::analysis::ExplorerResult> computeExplorerOn(const qs::QuantSpec& spec, const qs::data::Dataset& data,
                                                           const qs::analysis::ExplorerOptions& options,
                                                           const std::function<bool(double)>& progress) {
    if (data.streamed()) return computeStreamed(spec, data, options, progress);
    return qs::analysis::computeExplorer(spec, data.ref(), options);
}

}  // namespace qs::ui
