// One feature's lookup on the TPU, simulated on the CPU: the float path (gather + combiner,
// no quantization) next to the quantized path (simulated quantization of every gathered
// row, then the combiner), exactly as core/tpu/tpu_embedding_lookup.h computes them, and the
// error statistics between the two combined activations (the explorer's statistics).
// Also "quantize after combining" — the order people often assume — so the difference
// (mean of quantized rows != quantized mean) can be shown.
#pragma once

#include <optional>
#include <string>

#include "core/analysis/error_stats.h"
#include "core/embedding/id_batch.h"
#include "core/status.h"
#include "core/tensor.h"
#include "core/tpu/lookup.h"
#include "core/tpu/simulated_quantization.h"

namespace qs::embedding {

struct FeatureSimulation {
    tpu::RowMatrix float_activations;      // [batch, dim], no quantization
    tpu::RowMatrix quantized_activations;  // [batch, dim], TPU order (quantize, then combine)
    tpu::RowMatrix quantized_after_combine;  // [batch, dim], combine, then quantize (not TPU)
    analysis::ErrorStats stats;            // float vs quantized activations
    analysis::ErrorStats stats_after_combine;  // float vs quantized_after_combine
    analysis::ErrorStats gathered_rows;    // every gathered row: float vs quantized values
    int64_t examples = 0, ids = 0, unique_ids = 0, empty_examples = 0;
    double lookup_ms = 0;                  // wall time of the lookup (float and quantized activations)
};

// Without a quantization config, quantized == float and the stats show zero error.
// The gathered rows' statistics are computed from the table rows after the lookup, without
// building the gathered arrays; every figure equals simulateFeatureReference's.
// Errors: those of tpu::tpuEmbeddingLookup (ids out of range with TF's message, bad
// combiner, ...).
Result<FeatureSimulation> simulateFeature(const tpu::RowMatrix& table, const IdBatch& batch,
                                          const std::string& combiner,
                                          const std::optional<tpu::QuantizationConfig>& quantization,
                                          const Exec& exec = {});

// The same computed as before issue 12 (both lookups, then the gathered rows built,
// quantized and measured by errorStats): the reference simulateFeature is tested against
// (bit for bit), and its path without a quantization config or with one that bucket
// indices do not describe (checkOccupancyConfig).
Result<FeatureSimulation> simulateFeatureReference(const tpu::RowMatrix& table, const IdBatch& batch,
                                                   const std::string& combiner,
                                                   const std::optional<tpu::QuantizationConfig>& quantization,
                                                   const Exec& exec = {});

// Examples in [0, dense_shape[0]) without any id (the TPU dequeues zero rows for them).
int64_t countEmptyExamples(const tpu::SparseIds& ids);
// Distinct ids among ids that are valid rows of a table of `rows` (distinctIds,
// gathered_order.h).
int64_t countUniqueIds(const std::vector<int64_t>& ids, int64_t rows);

}  // namespace qs::embedding
