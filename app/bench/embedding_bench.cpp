// quantscope-embedding-bench: the embedding workbench's stages on a realistic table, with a
// memcpy of the same bytes measured in the same run. A program that prints figures, never
// a test.
//
//   quantscope-embedding-bench [--rows N] [--dim D] [--threads T] [--runs R]
//
// Prints {"table": [rows, dim], "threads": T, "results": [{"name", "ms", "gb_per_s",
// "vs_memcpy"}]}: ms is the minimum over R runs (loadTable: one run), gb_per_s counts the
// table's float32 bytes (read or written once) and vs_memcpy is the memcpy time of those
// bytes (read + write, same threads) divided by the stage's. The feature rows look up a
// 64K-id batch (8192 examples x 8 ids, combiner mean) in both paths (float and quantized);
// the workbench's target is under 100 ms for them.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "app/bench/bench_args.h"
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
};

struct Row {
    std::string name;
    double ms;
    double bytes;  // 0: no throughput figure
};

void usage() {
    std::puts("usage: quantscope-embedding-bench [--rows N] [--dim D] [--threads T] [--runs R]\n"
              "Times loadTable (truncated normal), analyzeTable (256 buckets in [-0.2, 0.2]),\n"
              "bucketOccupancy and a 64K-id feature lookup (uniform and zipf ids, combiner mean)\n"
              "on an N x D table (default 1000000 x 128), and prints JSON with a memcpy baseline.");
}

bool parse(int argc, char** argv, Options& o) {
    return qs::bench::parseArgs(argc, argv, "quantscope-embedding-bench", usage,
                            {{"--rows", [&](int64_t v) { o.rows = v; }},
                             {"--dim", [&](int64_t v) { o.dim = v; }},
                             {"--threads", [&](int64_t v) { o.threads = static_cast<int>(v); }},
                             {"--runs", [&](int64_t v) { o.runs = static_cast<int>(v); }}});
}

void fail(const char* what, const Error& e) {
    std::fprintf(stderr, "quantscope-embedding-bench: %s failed: %s: %s\n", what, e.kind.c_str(),
                 e.message.c_str());
    std::exit(1);
}

}  // namespace

int main(int argc, char** argv) {
    Options opt;
    if (!parse(argc, argv, opt)) return 2;
    const Exec exec{opt.threads};
    const double tableBytes = static_cast<double>(opt.rows * opt.dim) * sizeof(float);
    std::vector<Row> rows;

    TablePtr table;
    TableSource source;  // TruncatedNormal(stddev = 1/sqrt(dim)), seed 1
    rows.push_back({"loadTable truncated normal", minMs(1, [&] {
                        auto t = loadTable(source, opt.rows, opt.dim, exec);
                        if (!t) fail("loadTable", t.error());
                        table = *t;
                    }),
                    tableBytes});

    std::vector<float> copy(table->values.size());
    const double memcpyMs = minMs(opt.runs, [&] {
        parallelFor(exec, static_cast<int64_t>(copy.size()), [&](int64_t b, int64_t e) {
            std::memcpy(copy.data() + b, table->values.data() + b,
                        static_cast<size_t>(e - b) * sizeof(float));
        });
    });
    rows.insert(rows.begin(), {"memcpy of the table", memcpyMs, tableBytes});
    copy = {};

    const auto config = *tpu::makeQuantizationConfig(256, -0.2, 0.2);
    rows.push_back({"bucketOccupancy (256 buckets)", minMs(opt.runs, [&] {
                        auto o = bucketOccupancy(table->values, config, exec);
                        if (!o) fail("bucketOccupancy", o.error());
                    }),
                    tableBytes});
    rows.push_back({"suggestRanges (4M samples)", minMs(opt.runs, [&] {
                        auto s = suggestRanges(table->values, {}, exec);
                        if (!s) fail("suggestRanges", s.error());
                    }),
                    0});
    rows.push_back({"analyzeTable QuantizationConfig(256, -0.2, 0.2)", minMs(opt.runs, [&] {
                        auto a = analyzeTable(*table, config, {}, exec);
                        if (!a) fail("analyzeTable", a.error());
                    }),
                    tableBytes});

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
        rows.push_back({"tpuEmbeddingLookup 64K " + ids + " ids, quantized, mean", minMs(opt.runs, [&] {
                            auto a = tpu::tpuEmbeddingLookup(*table, batch->ids, batch->weights, "mean",
                                                             config, exec);
                            if (!a) fail("tpuEmbeddingLookup", a.error());
                        }),
                        0});
        rows.push_back({"simulateFeature 64K " + ids + " ids, mean", minMs(opt.runs, [&] {
                            auto s = simulateFeature(*table, *batch, "mean", config, exec);
                            if (!s) fail("simulateFeature", s.error());
                            lookupMs = std::min(lookupMs, s->lookup_ms);
                        }),
                        0});
        rows.push_back({"  of which the simulated lookup (" + ids + ")", lookupMs, 0});
        rows.push_back({"analyzeFeature 64K " + ids + " ids, mean, 16 hosts div",
                        minMs(opt.runs, [&] {
                            auto f = analyzeFeature(*table, *batch, "mean", config, 16,
                                                    tpu::PartitionStrategy::Div, exec);
                            if (!f) fail("analyzeFeature", f.error());
                        }),
                        0});
    }

    const double memcpyBytesMs = rows.front().ms;
    std::printf("{\"table\": [%lld, %lld], \"threads\": %d, \"results\": [\n",
                static_cast<long long>(opt.rows), static_cast<long long>(opt.dim), opt.threads);
    for (size_t i = 0; i < rows.size(); ++i) {
        const Row& r = rows[i];
        std::printf("  {\"name\": \"%s\", \"ms\": %.2f", r.name.c_str(), r.ms);
        if (r.bytes > 0)
            std::printf(", \"gb_per_s\": %.2f, \"vs_memcpy\": %.2f", r.bytes / r.ms / 1e6,
                        memcpyBytesMs / r.ms);
        std::printf("}%s\n", i + 1 < rows.size() ? "," : "");
    }
    std::printf("]}\n");
    return 0;
}
