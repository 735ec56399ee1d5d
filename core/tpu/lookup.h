// CPU embedding lookups as TF computes them (spec 5.7, tensorflow/python/ops/embedding_ops.py)
// with TPU simulated quantization (spec 5.2) optionally applied to every gathered row before
// the combiner, which is where the TPU applies it.
//   embeddingLookup       = tf.compat.v1.nn.embedding_lookup(params_shards, ids, strategy)
//   embeddingLookupSparse = tf.compat.v1.nn.embedding_lookup_sparse (TF2's tf.nn version is
//                           the same with strategy "div")
// Out-of-range ids are InvalidArgument with TF's kernel messages, never UB.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/status.h"
#include "core/tensor.h"
#include "core/tpu/simulated_quantization.h"

namespace qs::tpu {

// A row-major float32 matrix: an embedding table, one shard of it, or a lookup result.
struct RowMatrix {
    int64_t rows = 0;
    int64_t cols = 0;
    std::vector<float> values;  // rows * cols

    static RowMatrix zeros(int64_t rows, int64_t cols) {
        return {rows, cols, std::vector<float>(static_cast<size_t>(rows * cols), 0.0f)};
    }
    std::span<const float> row(int64_t r) const {
        return std::span<const float>(values).subspan(static_cast<size_t>(r * cols),
                                                      static_cast<size_t>(cols));
    }
    std::span<float> row(int64_t r) {
        return std::span<float>(values).subspan(static_cast<size_t>(r * cols),
                                                static_cast<size_t>(cols));
    }
};

// Gathers one row per id; the result is ids.size() x cols. With one shard the strategy is
// never looked at (TF returns before checking it). Errors, in TF's order: no shard
// (ValueError "Length of params is currently 0. Need at least one param."), unknown strategy
// (ValueError), shards of different widths (InvalidArgument, our text), div with fewer rows
// than shards (InvalidArgument "Integer division by zero"), an id mapped to no shard
// (DynamicPartition's "partitions[i] = p is not in [0, P)"), an id past its shard's rows
// (Gather's "indices[j] = row is not in [0, rows)", j counted within that shard's ids).
Result<RowMatrix> embeddingLookup(std::span<const RowMatrix> shards, std::span<const int64_t> ids,
                                  std::string_view partition_strategy = "mod");

// A rank-2 SparseTensor of ids: indices[k] = {example, position}, values[k] = id. As in TF,
// the entries must be sorted by example; only indices[k][0] (the segment id) is used and
// dense_shape is not checked against the indices.
struct SparseIds {
    std::vector<std::array<int64_t, 2>> indices;
    std::vector<int64_t> values;
    std::array<int64_t, 2> dense_shape{0, 0};
};

struct SparseLookupOptions {
    std::string combiner = "mean";          // "sum" | "mean" | "sqrtn" (None means "mean")
    std::string partition_strategy = "mod"; // TF1 default; TF2's tf.nn version uses "div"
    std::optional<QuantizationConfig> quantization;  // float32 formula, before the combiner
    Exec exec;  // examples are combined in parallel; results do not depend on it
    // With a quantization config: when set, also receives the activation without
    // quantization, combined from the same gathered rows (one gather for both; equal to a
    // second call without the config). Ignored without one.
    RowMatrix* float_output = nullptr;
};

// Combines the rows of each example. The output has (last example index + 1) rows — TF's
// segment ops size it that way, so trailing examples without ids are absent (TF documents
// that every example should have an id); examples without ids before that are zero rows.
// Arithmetic is float32 in TF's CPU kernels' order:
//  - with weights (SegmentSum path): e_k = row_k * w_k; S = sum of e_k left to right
//    starting from +0 (a single entry is copied); mean = S / sum(w), sqrtn =
//    S / sqrt(sum(w*w)), both div_no_nan (0 when the denominator is 0);
//  - without weights (SparseSegmentSum/Mean/SqrtN): the first (n & 7, or 8/9) rows summed
//    left to right and scaled by 1/n (1/sqrt(n)) when n < 10, then blocks of 8 rows (each
//    block summed first) added, and for n >= 10 a division by n (sqrt(n)) at the end.
// Errors: an output of more than 2^28 values (ResourceExhausted, TF's allocation failure),
// combiner (ValueError "combiner must be one of 'mean', 'sqrtn' or 'sum', got <c>"),
// size mismatches (ValueError), unsorted/negative example indices (InvalidArgument
// "segment ids are not increasing", "segment ids must be >= 0", "Segment id ... out of
// range ..."), ids out of range (InvalidArgument, the gather's message).
Result<RowMatrix> embeddingLookupSparse(std::span<const RowMatrix> params, const SparseIds& sp_ids,
                                        const std::optional<std::vector<float>>& sp_weights,
                                        const SparseLookupOptions& options = {});

}  // namespace qs::tpu
