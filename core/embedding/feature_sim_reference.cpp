// simulateFeature as it was before issue 12's fusion: both lookups, then each distinct gathered
// row quantized and measured on its own with scalar code, and the activations measured with
// errorStats. The reference the fused simulateFeature is tested against, and the path for
// configs bucket indices do not describe.
#include <algorithm>
#include <chrono>
#include <exception>
#include <cmath>

#include "core/embedding/feature_sim.h"
#include "core/embedding/gathered_order.h"
#include "core/tpu/tpu_embedding_lookup.h"

namespace qs::embedding {

Result<FeatureSimulation> simulateFeatureReference(const tpu::RowMatrix& table, const IdBatch& batch,
                                          const std::string& combiner,
                                          const std::optional<tpu::QuantizationConfig>& quantization,
                                          const Exec& exec) {
    FeatureSimulation sim;
    const auto start = std::chrono::steady_clock::now();
    auto lookup = [&](const std::optional<tpu::QuantizationConfig>& q) {
        return tpu::tpuEmbeddingLookup(table, batch.ids, batch.weights, combiner, q, exec);
    };
    // The quantized path (what the TPU computes) first: lookup_ms is its time alone.
    if (quantization) {
        auto quantized = lookup(quantization);
        if (!quantized) return quantized.error();
        sim.quantized_activations = std::move(quantized).value();
    }
    sim.lookup_ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    auto plain = lookup(std::nullopt);
    if (!plain) return plain.error();
    sim.float_activations = std::move(plain).value();
    if (!quantization) {
        sim.quantized_activations = sim.float_activations;
        sim.lookup_ms =
            std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    }

    sim.quantized_after_combine = sim.float_activations;
    if (quantization)
        if (auto st = tpu::simulateQuantization(sim.float_activations.values, sim.quantized_after_combine.values,
                                                *quantization, exec);
            !st)
            return st.error();

    // Every gathered row, float and simulated, measured in gathered_order.h's order: each
    // distinct row once (ascending id), counted as often as the batch names it. The ids are
    // valid here (the lookups checked).
    const IdCounts distinct = distinctIds(batch.ids.values, table.rows);
    analysis::ErrorSums sums;
    std::vector<float> levels;  // the quantized values of counted pairs
    for (size_t r = 0; r < distinct.ids.size(); ++r) {
        const auto row = table.row(distinct.ids[r]);
        std::vector<float> quantized(row.begin(), row.end());
        if (quantization)
            if (auto st = tpu::simulateQuantization(row, quantized, *quantization, exec); !st) return st.error();
        analysis::ErrorLanes lanes;
        int64_t clipped = 0;
        for (size_t c = 0; c < row.size(); ++c) {
            lanes.add(static_cast<int>(c % analysis::kStatsLanes), row[c], quantized[c]);
            if (std::isnan(row[c]) || std::isnan(quantized[c])) continue;
            levels.push_back(quantized[c]);
            const double x = row[c];
            clipped += quantization && (x < quantization->lower || x > quantization->upper);
        }
        analysis::ErrorSums rowSums = lanes.fold();
        rowSums.clipped = clipped;
        addRowSums(sums, rowSums, distinct.counts[r]);
    }
    sim.gathered_rows = analysis::statsFromSums(sums);
    if (sim.gathered_rows.count > 0) sim.gathered_rows.distinct_levels = analysis::distinctValues(levels);

    auto stats = analysis::errorStats(sim.float_activations.values, sim.quantized_activations.values);
    auto after = analysis::errorStats(sim.float_activations.values, sim.quantized_after_combine.values);
    if (!stats) return stats.error();
    if (!after) return after.error();
    sim.stats = *stats;
    sim.stats_after_combine = *after;

    sim.examples = sim.float_activations.rows;
    sim.ids = batch.numIds();
    sim.unique_ids = countUniqueIds(batch.ids.values, table.rows);
    sim.empty_examples = countEmptyExamples(batch.ids);
    return sim;
}

}  // namespace qs::embedding

