// simulateFeature as it was before issue 12's fusion: both lookups, then the gathered rows
// built, quantized and measured with errorStats. The reference the fused simulateFeature is
// tested against, and the path for configs bucket indices do not describe.
#include <algorithm>
#include <chrono>
#include <exception>
#include <thread>

#include "core/embedding/feature_sim.h"
#include "core/thread_budget.h"
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
    // Every gathered row, float and simulated: the ids are valid here (the lookups checked).
    const int64_t dim = table.cols;
    std::vector<float> gathered(static_cast<size_t>(batch.numIds() * dim));
    for (int64_t k = 0; k < batch.numIds(); ++k) {
        const auto row = table.row(batch.ids.values[static_cast<size_t>(k)]);
        std::copy(row.begin(), row.end(), gathered.begin() + k * dim);
    }
    std::vector<float> gatheredQuantized = gathered;
    std::optional<analysis::ClipRange> clip;
    if (quantization) {
        if (auto st = tpu::simulateQuantization(sim.float_activations.values,
                                                sim.quantized_after_combine.values,
                                                *quantization, exec);
            !st)
            return st.error();
        if (auto st = tpu::simulateQuantization(gathered, gatheredQuantized, *quantization, exec);
            !st)
            return st.error();
        clip = analysis::ClipRange{quantization->lower, quantization->upper};
    }

    // The gathered rows' statistics (ids x dim values, 8M for a 64K-id batch at dim 128) on
    // a second thread when there is one, the activations' two on this one.
    std::optional<Result<analysis::ErrorStats>> rows;
    {
        // The second thread is one of the process's workers, when one is free (the lease
        // outlives the worker: it is given back after the join).
        const BudgetLease second(ThreadBudget::process(), exec.threads > 1 ? 1 : 0);
        std::jthread worker;
        // An exception escaping a std::thread would terminate the program: report it instead.
        auto gatheredStats = [&] {
            try {
                rows = analysis::errorStats(gathered, gatheredQuantized, clip);
            } catch (const std::exception& e) {
                rows = Result<analysis::ErrorStats>(Error{"ResourceExhausted", e.what()});
            }
        };
        if (second.workers() > 0) worker = std::jthread(gatheredStats);
        else gatheredStats();
        auto stats = analysis::errorStats(sim.float_activations.values,
                                          sim.quantized_activations.values);
        auto after = analysis::errorStats(sim.float_activations.values,
                                          sim.quantized_after_combine.values);
        if (stats) sim.stats = *stats;
        if (after) sim.stats_after_combine = *after;
    }  // joins the worker
    if (!*rows) return rows->error();
    sim.gathered_rows = **rows;

    sim.examples = sim.float_activations.rows;
    sim.ids = batch.numIds();
    sim.unique_ids = countUniqueIds(batch.ids.values, table.rows);
    sim.empty_examples = countEmptyExamples(batch.ids);
    return sim;
}

}  // namespace qs::embedding

