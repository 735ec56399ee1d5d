// The workbench's table analysis as ONE parallel pass over the values (issue 12): bucket
// occupancy, the storage reconstruction's error sums, the finite extremes and the stride
// sample of the range suggestions, NaN counts — everything analyzeTable shows, read once,
// with per-thread partial results merged at the end. The values arrive in chunks (a table
// in memory, or a file larger than memory read piece by piece), so the same pass serves
// both.
//
// Every result equals the per-statistic functions' (bucketOccupancy, suggestRanges,
// analyzeStorageQuantization) bit for bit, for any thread count and chunking:
//  * counts are integers;
//  * the reconstruction's double sums are kept per kReduceBlock block, each accumulated in
//    index order like storage_quant.cpp's blocks and combined in block order. Eight blocks
//    are run side by side, one per SIMD lane (each lane still adds its block's elements in
//    order), which is what makes the pass cheap;
//  * the extremes are std::min/std::max's first occurrence (the sign of a zero extreme is
//    that of the first zero in index order);
//  * the sample holds the values at suggestRanges' stride positions.
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <vector>

#include "core/analysis/error_stats.h"
#include "core/embedding/occupancy.h"
#include "core/status.h"
#include "core/tensor.h"
#include "core/tpu/simulated_quantization.h"

namespace qs::embedding {

class TablePass {
public:
    // n values; `quantization` must pass checkOccupancyConfig (so num_buckets <= 2^24) and
    // describeStorageQuantization, or be nullopt (then only NaN, extremes and the sample
    // are collected). `max_samples` is RangeSuggestOptions::max_samples.
    TablePass(int64_t n, const std::optional<tpu::QuantizationConfig>& quantization,
              int64_t max_samples);
    ~TablePass();
    TablePass(const TablePass&) = delete;
    TablePass& operator=(const TablePass&) = delete;

    // Values [begin, begin + values.size()). Every value must be added exactly once, in any
    // order; a chunk must start at a multiple of kReduceBlock and end at one or at n.
    void add(int64_t begin, std::span<const float> values, const Exec& exec = {});

    struct Result {
        std::optional<BucketOccupancy> occupancy;         // with a quantization config
        std::optional<analysis::ErrorStats> reconstruction;  // with one: storage's
        int64_t nan = 0;
        // The finite extremes as suggestRanges finds them (lowest > highest: none).
        float lowest = 0, highest = 0;
        std::vector<float> sample;  // suggestRanges' stride sample, non-finite removed
    };
    // After every value was added (once: the sample is moved out).
    Result finish();

    struct Partial;  // per-thread counts (table_pass.cpp)

private:
    Partial& acquire();
    void release(Partial& p);

    int64_t n_ = 0;
    std::optional<tpu::QuantizationConfig> quantization_;
    int64_t sample_size_ = 0;  // m: sample i is value floor(i n / m)
    std::vector<float> sample_;
    std::vector<analysis::ErrorSums> blocks_;  // per kReduceBlock block (with quantization)
    mutable std::mutex mutex_;
    std::vector<std::unique_ptr<Partial>> partials_;  // one per thread that ever ran
    std::vector<Partial*> free_;
};

}  // namespace qs::embedding
