// Over 500 lines on purpose: the workbench analyses share hand-computed tables and feature
// fixtures.
// The embedding workbench's analyses against hand-computed values: bucket occupancy, range
// suggestions, one feature's lookup (quantize-then-combine vs combine-then-quantize), the
// sharding report, the optimizers' sparse updates and the pipelining demonstration.
// Generated ids and tables are used only through their documented contract (ids in range,
// batch shape), never through their sample values.
#include <QTemporaryDir>
#include <QtTest>
#include <cmath>
#include <fstream>
#include <limits>
#include <set>
#include <string>
#include <vector>

#include "core/data/generators.h"
#include "core/embedding/optimizer_step.h"
#include "core/embedding/pipeline_demo.h"
#include "core/embedding/workbench.h"
#include "core/tpu/config.h"
#include "core/tpu/tpu_embedding_lookup.h"

using namespace qs;
using namespace qs::embedding;

namespace {

const float kNaN = std::numeric_limits<float>::quiet_NaN();

bool contains(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

// One example per entry of `examples`, its ids in order; dense_shape [batch, longest].
IdBatch makeBatch(const std::vector<std::vector<int64_t>>& examples) {
    IdBatch b;
    int64_t longest = 0;
    for (size_t e = 0; e < examples.size(); ++e) {
        longest = std::max<int64_t>(longest, static_cast<int64_t>(examples[e].size()));
        for (size_t p = 0; p < examples[e].size(); ++p) {
            b.ids.indices.push_back({static_cast<int64_t>(e), static_cast<int64_t>(p)});
            b.ids.values.push_back(examples[e][p]);
        }
    }
    b.ids.dense_shape = {static_cast<int64_t>(examples.size()), longest};
    return b;
}

tpu::RowMatrix matrix(int64_t rows, int64_t cols, std::vector<float> v) {
    return {rows, cols, std::move(v)};
}

}  // namespace

class TstEmbeddingAnalysis : public QObject {
    Q_OBJECT

private slots:
    // ---- the lookup at scale ------------------------------------------------------------

    // A 64K-id batch is combined in parallel over examples: every thread count gives the
    // same bits, and each example equals the same lookup done alone (one example, one
    // thread), for every combiner, with and without weights and quantization.
    void largeLookupIndependentOfThreads() {
        tpu::RowMatrix table{5000, 32, {}};
        table.values = data::normal(5000 * 32, 11, 0, 0.3).values;
        for (const bool weighted : {false, true}) {
            IdBatchSpec spec;
            spec.distribution = IdDistribution::Zipf;
            spec.batch_size = 4096;
            spec.ids_per_example = 16;
            spec.weights = weighted;
            auto batch = generateIdBatch(spec, table.rows);
            QVERIFY(batch);
            for (const char* combiner : {"sum", "mean", "sqrtn"}) {
                for (const auto& q : {std::optional<tpu::QuantizationConfig>{},
                                      std::optional<tpu::QuantizationConfig>{{64, -0.5, 0.5}}}) {
                    auto one = tpu::tpuEmbeddingLookup(table, batch->ids, batch->weights, combiner, q, Exec{1});
                    auto four = tpu::tpuEmbeddingLookup(table, batch->ids, batch->weights, combiner, q, Exec{4});
                    QVERIFY(one && four);
                    QCOMPARE(four->values, one->values);
                    // Example 123 on its own.
                    tpu::SparseIds alone;
                    std::vector<float> w;
                    for (size_t k = 0; k < batch->ids.indices.size(); ++k)
                        if (batch->ids.indices[k][0] == 123) {
                            alone.indices.push_back({0, batch->ids.indices[k][1]});
                            alone.values.push_back(batch->ids.values[k]);
                            if (weighted) w.push_back((*batch->weights)[k]);
                        }
                    alone.dense_shape = {1, 16};
                    auto single = tpu::tpuEmbeddingLookup(
                        table, alone, weighted ? std::optional<std::vector<float>>(w) : std::nullopt, combiner, q);
                    QVERIFY(single);
                    for (int64_t c = 0; c < 32; ++c)
                        QCOMPARE(single->values[static_cast<size_t>(c)], one->values[static_cast<size_t>(123 * 32 + c)]);
                }
            }
        }
    }

    // More buckets than a histogram can draw: the occupancy is left out, the rest of the
    // table's analysis (suggestions, heat map, storage) still comes.
    void analyzeTableBeyondTheHistogramLimit() {
        tpu::RowMatrix table{100, 8, data::normal(800, 3, 0, 0.5).values};
        auto a = analyzeTable(table, tpu::QuantizationConfig{(int64_t{1} << 24) + 1, -1.0, 1.0});
        QVERIFY(a);
        QVERIFY(!a->occupancy);
        QVERIFY(a->storage);
        QCOMPARE(a->storage->code_bits, 32);
        QCOMPARE(a->suggestions.size(), size_t(4));
        QCOMPARE(a->window.rows, int64_t(64));
        auto b = analyzeTable(table, tpu::QuantizationConfig{int64_t{1} << 24, -1.0, 1.0});
        QVERIFY(b && b->occupancy);
    }

    // ---- occupancy ----------------------------------------------------------------------

    void occupancyHandComputed() {
        // 5 buckets on [0, 1]: quantum 0.25, q = floor(c / 0.25 + 0.5).
        //   -1 (below) -> 0, 0 -> 0, 0.1 -> floor(0.9) = 0, 0.125 -> floor(1.0) = 1 (tie up),
        //   0.3 -> 1, 0.5 -> 2, 0.9 -> floor(4.1) = 4, 1 -> 4, 2 (above) -> 4, NaN -> none.
        const std::vector<float> v{-1, 0, 0.1f, 0.125f, 0.3f, 0.5f, 0.9f, 1, 2, kNaN};
        auto r = bucketOccupancy(v, {5, 0.0, 1.0});
        QVERIFY(r.ok());
        QCOMPARE(r->counts, (std::vector<int64_t>{3, 2, 1, 0, 3}));
        QCOMPARE(r->below, int64_t{1});
        QCOMPARE(r->above, int64_t{1});
        QCOMPARE(r->nan, int64_t{1});
        QCOMPARE(r->total, int64_t{10});
        QCOMPARE(r->empty_buckets, int64_t{1});
        const double h = -(2 * (3.0 / 9) * std::log2(3.0 / 9) + (2.0 / 9) * std::log2(2.0 / 9) +
                           (1.0 / 9) * std::log2(1.0 / 9));  // 1.8910611120...
        QVERIFY(std::fabs(r->entropy_bits - h) < 1e-12);
        QVERIFY(std::fabs(h - 1.891061112) < 1e-9);
        QCOMPARE(r->centers, (std::vector<float>{0, 0.25f, 0.5f, 0.75f, 1}));
        // One full bucket: zero entropy; empty input: all zeros.
        const std::vector<float> same{0.5f, 0.5f};
        QCOMPARE(bucketOccupancy(same, {4, 0.0, 1.0})->entropy_bits, 0.0);
        auto none = bucketOccupancy(std::span<const float>{}, {4, 0.0, 1.0});
        QCOMPARE(none->total, int64_t{0});
        QCOMPARE(none->empty_buckets, int64_t{4});
    }

    void occupancyMatchesTheLookupsBucketAndThreads() {
        std::vector<float> v = data::normal(300001, 5, 0.0, 0.1).values;
        v[100000] = kNaN;  // one block takes the NaN path, the others the fast one
        const tpu::QuantizationConfig cfg{256, -0.2, 0.2};
        auto one = bucketOccupancy(v, cfg, Exec{1});
        QVERIFY(one.ok());
        // The bucket of every value as the lookup's formula computes it.
        const tpu::SimQuantF32 k = tpu::prepareF32(cfg);
        std::vector<int64_t> ref(256, 0);
        int64_t below = 0, above = 0;
        for (float x : v) {
            if (std::isnan(x)) continue;
            ++ref[static_cast<size_t>(tpu::simulatedBucketF32(x, k))];
            below += x < -0.2f;
            above += x > 0.2f;
        }
        QCOMPARE(one->counts, ref);
        QCOMPARE(one->below, below);
        QCOMPARE(one->above, above);
        QCOMPARE(one->nan, int64_t{1});
        QVERIFY(below > 0 && above > 0);  // the test covers clipping
        for (int t : {2, 3, 7}) {
            auto many = bucketOccupancy(v, cfg, Exec{t});
            QCOMPARE(many->counts, one->counts);
            QCOMPARE(many->entropy_bits, one->entropy_bits);
        }
    }

    void occupancyErrors() {
        const std::vector<float> v{0.5f};
        auto big = bucketOccupancy(v, {(int64_t{1} << 24) + 1, 0.0, 1.0});
        QVERIFY(!big.ok());
        QCOMPARE(big.error().kind, std::string("InvalidArgument"));
        QVERIFY(bucketOccupancy(v, {int64_t{1} << 24, 0.0, 1.0}).ok());  // the limit itself
        for (auto [lo, hi] : {std::pair{1.0, 1.0}, std::pair{2.0, 1.0}}) {
            auto e = bucketOccupancy(v, {4, lo, hi});
            QVERIFY(!e.ok());
            QCOMPARE(e.error().message, std::string("lower must be < upper for an occupancy histogram"));
        }
        QVERIFY(!bucketOccupancy(v, {4, 0.0, std::numeric_limits<double>::infinity()}).ok());
        QVERIFY(!bucketOccupancy(v, {4, std::nan(""), 1.0}).ok());
        // Finite doubles whose float32 formula breaks: -1e39 rounds to -inf, the range of
        // [-3e38, 3e38] overflows, and [0, 1e-45] gives quantum 0. The bucket index would be
        // NaN (it used to be cast to an index and written out of the histogram).
        const std::vector<float> w{0.5f, 3e38f, -3e38f, 0.0f, 1e-45f};
        for (auto [lo, hi] : {std::pair{-1e39, 1.0}, std::pair{-3e38, 3e38}, std::pair{0.0, 1e-45}}) {
            auto e = bucketOccupancy(w, {256, lo, hi});
            QVERIFY(!e.ok());
            QCOMPARE(e.error().kind, std::string("InvalidArgument"));
            QVERIFY2(e.error().message.find("quantum") != std::string::npos, e.error().message.c_str());
        }
        QCOMPARE(bucketOccupancy(v, {256, -1e39, 1.0}).error().message,
                 std::string("lower=-1e+39, upper=1 with 256 buckets: the float32 quantum (upper - lower) / "
                             "(num_buckets - 1) must be finite and > 0 for an occupancy histogram"));
    }

    // ---- range suggestions -------------------------------------------------------------

    void suggestionsHandComputed() {
        const std::vector<float> v{-1, -0.5f, 0, 0.5f, 2, kNaN};
        RangeSuggestOptions o;
        o.num_buckets = 4;
        o.percentile = 75;
        auto r = suggestRanges(v, o);
        QVERIFY(r.ok());
        QCOMPARE(r->size(), size_t{4});
        const auto& mm = (*r)[0];
        QCOMPARE(mm.method, std::string("min-max"));
        QCOMPARE(mm.lower, -1.0);
        QCOMPARE(mm.upper, 2.0);
        // quantum 1, levels -1, 0, 1, 2: -0.5 -> 0 and 0.5 -> 1 (ties up), errors 0.5 each.
        QCOMPARE(mm.mse, 0.1);
        QCOMPARE(mm.clipped_fraction, 0.0);
        QCOMPARE(mm.sqnr_db, 10 * std::log10(5.5 / 0.5));
        QCOMPARE((*r)[1].method, std::string("symmetric max |x|"));
        QCOMPARE((*r)[1].lower, -2.0);
        QCOMPARE((*r)[1].upper, 2.0);
        // 25th / 75th percentile of 5 values: ranks 1 and 3 exactly.
        QCOMPARE((*r)[2].method, std::string("percentile 75"));
        QCOMPARE((*r)[2].lower, -0.5);
        QCOMPARE((*r)[2].upper, 0.5);
        QCOMPARE((*r)[2].clipped_fraction, 0.4);
        QCOMPARE((*r)[3].method, std::string("MSE-optimal"));
        QVERIFY((*r)[3].mse <= mm.mse);
        // Interpolated percentile: 90th of {0, 1, 2, 3, 4} -> 3.6, 10th -> 0.4.
        const std::vector<float> ramp{4, 0, 3, 1, 2};
        o.percentile = 90;
        auto p = suggestRanges(ramp, o);
        QVERIFY(std::fabs((*p)[2].lower - 0.4) < 1e-12);
        QVERIFY(std::fabs((*p)[2].upper - 3.6) < 1e-12);
    }

    void mseOptimalBeatsMinMaxOnOutliers() {
        std::vector<float> v = data::normal(200000, 3, 0.0, 0.05).values;
        v[1234] = 5.0f;  // one outlier stretches min-max 30 times
        v[777] = -3.0f;
        RangeSuggestOptions o;
        o.max_samples = 50000;  // exercises the stride sample
        auto r = suggestRanges(v, o, Exec{2});
        QVERIFY(r.ok());
        QCOMPARE((*r)[0].lower, -3.0);  // extremes are exact even when sampling
        QCOMPARE((*r)[0].upper, 5.0);
        QVERIFY((*r)[3].mse < (*r)[0].mse / 10);
        QVERIFY((*r)[3].upper < 1.0 && (*r)[3].lower > -1.0);
        QVERIFY((*r)[3].sqnr_db > (*r)[0].sqnr_db);
        for (const auto& s : *r) QVERIFY((*r)[3].mse <= s.mse);
        // Thread-count independent.
        auto one = suggestRanges(v, o, Exec{1});
        for (size_t i = 0; i < 4; ++i) {
            QCOMPARE((*one)[i].lower, (*r)[i].lower);
            QCOMPARE((*one)[i].mse, (*r)[i].mse);
        }
        // Constant data: a usable (widened) range, no NaN.
        const std::vector<float> flat(10, 0.25f);
        auto f = suggestRanges(flat);
        QVERIFY(f.ok());
        for (const auto& s : *f) {
            QVERIFY(s.lower < s.upper && s.lower <= 0.25 && s.upper >= 0.25);
            QVERIFY(s.mse < 1e-9);  // 0.25 lies within half a (tiny) quantum of a level
        }
    }

    void suggestionErrors() {
        const std::vector<float> nan{kNaN, std::numeric_limits<float>::infinity()};
        auto e = suggestRanges(nan);
        QVERIFY(!e.ok());
        QCOMPARE(e.error().kind, std::string("InvalidArgument"));
        QVERIFY(contains(e.error().message, "finite"));
        QVERIFY(!suggestRanges(std::span<const float>{}).ok());
        const std::vector<float> v{1, 2};
        RangeSuggestOptions o;
        o.num_buckets = 1;
        QVERIFY(contains(suggestRanges(v, o).error().message, "num_buckets"));
        for (double p : {50.0, 100.5, std::nan("")}) {
            RangeSuggestOptions q;
            q.percentile = p;
            QVERIFY(contains(suggestRanges(v, q).error().message, "percentile"));
        }
    }

    // ---- feature simulation ------------------------------------------------------------

    void quantizeThenCombineDiffersFromCombineThenQuantize() {
        // Rows 0.0 and 0.6; 2 buckets on [0, 1] round them to 0 and 1. Example 0 = ids {0, 1}
        // (mean): TPU order 0.5, quantized mean q(0.3) = 0. Example 1 = {1}: 1 either way.
        // Example 2 has no ids: a zero row.
        const auto table = matrix(2, 1, {0.0f, 0.6f});
        const auto batch = makeBatch({{0, 1}, {1}, {}});
        auto r = simulateFeature(table, batch, "mean", tpu::QuantizationConfig{2, 0.0, 1.0});
        QVERIFY(r.ok());
        QCOMPARE(r->float_activations.values, (std::vector<float>{0.6f * 0.5f, 0.6f, 0}));
        QCOMPARE(r->quantized_activations.values, (std::vector<float>{0.5f, 1, 0}));
        QCOMPARE(r->quantized_after_combine.values, (std::vector<float>{0, 1, 0}));
        QCOMPARE(r->examples, int64_t{3});
        QCOMPARE(r->ids, int64_t{3});
        QCOMPARE(r->unique_ids, int64_t{2});
        QCOMPARE(r->empty_examples, int64_t{1});
        // Errors float - quantized: 0.3 - 0.5, 0.6 - 1, 0.
        const double e0 = double{0.6f * 0.5f} - 0.5, e1 = double{0.6f} - 1;
        QCOMPARE(r->stats.mse, (e0 * e0 + e1 * e1) / 3);
        QCOMPARE(r->stats.max_abs_error, -e1);
        const double a0 = double{0.6f * 0.5f};  // float 0.3 - quantized-after 0
        QCOMPARE(r->stats_after_combine.mse, (a0 * a0 + e1 * e1) / 3);
        QVERIFY(r->stats.mse != r->stats_after_combine.mse);
        // Gathered rows 0, 0.6, 0.6 -> 0, 1, 1.
        QCOMPARE(r->gathered_rows.count, int64_t{3});
        QCOMPARE(r->gathered_rows.mse, 2 * e1 * e1 / 3);
        QCOMPARE(r->gathered_rows.fraction_clipped, 0.0);
        QVERIFY(r->lookup_ms >= 0);
        // With a second thread (the paths and statistics run concurrently): the same numbers.
        auto two = simulateFeature(table, batch, "mean", tpu::QuantizationConfig{2, 0.0, 1.0},
                                   Exec{2});
        QCOMPARE(two->quantized_activations.values, r->quantized_activations.values);
        QCOMPARE(two->stats.mse, r->stats.mse);
        QCOMPARE(two->gathered_rows.mse, r->gathered_rows.mse);
        auto bad = simulateFeature(table, makeBatch({{0, 7}}), "mean",
                                   tpu::QuantizationConfig{2, 0.0, 1.0}, Exec{2});
        QCOMPARE(bad.error().kind, std::string("InvalidArgument"));
    }

    void featureWithoutQuantizationAndErrors() {
        const auto table = matrix(3, 2, {0.1f, 0.2f, 0.3f, 0.4f, 0.5f, 0.6f});
        const auto batch = makeBatch({{0, 2, 2}, {1}});
        auto r = simulateFeature(table, batch, "sum", std::nullopt);
        QVERIFY(r.ok());
        QCOMPARE(r->quantized_activations.values, r->float_activations.values);
        QCOMPARE(r->quantized_after_combine.values, r->float_activations.values);
        QCOMPARE(r->stats.mse, 0.0);
        QCOMPARE(r->stats.max_abs_error, 0.0);
        QCOMPARE(r->stats_after_combine.mse, 0.0);
        QCOMPARE(r->gathered_rows.mse, 0.0);
        QCOMPARE(r->gathered_rows.count, int64_t{8});
        QCOMPARE(r->unique_ids, int64_t{3});
        QCOMPARE(r->empty_examples, int64_t{0});
        // Ids out of range: the lookup's (TF's gather) error.
        for (int64_t bad : {3, -1}) {
            auto e = simulateFeature(table, makeBatch({{0, bad}}), "mean", std::nullopt);
            QVERIFY(!e.ok());
            QCOMPARE(e.error().kind, std::string("InvalidArgument"));
            // TF's SparseSegmentReduction text: "Bad: indices[k] == id out of range [0, 3)".
            QVERIFY2(contains(e.error().message, "== " + std::to_string(bad) + " out of range [0, 3)"),
                     e.error().message.c_str());
        }
        auto c = simulateFeature(table, batch, "max", std::nullopt);
        QCOMPARE(c.error().kind, std::string("ValueError"));
    }

    // ---- sharding ----------------------------------------------------------------------

    void shardingRowsAndBytes() {
        // 13 ids on 5 hosts: 3, 3, 3, 2, 2 under both strategies (spec 5.5).
        for (auto s : {tpu::PartitionStrategy::Div, tpu::PartitionStrategy::Mod}) {
            auto r = shardingReport(13, 4, 5, s, 3, {});
            QVERIFY(r.ok());
            QCOMPARE(r->padded_vocabulary, int64_t{13});
            std::vector<int64_t> rows, first, f32, q;
            for (const HostLoad& h : r->hosts) {
                rows.push_back(h.rows);
                first.push_back(h.first_id);
                f32.push_back(h.bytes_float32);
                q.push_back(h.bytes_quantized);
            }
            QCOMPARE(rows, (std::vector<int64_t>{3, 3, 3, 2, 2}));
            QCOMPARE(first, s == tpu::PartitionStrategy::Div
                                ? (std::vector<int64_t>{0, 3, 6, 9, 11})
                                : (std::vector<int64_t>{0, 1, 2, 3, 4}));
            // 3 rows x 4 x 4 bytes = 48; 3-bit: ceil(36 / 8) = 5; 2 rows: 32 and 3.
            QCOMPARE(f32, (std::vector<int64_t>{48, 48, 48, 32, 32}));
            QCOMPARE(q, (std::vector<int64_t>{5, 5, 5, 3, 3}));
            QCOMPARE(r->traffic_imbalance, 0.0);  // no ids
            // Against the enumeration of core/tpu/sharding.h.
            auto ids = tpu::shardIds(13, 5, s == tpu::PartitionStrategy::Div ? "div" : "mod");
            for (size_t h = 0; h < 5; ++h) {
                QCOMPARE(static_cast<int64_t>((*ids)[h].size()), rows[h]);
                QCOMPARE((*ids)[h].front(), first[h]);
            }
        }
        // A 3-row table on 8 hosts is padded to 8 rows: one each.
        auto small = shardingReport(3, 2, 8, tpu::PartitionStrategy::Div, 8, {});
        QCOMPARE(small->vocabulary_size, int64_t{3});
        QCOMPARE(small->padded_vocabulary, int64_t{8});
        for (const HostLoad& h : small->hosts) QCOMPARE(h.rows, int64_t{1});
        // Huge sizes saturate instead of overflowing.
        auto huge = shardingReport(std::numeric_limits<int64_t>::max(), 1 << 20, 1,
                                   tpu::PartitionStrategy::Mod, 32, {});
        QCOMPARE(huge->hosts[0].bytes_float32, std::numeric_limits<int64_t>::max());
    }

    void shardingTraffic() {
        // Hot ids 0..3 of a 100-id table on 4 hosts: div puts all of them on host 0.
        const std::vector<int64_t> ids{0, 1, 2, 3, 0, 1, 0, 0, -1, 100};
        auto div = shardingReport(100, 8, 4, tpu::PartitionStrategy::Div, 8, ids);
        QVERIFY(div.ok());
        QCOMPARE(div->ids_out_of_range, int64_t{2});
        QCOMPARE(div->hosts[0].lookups, int64_t{8});
        QCOMPARE(div->hosts[0].unique_lookups, int64_t{4});
        QCOMPARE(div->hosts[1].lookups, int64_t{0});
        QCOMPARE(div->traffic_imbalance, 4.0);  // 8 / (8 / 4)
        auto mod = shardingReport(100, 8, 4, tpu::PartitionStrategy::Mod, 8, ids);
        std::vector<int64_t> lookups, unique;
        for (const HostLoad& h : mod->hosts) {
            lookups.push_back(h.lookups);
            unique.push_back(h.unique_lookups);
        }
        QCOMPARE(lookups, (std::vector<int64_t>{4, 2, 1, 1}));
        QCOMPARE(unique, (std::vector<int64_t>{1, 1, 1, 1}));
        QCOMPARE(mod->traffic_imbalance, 2.0);
        // Padding rows are not part of the vocabulary: id 5 of a 3-id table on 8 hosts.
        const std::vector<int64_t> pad{5, 2};
        auto p = shardingReport(3, 1, 8, tpu::PartitionStrategy::Mod, 8, pad);
        QCOMPARE(p->ids_out_of_range, int64_t{1});
        QCOMPARE(p->hosts[2].lookups, int64_t{1});
    }

    void shardingErrors() {
        const auto div = tpu::PartitionStrategy::Div;
        QVERIFY(contains(shardingReport(0, 1, 1, div, 8, {}).error().message, "vocabulary_size"));
        QVERIFY(contains(shardingReport(1, 0, 1, div, 8, {}).error().message, "dim"));
        QVERIFY(contains(shardingReport(1, 1, 0, div, 8, {}).error().message, "num_hosts"));
        QVERIFY(contains(shardingReport(1, 1, 65537, div, 8, {}).error().message, "num_hosts"));
        QVERIFY(shardingReport(1, 1, 65536, div, 8, {}).ok());
        QVERIFY(contains(shardingReport(1, 1, 1, div, 0, {}).error().message, "quantized_bits"));
        QVERIFY(contains(shardingReport(1, 1, 1, div, 33, {}).error().message, "quantized_bits"));
        QCOMPARE(shardingReport(1, 1, 1, div, 33, {}).error().kind, std::string("InvalidArgument"));
    }

    // ---- optimizer steps ---------------------------------------------------------------

    void sgdStepAndRepeatedIds() {
        OptimizerParams p;  // SGD
        p.learning_rate = 0.1;
        auto table = matrix(2, 2, {1, 2, 3, 4});
        auto state = initialOptimizerState(p, table);
        QVERIFY(state.slot0.empty() && state.slot1.empty());
        const std::vector<int64_t> one{1};
        QVERIFY(applySparseUpdate(table, state, p, one, matrix(1, 2, {0.5f, -1})).ok());
        QCOMPARE(table.values, (std::vector<float>{1, 2, 3 - 0.1f * 0.5f, 4 + 0.1f}));
        QVERIFY(std::fabs(table.values[2] - 2.95f) < 1e-6f);
        // Repeated ids: gradients summed first (1 + 2 = 3), one update.
        const std::vector<int64_t> twice{0, 0};
        QVERIFY(applySparseUpdate(table, state, p, twice, matrix(2, 2, {1, 1, 2, 2})).ok());
        QCOMPARE(table.values[0], 1 - 0.1f * 3);
        QCOMPARE(table.values[1], 2 - 0.1f * 3);
    }

    void adagradStepByHand() {
        OptimizerParams p;
        p.kind = tpu::OptimizerKind::Adagrad;
        p.learning_rate = 0.1;
        p.initial_accumulator_value = 0.1;
        auto table = matrix(1, 1, {1});
        auto state = initialOptimizerState(p, table);
        QCOMPARE(state.slot0, (std::vector<float>{0.1f}));
        const std::vector<int64_t> id{0, 0};
        // g = 0.25 + 0.25 = 0.5; acc = 0.1 + 0.25 = 0.35; w = 1 - 0.1 * 0.5 / sqrt(0.35).
        QVERIFY(applySparseUpdate(table, state, p, id, matrix(2, 1, {0.25f, 0.25f})).ok());
        QCOMPARE(state.slot0[0], 0.1f + 0.25f);
        QCOMPARE(table.values[0], 1 - 0.1f * 0.5f / std::sqrt(0.1f + 0.25f));
        QVERIFY(std::fabs(table.values[0] - 0.915484f) < 1e-6f);  // 1 - 0.05 / 0.591608
    }

    void clippingAndDecay() {
        OptimizerParams p;
        p.learning_rate = 0.1;
        p.clip_gradient_max = 0.5;
        p.clip_gradient_min = -0.25;
        auto table = matrix(1, 2, {1, 1});
        OptimizerState st;
        const std::vector<int64_t> id{0};
        QVERIFY(applySparseUpdate(table, st, p, id, matrix(1, 2, {2, -4})).ok());
        QCOMPARE(table.values, (std::vector<float>{1 - 0.1f * 0.5f, 1 + 0.1f * 0.25f}));
        // Weight clipping after the rule: 1 - 1 * 0.5 = 0.5 -> 0.9.
        OptimizerParams w;
        w.learning_rate = 1;
        w.clip_weight_min = 0.9;
        w.clip_weight_max = 1.05;
        auto t2 = matrix(1, 2, {1, 1});
        QVERIFY(applySparseUpdate(t2, st, w, id, matrix(1, 2, {0.5f, -0.5f})).ok());
        QCOMPARE(t2.values, (std::vector<float>{0.9f, 1.05f}));
        // Weight decay: g + 0.5 * w = 0 + 0.5 * 2 = 1 -> 2 - 0.1 * 1.
        OptimizerParams d;
        d.learning_rate = 0.1;
        d.weight_decay_factor = 0.5;
        auto t3 = matrix(1, 1, {2});
        QVERIFY(applySparseUpdate(t3, st, d, id, matrix(1, 1, {0})).ok());
        QCOMPARE(t3.values[0], 2 - 0.1f * (0.5f * 2));
    }

    void optimizerErrorsAndParams() {
        OptimizerParams p;
        auto table = matrix(2, 1, {1, 2});
        OptimizerState st;
        const std::vector<int64_t> bad{2};
        auto e = applySparseUpdate(table, st, p, bad, matrix(1, 1, {1}));
        QVERIFY(!e.ok());
        QCOMPARE(e.error().kind, std::string("InvalidArgument"));
        QVERIFY(contains(e.error().message, "ids[0] = 2 is not in [0, 2)"));
        const std::vector<int64_t> ok{1};
        QVERIFY(!applySparseUpdate(table, st, p, ok, matrix(2, 1, {1, 1})).ok());  // sizes
        OptimizerParams ada;
        ada.kind = tpu::OptimizerKind::Adagrad;
        QVERIFY(contains(applySparseUpdate(table, st, ada, ok, matrix(1, 1, {1})).error().message,
                         "state"));
        QCOMPARE(table.values, (std::vector<float>{1, 2}));  // nothing applied

        // From built optimizer objects.
        auto opt = tpu::Optimizer::make(tpu::OptimizerKind::Adagrad,
                                        {{"learning_rate", 0.2}, {"clipvalue", 1.5}});
        QVERIFY(opt.ok());
        auto params = optimizerParams(*opt);
        QVERIFY(params.ok());
        QCOMPARE(params->kind, tpu::OptimizerKind::Adagrad);
        QCOMPARE(params->learning_rate, 0.2);
        QCOMPARE(params->initial_accumulator_value, 0.1);
        QCOMPARE(params->clip_gradient_min, std::optional<double>(-1.5));
        QCOMPARE(params->clip_gradient_max, std::optional<double>(1.5));
        QVERIFY(!params->clip_weight_min && !params->weight_decay_factor);
        auto adam = optimizerParams(*tpu::Optimizer::make(tpu::OptimizerKind::Adam, {}));
        QCOMPARE(adam->learning_rate, 0.001);
        QCOMPARE(adam->epsilon, std::optional<double>(1e-7));
        QCOMPARE(adam->beta_2, 0.999);
        auto ftrl = optimizerParams(*tpu::Optimizer::make(
            tpu::OptimizerKind::FTRL, {{"l1_regularization_strength", 0.5}, {"beta", 2}}));
        QCOMPARE(ftrl->l1, 0.5);
        QCOMPARE(ftrl->beta, 2.0);
        auto dyn = tpu::Optimizer::make(tpu::OptimizerKind::SGD,
                                        {{"learning_rate", tpu::PyValue::callable("lr_fn")}});
        QVERIFY(dyn.ok());
        auto d = optimizerParams(*dyn);
        QVERIFY(!d.ok());
        QCOMPARE(d.error().message,
                 std::string("a dynamic learning rate cannot be simulated; enter a number"));
    }

    void otherOptimizersMove() {
        // Adam, AdagradMomentum and FTRL each move a weight against its gradient.
        for (auto kind : {tpu::OptimizerKind::Adam, tpu::OptimizerKind::AdagradMomentum,
                          tpu::OptimizerKind::FTRL}) {
            OptimizerParams p;
            p.kind = kind;
            p.learning_rate = 0.1;
            auto table = matrix(2, 1, {0.5f, 0.5f});
            auto st = initialOptimizerState(p, table);
            const std::vector<int64_t> id{0};
            QVERIFY(applySparseUpdate(table, st, p, id, matrix(1, 1, {1})).ok());
            QVERIFY2(table.values[0] < 0.5f, tpu::optimizerName(kind).data());
            QCOMPARE(table.values[1], 0.5f);  // lazy: rows without gradient stay
        }
    }

    // ---- pipelining --------------------------------------------------------------------

    void pipelineWithoutSharedIdsIsExact() {
        // A large vocabulary and few ids: find a seed whose consecutive batches share no id
        // (checked through generateIdBatch itself, not assumed).
        const int64_t vocab = 200000, steps = 4;
        PipelineDemoSpec spec;
        spec.steps = steps;
        spec.batches.batch_size = 4;
        spec.batches.ids_per_example = 2;
        spec.optimizer.learning_rate = 0.5;
        bool found = false;
        for (uint64_t seed = 1; seed < 50 && !found; ++seed) {
            spec.batches.seed = seed;
            bool disjoint = true;
            std::set<int64_t> prev;
            for (int64_t s = 0; s < steps; ++s) {
                auto b = generateIdBatch(spec.batches, vocab, s);
                QVERIFY(b.ok());
                std::set<int64_t> cur(b->ids.values.begin(), b->ids.values.end());
                for (int64_t id : cur) disjoint = disjoint && !prev.count(id);
                prev = cur;
            }
            found = disjoint;
        }
        QVERIFY(found);
        const auto table = *initializeTable(vocab, 2, {});
        auto r = runPipelineDemo(table, spec);
        QVERIFY(r.ok());
        QCOMPARE(r->steps.size(), size_t{steps});
        for (const PipelineStep& s : r->steps) {
            QCOMPARE(s.stale_activations, int64_t{0});
            QCOMPARE(s.stale_rows, int64_t{0});
            QCOMPARE(s.loss_pipelined, s.loss_sequential);
            QCOMPARE(s.max_abs_difference, 0.0);
            QCOMPARE(s.activations, int64_t{4});
            QVERIFY(s.loss_sequential > 0);
        }
        QCOMPARE(r->final_table_max_abs_difference, 0.0);
    }

    void pipelineWithSharedIdsIsStale() {
        // One row: every id of every step is id 0, so every step reads the row the previous
        // step updated. (Float path: with quantization a small update can round away.)
        const auto table = matrix(1, 4, {0.05f, -0.02f, 0.01f, 0.03f});
        PipelineDemoSpec spec;
        spec.steps = 5;
        spec.batches.batch_size = 3;
        spec.batches.ids_per_example = 2;
        spec.optimizer.learning_rate = 0.5;
        std::vector<double> seen;
        auto r = runPipelineDemo(table, spec, [&](double f) {
            seen.push_back(f);
            return true;
        });
        QVERIFY(r.ok());
        QCOMPARE(seen.back(), 1.0);
        const PipelineStep& first = r->steps[0];
        QCOMPARE(first.stale_activations, int64_t{0});  // no previous step
        QCOMPARE(first.loss_pipelined, first.loss_sequential);
        for (size_t s = 1; s < r->steps.size(); ++s) {
            QCOMPARE(r->steps[s].stale_activations, int64_t{3});
            QCOMPARE(r->steps[s].stale_rows, int64_t{1});
            QVERIFY(r->steps[s].max_abs_difference > 0);
            QVERIFY(r->steps[s].mean_abs_difference > 0);
            QVERIFY(r->steps[s].max_abs_difference >= r->steps[s].mean_abs_difference);
        }
        QVERIFY(r->final_table_max_abs_difference > 0);
        // Quantized activations (TPU order): the first update is far larger than the quantum.
        spec.quantization = tpu::QuantizationConfig{256, -0.2, 0.2};
        auto q = runPipelineDemo(table, spec);
        QVERIFY(q.ok());
        QCOMPARE(q->steps[0].max_abs_difference, 0.0);
        QVERIFY(q->steps[1].max_abs_difference > 0);
    }

    void pipelineErrors() {
        const auto table = matrix(1, 1, {0});
        PipelineDemoSpec spec;
        for (int64_t steps : {0, 1001}) {
            spec.steps = steps;
            auto r = runPipelineDemo(table, spec);
            QVERIFY(!r.ok());
            QCOMPARE(r.error().kind, std::string("InvalidArgument"));
            QVERIFY(contains(r.error().message, "steps"));
        }
        spec.steps = 3;
        auto c = runPipelineDemo(table, spec, [](double) { return false; });
        QCOMPARE(c.error().kind, std::string("Cancelled"));
        spec.combiner = "max";
        QCOMPARE(runPipelineDemo(table, spec).error().kind, std::string("ValueError"));
    }

    // ---- workbench ---------------------------------------------------------------------

    void analyzeTableStages() {
        auto table = matrix(10, 2, {});
        for (int i = 0; i < 20; ++i) table.values.push_back(0.02f * static_cast<float>(i) - 0.2f);
        TableAnalysisOptions o;
        o.window_first_row = 100;  // clamped to the last row
        auto plain = analyzeTable(table, std::nullopt, o);
        QVERIFY(plain.ok());
        QVERIFY(!plain->occupancy && !plain->storage);
        QCOMPARE(plain->suggestions.size(), size_t{4});
        QCOMPARE(plain->window.first_row, int64_t{9});
        QCOMPARE(plain->window.rows, int64_t{1});
        QCOMPARE(plain->window.float_values, (std::vector<float>{table.values[18], table.values[19]}));
        QCOMPARE(plain->window.error, (std::vector<float>{0, 0}));
        QCOMPARE(plain->table_error.count, int64_t{20});
        QCOMPARE(plain->table_error.mse, 0.0);

        const tpu::QuantizationConfig cfg{5, -0.2, 0.2};
        o.window_first_row = 0;
        o.window_rows = 0;  // at least one row
        auto q = analyzeTable(table, cfg, o);
        QVERIFY(q.ok());
        QVERIFY(q->occupancy && q->storage);
        QCOMPARE(q->occupancy->total, int64_t{20});
        QCOMPARE(q->window.rows, int64_t{1});
        QCOMPARE(q->window.quantized[0], -0.2f);
        QCOMPARE(q->window.error[1], tpu::simulateQuantizationF32(table.values[1], tpu::prepareF32(cfg)) -
                                         table.values[1]);
        QVERIFY(q->table_error.mse > 0);
        auto c = analyzeTable(table, cfg, {}, {}, [](double) { return false; });
        QCOMPARE(c.error().kind, std::string("Cancelled"));
        auto bad = analyzeTable(table, tpu::QuantizationConfig{5, 1.0, 1.0});
        QCOMPARE(bad.error().kind, std::string("InvalidArgument"));
    }

    void analyzeFeatureBits() {
        const auto table = matrix(4, 1, {0.1f, 0.2f, 0.3f, 0.4f});
        const auto batch = makeBatch({{0, 3}, {3}});
        for (auto [cfg, bits] : {std::pair{std::optional<tpu::QuantizationConfig>{}, 8},
                                 std::pair{std::optional(tpu::QuantizationConfig{256, 0, 1}), 8},
                                 std::pair{std::optional(tpu::QuantizationConfig{5, 0, 1}), 3},
                                 std::pair{std::optional(tpu::QuantizationConfig{2, 0, 1}), 1},
                                 // TF accepts 2^40 buckets; the codes are at most 32 bits (the
                                 // feature analysis used to fail: "quantized_bits ... got 40").
                                 std::pair{std::optional(tpu::QuantizationConfig{int64_t{1} << 40, 0, 1}), 32}}) {
            auto f = analyzeFeature(table, batch, "sum", cfg, 2, tpu::PartitionStrategy::Div);
            QVERIFY(f.ok());
            QCOMPARE(f->sharding.quantized_bits, bits);
            QCOMPARE(f->sharding.hosts[0].lookups, int64_t{1});
            QCOMPARE(f->sharding.hosts[1].lookups, int64_t{2});
            QCOMPARE(f->simulation.ids, int64_t{3});
        }
        QVERIFY(!analyzeFeature(table, batch, "sum", std::nullopt, 0, tpu::PartitionStrategy::Div).ok());
    }

    void loadTableShapes() {
        TableSource src;
        auto t = loadTable(src, 5, 3);
        QVERIFY(t.ok());
        QCOMPARE((*t)->rows, int64_t{5});
        QCOMPARE((*t)->cols, int64_t{3});
        QCOMPARE((*t)->values.size(), size_t{15});
        QVERIFY(!loadTable(src, 0, 3).ok());

        QTemporaryDir dir;
        src.path = dir.filePath("t.csv").toStdString();
        std::ofstream(src.path) << "1,2\n3,4\n";
        auto ok = loadTable(src, 2, 2);
        QVERIFY(ok.ok());
        QCOMPARE((*ok)->values, (std::vector<float>{1, 2, 3, 4}));
        auto bad = loadTable(src, 3, 2);
        QVERIFY(!bad.ok());
        QCOMPARE(bad.error().kind, std::string("DataError"));
        QCOMPARE(bad.error().message,
                 std::string("t.csv has shape [2, 2] but the table is vocabulary_size=3, dim=2"));
        src.path = dir.filePath("missing.csv").toStdString();
        QCOMPARE(loadTable(src, 2, 2).error().kind, std::string("DataError"));
    }
};

QTEST_GUILESS_MAIN(TstEmbeddingAnalysis)
#include "tst_embedding_analysis.moc"
