// The workbench's computations, in the two stages the GUI and `quantscope-cli embedding`
// run them (like the explorer's data and compute services):
//  1. loadTable: build or read the table (seconds for 1M x 128; progress and cancel);
//  2. analyzeTable / analyzeFeature: everything shown for one table and one feature's
//     batch (tens of milliseconds; rerun on every parameter change).
// A .npy table larger than memory is analysed without loading it: analyzeTableStream and
// analyzeFeatureStream read it in chunks (npy_table_stream.h).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/data/float_stream.h"
#include "core/embedding/feature_sim.h"
#include "core/embedding/id_batch.h"
#include "core/embedding/npy_table_stream.h"
#include "core/embedding/occupancy.h"
#include "core/embedding/range_suggest.h"
#include "core/embedding/sharding_report.h"
#include "core/embedding/storage_quant.h"
#include "core/embedding/table_init.h"
#include "core/status.h"
#include "core/tensor.h"
#include "core/tpu/lookup.h"

namespace qs::embedding {

using Progress = std::function<bool(double fraction)>;  // false cancels

// Where a table's values come from: its initializer, or a file (.npy, CSV, .vec) whose
// shape must be [vocabulary_size, dim] (DataError naming the file and both shapes
// otherwise: "big.npy has shape [1000, 64] but the table is vocabulary_size=2000, dim=64").
struct TableSource {
    InitializerSpec initializer;
    std::string path;  // wins when not empty
    bool operator==(const TableSource&) const = default;
};
using TablePtr = std::shared_ptr<const tpu::RowMatrix>;
Result<TablePtr> loadTable(const TableSource& source, int64_t vocabulary_size, int64_t dim,
                           const Exec& exec = {}, const Progress& progress = {});

// A window of rows for the heat map: float values, their simulated quantization and the
// error (quantized - float), each rows x dim row-major. Without a quantization config
// quantized == float and error == 0.
struct TableWindow {
    int64_t first_row = 0, rows = 0, dim = 0;
    std::vector<float> float_values, quantized, error;
};

// Above this many buckets there is no occupancy histogram (the rest is still analysed).
inline constexpr int64_t kMaxOccupancyBuckets = int64_t{1} << 24;

struct TableAnalysis {
    std::optional<BucketOccupancy> occupancy;  // with a quantization config of <= 2^24 buckets
    std::vector<RangeSuggestion> suggestions;         // for its num_buckets (256 without)
    TableWindow window;
    std::optional<StorageQuantization> storage;       // only with a quantization config
    analysis::ErrorStats table_error;                 // whole table vs simulated (zeros without)
    double ms = 0;
};

struct TableAnalysisOptions {
    int64_t window_first_row = 0;  // clamped into the table
    int64_t window_rows = 64;      // clamped to [1, 4096] and to the table
    double percentile = 99.9;
    // Values per step of the pass (rounded down to a multiple of 64K, at least 64K):
    // progress and cancel come between steps; a streamed table holds two steps in memory.
    int64_t chunk_elements = int64_t{1} << 22;
};

// Errors: those of bucketOccupancy / suggestRanges / analyzeStorageQuantization; Cancelled.
// One parallel pass over the table (core/embedding/table_pass.h) gives every statistic;
// the results equal analyzeTableReference's bit for bit, whatever exec's thread count.
Result<TableAnalysis> analyzeTable(const tpu::RowMatrix& table,
                                   const std::optional<tpu::QuantizationConfig>& quantization,
                                   const TableAnalysisOptions& options = {},
                                   const Exec& exec = {}, const Progress& progress = {});

// The same for a rows x dim table read in chunks (a .npy larger than memory:
// core/data/npy_stream.h): memory stays bounded (two chunks, the 4M-value suggestion
// sample, one sum record per 64K values), progress is reported per chunk. Results equal
// analyzeTable's on the same values. num_buckets above 2^24 is InvalidArgument here; read
// errors are the stream's.
Result<TableAnalysis> analyzeTableStream(const data::FloatStream& values, int64_t rows, int64_t dim,
                                         const std::optional<tpu::QuantizationConfig>& quantization,
                                         const TableAnalysisOptions& options = {},
                                         const Exec& exec = {}, const Progress& progress = {});

// The per-statistic analysis the fused pass replaced (bucketOccupancy, suggestRanges,
// tableWindow, analyzeStorageQuantization one after the other): the reference for tests.
Result<TableAnalysis> analyzeTableReference(const tpu::RowMatrix& table,
                                            const std::optional<tpu::QuantizationConfig>& quantization,
                                            const TableAnalysisOptions& options = {},
                                            const Exec& exec = {}, const Progress& progress = {});

// The heat-map window of `float_values` (whole rows of `dim` from `first_row`), and which
// rows analyzeTable shows for these options: {first_row, rows}, clamped into the table.
TableWindow tableWindow(std::vector<float> float_values, int64_t first_row, int64_t dim,
                        const std::optional<tpu::QuantizationConfig>& quantization, const Exec& exec = {});
std::pair<int64_t, int64_t> windowRows(int64_t table_rows, const TableAnalysisOptions& options);

struct FeatureAnalysis {
    FeatureSimulation simulation;
    ShardingReport sharding;
};

// sharding.quantized_bits = ceil(log2(num_buckets)) (at most 32, the widest code) with a
// quantization config, 8 without.
Result<FeatureAnalysis> analyzeFeature(const tpu::RowMatrix& table, const IdBatch& batch,
                                       const std::string& combiner,
                                       const std::optional<tpu::QuantizationConfig>& quantization,
                                       int64_t num_hosts, tpu::PartitionStrategy strategy,
                                       const Exec& exec = {});

// The same for a table read from a .npy larger than memory: only the rows the batch's ids
// name are read (once each); the lookups then run on them, so every figure equals
// analyzeFeature's on the table in memory. An id outside the table is InvalidArgument
// "indices[k] = id is not in [0, rows)"; read errors are the stream's.
Result<FeatureAnalysis> analyzeFeatureStream(const NpyTableStream& table, const IdBatch& batch,
                                             const std::string& combiner,
                                             const std::optional<tpu::QuantizationConfig>& quantization,
                                             int64_t num_hosts, tpu::PartitionStrategy strategy,
                                             const Exec& exec = {});

// A table as the workbench holds it: its values in memory, or, for a .npy file whose values
// exceed what the workbench may hold (maxTableElements(): half the machine's memory), the
// file read in chunks (a 100M x 128 float32 table is 51 GB).
struct OpenTable {
    TablePtr memory;
    std::shared_ptr<const NpyTableStream> stream;
    int64_t rows() const { return memory ? memory->rows : stream ? stream->rows() : 0; }
    int64_t dim() const { return memory ? memory->cols : stream ? stream->dim() : 0; }
};
// The values a table may hold in memory before openTable streams its .npy instead: the
// memory budget (data::defaultMemoryBudget(): half the memory, or QS_MEMORY_BUDGET, as for
// the explorer's data sets) in float32 values, at most maxTableElements().
int64_t tableStreamThreshold();
// loadTable, except that a .npy file of more than `stream_above_elements` values is opened
// as a stream (NpyTableStream's errors; the shape must match as in loadTable).
Result<OpenTable> openTable(const TableSource& source, int64_t vocabulary_size, int64_t dim,
                            const Exec& exec = {}, const Progress& progress = {},
                            int64_t stream_above_elements = tableStreamThreshold());
// The first min(rows, max_rows) rows of the table, in memory (read from the file when
// streamed): what the pipeline demo trains on.
Result<tpu::RowMatrix> leadingRows(const OpenTable& table, int64_t max_rows);
// analyzeTable / analyzeFeature, or their streamed forms for a streamed table.
Result<TableAnalysis> analyzeTable(const OpenTable& table,
                                   const std::optional<tpu::QuantizationConfig>& quantization,
                                   const TableAnalysisOptions& options = {},
                                   const Exec& exec = {}, const Progress& progress = {});
Result<FeatureAnalysis> analyzeFeature(const OpenTable& table, const IdBatch& batch, const std::string& combiner,
                                       const std::optional<tpu::QuantizationConfig>& quantization,
                                       int64_t num_hosts, tpu::PartitionStrategy strategy,
                                       const Exec& exec = {});

}  // namespace qs::embedding
