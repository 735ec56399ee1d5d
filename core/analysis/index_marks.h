// Which indices in [0, count) occurred, marked by one thread: a byte per index. It serves the
// explorer's levels used (the codes QuantizeV2's tiles produced, quant_spec.cpp) and the
// feature statistics' levels (the buckets of the gathered rows and of the activations,
// pair_stats.h); each thread marks its own and the copies are merged at the end.
//
// A store per value cost as much as the error sums beside it (stores into a few hundred
// bytes stalled the loads around them). So for up to kRunIndices indices the longest run of
// indices known to be marked is kept, and the marks test 32 values at a time against it,
// storing only those outside it. Once the run covers what the data uses (8-bit codes, 256
// buckets) marking is a compare per 32 values and almost no stores. With
// more indices (16-bit codes) a batch seldom falls inside one run and its checks cost more
// than they save, so every value is stored.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace qs::analysis {

class IndexMarks {
public:
    static constexpr int64_t kRunIndices = 4096;

    IndexMarks() = default;  // tracks nothing
    explicit IndexMarks(int64_t count) : bytes_(static_cast<size_t>(count) + 1, 0) {}

    bool tracking() const { return !bytes_.empty(); }
    int64_t count() const { return static_cast<int64_t>(bytes_.size()) - 1; }
    bool marked(int64_t i) const { return bytes_[static_cast<size_t>(i)] != 0; }

    // Marks index[k] for k < n; each index in [0, count], count being a spare that stands
    // for nothing (a NaN's slot).
    void mark(const int32_t* index, int64_t n);
    // Marks codes[k] - lowest for the k whose x[k] is not NaN. Returns whether one of those
    // was outside [0, count) (not marked).
    bool markCodes(const float* x, const int32_t* codes, int64_t n, int32_t lowest);
    // Adds the marks of another thread's copy (the same count).
    void merge(const IndexMarks& other);

private:
    void findLongestRun();

    std::vector<uint8_t> bytes_;  // count bytes, then the spare
    uint32_t run_lo_ = 0, run_len_ = 0;
};

}  // namespace qs::analysis
