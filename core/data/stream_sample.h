// A uniform sample of a data set read through its FloatStream, for the analyses that need
// every value in memory at once (sorting for percentiles, sweeps over many specs) when the
// data set is streamed from a file larger than the memory budget. The sample is
// kSampleRuns evenly spaced runs of consecutive values: a run is one contiguous read (a
// page or so), so a sample of a 50 GB file costs a few thousand reads, not a pass.
#pragma once

#include <cstdint>
#include <vector>

#include "core/data/float_stream.h"
#include "core/status.h"

namespace qs::data {

constexpr int64_t kSampleValues = int64_t{1} << 22;  // 4,194,304 values, 16 MB
constexpr int64_t kSampleRunLength = 1024;

// How many values sampleStream takes from n: all of them up to `max_values`, else
// max_values rounded down to whole runs.
int64_t sampleCount(int64_t n, int64_t max_values = kSampleValues);

// The sample, in stream order: every value when the stream holds at most max_values, else
// runs of kSampleRunLength values starting at floor(i * n / runs). Progress and cancel as
// forEachChunk's (options.chunk_elements is not used); errors are the stream's.
Result<std::vector<float>> sampleStream(const FloatStream& stream, int64_t max_values = kSampleValues,
                                        const ChunkOptions& options = {});

}  // namespace qs::data
