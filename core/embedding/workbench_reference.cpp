// The table analysis as it was before the fused pass (issue 12): one function per
// statistic, each its own pass over the table. Kept as the reference the fused pass is
// tested against (tests/core/tst_table_pass.cpp), and for num_buckets > 2^24.
#include <algorithm>
#include <chrono>
#include <cmath>

#include "core/embedding/workbench.h"
#include "core/numeric/block_reduce.h"

namespace qs::embedding {

namespace {

Error cancelled() { return data::cancelledError("table analysis cancelled"); }

// The table against itself: no error; only the counts are real.
analysis::ErrorStats losslessStats(std::span<const float> values, const Exec& exec) {
    const float* src = values.data();
    int64_t nan = 0;
    for (int64_t part : blockPartials<int64_t>(exec, static_cast<int64_t>(values.size()),
                                               [&](int64_t b, int64_t e) {
                                                   int64_t k = 0;
                                                   for (int64_t i = b; i < e; ++i)
                                                       k += std::isnan(src[i]);
                                                   return k;
                                               }))
        nan += part;
    analysis::ErrorStats s;
    s.nan_pairs = nan;
    s.count = static_cast<int64_t>(values.size()) - nan;
    return s;
}

}  // namespace

Result<TableAnalysis> analyzeTableReference(const tpu::RowMatrix& table,
                                   const std::optional<tpu::QuantizationConfig>& quantization,
                                   const TableAnalysisOptions& options, const Exec& exec,
                                   const Progress& progress) {
    const auto start = std::chrono::steady_clock::now();
    auto step = [&](double fraction) { return !progress || progress(fraction); };
    TableAnalysis a;
    if (quantization && quantization->num_buckets <= kMaxOccupancyBuckets) {
        auto occ = bucketOccupancy(table.values, *quantization, exec);
        if (!occ) return occ.error();
        a.occupancy = std::move(occ).value();
    }
    if (!step(0.2)) return cancelled();

    RangeSuggestOptions ro;
    ro.num_buckets = quantization ? quantization->num_buckets : 256;
    ro.percentile = options.percentile;
    auto suggestions = suggestRanges(table.values, ro, exec);
    if (!suggestions) return suggestions.error();
    a.suggestions = std::move(suggestions).value();
    if (!step(0.4)) return cancelled();

    const auto [first, rows] = windowRows(table.rows, options);
    const auto begin = table.values.begin() + first * table.cols;
    a.window = tableWindow(std::vector<float>(begin, begin + rows * table.cols), first, table.cols,
                           quantization, exec);
    if (quantization) {
        // The storage export reconstructs the simulated quantization bit for bit, so its
        // reconstruction error is the whole table's error: computed once.
        auto storage = analyzeStorageQuantization(table, *quantization, exec, [&](double f) {
            return step(0.4 + 0.6 * f);
        });
        if (!storage) return storage.error();
        a.storage = std::move(storage).value();
        a.table_error = a.storage->reconstruction;
    } else {
        a.table_error = losslessStats(table.values, exec);
    }
    if (!step(1.0)) return cancelled();
    a.ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    return a;
}

}  // namespace qs::embedding
