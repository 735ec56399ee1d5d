#include "core/embedding/workbench.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cctype>
#include <filesystem>

#include "core/data/float_stream.h"
#include "core/data/load_file.h"
#include "core/data/memory_budget.h"
#include "core/embedding/table_pass.h"
#include "core/numeric/block_reduce.h"

namespace qs::embedding {

namespace {

Error cancelled() { return data::cancelledError("table analysis cancelled"); }


}  // namespace

TableWindow tableWindow(std::vector<float> float_values, int64_t first_row, int64_t dim,
                        const std::optional<tpu::QuantizationConfig>& quantization, const Exec& exec) {
    TableWindow w;
    w.dim = dim;
    w.first_row = first_row;
    w.rows = dim > 0 ? static_cast<int64_t>(float_values.size()) / dim : 0;
    w.float_values = std::move(float_values);
    w.quantized = w.float_values;
    if (quantization)
        (void)tpu::simulateQuantization(w.float_values, w.quantized, *quantization, exec);
    w.error.resize(w.float_values.size());
    for (size_t i = 0; i < w.error.size(); ++i) w.error[i] = w.quantized[i] - w.float_values[i];
    return w;
}

std::pair<int64_t, int64_t> windowRows(int64_t table_rows, const TableAnalysisOptions& options) {
    if (table_rows < 1) return {0, 0};
    const int64_t first = std::clamp<int64_t>(options.window_first_row, 0, table_rows - 1);
    return {first, std::min(std::clamp<int64_t>(options.window_rows, 1, 4096), table_rows - first)};
}


namespace {
Error shapeMismatch(const std::string& path, int64_t rows, int64_t cols, int64_t vocabulary_size, int64_t dim);
}  // namespace

Result<TablePtr> loadTable(const TableSource& source, int64_t vocabulary_size, int64_t dim,
                           const Exec& exec, const Progress& progress) {
    if (source.path.empty()) {
        auto table = initializeTable(vocabulary_size, dim, source.initializer, exec, progress);
        if (!table) return table.error();
        return std::make_shared<const tpu::RowMatrix>(std::move(table).value());
    }
    data::LoadOptions options;
    options.progress = progress;
    auto dataset = data::loadDataFile(source.path, options);
    if (!dataset) return dataset.error();
    auto table = tableFromDataset(std::move(dataset).value());
    if (!table) return table.error();
    if (table->rows != vocabulary_size || table->cols != dim)
        return shapeMismatch(source.path, table->rows, table->cols, vocabulary_size, dim);
    return std::make_shared<const tpu::RowMatrix>(std::move(table).value());
}

Result<TableAnalysis> analyzeTable(const tpu::RowMatrix& table,
                                   const std::optional<tpu::QuantizationConfig>& quantization,
                                   const TableAnalysisOptions& options, const Exec& exec,
                                   const Progress& progress) {
    // Past 2^24 buckets there is no occupancy histogram and storage materialises its codes:
    // the per-statistic path, as before.
    if (quantization && quantization->num_buckets > kMaxOccupancyBuckets)
        return analyzeTableReference(table, quantization, options, exec, progress);
    const auto values = data::memoryStream(table.values, {}, "the table");
    return analyzeTableStream(*values, table.rows, table.cols, quantization, options, exec, progress);
}

Result<TableAnalysis> analyzeTableStream(const data::FloatStream& values, int64_t rows, int64_t dim,
                                         const std::optional<tpu::QuantizationConfig>& quantization,
                                         const TableAnalysisOptions& options, const Exec& exec,
                                         const Progress& progress) {
    const auto start = std::chrono::steady_clock::now();
    const int64_t n = values.size();
    // The per-statistic functions' checks, in analyzeTable's order: occupancy, suggestions,
    // storage (whose error comes after the suggestions' data error, so it waits for the pass).
    if (quantization) {
        if (quantization->num_buckets > kMaxOccupancyBuckets)
            return invalidArgument("num_buckets " + std::to_string(quantization->num_buckets) +
                                   " is too large to analyse a table read in chunks (at most 2^24)");
        if (Status s = checkOccupancyConfig(*quantization); !s) return s.error();
    }
    RangeSuggestOptions ro;
    ro.num_buckets = quantization ? quantization->num_buckets : 256;
    ro.percentile = options.percentile;
    if (Status s = checkSuggestOptions(ro); !s) return s.error();
    std::optional<Result<StorageQuantization>> storage;
    if (quantization) storage = describeStorageQuantization(rows, dim, n, *quantization);
    const bool measureStorage = storage && storage->ok();

    TablePass pass(n, measureStorage ? quantization : std::nullopt, ro.max_samples);
    data::ChunkOptions chunks;
    // A multiple of kReduceBlock, as TablePass wants.
    chunks.chunk_elements = std::max<int64_t>(1, options.chunk_elements / kReduceBlock) * kReduceBlock;
    const Status read = data::forEachChunk(values, [&](int64_t begin, std::span<const float> chunk) -> Status {
        pass.add(begin, chunk, exec);
        if (progress && !progress(static_cast<double>(begin + static_cast<int64_t>(chunk.size())) /
                                  static_cast<double>(std::max<int64_t>(n, 1))))
            return cancelled();
        return okStatus();
    }, chunks);
    if (!read) return read.error();
    TablePass::Result r = pass.finish();

    TableAnalysis a;
    auto suggestions = suggestRangesFromSample(r.lowest, r.highest, std::move(r.sample), ro, exec);
    if (!suggestions) return suggestions.error();
    a.suggestions = std::move(suggestions).value();
    if (storage && !storage->ok()) return storage->error();

    const auto [first, count] = windowRows(rows, options);
    std::vector<float> window(static_cast<size_t>(count * dim));
    if (Status s = values.read(first * dim, window); !s) return s.error();
    a.window = tableWindow(std::move(window), first, dim, quantization, exec);
    if (quantization) {
        a.occupancy = std::move(r.occupancy);
        a.storage = std::move(*storage).value();
        a.storage->reconstruction = *r.reconstruction;
        a.table_error = *r.reconstruction;
    } else {
        a.table_error.nan_pairs = r.nan;
        a.table_error.count = n - r.nan;
    }
    if (progress && !progress(1.0)) return cancelled();
    a.ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    return a;
}

namespace {

// The feature's analysis with the lookups on `lookupTable` and `lookupBatch` (the table
// itself, or the rows a streamed table's ids name with the ids renumbered) and the
// sharding report on the whole table's shape and the batch's own ids.
Result<FeatureAnalysis> featureAnalysis(const tpu::RowMatrix& lookupTable, const IdBatch& lookupBatch,
                                        int64_t rows, int64_t dim, const IdBatch& batch,
                                        const std::string& combiner,
                                        const std::optional<tpu::QuantizationConfig>& quantization,
                                        int64_t num_hosts, tpu::PartitionStrategy strategy, const Exec& exec) {
    auto sim = simulateFeature(lookupTable, lookupBatch, combiner, quantization, exec);
    if (!sim) return sim.error();
    int bits = 8;
    if (quantization) {  // ceil(log2(num_buckets)), exact in integers; codes are at most
        bits = 0;        // uint32 (storage_quant.h), so TF's valid num_buckets=2^40 is 32 bits
        while (bits < 32 && (int64_t{1} << bits) < quantization->num_buckets) ++bits;
    }
    auto sharding = shardingReport(rows, dim, num_hosts, strategy, bits, batch.ids.values);
    if (!sharding) return sharding.error();
    return FeatureAnalysis{std::move(sim).value(), std::move(sharding).value()};
}

}  // namespace

Result<FeatureAnalysis> analyzeFeature(const tpu::RowMatrix& table, const IdBatch& batch,
                                       const std::string& combiner,
                                       const std::optional<tpu::QuantizationConfig>& quantization,
                                       int64_t num_hosts, tpu::PartitionStrategy strategy,
                                       const Exec& exec) {
    return featureAnalysis(table, batch, table.rows, table.cols, batch, combiner, quantization, num_hosts,
                           strategy, exec);
}

Result<FeatureAnalysis> analyzeFeatureStream(const NpyTableStream& table, const IdBatch& batch,
                                             const std::string& combiner,
                                             const std::optional<tpu::QuantizationConfig>& quantization,
                                             int64_t num_hosts, tpu::PartitionStrategy strategy,
                                             const Exec& exec) {
    const std::vector<int64_t>& ids = batch.ids.values;
    for (size_t k = 0; k < ids.size(); ++k)
        if (ids[k] < 0 || ids[k] >= table.rows())
            return invalidArgument("indices[" + std::to_string(k) + "] = " + std::to_string(ids[k]) +
                                   " is not in [0, " + std::to_string(table.rows()) + ")");
    std::vector<int64_t> unique = ids;
    std::sort(unique.begin(), unique.end());
    unique.erase(std::unique(unique.begin(), unique.end()), unique.end());
    auto rows = readTableRows(table, unique);
    if (!rows) return rows.error();
    IdBatch renumbered = batch;
    for (int64_t& id : renumbered.ids.values)
        id = std::lower_bound(unique.begin(), unique.end(), id) - unique.begin();
    return featureAnalysis(*rows, renumbered, table.rows(), table.dim(), batch, combiner, quantization, num_hosts,
                           strategy, exec);
}

namespace {

Error shapeMismatch(const std::string& path, int64_t rows, int64_t cols, int64_t vocabulary_size, int64_t dim) {
    return data::dataError(std::filesystem::path(path).filename().string() + " has shape [" + std::to_string(rows) +
                           ", " + std::to_string(cols) + "] but the table is vocabulary_size=" +
                           std::to_string(vocabulary_size) + ", dim=" + std::to_string(dim));
}

bool isNpy(const std::string& path) {
    std::string ext = std::filesystem::path(path).extension().string();
    std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return std::tolower(c); });
    return ext == ".npy";
}

}  // namespace

int64_t tableStreamThreshold() {
    return std::min(maxTableElements(), data::defaultMemoryBudget() / static_cast<int64_t>(sizeof(float)));
}

Result<tpu::RowMatrix> leadingRows(const OpenTable& table, int64_t max_rows) {
    const int64_t rows = std::min(table.rows(), std::max<int64_t>(0, max_rows));
    if (table.stream) {  // the leading rows are contiguous in the file: one read
        tpu::RowMatrix part{rows, table.stream->dim(), {}};
        part.values.resize(static_cast<size_t>(rows * part.cols));
        if (Status s = table.stream->read(0, part.values); !s) return s.error();
        return part;
    }
    if (!table.memory) return invalidArgument("no table loaded");
    tpu::RowMatrix part;
    part.rows = rows;
    part.cols = table.memory->cols;
    part.values.assign(table.memory->values.begin(),
                       table.memory->values.begin() + static_cast<std::ptrdiff_t>(rows * table.memory->cols));
    return part;
}

Result<OpenTable> openTable(const TableSource& source, int64_t vocabulary_size, int64_t dim, const Exec& exec,
                            const Progress& progress, int64_t stream_above_elements) {
    std::error_code ec;
    if (!source.path.empty() && isNpy(source.path) &&
        static_cast<int64_t>(std::filesystem::file_size(source.path, ec) / 4) > stream_above_elements && !ec) {
        auto stream = NpyTableStream::open(source.path);
        if (!stream) return stream.error();
        if ((*stream)->rows() != vocabulary_size || (*stream)->dim() != dim)
            return shapeMismatch(source.path, (*stream)->rows(), (*stream)->dim(), vocabulary_size, dim);
        return OpenTable{nullptr, *stream};
    }
    auto table = loadTable(source, vocabulary_size, dim, exec, progress);
    if (!table) return table.error();
    return OpenTable{*table, nullptr};
}

Result<TableAnalysis> analyzeTable(const OpenTable& table, const std::optional<tpu::QuantizationConfig>& quantization,
                                   const TableAnalysisOptions& options, const Exec& exec, const Progress& progress) {
    if (table.memory) return analyzeTable(*table.memory, quantization, options, exec, progress);
    return analyzeTableStream(*table.stream, table.stream->rows(), table.stream->dim(), quantization, options, exec,
                              progress);
}

Result<FeatureAnalysis> analyzeFeature(const OpenTable& table, const IdBatch& batch, const std::string& combiner,
                                       const std::optional<tpu::QuantizationConfig>& quantization,
                                       int64_t num_hosts, tpu::PartitionStrategy strategy, const Exec& exec) {
    if (table.memory) return analyzeFeature(*table.memory, batch, combiner, quantization, num_hosts, strategy, exec);
    return analyzeFeatureStream(*table.stream, batch, combiner, quantization, num_hosts, strategy, exec);
}

}  // namespace qs::embedding
