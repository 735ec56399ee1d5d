#include "core/embedding/feature_sim.h"

#include <algorithm>
#include <bit>
#include <chrono>
#include <cmath>
#include <cstring>
#include <mutex>
#include <new>

#include "core/embedding/float_bounds.h"
#include "core/embedding/occupancy.h"
#include "core/embedding/pair_stats.h"
#include "core/tpu/tpu_embedding_lookup.h"

namespace qs::embedding {

namespace {

// Every gathered row's values against their simulated quantization: errorStats(gathered,
// simulateQuantization(gathered), clip) without building either array (8M values each for
// a 64K-id batch at dim 128). The pairs are summed in errorStats' order (blocks of
// kStatsBlock positions, each summed lane by lane as ErrorLanes does (vector code,
// pair_stats.h), the blocks' sums added in order), the blocks in parallel, so every sum is
// errorStats' bit for bit; the distinct quantized levels are counted from
// the bucket indices used (each level is q * quantum + lower of its bucket q). For configs
// checkOccupancyConfig accepts and ids that are valid rows.
analysis::ErrorStats gatheredRowStats(const tpu::RowMatrix& table, std::span<const int64_t> ids,
                                      const tpu::QuantizationConfig& config, const Exec& exec) {
    const tpu::SimQuantF32 k = tpu::prepareF32(config);
    const int64_t dim = table.cols;
    const int64_t pairs = static_cast<int64_t>(ids.size()) * dim;
    const int64_t blocks = (pairs + analysis::kStatsBlock - 1) / analysis::kStatsBlock;
    // A bucket index reaches num_buckets at most (float rounding of (upper - lower) / quantum).
    const int64_t slots = config.num_buckets + 2;
    const auto lastSlot = static_cast<float>(slots - 1);
    const double lo = config.lower, hi = config.upper;  // clipped: outside these, as errorStats' ClipRange
    const float* values = table.values.data();
    std::vector<analysis::ErrorSums> blockSums(static_cast<size_t>(blocks));
    std::vector<uint8_t> used(static_cast<size_t>(slots), 0);
    int64_t clipped = 0;
    std::mutex merge;
    const SlotQuantizer quantizer{k, floatAtLeast(lo), floatAtMost(hi), lastSlot, static_cast<int32_t>(slots)};
    parallelFor(exec, blocks, 1, [&](int64_t b0, int64_t b1) {
        constexpr int64_t kStep = 4096;  // pairs gathered at a time (a multiple of the lanes)
        std::vector<float> x(kStep), y(kStep);
        std::vector<int32_t> slot(kStep);
        std::vector<uint8_t> seen(static_cast<size_t>(slots) + 1, 0);  // + the spare slot
        int64_t clips = 0;
        for (int64_t blk = b0; blk < b1; ++blk) {
            analysis::ErrorLanes lanes;
            const int64_t end = std::min(pairs, (blk + 1) * analysis::kStatsBlock);
            for (int64_t p = blk * analysis::kStatsBlock; p < end; p += kStep) {
                const int64_t n = std::min(kStep, end - p);
                // Gather pairs [p, p + n): row ids[r], from column c on.
                for (int64_t j = 0, r = p / dim, c = p % dim; j < n; ++r, c = 0) {
                    const int64_t take = std::min(dim - c, n - j);
                    if (r + 8 < static_cast<int64_t>(ids.size()))
                        for (int64_t o = 0; o < dim; o += 16) __builtin_prefetch(values + ids[static_cast<size_t>(r + 8)] * dim + o);
                    std::memcpy(x.data() + j, values + ids[static_cast<size_t>(r)] * dim + c,
                                static_cast<size_t>(take) * sizeof(float));
                    j += take;
                }
                quantizeWithSlots(x.data(), n, quantizer, y.data(), slot.data(), clips);
                addPairRun(lanes, x.data(), y.data(), n);  // p - block start is a multiple of kStep
                // A pair with a NaN marks the spare slot past the levels, never merged.
                uint8_t* sp = seen.data();
                const int32_t* sl = slot.data();
                for (int64_t j = 0; j < n; ++j) sp[sl[j]] = 1;
            }
            blockSums[static_cast<size_t>(blk)] = lanes.fold();
        }
        const std::lock_guard lock(merge);
        clipped += clips;
        for (size_t j = 0; j < used.size(); ++j) used[j] |= seen[j];
    });
    analysis::ErrorSums sums;
    for (const analysis::ErrorSums& b : blockSums) sums.merge(b);
    sums.clipped = clipped;
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

    // One gather gives both activations; the gathered rows' statistics then run over the
    // table rows again in parallel blocks (errorStats' order), then the activations' two
    // statistics, each with its blocks in parallel.
    FeatureSimulation sim;
    const auto start = std::chrono::steady_clock::now();
    auto quantized = tpu::tpuEmbeddingLookup(table, batch.ids, batch.weights, combiner, quantization, exec,
                                             &sim.float_activations);
    if (!quantized) return quantized.error();
    sim.quantized_activations = std::move(quantized).value();
    sim.lookup_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    sim.quantized_after_combine = {sim.float_activations.rows, sim.float_activations.cols,
                                   std::vector<float>(sim.float_activations.values.size())};
    if (auto st = tpu::simulateQuantization(sim.float_activations.values, sim.quantized_after_combine.values,
                                            *quantization, exec);
        !st)
        return st.error();
    try {
        sim.gathered_rows = gatheredRowStats(table, ids, *quantization, exec);
        sim.stats = pairStats(sim.float_activations.values, sim.quantized_activations.values, exec);
        sim.stats_after_combine = pairStats(sim.float_activations.values, sim.quantized_after_combine.values, exec);
    } catch (const std::bad_alloc&) {
        return Error{"ResourceExhausted", "out of memory for the feature's error statistics"};
    }
    sim.examples = sim.float_activations.rows;
    sim.ids = batch.numIds();
    sim.unique_ids = countUniqueIds(ids, table.rows);
    sim.empty_examples = countEmptyExamples(batch.ids);
    return sim;
}

}  // namespace qs::embedding
