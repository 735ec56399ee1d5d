#include "core/data/stream_sample.h"

#include <algorithm>
#include <new>

#include "core/data/dataset.h"

namespace qs::data {

int64_t sampleCount(int64_t n, int64_t max_values) {
    if (n <= max_values) return n;
    const int64_t run = std::min(kSampleRunLength, std::max<int64_t>(1, max_values));
    return std::max<int64_t>(1, max_values / run) * run;
}

Result<std::vector<float>> sampleStream(const FloatStream& stream, int64_t max_values, const ChunkOptions& options) {
    const int64_t n = stream.size();
    const int64_t count = sampleCount(n, max_values);
    std::vector<float> out;
    try {
        out.resize(static_cast<size_t>(count));
    } catch (const std::bad_alloc&) {
        return dataError(stream.name() + ": out of memory for a sample of " + std::to_string(count) + " values");
    }
    if (count == n) {  // small enough to take whole
        ChunkOptions whole = options;
        whole.chunk_elements = std::max<int64_t>(1, std::min<int64_t>(options.chunk_elements, count));
        if (Status s = forEachChunk(
                stream,
                [&out](int64_t begin, std::span<const float> values) {
                    std::copy(values.begin(), values.end(), out.begin() + begin);
                    return okStatus();
                },
                whole);
            !s)
            return s.error();
        return out;
    }
    const int64_t run = std::min(kSampleRunLength, count);
    const int64_t runs = count / run;
    for (int64_t i = 0; i < runs; ++i) {
        // floor(i * n / runs) without overflow for any n a file can have (n < 2^62 / runs).
        const int64_t begin = static_cast<int64_t>(static_cast<__int128>(i) * n / runs);
        if (Status s = stream.read(begin, std::span<float>(out.data() + i * run, static_cast<size_t>(run))); !s)
            return s.error();
        if (options.progress && (i % 64 == 63 || i == runs - 1) &&
            !options.progress(static_cast<double>(i + 1) / static_cast<double>(runs)))
            return cancellation("sampling " + stream.name() + " was cancelled");
    }
    return out;
}

}  // namespace qs::data
