// quantscope-embedding-bench: the embedding workbench's stages on a realistic table, with a
// memcpy of the same bytes measured in the same run. A program that prints figures, never
// a test.
//
//   quantscope-embedding-bench [--rows N] [--dim D] [--threads T] [--runs R] [--no-stream]
//
// Prints {"table": [rows, dim], "threads": T, "results": [{"name", "ms", "gb_per_s",
// "vs_memcpy", "baseline", "x_baseline"}]}: ms is the minimum over R runs (loadTable: one
// run), gb_per_s counts the table's float32 bytes (read or written once) and vs_memcpy is
// the memcpy time of those bytes (read + write, same threads) divided by the stage's.
// Every row names the baseline measured in the same run that it is compared with and
// x_baseline = ms / baseline ms: the memcpy of the table for whole-table stages, the
// quantized tpuEmbeddingLookup of the same ids for the feature rows (issue 12's targets:
// analyzeTable <= 3 x memcpy, simulateFeature <= 2 x the lookup), and one read of the file
// (through the same chunked reader, page cache warm) for the streamed analysis of the
// table written to a temporary .npy (skipped with --no-stream). The feature rows look up a
// 64K-id batch (8192 examples x 8 ids, combiner mean) in both paths (float and quantized).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "app/bench/bench_args.h"
#include "app/gui/heap_tuning.h"
#include <unistd.h>

#include "core/data/float_stream.h"
#include "core/data/npy_writer.h"
#include "core/embedding/workbench.h"
#include "core/tpu/tpu_embedding_lookup.h"

namespace {

using qs::bench::minMs;

using namespace qs;
using namespace qs::embedding;

struct Options {
    int64_t rows = 1'000'000;
    int64_t dim = 128;
    int threads = Exec::allCores().threads;
    int runs = 5;
    bool stream = true;
};

struct Row {
    std::string name;
    double ms;
    double bytes;          // 0: no throughput figure
    std::string baseline;  // the row it is compared with (empty: none)
};

void usage() {
    std::puts("usage: quantscope-embedding-bench [--rows N] [--dim D] [--threads T] [--runs R] [--no-stream]\n"
              "Times loadTable (truncated normal), analyzeTable (256 buckets in [-0.2, 0.2]),\n"
              "bucketOccupancy and a 64K-id feature lookup (uniform and zipf ids, combiner mean)\n"
              "on an N x D table (default 1000000 x 128), and the analysis of the table streamed\n"
              "from a temporary .npy; prints JSON, each row with its baseline from the same run.");
}

bool parse(int argc, char** argv, Options& o) {
    return qs::bench::parseArgs(argc, argv, "quantscope-embedding-bench", usage,
                            {{"--rows", [&](int64_t v) { o.rows = v; }},
                             {"--dim", [&](int64_t v) { o.dim = v; }},
                             {"--threads", [&](int64_t v) { o.threads = static_cast<int>(v); }},
                             {"--runs", [&](int64_t v) { o.runs = static_cast<int>(v); }}},
                            {{"--no-stream", [&] { o.stream = false; }}});
}

void fail(const char* what, const Error& e) {
    std::fprintf(stderr, "quantscope-embedding-bench: %s failed: %s: %s\n", what, e.kind.c_str(),
                 e.message.c_str());
    std::exit(1);
}

}  // namespace

int main(int argc, char** argv) {
    // The workbench runs in the explorer's process, with its heap settings: measure that.
    qs::app::keepResultBuffersInHeap();
    Options opt;
    if (!parse(argc, argv, opt)) return 2;
    const Exec exec{opt.threads};
    const double tableBytes = static_cast<double>(opt.rows * opt.dim) * sizeof(float);
    const std::string memcpyName = "memcpy of the table";
    std::vector<Row> rows;

    TablePtr table;
    TableSource source;  // TruncatedNormal(stddev = 1/sqrt(dim)), seed 1
    rows.push_back({"loadTable truncated normal", minMs(1, [&] {
                        auto t = loadTable(source, opt.rows, opt.dim, exec);
                        if (!t) fail("loadTable", t.error());
                        table = *t;
                    }),
                    tableBytes, memcpyName});

    std::vector<float> copy(table->values.size());
    const double memcpyMs = minMs(opt.runs, [&] {
        parallelFor(exec, static_cast<int64_t>(copy.size()), [&](int64_t b, int64_t e) {
            std::memcpy(copy.data() + b, table->values.data() + b,
                        static_cast<size_t>(e - b) * sizeof(float));
        });
    });
    rows.insert(rows.begin(), {memcpyName, memcpyMs, tableBytes, ""});
    copy = {};

    const auto config = *tpu::makeQuantizationConfig(256, -0.2, 0.2);
    rows.push_back({"bucketOccupancy (256 buckets)", minMs(opt.runs, [&] {
                        auto o = bucketOccupancy(table->values, config, exec);
                        if (!o) fail("bucketOccupancy", o.error());
                    }),
                    tableBytes, memcpyName});
    rows.push_back({"suggestRanges (4M samples)", minMs(opt.runs, [&] {
                        auto s = suggestRanges(table->values, {}, exec);
                        if (!s) fail("suggestRanges", s.error());
                    }),
                    0, memcpyName});
    rows.push_back({"analyzeTable QuantizationConfig(256, -0.2, 0.2)", minMs(opt.runs, [&] {
                        auto a = analyzeTable(*table, config, {}, exec);
                        if (!a) fail("analyzeTable", a.error());
                    }),
                    tableBytes, memcpyName});
    rows.push_back({"analyzeTableReference (per-statistic passes, before issue 12)", minMs(std::min(opt.runs, 2), [&] {
                        auto a = analyzeTableReference(*table, config, {}, exec);
                        if (!a) fail("analyzeTableReference", a.error());
                    }),
                    tableBytes, memcpyName});

    for (auto dist : {IdDistribution::Uniform, IdDistribution::Zipf}) {
        IdBatchSpec spec;
        spec.distribution = dist;
        spec.batch_size = 8192;
        spec.ids_per_example = 8;
        auto batch = generateIdBatch(spec, opt.rows);
        if (!batch) fail("generateIdBatch", batch.error());
        const std::string ids = dist == IdDistribution::Uniform ? "uniform" : "zipf";
        double lookupMs = 1e300;
        // The headline: the TPU's activation for 64K ids (gather, simulated quantization of
        // every gathered row, mean combiner), what the workbench recomputes on every edit.
        const std::string lookupName = "tpuEmbeddingLookup 64K " + ids + " ids, quantized, mean";
        rows.push_back({lookupName, minMs(opt.runs, [&] {
                            auto a = tpu::tpuEmbeddingLookup(*table, batch->ids, batch->weights, "mean",
                                                             config, exec);
                            if (!a) fail("tpuEmbeddingLookup", a.error());
                        }),
                        0, ""});
        rows.push_back({"simulateFeature 64K " + ids + " ids, mean", minMs(opt.runs, [&] {
                            auto s = simulateFeature(*table, *batch, "mean", config, exec);
                            if (!s) fail("simulateFeature", s.error());
                            lookupMs = std::min(lookupMs, s->lookup_ms);
                        }),
                        0, lookupName});
        rows.push_back({"  of which the simulated lookup (" + ids + ")", lookupMs, 0, lookupName});
        rows.push_back({"simulateFeatureReference 64K " + ids + " ids, mean (before issue 12)",
                        minMs(std::min(opt.runs, 2), [&] {
                            auto s = simulateFeatureReference(*table, *batch, "mean", config, exec);
                            if (!s) fail("simulateFeatureReference", s.error());
                        }),
                        0, lookupName});
        rows.push_back({"analyzeFeature 64K " + ids + " ids, mean, 16 hosts div",
                        minMs(opt.runs, [&] {
                            auto f = analyzeFeature(*table, *batch, "mean", config, 16,
                                                    tpu::PartitionStrategy::Div, exec);
                            if (!f) fail("analyzeFeature", f.error());
                        }),
                        0, lookupName});
    }

    if (opt.stream) {
        // The table as a .npy in the temporary directory, analysed through the chunked reader
        // a table larger than memory uses; the baseline reads the file once the same way.
        const char* tmp = std::getenv("TMPDIR");
        const std::string path = std::string(tmp && *tmp ? tmp : "/tmp") + "/quantscope-embedding-bench-" +
                                 std::to_string(::getpid()) + ".npy";
        if (Status s = data::writeNpy(path, table->values, {table->rows, table->cols}); !s) fail("writeNpy", s.error());
        table.reset();  // the streamed rows run without the table in memory
        auto stream = NpyTableStream::open(path);
        if (!stream) fail("NpyTableStream::open", stream.error());
        const std::string readName = "read the table's .npy once (chunked, page cache warm)";
        rows.push_back({readName, minMs(opt.runs, [&] {
                            const Status s = data::forEachChunk(**stream, [](int64_t, std::span<const float>) {
                                return okStatus();
                            });
                            if (!s) fail("forEachChunk", s.error());
                        }),
                        tableBytes, ""});
        rows.push_back({"analyzeTableStream QuantizationConfig(256, -0.2, 0.2) from the .npy", minMs(opt.runs, [&] {
                            auto a = analyzeTableStream(**stream, (*stream)->rows(), (*stream)->dim(), config, {},
                                                        exec);
                            if (!a) fail("analyzeTableStream", a.error());
                        }),
                        tableBytes, readName});
        std::remove(path.c_str());
    }

    std::printf("{\"table\": [%lld, %lld], \"threads\": %d, \"results\": [\n",
                static_cast<long long>(opt.rows), static_cast<long long>(opt.dim), opt.threads);
    for (size_t i = 0; i < rows.size(); ++i) {
        const Row& r = rows[i];
        std::printf("  {\"name\": \"%s\", \"ms\": %.2f", r.name.c_str(), r.ms);
        if (r.bytes > 0)
            std::printf(", \"gb_per_s\": %.2f, \"vs_memcpy\": %.2f", r.bytes / r.ms / 1e6, memcpyMs / r.ms);
        if (!r.baseline.empty()) {
            double baseMs = 0;
            for (const Row& b : rows)
                if (b.name == r.baseline) baseMs = b.ms;
            std::printf(", \"baseline\": \"%s\", \"x_baseline\": %.2f", r.baseline.c_str(), r.ms / baseMs);
        }
        std::printf("}%s\n", i + 1 < rows.size() ? "," : "");
    }
    std::printf("]}\n");
    return 0;
}
