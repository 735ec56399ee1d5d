// The workbench's fused table pass (analyzeTable, core/embedding/table_pass.h) against the
// per-statistic reference it replaced (analyzeTableReference: bucketOccupancy,
// suggestRanges, analyzeStorageQuantization one after the other): every number must agree
// bit for bit on random tables with NaN, infinities, signed zeros and values on bucket
// edges, for 1, 2 and 8 threads, and for table sizes that exercise whole groups of blocks,
// leftover blocks, a partial last block and more than one chunk.
#include <QTemporaryDir>
#include <QtTest>
#include <malloc.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fstream>
#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "core/data/npy_writer.h"
#include "core/embedding/gathered_order.h"
#include "core/embedding/id_batch.h"
#include "core/embedding/pair_stats.h"
#include "core/embedding/workbench.h"
#include "core/numeric/block_reduce.h"

using namespace qs;
using namespace qs::embedding;

namespace {

const float kNaN = std::numeric_limits<float>::quiet_NaN();
const float kInf = std::numeric_limits<float>::infinity();

// A table of rows x dim values ~ N(0, scale) with, at random places, the values that
// break careless fast paths: NaN, +-inf, +-0, the quantization bounds and their float
// neighbours, bucket edges, huge values.
tpu::RowMatrix randomTable(int64_t rows, int64_t dim, uint32_t seed, double scale,
                           const std::vector<float>& specials, double specialRate) {
    std::mt19937 rng(seed);
    std::normal_distribution<double> normal(0.0, scale);
    std::uniform_real_distribution<double> u(0.0, 1.0);
    std::uniform_int_distribution<size_t> pick(0, specials.empty() ? 0 : specials.size() - 1);
    tpu::RowMatrix t{rows, dim, std::vector<float>(static_cast<size_t>(rows * dim))};
    for (float& v : t.values)
        v = !specials.empty() && u(rng) < specialRate ? specials[pick(rng)] : static_cast<float>(normal(rng));
    return t;
}

std::vector<float> specialsFor(double lower, double upper) {
    const auto lo = static_cast<float>(lower), hi = static_cast<float>(upper);
    return {kNaN, kInf, -kInf, 0.0f, -0.0f, lo, hi, std::nextafter(lo, -kInf), std::nextafter(lo, kInf),
            std::nextafter(hi, -kInf), std::nextafter(hi, kInf), 1e30f, -1e30f, 0.5f * (lo + hi)};
}

// The specials without the infinities: where the order of sums is under test (an infinity
// makes every sum inf whatever the order).
std::vector<float> finiteSpecialsFor(double lower, double upper) {
    std::vector<float> specials = specialsFor(lower, upper);
    std::erase_if(specials, [](float v) { return std::isinf(v); });
    return specials;
}

uint64_t bits(double v) { return std::bit_cast<uint64_t>(v); }
uint32_t bits(float v) { return std::bit_cast<uint32_t>(v); }

// Equal bit for bit (NaN payloads included), with the field named on failure.
#define SAME(a, b, what)                                                                      \
    do {                                                                                      \
        if (bits(a) != bits(b))                                                               \
            QFAIL(qPrintable(QString("%1: %2 vs %3 (%4)").arg(what).arg(a, 0, 'g', 17)        \
                                 .arg(b, 0, 'g', 17).arg(label)));                            \
    } while (0)

void compareStats(const analysis::ErrorStats& a, const analysis::ErrorStats& b, const QString& what,
                  const QString& label) {
    QVERIFY2(a.count == b.count, qPrintable(what + " count " + label));
    QVERIFY2(a.nan_pairs == b.nan_pairs, qPrintable(what + " nan_pairs " + label));
    QVERIFY2(a.distinct_levels == b.distinct_levels, qPrintable(what + " distinct_levels " + label));
    SAME(a.mse, b.mse, what + " mse");
    SAME(a.rmse, b.rmse, what + " rmse");
    SAME(a.max_abs_error, b.max_abs_error, what + " max_abs_error");
    SAME(a.mean_error, b.mean_error, what + " mean_error");
    SAME(a.sqnr_db, b.sqnr_db, what + " sqnr_db");
    SAME(a.cosine, b.cosine, what + " cosine");
    SAME(a.fraction_clipped, b.fraction_clipped, what + " fraction_clipped");
}

bool sameFloats(const std::vector<float>& a, const std::vector<float>& b) {
    return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0);
}

void compare(const TableAnalysis& a, const TableAnalysis& b, const QString& label) {
    QCOMPARE(a.occupancy.has_value(), b.occupancy.has_value());
    if (a.occupancy) {
        const BucketOccupancy &x = *a.occupancy, &y = *b.occupancy;
        QVERIFY2(x.counts == y.counts, qPrintable("occupancy counts " + label));
        QCOMPARE(x.below, y.below);
        QCOMPARE(x.above, y.above);
        QCOMPARE(x.nan, y.nan);
        QCOMPARE(x.total, y.total);
        QCOMPARE(x.empty_buckets, y.empty_buckets);
        SAME(x.entropy_bits, y.entropy_bits, QString("entropy"));
        QVERIFY(sameFloats(x.centers, y.centers));
    }
    QCOMPARE(a.suggestions.size(), b.suggestions.size());
    for (size_t i = 0; i < a.suggestions.size(); ++i) {
        const RangeSuggestion &x = a.suggestions[i], &y = b.suggestions[i];
        QCOMPARE(x.method, y.method);
        SAME(x.lower, y.lower, QString::fromStdString(x.method) + " lower");
        SAME(x.upper, y.upper, QString::fromStdString(x.method) + " upper");
        SAME(x.mse, y.mse, QString::fromStdString(x.method) + " mse");
        SAME(x.sqnr_db, y.sqnr_db, QString::fromStdString(x.method) + " sqnr");
        SAME(x.clipped_fraction, y.clipped_fraction, QString::fromStdString(x.method) + " clipped");
    }
    QCOMPARE(a.window.first_row, b.window.first_row);
    QCOMPARE(a.window.rows, b.window.rows);
    QCOMPARE(a.window.dim, b.window.dim);
    QVERIFY(sameFloats(a.window.float_values, b.window.float_values));
    QVERIFY(sameFloats(a.window.quantized, b.window.quantized));
    QVERIFY(sameFloats(a.window.error, b.window.error));
    QCOMPARE(a.storage.has_value(), b.storage.has_value());
    if (a.storage) {
        QCOMPARE(a.storage->code_bits, b.storage->code_bits);
        QCOMPARE(a.storage->information_bits, b.storage->information_bits);
        QCOMPARE(a.storage->bytes_codes, b.storage->bytes_codes);
        QCOMPARE(a.storage->bytes_packed, b.storage->bytes_packed);
        compareStats(a.storage->reconstruction, b.storage->reconstruction, "reconstruction", label);
    }
    compareStats(a.table_error, b.table_error, "table_error", label);
}

struct Case {
    const char* name;
    int64_t rows, dim;
    double scale;
    std::optional<tpu::QuantizationConfig> quantization;
    double special_rate;
};

}  // namespace

class TstEmbeddingFused : public QObject {
    Q_OBJECT

private slots:
    void fusedEqualsReference_data() {
        QTest::addColumn<int>("which");
        for (int i = 0; i < static_cast<int>(cases().size()); ++i)
            QTest::newRow(cases()[static_cast<size_t>(i)].name) << i;
    }
    void fusedEqualsReference() {
        QFETCH(int, which);
        const Case& c = cases()[static_cast<size_t>(which)];
        const double lo = c.quantization ? c.quantization->lower : -0.2;
        const double hi = c.quantization ? c.quantization->upper : 0.2;
        // With infinities (they turn sums into inf or NaN whatever the order) and without
        // (then every sum depends on its order of addition).
        for (bool infinities : {true, false}) {
            std::vector<float> specials = specialsFor(lo, hi);
            if (!infinities) std::erase_if(specials, [](float v) { return std::isinf(v); });
            const auto table = randomTable(c.rows, c.dim, 1000u + static_cast<uint32_t>(which), c.scale,
                                           specials, c.special_rate);
            TableAnalysisOptions options;
            options.window_first_row = c.rows / 3;
            const auto reference = analyzeTableReference(table, c.quantization, options, Exec{1});
            QVERIFY2(reference.ok(), reference.ok() ? "" : reference.error().message.c_str());
            for (int threads : {1, 2, 8}) {
                const auto fused = analyzeTable(table, c.quantization, options, Exec{threads});
                QVERIFY2(fused.ok(), fused.ok() ? "" : fused.error().message.c_str());
                compare(*fused, *reference,
                        QString("%1, %2 threads%3").arg(c.name).arg(threads).arg(infinities ? ", inf" : ""));
            }
        }
    }

    // Signed zeros decide the sign of a zero extreme (the first zero in index order) and of
    // a zero percentile (nth_element's choice): both must come out as the reference's.
    void signedZerosAsTheReference() {
        for (bool negativeFirst : {true, false}) {
            tpu::RowMatrix t{300000, 4, std::vector<float>(1200000, 0.0f)};
            std::mt19937 rng(7);
            for (float& v : t.values) v = (rng() & 1) ? -0.0f : 0.0f;
            t.values[12345] = negativeFirst ? -0.0f : 0.0f;
            for (size_t i = 0; i < 12345; ++i) t.values[i] = 1.0f + static_cast<float>(i % 7);
            for (auto q : {std::optional<tpu::QuantizationConfig>{}, std::optional{tpu::QuantizationConfig{16, -1, 8}}}) {
                const auto reference = analyzeTableReference(t, q, {}, Exec{1});
                QVERIFY(reference.ok());
                for (int threads : {1, 2, 8}) {
                    const auto fused = analyzeTable(t, q, {}, Exec{threads});
                    QVERIFY(fused.ok());
                    compare(*fused, *reference, QString("zeros, %1 threads").arg(threads));
                }
                QCOMPARE(std::signbit(reference->suggestions[0].lower), negativeFirst);
            }
        }
    }

    // simulateFeature (gathered rows measured from the table rows with vector code) against
    // the reference (scalar code, same order): every matrix and statistic bit for bit.
    void featureEqualsReference() {
        const tpu::QuantizationConfig q{256, -0.2, 0.2};
        const std::vector<float> specials = finiteSpecialsFor(q.lower, q.upper);
        const auto table = randomTable(5000, 48, 77, 0.1, specials, 0.01);
        IdBatchSpec spec;
        spec.batch_size = 300;
        spec.ids_per_example = 7;
        for (auto [dist, weights] : {std::pair{IdDistribution::Uniform, false}, std::pair{IdDistribution::Zipf, true}}) {
            spec.distribution = dist;
            spec.weights = weights;
            auto batch = generateIdBatch(spec, table.rows);
            QVERIFY(batch.ok());
            for (const char* combiner : {"mean", "sum", "sqrtn"})
                for (auto config : {std::optional{q}, std::optional{tpu::QuantizationConfig{3, -0.05, 0.1}},
                                    std::optional<tpu::QuantizationConfig>{}}) {
                    const auto reference = simulateFeatureReference(table, *batch, combiner, config, Exec{1});
                    QVERIFY(reference.ok());
                    for (int threads : {1, 2, 8}) {
                        const auto fused = simulateFeature(table, *batch, combiner, config, Exec{threads});
                        QVERIFY(fused.ok());
                        const QString label = QString("%1, %2 threads").arg(combiner).arg(threads);
                        QVERIFY(sameFloats(fused->float_activations.values, reference->float_activations.values));
                        QVERIFY(sameFloats(fused->quantized_activations.values, reference->quantized_activations.values));
                        QVERIFY(sameFloats(fused->quantized_after_combine.values,
                                           reference->quantized_after_combine.values));
                        compareStats(fused->stats, reference->stats, "stats", label);
                        compareStats(fused->stats_after_combine, reference->stats_after_combine, "after", label);
                        compareStats(fused->gathered_rows, reference->gathered_rows, "gathered", label);
                        QCOMPARE(fused->examples, reference->examples);
                        QCOMPARE(fused->ids, reference->ids);
                        QCOMPARE(fused->unique_ids, reference->unique_ids);
                        QCOMPARE(fused->empty_examples, reference->empty_examples);
                    }
                }
        }
        // A bad id: the lookup's error, as the reference reports it.
        IdBatch bad;
        bad.ids.indices = {{0, 0}, {0, 1}};
        bad.ids.values = {3, table.rows};
        bad.ids.dense_shape = {1, 2};
        const auto r = simulateFeatureReference(table, bad, "mean", q);
        const auto f = simulateFeature(table, bad, "mean", q, Exec{2});
        QVERIFY(!r.ok() && !f.ok());
        QCOMPARE(f.error(), r.error());
    }

    // pairStats' distinct count (a hash set whose slots are computed ahead, group by group)
    // against errorStats' sort: values repeated at random among many distinct ones (so the
    // set grows in the middle of a group), -0 next to +0, NaN in x or in y.
    void pairStatsCountsEveryDistinctValueOnce() {
        std::mt19937 rng(9);
        for (int distinct : {3, 5000, 200000}) {
            std::uniform_int_distribution<int> pick(0, distinct - 1);
            std::vector<float> x(300000), y(x.size());
            for (size_t i = 0; i < x.size(); ++i) {
                x[i] = static_cast<float>(i % 977) * 0.001f;
                y[i] = static_cast<float>(pick(rng) - distinct / 2) * 0.0001f;
            }
            y[7] = -0.0f, y[8] = 0.0f;
            x[10] = std::numeric_limits<float>::quiet_NaN();
            y[11] = std::numeric_limits<float>::quiet_NaN();
            const auto reference = analysis::errorStats(x, y);
            QVERIFY(reference.ok());
            for (int threads : {1, 2, 8}) {
                const auto s = pairStats(x, y, Exec{threads});
                QCOMPARE(s.distinct_levels, reference->distinct_levels);
                QCOMPARE(s.nan_pairs, int64_t{2});
            }
        }
    }

    // The gathered rows' statistics count each distinct row once, times its multiplicity
    // (gathered_order.h): against errorStats over every gathered pair, the counts, clipped
    // share, max |error| and levels are equal and the sums agree to 1e-12 (relative).
    void gatheredRowsAsEveryPair() {
        const tpu::QuantizationConfig q{256, -0.2, 0.2};
        const std::vector<float> specials = finiteSpecialsFor(q.lower, q.upper);
        const auto table = randomTable(3000, 40, 5, 0.12, specials, 0.01);
        IdBatchSpec spec;
        spec.distribution = IdDistribution::Zipf;  // hot ids: rows repeated many times
        spec.batch_size = 500;
        spec.ids_per_example = 8;
        auto batch = generateIdBatch(spec, table.rows);
        QVERIFY(batch.ok());
        std::vector<float> gathered;
        for (int64_t id : batch->ids.values) {
            const auto row = table.row(id);
            gathered.insert(gathered.end(), row.begin(), row.end());
        }
        std::vector<float> quantized(gathered.size());
        QVERIFY(tpu::simulateQuantization(gathered, quantized, q).ok());
        const auto every = analysis::errorStats(gathered, quantized, analysis::ClipRange{q.lower, q.upper});
        QVERIFY(every.ok());
        const auto sim = simulateFeature(table, *batch, "mean", q, Exec{2});
        QVERIFY(sim.ok());
        const analysis::ErrorStats& g = sim->gathered_rows;
        QVERIFY(sim->unique_ids < batch->numIds() / 2);
        QCOMPARE(g.count, every->count);
        QCOMPARE(g.nan_pairs, every->nan_pairs);
        QVERIFY(g.nan_pairs > 0);
        QCOMPARE(g.fraction_clipped, every->fraction_clipped);
        QVERIFY(g.fraction_clipped > 0);
        QCOMPARE(g.max_abs_error, every->max_abs_error);
        QCOMPARE(g.distinct_levels, every->distinct_levels);
        for (auto [a, b] : {std::pair{g.mse, every->mse}, std::pair{g.mean_error, every->mean_error},
                            std::pair{g.sqnr_db, every->sqnr_db}, std::pair{g.cosine, every->cosine}})
            QVERIFY2(std::fabs(a - b) <= 1e-12 * std::fabs(b), qPrintable(QString("%1 vs %2").arg(a, 0, 'g', 17).arg(b, 0, 'g', 17)));
    }

    // Distinct ids with their multiplicities, ascending: by the bitmap and by the sort used
    // past 2^27 rows.
    void distinctIdsCounts() {
        const std::vector<int64_t> ids{7, 3, 7, 0, 63, 64, 3, 7, 129, 64};
        for (int64_t rows : {int64_t{130}, (int64_t{1} << 27) + 1}) {
            const IdCounts d = distinctIds(ids, rows);
            QCOMPARE(d.ids, (std::vector<int64_t>{0, 3, 7, 63, 64, 129}));
            QCOMPARE(d.counts, (std::vector<int64_t>{1, 2, 3, 1, 2, 1}));
        }
        QCOMPARE(countUniqueIds(ids, 130), int64_t{6});
    }

    // A table read from a .npy in chunks: the same analysis as in memory, bit for bit, and
    // the same feature figures from the rows the ids name.
    void streamedTableEqualsInMemory() {
        QTemporaryDir dir;
        const tpu::QuantizationConfig q{256, -0.2, 0.2};
        const std::vector<float> specials = finiteSpecialsFor(q.lower, q.upper);
        const auto table = randomTable(9000, 100, 5, 0.09, specials, 0.001);
        const std::string path = dir.filePath("table.npy").toStdString();
        QVERIFY(data::writeNpy(path, table.values, {table.rows, table.cols}).ok());
        auto stream = NpyTableStream::open(path);
        QVERIFY2(stream.ok(), stream.ok() ? "" : stream.error().message.c_str());
        QCOMPARE((*stream)->rows(), table.rows);
        QCOMPARE((*stream)->dim(), table.cols);
        TableAnalysisOptions options;
        options.window_first_row = 4000;
        options.chunk_elements = 3 * kReduceBlock;  // several chunks, read ahead
        for (auto config : {std::optional{q}, std::optional<tpu::QuantizationConfig>{}}) {
            const auto memory = analyzeTable(table, config, options, Exec{2});
            std::vector<double> fractions;
            const auto streamed = analyzeTableStream(**stream, table.rows, table.cols, config, options, Exec{2},
                                                     [&](double f) { fractions.push_back(f); return true; });
            QVERIFY(memory.ok() && streamed.ok());
            compare(*streamed, *memory, "streamed");
            QVERIFY(fractions.size() > 3);
            QCOMPARE(fractions.back(), 1.0);
        }
        // Cancel between chunks.
        const auto cancelled = analyzeTableStream(**stream, table.rows, table.cols, q, options, Exec{2},
                                                  [](double f) { return f < 0.3; });
        QVERIFY(!cancelled.ok());
        QCOMPARE(cancelled.error().kind, std::string("Cancelled"));

        IdBatchSpec spec;
        spec.batch_size = 200;
        spec.ids_per_example = 5;
        auto batch = generateIdBatch(spec, table.rows);
        QVERIFY(batch.ok());
        const auto memoryFeature = analyzeFeature(table, *batch, "mean", q, 4, tpu::PartitionStrategy::Mod, Exec{2});
        const auto streamedFeature =
            analyzeFeatureStream(**stream, *batch, "mean", q, 4, tpu::PartitionStrategy::Mod, Exec{2});
        QVERIFY(memoryFeature.ok() && streamedFeature.ok());
        QVERIFY(sameFloats(streamedFeature->simulation.quantized_activations.values,
                           memoryFeature->simulation.quantized_activations.values));
        compareStats(streamedFeature->simulation.gathered_rows, memoryFeature->simulation.gathered_rows, "gathered",
                     "streamed");
        compareStats(streamedFeature->simulation.stats, memoryFeature->simulation.stats, "stats", "streamed");
        QCOMPARE(streamedFeature->simulation.unique_ids, memoryFeature->simulation.unique_ids);
        QCOMPARE(streamedFeature->sharding.vocabulary_size, memoryFeature->sharding.vocabulary_size);
        QCOMPARE(streamedFeature->sharding.traffic_imbalance, memoryFeature->sharding.traffic_imbalance);
        IdBatch bad = *batch;
        bad.ids.values[3] = table.rows;
        const auto badFeature = analyzeFeatureStream(**stream, bad, "mean", q, 4, tpu::PartitionStrategy::Mod);
        QVERIFY(!badFeature.ok());
        QVERIFY(badFeature.error().message.find("indices[3]") != std::string::npos);
    }

    // openTable streams a .npy over its threshold and loads smaller ones; the analyses of
    // either kind of OpenTable agree.
    void openTableStreamsLargeFiles() {
        QTemporaryDir dir;
        const auto table = randomTable(700, 16, 3, 0.1, {}, 0);
        const std::string path = dir.filePath("t.npy").toStdString();
        QVERIFY(data::writeNpy(path, table.values, {table.rows, table.cols}).ok());
        TableSource source;
        source.path = path;
        auto streamed = openTable(source, 700, 16, {}, {}, 1000);
        auto loaded = openTable(source, 700, 16);
        QVERIFY(streamed.ok() && loaded.ok());
        QVERIFY(streamed->stream && !streamed->memory);
        QVERIFY(loaded->memory && !loaded->stream);
        const tpu::QuantizationConfig q{16, -0.2, 0.2};
        auto a = analyzeTable(*streamed, q);
        auto b = analyzeTable(*loaded, q);
        QVERIFY(a.ok() && b.ok());
        compare(*a, *b, "openTable");
        auto wrong = openTable(source, 701, 16, {}, {}, 1000);
        QVERIFY(!wrong.ok());
        QCOMPARE(wrong.error().message, std::string("t.npy has shape [700, 16] but the table is vocabulary_size=701, dim=16"));
    }

    // A .npy table bigger than the memory a child process may use: it cannot be read into
    // memory there, and its streamed analysis still gives the parent's in-memory figures.
    void streamedTableLargerThanMemory() {
#if defined(__SANITIZE_ADDRESS__)
        // ASan reserves terabytes of shadow address space and aborts (instead of throwing
        // bad_alloc) when an allocation fails: an address-space cap cannot be tested under it.
        QSKIP("an RLIMIT_AS cap cannot be tested under AddressSanitizer");
#endif
        QTemporaryDir dir;
        const tpu::QuantizationConfig q{256, -0.2, 0.2};
        const std::string path = dir.filePath("big.npy").toStdString();
        TableAnalysisOptions options;
        options.chunk_elements = 16 * kReduceBlock;  // 4 MB per chunk
        const int64_t rows = 125000, dim = 128;       // 16M values, 64 MB
        TableAnalysis expected;
        {
            const auto table = randomTable(rows, dim, 9, 0.09, {}, 0);
            QVERIFY(data::writeNpy(path, table.values, {rows, dim}).ok());
            auto a = analyzeTable(table, q, options, Exec{1});
            QVERIFY(a.ok());
            expected = *a;
        }  // the table's memory is given back before the fork
        const pid_t child = fork();
        QVERIFY(child >= 0);
        if (child == 0) _exit(childAnalysis(path, q, options, expected));
        int status = 0;
        QCOMPARE(waitpid(child, &status, 0), child);
        QVERIFY(WIFEXITED(status));
        QCOMPARE(WEXITSTATUS(status), 0);
    }

    // The errors, in the reference's order.
    void errorsAsTheReference() {
        const tpu::RowMatrix nans{100, 2, std::vector<float>(200, kNaN)};
        const tpu::RowMatrix ok{100, 2, std::vector<float>(200, 0.25f)};
        const tpu::QuantizationConfig inverted{256, 1.0, -1.0}, good{256, -1.0, 1.0};
        TableAnalysisOptions badPercentile;
        badPercentile.percentile = 40;
        struct {
            const tpu::RowMatrix* table;
            std::optional<tpu::QuantizationConfig> q;
            TableAnalysisOptions options;
        } cases[] = {{&ok, inverted, {}}, {&nans, good, {}}, {&nans, std::nullopt, {}}, {&ok, good, badPercentile}};
        for (const auto& c : cases) {
            const auto reference = analyzeTableReference(*c.table, c.q, c.options);
            const auto fused = analyzeTable(*c.table, c.q, c.options);
            QVERIFY(!reference.ok());
            QVERIFY(!fused.ok());
            QCOMPARE(fused.error(), reference.error());
        }
    }

private:
    // In the forked child: address space capped 48 MB above what is mapped now (below the
    // file's 64 MB of values). Exit codes: 0 ok, 2 the table could be allocated (the cap
    // does not bite), 3 opening failed, 4 the analysis failed, 5 a figure differs.
    static int childAnalysis(const std::string& path, const tpu::QuantizationConfig& q,
                             const TableAnalysisOptions& options, const TableAnalysis& expected) {
        mallopt(M_ARENA_MAX, 1);  // no 64 MB malloc arena per thread
        // Free heap the earlier tests left would hold the table without new address space.
        malloc_trim(0);
        rlimit cap{};
        cap.rlim_cur = cap.rlim_max = static_cast<rlim_t>(mappedBytes() + (int64_t{48} << 20));
        if (setrlimit(RLIMIT_AS, &cap) != 0) return 6;
        try {
            std::vector<float> whole(size_t{16} << 20);
            return whole[12] == 0 ? 2 : 2;
        } catch (const std::bad_alloc&) {
        }
        auto stream = NpyTableStream::open(path);
        if (!stream) return 3;
        const auto a = analyzeTableStream(**stream, (*stream)->rows(), (*stream)->dim(), q, options, Exec{1});
        if (!a) return 4;
        const bool same = a->occupancy->counts == expected.occupancy->counts &&
                          bits(a->table_error.mse) == bits(expected.table_error.mse) &&
                          bits(a->table_error.cosine) == bits(expected.table_error.cosine) &&
                          a->table_error.distinct_levels == expected.table_error.distinct_levels &&
                          bits(a->suggestions[2].upper) == bits(expected.suggestions[2].upper) &&
                          bits(a->suggestions[3].mse) == bits(expected.suggestions[3].mse) &&
                          a->storage->bytes_codes == expected.storage->bytes_codes;
        return same ? 0 : 5;
    }
    // VmSize of this process, from /proc/self/status.
    static int64_t mappedBytes() {
        std::ifstream status("/proc/self/status");
        std::string key;
        int64_t kb = 0;
        while (status >> key)
            if (key == "VmSize:" && status >> kb) break;
        return kb * 1024;
    }

    static const std::vector<Case>& cases() {
        static const std::vector<Case> all = {
            {"tiny 3x5, 256 buckets", 3, 5, 0.1, tpu::QuantizationConfig{256, -0.2, 0.2}, 0.2},
            {"one partial block, no quantization", 1000, 64, 0.1, std::nullopt, 0.01},
            {"4 blocks + a partial one, 2 buckets", 2100, 128, 1.0, tpu::QuantizationConfig{2, -1.0, 1.0}, 0.01},
            {"two chunks, 256 buckets", 40000, 128, 0.09, tpu::QuantizationConfig{256, -0.2, 0.2}, 0.001},
            {"two chunks, 70000 buckets (one histogram copy)", 40000, 128, 0.09,
             tpu::QuantizationConfig{70000, -0.3, 0.25}, 0.001},
            {"two chunks, mostly clipped, odd bounds", 40000, 128, 3.0,
             tpu::QuantizationConfig{37, -0.1000000000000001, 0.30000000000000004}, 0.0001},
            {"two chunks, no quantization", 40000, 128, 0.09, std::nullopt, 0.001},
        };
        return all;
    }
};

QTEST_GUILESS_MAIN(TstEmbeddingFused)
#include "tst_embedding_fused.moc"
