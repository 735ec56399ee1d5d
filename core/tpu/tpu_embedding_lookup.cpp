#include "core/tpu/tpu_embedding_lookup.h"

#include <algorithm>

namespace qs::tpu {

namespace {
constexpr int64_t kMaxLookupValues = int64_t{1} << 28;
}  // namespace

Status checkLookupSize(int64_t examples, int64_t ids, int64_t dim) {
    if (examples < 0 || ids < 0 || dim < 0)
        return invalidArgument("a lookup of " + std::to_string(ids) + " ids in " + std::to_string(examples) +
                               " examples at dim " + std::to_string(dim) + " has a negative size");
    if (dim > 0 && (examples > kMaxLookupValues / dim || ids > kMaxLookupValues / dim))
        return invalidArgument("the lookup of " + std::to_string(ids) + " ids in " + std::to_string(examples) +
                               " examples at dim " + std::to_string(dim) +
                               " needs more than 2^28 values (1 GiB of float32) per activation");
    return okStatus();
}

Result<RowMatrix> tpuEmbeddingLookup(const RowMatrix& params, const SparseIds& sp_ids,
                                     const std::optional<std::vector<float>>& sp_weights,
                                     const std::string& combiner,
                                     const std::optional<QuantizationConfig>& quantization,
                                     const Exec& exec) {
    return tpuEmbeddingLookup(params, sp_ids, sp_weights, combiner, quantization, exec, nullptr);
}

Result<RowMatrix> tpuEmbeddingLookup(const RowMatrix& params, const SparseIds& sp_ids,
                                     const std::optional<std::vector<float>>& sp_weights,
                                     const std::string& combiner,
                                     const std::optional<QuantizationConfig>& quantization,
                                     const Exec& exec, RowMatrix* float_activation) {
    const int64_t batch = sp_ids.dense_shape[0];
    // The activation [batch, dim] and the gathered rows [ids, dim] are allocated whole: a
    // hostile dense_shape (an ids CSV whose example index is 10^15) must be an error, not a
    // bad_alloc or an allocation that exhausts the machine.
    if (batch < 0 || sp_ids.dense_shape[1] < 0)
        return invalidArgument("dense_shape [" + std::to_string(batch) + ", " +
                               std::to_string(sp_ids.dense_shape[1]) + "] is negative");
    const auto ids = static_cast<int64_t>(sp_ids.values.size());
    if (Status size = checkLookupSize(batch, ids, params.cols); !size) return size.error();
    for (size_t k = 0; k < sp_ids.indices.size(); ++k) {
        const auto& ix = sp_ids.indices[k];
        if (ix[0] < 0 || ix[0] >= batch || ix[1] < 0 || ix[1] >= sp_ids.dense_shape[1])
            return invalidArgument(
                "sp_indices[" + std::to_string(k) + "] = [" + std::to_string(ix[0]) + ", " +
                std::to_string(ix[1]) + "] is out of bounds: need 0 <= index < [" +
                std::to_string(batch) + ", " + std::to_string(sp_ids.dense_shape[1]) + "]");
    }
    SparseLookupOptions opt;
    opt.combiner = combiner;
    opt.partition_strategy = "div";  // one shard: never looked at
    opt.quantization = quantization;
    opt.exec = exec;
    RowMatrix plain;
    if (quantization && float_activation) opt.float_output = &plain;
    // A one-shard view of the table, not a copy (the workbench's tables are 0.5 GB).
    auto rows = embeddingLookupSparse(std::span<const RowMatrix>(&params, 1), sp_ids, sp_weights,
                                      opt);
    if (!rows) return rows.error();
    // Sized by dense_shape[0]: rows past the last example with an id stay 0.
    auto toBatch = [&](RowMatrix&& m) {
        if (m.rows == batch) return std::move(m);
        RowMatrix out = RowMatrix::zeros(batch, params.cols);
        const int64_t n = std::min<int64_t>(m.rows, batch);
        std::copy_n(m.values.begin(), static_cast<size_t>(n * params.cols), out.values.begin());
        return out;
    };
    RowMatrix out = toBatch(std::move(rows).value());
    if (float_activation) *float_activation = quantization ? toBatch(std::move(plain)) : out;
    return out;
}

}  // namespace qs::tpu
