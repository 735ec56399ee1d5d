#include "core/embedding/feature_sim.h"

#include <Eigen/Core>
#include <algorithm>
#include <bit>
#include <chrono>
#include <cmath>
#include <exception>
#include <thread>

#include "core/embedding/occupancy.h"
#include "core/thread_budget.h"
#include "core/tpu/tpu_embedding_lookup.h"

namespace qs::embedding {

namespace {

// Every gathered row's values against their simulated quantization: errorStats(gathered,
// simulateQuantization(gathered), clip) without building either array (8M values each for
// a 64K-id batch at dim 128). The values are visited in the same order (id by id, column
// by column) and added with the same ErrorSums arithmetic, so every sum is errorStats' bit
// for bit; the distinct quantized levels are counted from the bucket indices used (each
// level is q * quantum + lower of its bucket q). For configs checkOccupancyConfig accepts
// and ids that are valid rows.
analysis::ErrorStats gatheredRowStats(const tpu::RowMatrix& table, std::span<const int64_t> ids,
                                      const tpu::QuantizationConfig& config) {
    const tpu::SimQuantF32 k = tpu::prepareF32(config);
    const int64_t dim = table.cols;
    // A bucket index reaches num_buckets at most (float rounding of (upper - lower) / quantum).
    const int64_t slots = config.num_buckets + 2;
    std::vector<uint8_t> used(static_cast<size_t>(slots), 0);
    std::vector<float> q(static_cast<size_t>(dim)), y(static_cast<size_t>(dim));
    analysis::ErrorSums sums;
    const double lo = config.lower, hi = config.upper;
    const auto lastSlot = static_cast<float>(slots - 1);
    // The rows are random accesses into a table of hundreds of MB: fetch a few ids ahead, or
    // the loop waits on memory instead of adding.
    constexpr size_t kAhead = 8;
    const float* values = table.values.data();
    for (size_t i = 0; i < ids.size(); ++i) {
        if (i + kAhead < ids.size()) {
            const float* ahead = values + ids[i + kAhead] * dim;
            for (int64_t b = 0; b < dim; b += 16) __builtin_prefetch(ahead + b);
        }
        const int64_t id = ids[i];
        const float* row = table.values.data() + id * dim;
        // simulateQuantization's Eigen expression, split after the floor to keep q.
        Eigen::Map<const Eigen::ArrayXf> x(row, dim);
        Eigen::Map<Eigen::ArrayXf> qs(q.data(), dim), ys(y.data(), dim);
        qs = ((x.max(k.lower).min(k.upper) - k.lower) / k.quantum + 0.5f).floor();
        ys = qs * k.quantum + k.lower;
        for (int64_t c = 0; c < dim; ++c) {
            const double xi = row[c], yi = y[static_cast<size_t>(c)];
            if (std::isnan(xi) || std::isnan(yi)) {
                ++sums.nan_pairs;
                continue;
            }
            sums.add(xi, yi);
            if (xi < lo || xi > hi) ++sums.clipped;
            used[static_cast<size_t>(std::min(q[static_cast<size_t>(c)], lastSlot))] = 1;
        }
    }
    analysis::ErrorStats s = analysis::statsFromSums(sums);
    if (s.count == 0) return s;
    std::vector<float> levels;
    for (int64_t j = 0; j < slots; ++j)
        if (used[static_cast<size_t>(j)]) levels.push_back(static_cast<float>(j) * k.quantum + k.lower);
    s.distinct_levels = analysis::distinctValues(levels);
    return s;
}

// Distinct ids by sorting a copy (64K ids sort in about a millisecond).
int64_t countUniqueSorted(std::vector<int64_t> ids) {
    std::sort(ids.begin(), ids.end());
    return static_cast<int64_t>(std::unique(ids.begin(), ids.end()) - ids.begin());
}

}  // namespace

int64_t countEmptyExamples(const tpu::SparseIds& ids) {
    const int64_t batch = std::max<int64_t>(ids.dense_shape[0], 0);
    std::vector<bool> seen(static_cast<size_t>(batch), false);
    int64_t filled = 0;
    for (const auto& ix : ids.indices)
        if (ix[0] >= 0 && ix[0] < batch && !seen[static_cast<size_t>(ix[0])]) {
            seen[static_cast<size_t>(ix[0])] = true;
            ++filled;
        }
    return batch - filled;
}

int64_t countUniqueIds(const std::vector<int64_t>& ids, int64_t rows) {
    if (rows > (int64_t{1} << 27)) return countUniqueSorted(ids);
    std::vector<uint64_t> seen(static_cast<size_t>((rows + 63) / 64), 0);
    for (int64_t id : ids) seen[static_cast<size_t>(id >> 6)] |= uint64_t{1} << (id & 63);
    int64_t n = 0;
    for (uint64_t w : seen) n += std::popcount(w);
    return n;
}

Result<FeatureSimulation> simulateFeature(const tpu::RowMatrix& table, const IdBatch& batch,
                                          const std::string& combiner,
                                          const std::optional<tpu::QuantizationConfig>& quantization,
                                          const Exec& exec) {
    const std::vector<int64_t>& ids = batch.ids.values;
    const bool idsValid =
        std::all_of(ids.begin(), ids.end(), [&](int64_t id) { return id >= 0 && id < table.rows; });
    if (!quantization || !idsValid || !checkOccupancyConfig(*quantization).ok())
        return simulateFeatureReference(table, batch, combiner, quantization, exec);

    // The gathered rows' statistics are one sequential chain of sums over ids x dim values
    // (index order is what makes them exact): they run on a second thread from the start,
    // while this one does the two lookups and the activations' statistics.
    FeatureSimulation sim;
    std::optional<Result<analysis::ErrorStats>> rows;
    auto gatheredStats = [&] {
        try {  // an exception escaping a std::thread would end the program
            rows = Result<analysis::ErrorStats>(gatheredRowStats(table, ids, *quantization));
        } catch (const std::exception& e) {
            rows = Result<analysis::ErrorStats>(Error{"ResourceExhausted", e.what()});
        }
    };
    {
        // The second thread is one of the process's workers, when one is free (the lease
        // outlives the worker: it is given back after the join).
        const BudgetLease second(ThreadBudget::process(), exec.threads > 1 ? 1 : 0);
        std::jthread worker;
        if (second.workers() > 0) worker = std::jthread(gatheredStats);

        // Both activations from one gather of the rows.
        const auto start = std::chrono::steady_clock::now();
        auto quantized = tpu::tpuEmbeddingLookup(table, batch.ids, batch.weights, combiner, quantization, exec,
                                                 &sim.float_activations);
        if (!quantized) return quantized.error();
        sim.quantized_activations = std::move(quantized).value();
        sim.lookup_ms =
            std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
        sim.quantized_after_combine = {sim.float_activations.rows, sim.float_activations.cols,
                                       std::vector<float>(sim.float_activations.values.size())};
        if (auto st = tpu::simulateQuantization(sim.float_activations.values, sim.quantized_after_combine.values,
                                                *quantization, exec);
            !st)
            return st.error();
        auto stats = analysis::errorStats(sim.float_activations.values, sim.quantized_activations.values);
        auto after = analysis::errorStats(sim.float_activations.values, sim.quantized_after_combine.values);
        if (stats) sim.stats = *stats;
        if (after) sim.stats_after_combine = *after;
        sim.examples = sim.float_activations.rows;
        sim.ids = batch.numIds();
        sim.unique_ids = countUniqueIds(ids, table.rows);
        sim.empty_examples = countEmptyExamples(batch.ids);
    }  // joins the worker
    if (!rows) gatheredStats();
    if (!*rows) return rows->error();
    sim.gathered_rows = **rows;
    return sim;
}

}  // namespace qs::embedding
