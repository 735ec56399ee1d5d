#include "core/embedding/feature_sim.h"

#include <algorithm>
#include <bit>
#include <chrono>
#include <cmath>
#include <cstring>
#include <exception>
#include <new>

#include "core/embedding/gathered_order.h"
#include "core/embedding/occupancy.h"
#include "core/embedding/pair_stats.h"
#include "core/tpu/tpu_embedding_lookup.h"

namespace qs::embedding {

namespace {

// Every gathered row's values against their simulated quantization, in gathered_order.h's
// order: each distinct row measured once (vector code, pair_stats.h), the rows in parallel,
// then their sums added in ascending id order, each times its multiplicity. The distinct
// quantized levels are counted from the bucket indices used (each level is q * quantum +
// lower of its bucket q). For configs checkOccupancyConfig accepts and ids that are valid rows.
analysis::ErrorStats gatheredRowStats(const tpu::RowMatrix& table, const IdCounts& distinct,
                                      const tpu::QuantizationConfig& config, const Exec& exec) {
    const int64_t dim = table.cols;
    const auto rows = static_cast<int64_t>(distinct.ids.size());
    const SlotQuantizer quantizer = slotQuantizer(config);
    const float* values = table.values.data();
    const int64_t* ids = distinct.ids.data();
    std::vector<analysis::ErrorSums> rowSums(static_cast<size_t>(rows));
    UsedSlots used(quantizer);
    parallelFor(exec, rows, std::max<int64_t>(1, kParallelMinPerThread / std::max<int64_t>(dim, 1)),
                [&](int64_t r0, int64_t r1) {
        std::vector<float> y(static_cast<size_t>(dim));
        std::vector<int32_t> slot(static_cast<size_t>(dim));
        analysis::IndexMarks seen = used.threadCopy();
        constexpr int64_t kAhead = 8;  // rows prefetched ahead: a row of random ids is a cache miss
        for (int64_t r = r0; r < r1; ++r) {
            if (r + kAhead < r1)
                for (int64_t o = 0; o < dim; o += 16) __builtin_prefetch(values + ids[r + kAhead] * dim + o);
            const float* x = values + ids[r] * dim;
            int64_t clipped = 0;
            quantizeWithSlots(x, dim, quantizer, y.data(), slot.data(), clipped);
            analysis::ErrorLanes lanes;
            addPairRun(lanes, x, y.data(), dim);
            analysis::ErrorSums& sums = rowSums[static_cast<size_t>(r)];
            sums = lanes.fold();
            sums.clipped = clipped;
            seen.mark(slot.data(), dim);
        }
        used.merge(seen);
    });
    analysis::ErrorSums sums;
    for (int64_t r = 0; r < rows; ++r)
        addRowSums(sums, rowSums[static_cast<size_t>(r)], distinct.counts[static_cast<size_t>(r)]);
    analysis::ErrorStats s = analysis::statsFromSums(sums);
    if (s.count > 0) s.distinct_levels = used.distinctLevels();
    return s;
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

IdCounts distinctIds(std::span<const int64_t> ids, int64_t rows) {
    IdCounts d;
    if (rows > (int64_t{1} << 27)) {
        std::vector<int64_t> sorted(ids.begin(), ids.end());
        std::sort(sorted.begin(), sorted.end());
        for (size_t i = 0; i < sorted.size(); ++i) {
            if (i == 0 || sorted[i] != sorted[i - 1]) d.ids.push_back(sorted[i]), d.counts.push_back(0);
            ++d.counts.back();
        }
        return d;
    }
    // A bit per row; an id's index among the distinct ones is the bits set before its own.
    std::vector<uint64_t> seen(static_cast<size_t>((rows + 63) / 64), 0);
    for (int64_t id : ids) seen[static_cast<size_t>(id >> 6)] |= uint64_t{1} << (id & 63);
    std::vector<int64_t> before(seen.size());
    int64_t n = 0;
    for (size_t w = 0; w < seen.size(); ++w) {
        before[w] = n;
        for (uint64_t bitsLeft = seen[w]; bitsLeft; bitsLeft &= bitsLeft - 1)
            d.ids.push_back(static_cast<int64_t>(w) * 64 + std::countr_zero(bitsLeft));
        n += std::popcount(seen[w]);
    }
    d.counts.assign(d.ids.size(), 0);
    for (int64_t id : ids) {
        const uint64_t w = seen[static_cast<size_t>(id >> 6)];
        const uint64_t lower = (id & 63) == 0 ? 0 : w << (64 - (id & 63));
        ++d.counts[static_cast<size_t>(before[static_cast<size_t>(id >> 6)] + std::popcount(lower))];
    }
    return d;
}

int64_t countUniqueIds(const std::vector<int64_t>& ids, int64_t rows) {
    return static_cast<int64_t>(distinctIds(ids, rows).ids.size());
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

    // One gather gives both activations; the gathered rows' statistics then run over the
    // table rows again in parallel blocks (errorStats' order), then the activations' two
    // statistics in one pass, its blocks in parallel.
    FeatureSimulation sim;
    const auto start = std::chrono::steady_clock::now();
    auto quantized = tpu::tpuEmbeddingLookup(table, batch.ids, batch.weights, combiner, quantization, exec,
                                             &sim.float_activations);
    if (!quantized) return quantized.error();
    sim.quantized_activations = std::move(quantized).value();
    sim.lookup_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    try {
        // Two serial steps side by side (on one thread they left the other idle):
        // the distinct ids, and the zero-filled array the quantization after the combine fills.
        // An allocation failure on a worker thread is carried back to this one.
        IdCounts distinct;
        std::vector<float> after;
        std::exception_ptr failed[2];
        parallelFor(exec, 2, 1, [&](int64_t b, int64_t e) {
            for (int64_t step = b; step < e; ++step) try {
                    if (step == 0) distinct = distinctIds(ids, table.rows);
                    else after.assign(sim.float_activations.values.size(), 0.0f);
                } catch (...) {
                    failed[step] = std::current_exception();
                }
        });
        for (const std::exception_ptr& f : failed)
            if (f) std::rethrow_exception(f);
        sim.quantized_after_combine = {sim.float_activations.rows, sim.float_activations.cols, std::move(after)};
        sim.unique_ids = static_cast<int64_t>(distinct.ids.size());
        sim.gathered_rows = gatheredRowStats(table, distinct, *quantization, exec);
        const ActivationStats activations =
            activationStats(sim.float_activations.values, sim.quantized_activations.values,
                            sim.quantized_after_combine.values, &*quantization, exec);
        sim.stats = activations.stats;
        sim.stats_after_combine = activations.after;
    } catch (const std::bad_alloc&) {
        return Error{"ResourceExhausted", "out of memory for the feature's error statistics"};
    }
    sim.examples = sim.float_activations.rows;
    sim.ids = batch.numIds();
    sim.empty_examples = countEmptyExamples(batch.ids);
    return sim;
}

}  // namespace qs::embedding
