// A float32 data set read in chunks: either values already in memory, or a file too large
// to hold (a .npy of 50 GB on a 24 GB machine). Every whole-data analysis that must work on
// such files (the explorer's statistics and histograms, the workbench's table analysis)
// reads through this interface, chunk by chunk, with bounded memory, progress and cancel.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>

#include "core/status.h"

namespace qs::data {

class FloatStream {
public:
    virtual ~FloatStream() = default;
    // Number of float32 elements.
    virtual int64_t size() const = 0;
    // Copies elements [begin, begin + out.size()) into `out`. Safe to call from several
    // threads at once. Errors name the file and the offset that could not be read.
    virtual Status read(int64_t begin, std::span<float> out) const = 0;
    // The values themselves when they are in memory (chunks are then views, no copy);
    // empty for a stream that must be read.
    virtual std::span<const float> inMemory() const { return {}; }
    // What to call it in messages ("weights.npy").
    virtual std::string name() const = 0;
};

using FloatStreamPtr = std::shared_ptr<const FloatStream>;

// A stream over values in memory; `owner` keeps them alive (may be null when the caller
// guarantees the lifetime).
FloatStreamPtr memoryStream(std::span<const float> values, std::shared_ptr<const void> owner = {},
                            std::string name = "data");

struct ChunkOptions {
    int64_t chunk_elements = int64_t{1} << 22;  // 16 MB of float32 per chunk
    // Called after each chunk with the fraction done (0..1); returning false stops the walk,
    // which then fails with kind "Cancelled".
    std::function<bool(double fraction)> progress;
};

// Calls fn(begin, values) for consecutive chunks, in order, covering [0, stream.size()).
// In-memory streams hand out views; file streams are read into at most two reusable
// buffers (the next chunk is read while fn works on the current one). The first error
// from a read or from fn ends the walk and is returned.
Status forEachChunk(const FloatStream& stream,
                    const std::function<Status(int64_t begin, std::span<const float> values)>& fn,
                    const ChunkOptions& options = {});

}  // namespace qs::data
