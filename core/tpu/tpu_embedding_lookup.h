// The TPU's embedding activation for one feature (spec 5.2, 5.7): every id's row of the
// table is gathered, simulated quantization (when the table has a QuantizationConfig) is
// applied to each gathered row, and the rows of each example are combined with the
// table's combiner. Unlike tf.nn.embedding_lookup_sparse, whose segment ops stop at the
// last example with an id, the TPU dequeues a [batch, dim] activation: the result always
// has dense_shape[0] rows, zeros for an example without ids.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/status.h"
#include "core/tpu/lookup.h"

namespace qs::tpu {

// params: the whole table (one shard; no partitioning on the TPU). Errors: those of
// embeddingLookupSparse (combiner, ids out of range, unsorted example indices, sizes), and
// an example index >= dense_shape[0]: InvalidArgument "sp_indices[k] = [e, p] is out of
// bounds: need 0 <= index < [b, m]" (our text; TF validates SparseTensors this way); a
// negative dense_shape, or a batch or id count times dim beyond 2^28 values (InvalidArgument).
// The size check of tpuEmbeddingLookup on its own, so that callers who build the ids (the
// workbench's generated batches) refuse a batch before spending time and memory on it:
// InvalidArgument when `examples` or `ids` times `dim` exceeds 2^28 values (1 GiB of
// float32) per activation, or a count is negative.
Status checkLookupSize(int64_t examples, int64_t ids, int64_t dim);

Result<RowMatrix> tpuEmbeddingLookup(const RowMatrix& params, const SparseIds& sp_ids,
                                     const std::optional<std::vector<float>>& sp_weights,
                                     const std::string& combiner,
                                     const std::optional<QuantizationConfig>& quantization,
                                     const Exec& exec = {});
// The same, and the activation without quantization in *float_activation, combined from the
// same gathered rows (one gather for both; equal to a call without the config).
Result<RowMatrix> tpuEmbeddingLookup(const RowMatrix& params, const SparseIds& sp_ids,
                                     const std::optional<std::vector<float>>& sp_weights,
                                     const std::string& combiner,
                                     const std::optional<QuantizationConfig>& quantization,
                                     const Exec& exec, RowMatrix* float_activation);

}  // namespace qs::tpu
