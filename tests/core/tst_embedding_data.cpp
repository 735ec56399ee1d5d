// Over 500 lines on purpose: initializers, id batches and storage export share the table fixtures.
// Data of the embedding workbench: table initializers (statistics, truncation, determinism
// across thread counts, cancel, errors), lookup id batches (spec syntax, uniform and Zipf
// frequencies, weights, steps, CSV reading with its errors) and the storage quantization
// export (code dtype, bit-exact reconstruction, the files written and their numbers).
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>
#include <cmath>
#include <cstring>
#include <fstream>
#include <limits>
#include <string>
#include <vector>

#include "core/analysis/error_stats.h"
#include "core/data/generators.h"
#include "core/data/npy_reader.h"
#include "core/data/npy_writer.h"
#include "core/embedding/id_batch.h"
#include "core/embedding/storage_quant.h"
#include "core/embedding/table_init.h"
#include "core/tpu/simulated_quantization.h"
#include "tests/core/sample_helpers.h"

using namespace qs::embedding;
using qs::Exec;
using qs::tpu::RowMatrix;

namespace {

using namespace qs::testing;

std::string readAll(const std::string& path) {
    std::ifstream f(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(f), {});
}

// The raw data of a .npy file written by writeNpy (header length at bytes 8-9).
std::string npyData(const std::string& bytes, std::string* header = nullptr) {
    const size_t len = static_cast<uint8_t>(bytes[8]) | (static_cast<size_t>(static_cast<uint8_t>(bytes[9])) << 8);
    if (header) *header = bytes.substr(10, len);
    return bytes.substr(10 + len);
}

// The standard deviation of N(0, 1) truncated to [-2, 2]: sqrt(1 - 4 phi(2) / (Phi(2) - Phi(-2))).
const double kTruncatedStd = std::sqrt(1.0 - 4.0 * 0.05399096651318806 / 0.9544997361036416);  // 0.8796

}  // namespace

class TestEmbeddingData : public QObject {
    Q_OBJECT

private slots:
    // The storage statistics come from one fused parallel pass (no reconstructed copy):
    // they must be errorStats over (table, simulated quantization) — counts, max |error|,
    // clip fraction and levels exactly, sums to rounding — for every thread count.
    void storageStatisticsEqualErrorStats() {
        qs::tpu::RowMatrix table{3000, 100, qs::data::normal(300000, 9, 0, 0.4).values};
        table.values[17] = std::numeric_limits<float>::quiet_NaN();
        table.values[99] = 50.0f;
        const qs::tpu::QuantizationConfig config{200, -0.75, 0.5};
        auto one = qs::embedding::analyzeStorageQuantization(table, config, qs::Exec{1});
        auto three = qs::embedding::analyzeStorageQuantization(table, config, qs::Exec{3});
        QVERIFY(one && three);
        QCOMPARE(three->reconstruction.mse, one->reconstruction.mse);
        QCOMPARE(three->reconstruction.cosine, one->reconstruction.cosine);
        std::vector<float> y(table.values.size());
        QVERIFY(qs::tpu::simulateQuantization(table.values, y, config));
        auto ref = qs::analysis::errorStats(table.values, y, qs::analysis::ClipRange{config.lower, config.upper});
        QVERIFY(ref);
        const auto& s = one->reconstruction;
        QCOMPARE(s.count, ref->count);
        QCOMPARE(s.nan_pairs, int64_t(1));
        QCOMPARE(s.max_abs_error, ref->max_abs_error);
        QCOMPARE(s.fraction_clipped, ref->fraction_clipped);
        QCOMPARE(s.distinct_levels, ref->distinct_levels);
        QVERIFY(std::abs(s.mse / ref->mse - 1) < 1e-12);
        QVERIFY(std::abs(s.mean_error - ref->mean_error) < 1e-12);
        QVERIFY(std::abs(s.sqnr_db - ref->sqnr_db) < 1e-9);
    }

    // ---- table initializers ----

    void initializerNamesRoundTrip() {
        for (auto k : {InitializerKind::TruncatedNormal, InitializerKind::Uniform, InitializerKind::Zeros,
                       InitializerKind::Constant}) {
            auto back = initializerFromName(initializerName(k));
            QVERIFY(back.ok());
            QCOMPARE(*back, k);
        }
        QCOMPARE(initializerName(InitializerKind::TruncatedNormal), std::string("truncated_normal"));
        auto bad = initializerFromName("glorot");
        QVERIFY(!bad.ok());
        QCOMPARE(bad.error().kind, std::string("DataError"));
        QVERIFY(bad.error().message.find("'glorot'") != std::string::npos);
    }

    void defaultStddevAndPython() {
        InitializerSpec spec;
        QCOMPARE(effectiveStddev(spec, 100), 0.1);
        QCOMPARE(effectiveStddev(spec, 128), 1.0 / std::sqrt(128.0));
        spec.stddev = 0.25;
        QCOMPARE(effectiveStddev(spec, 128), 0.25);
        QCOMPARE(initializerPython(InitializerSpec{}, 128),
                 std::string("tf.initializers.TruncatedNormal(mean=0.0, stddev=0.08838834764831843, seed=1)"));
        InitializerSpec u;
        u.kind = InitializerKind::Uniform;
        u.seed = 7;
        QCOMPARE(initializerPython(u, 8),
                 std::string("tf.initializers.RandomUniform(minval=-0.05, maxval=0.05, seed=7)"));
    }

    void truncatedNormalStatistics() {
        // 1e6 values, dim 100: default stddev 0.1, truncated at +-0.2.
        auto t = initializeTable(10000, 100, InitializerSpec{}, Exec{2});
        QVERIFY(t.ok());
        QCOMPARE(t->rows, int64_t{10000});
        QCOMPARE(t->cols, int64_t{100});
        QCOMPARE(t->values.size(), size_t{1000000});
        const Moments m = moments(t->values);
        QVERIFY2(std::fabs(m.mean) < 0.0005, std::to_string(m.mean).c_str());
        QVERIFY2(std::fabs(m.std / (0.1 * kTruncatedStd) - 1) < 0.005, std::to_string(m.std).c_str());
        QVERIFY(m.min >= -0.2f && m.max <= 0.2f);
        QVERIFY(m.min < -0.199 && m.max > 0.199);  // the tails are reached, not cut short

        InitializerSpec shifted;
        shifted.mean = 3;
        shifted.stddev = 0.5;
        auto s = initializeTable(1000, 1000, shifted);
        QVERIFY(s.ok());
        const Moments ms = moments(s->values);
        QVERIFY(std::fabs(ms.mean - 3) < 0.002);
        QVERIFY(std::fabs(ms.std / (0.5 * kTruncatedStd) - 1) < 0.005);
        QVERIFY(ms.min >= 2.0 && ms.max <= 4.0);
    }

    void uniformZerosConstant() {
        InitializerSpec u;
        u.kind = InitializerKind::Uniform;
        u.minval = -0.5;
        u.maxval = 1.5;
        auto t = initializeTable(1000, 1000, u);
        QVERIFY(t.ok());
        const Moments m = moments(t->values);
        QVERIFY(m.min >= -0.5 && m.max < 1.5);
        QVERIFY(m.min < -0.499 && m.max > 1.499);
        QVERIFY(std::fabs(m.mean - 0.5) < 0.003);
        QVERIFY(std::fabs(m.std / (2.0 / std::sqrt(12.0)) - 1) < 0.005);

        InitializerSpec z;
        z.kind = InitializerKind::Zeros;
        auto zt = initializeTable(3, 4, z);
        QVERIFY(zt.ok());
        QCOMPARE(zt->values, std::vector<float>(12, 0.0f));
        InitializerSpec c;
        c.kind = InitializerKind::Constant;
        c.value = 0.1;
        auto ct = initializeTable(2, 3, c);
        QVERIFY(ct.ok());
        QCOMPARE(ct->values, std::vector<float>(6, 0.1f));
    }

    void deterministicAcrossThreads() {
        // 5M elements: more than one progress chunk and split over threads.
        for (auto kind : {InitializerKind::TruncatedNormal, InitializerKind::Uniform}) {
            InitializerSpec spec;
            spec.kind = kind;
            spec.seed = 42;
            auto one = initializeTable(5000, 1000, spec, Exec{1});
            auto four = initializeTable(5000, 1000, spec, Exec{4});
            QVERIFY(one.ok() && four.ok());
            QVERIFY(sameBits(one->values, four->values));
            spec.seed = 43;
            auto other = initializeTable(5000, 1000, spec, Exec{4});
            QVERIFY(!sameBits(one->values, other->values));
        }
        // A smaller table is the prefix-independent function of the element index: row 0
        // of a 1 x 64 table equals row 0 of a 10 x 64 table.
        auto small = initializeTable(1, 64, InitializerSpec{});
        auto big = initializeTable(10, 64, InitializerSpec{});
        QVERIFY(std::equal(small->values.begin(), small->values.end(), big->values.begin()));
    }

    void progressAndCancel() {
        std::vector<double> seen;
        auto t = initializeTable(3000, 4096, InitializerSpec{}, Exec{2}, [&](double f) {
            seen.push_back(f);
            return true;
        });
        QVERIFY(t.ok());
        QVERIFY(seen.size() >= 3);
        QCOMPARE(seen.front(), 0.0);
        QCOMPARE(seen.back(), 1.0);
        QVERIFY(std::is_sorted(seen.begin(), seen.end()));

        int calls = 0;
        auto c = initializeTable(3000, 4096, InitializerSpec{}, Exec{2}, [&](double) { return ++calls < 2; });
        QVERIFY(!c.ok());
        QCOMPARE(c.error().kind, std::string("Cancelled"));
        QCOMPARE(calls, 2);
    }

    void initializerErrors() {
        const auto kindOf = [](const qs::Result<RowMatrix>& r) { return r.ok() ? std::string("ok") : r.error().kind; };
        QCOMPARE(kindOf(initializeTable(0, 4, {})), std::string("InvalidArgument"));
        QCOMPARE(kindOf(initializeTable(4, 0, {})), std::string("InvalidArgument"));
        QCOMPARE(kindOf(initializeTable(-5, 4, {})), std::string("InvalidArgument"));
        auto huge = initializeTable(int64_t{1} << 20, int64_t{1} << 20, {});
        QVERIFY(!huge.ok());
        QVERIFY(huge.error().message.find("2^34") != std::string::npos);
        QCOMPARE(kindOf(initializeTable(int64_t{1} << 40, int64_t{1} << 40, {})), std::string("InvalidArgument"));
        // Below 2^34 elements but more than half the machine's memory: refused before any
        // allocation (it used to zero-fill until the machine ran out of memory).
        const int64_t limit = maxTableElements();
        QVERIFY(limit > 0 && limit <= int64_t{1} << 34);
        QVERIFY(limit <= physicalMemoryBytes() / 8);
        if (limit < int64_t{1} << 34) {
            const int64_t dim = 64, rows = limit / dim + 1;
            auto big = initializeTable(rows, dim, {});
            QVERIFY(!big.ok());
            QCOMPARE(big.error().kind, std::string("InvalidArgument"));
            QVERIFY2(big.error().message.find("more than half of this machine's") != std::string::npos,
                     big.error().message.c_str());
        }
        InitializerSpec s;
        s.stddev = std::nan("");
        QCOMPARE(kindOf(initializeTable(2, 2, s)), std::string("InvalidArgument"));
        s = {};
        s.mean = INFINITY;
        QCOMPARE(kindOf(initializeTable(2, 2, s)), std::string("InvalidArgument"));
        InitializerSpec u;
        u.kind = InitializerKind::Uniform;
        u.minval = 1;
        u.maxval = 1;
        auto r = initializeTable(2, 2, u);
        QVERIFY(!r.ok());
        QVERIFY(r.error().message.find("minval must be < maxval") != std::string::npos);
        InitializerSpec c;
        c.kind = InitializerKind::Constant;
        c.value = NAN;
        QCOMPARE(kindOf(initializeTable(2, 2, c)), std::string("InvalidArgument"));
    }

    void tableFromDatasets() {
        qs::data::Dataset d;
        d.values = {1, 2, 3, 4, 5, 6};
        d.shape = {2, 3};
        d.label = "t.npy";
        auto t = tableFromDataset(std::move(d));
        QVERIFY(t.ok());
        QCOMPARE(t->rows, int64_t{2});
        QCOMPARE(t->cols, int64_t{3});
        QCOMPARE(t->values, (std::vector<float>{1, 2, 3, 4, 5, 6}));
        qs::data::Dataset v;
        v.values = {1, 2, 3};
        v.shape = {3};
        v.label = "v.csv";
        auto e = tableFromDataset(std::move(v));
        QVERIFY(!e.ok());
        QCOMPARE(e.error().kind, std::string("DataError"));
        QCOMPARE(e.error().message, std::string("v.csv: an embedding table needs 2-D data [rows, dim], got shape [3]"));
    }

    // ---- id batches ----

    void specParseAndFormat() {
        auto z = parseIdBatchSpec("zipf:batch=4096,ids=8,s=1.1,weights=1,seed=7");
        QVERIFY(z.ok());
        QCOMPARE(z->distribution, IdDistribution::Zipf);
        QCOMPARE(z->batch_size, int64_t{4096});
        QCOMPARE(z->ids_per_example, int64_t{8});
        QCOMPARE(z->zipf_exponent, 1.1);
        QVERIFY(z->weights);
        QCOMPARE(z->seed, uint64_t{7});
        QCOMPARE(formatIdBatchSpec(*z), std::string("zipf:batch=4096,ids=8,s=1.1,weights=1,seed=7"));
        QCOMPARE(formatIdBatchSpec(IdBatchSpec{}), std::string("uniform:batch=1024,ids=4,seed=1"));
        auto u = parseIdBatchSpec("uniform");
        QVERIFY(u.ok());
        QCOMPARE(*u, IdBatchSpec{});
        auto spaced = parseIdBatchSpec(" zipf : ids = 2 , s=0.5 ");
        QVERIFY(spaced.ok());
        QCOMPARE(spaced->ids_per_example, int64_t{2});
        QCOMPARE(spaced->zipf_exponent, 0.5);
        QCOMPARE(spaced->batch_size, int64_t{1024});
        auto back = parseIdBatchSpec(formatIdBatchSpec(*spaced));
        QVERIFY(back.ok());
        QCOMPARE(*back, *spaced);
    }

    // Each refused spec, and the reason after "DataError: id batch '<spec>': ".
    void specErrors_data() {
        QTest::addColumn<QString>("spec");
        QTest::addColumn<QString>("reason");
        const struct { const char* spec; const char* reason; } cases[] = {
            {"zipf:batch=x", "batch must be an integer >= 1, got 'x'"},
            {"uniform:ids=0", "ids must be an integer >= 1, got '0'"},
            {"zipf:s=-1", "s must be a number > 0, got '-1'"},
            {"uniform:s=2", "unknown key 's' for uniform (valid keys: batch, ids, weights, seed)"},
            {"zipf:weights=2", "weights must be 0 or 1, got '2'"},
            {"zipf:seed=-3", "seed must be an integer >= 0, got '-3'"},
            {"normal:batch=3", "unknown distribution 'normal' (valid: uniform, zipf)"},
            {"zipf:batch=2,batch=3", "key 'batch' is given twice"},
            {"zipf:batch", "'batch' has no value (expected key=value)"},
        };
        for (const auto& c : cases) QTest::newRow(c.spec) << QString(c.spec) << QString(c.reason);
    }
    void specErrors() {
        QFETCH(QString, spec);
        QFETCH(QString, reason);
        auto r = parseIdBatchSpec(spec.toStdString());
        QVERIFY(!r.ok());
        QCOMPARE(QString::fromStdString(r.error().kind + ": " + r.error().message),
                 "DataError: id batch '" + spec + "': " + reason);
    }

    void uniformIds() {
        IdBatchSpec spec;
        spec.batch_size = 1000;
        spec.ids_per_example = 3;
        auto b = generateIdBatch(spec, 10);
        QVERIFY(b.ok());
        QCOMPARE(b->numIds(), int64_t{3000});
        QVERIFY(!b->weights);
        std::vector<int> count(10);
        for (int64_t id : b->ids.values) {
            QVERIFY(id >= 0 && id < 10);
            ++count[static_cast<size_t>(id)];
        }
        for (int c : count) QVERIFY2(c > 200 && c < 400, std::to_string(c).c_str());  // 300 expected
        QCOMPARE(b->ids.dense_shape, (std::array<int64_t, 2>{1000, 3}));
        for (size_t k = 0; k < b->ids.indices.size(); ++k)
            QCOMPARE(b->ids.indices[k], (std::array<int64_t, 2>{static_cast<int64_t>(k / 3), static_cast<int64_t>(k % 3)}));
        auto one = generateIdBatch(spec, 1);
        QVERIFY(one.ok());
        for (int64_t id : one->ids.values) QCOMPARE(id, int64_t{0});
    }

    void zipfFrequencies() {
        IdBatchSpec spec;
        spec.distribution = IdDistribution::Zipf;
        spec.batch_size = 250000;
        spec.ids_per_example = 4;
        auto b = generateIdBatch(spec, 1000);
        QVERIFY(b.ok());
        std::vector<int64_t> count(1000);
        for (int64_t id : b->ids.values) {
            QVERIFY(id >= 0 && id < 1000);
            ++count[static_cast<size_t>(id)];
        }
        double h = 0;
        for (int k = 1; k <= 1000; ++k) h += std::pow(k, -1.1);
        for (int id : {0, 1, 9, 99}) {
            const double expected = std::pow(id + 1, -1.1) / h * 1e6;  // 179442, 83713, 14254, 1132
            const double ratio = static_cast<double>(count[static_cast<size_t>(id)]) / expected;
            QVERIFY2(std::fabs(ratio - 1) < (id < 10 ? 0.02 : 0.1), (std::to_string(id) + ": " + std::to_string(ratio)).c_str());
        }
        // A vocabulary of 1e8 costs no set-up: ids stay in range and id 0 is the hottest.
        spec.batch_size = 10000;
        auto big = generateIdBatch(spec, 100000000);
        QVERIFY(big.ok());
        int64_t zeros = 0;
        for (int64_t id : big->ids.values) {
            QVERIFY(id >= 0 && id < 100000000);
            zeros += id == 0;
        }
        QVERIFY(zeros > 40000 * 0.03);  // 1 / H(1e8, 1.1) = 0.094
    }

    void weightsAndSteps() {
        IdBatchSpec spec;
        spec.weights = true;
        spec.batch_size = 50000;
        auto b = generateIdBatch(spec, 1000, 0);
        QVERIFY(b.ok());
        QVERIFY(b->weights.has_value());
        QCOMPARE(b->weights->size(), b->ids.values.size());
        const Moments m = moments(*b->weights);
        QVERIFY(m.min >= 0.5 && m.max < 1.5);
        QVERIFY(std::fabs(m.mean - 1) < 0.01);
        auto again = generateIdBatch(spec, 1000, 0);
        QVERIFY(again->ids.values == b->ids.values && *again->weights == *b->weights);
        auto next = generateIdBatch(spec, 1000, 1);
        QVERIFY(next->ids.values != b->ids.values);
        QVERIFY(*next->weights != *b->weights);
        spec.distribution = IdDistribution::Zipf;
        QVERIFY(generateIdBatch(spec, 1000, 0)->ids.values != generateIdBatch(spec, 1000, 1)->ids.values);
    }

    void generateErrors() {
        const auto kindOf = [](const qs::Result<IdBatch>& r) { return r.ok() ? std::string("ok") : r.error().kind; };
        QCOMPARE(kindOf(generateIdBatch(IdBatchSpec{}, 0)), std::string("InvalidArgument"));
        IdBatchSpec s;
        s.batch_size = 0;
        QCOMPARE(kindOf(generateIdBatch(s, 10)), std::string("InvalidArgument"));
        s = {};
        s.batch_size = int64_t{1} << 20;
        s.ids_per_example = (int64_t{1} << 11) + 1;
        QCOMPARE(kindOf(generateIdBatch(s, 10)), std::string("InvalidArgument"));
        s = {};
        s.distribution = IdDistribution::Zipf;
        s.zipf_exponent = 0;
        QCOMPARE(kindOf(generateIdBatch(s, 10)), std::string("InvalidArgument"));
        s.zipf_exponent = NAN;
        QCOMPARE(kindOf(generateIdBatch(s, 10)), std::string("InvalidArgument"));
    }

    void csvIds() {
        QTemporaryDir dir;
        const std::string plain = writeFile(dir, "plain.csv", "0,5\n0,7\n2,1\n2,3\n2,9\n");
        auto b = readIdBatchCsv(plain);
        QVERIFY2(b.ok(), b.ok() ? "" : b.error().message.c_str());
        QCOMPARE(b->ids.values, (std::vector<int64_t>{5, 7, 1, 3, 9}));
        QCOMPARE(b->ids.indices, (std::vector<std::array<int64_t, 2>>{{0, 0}, {0, 1}, {2, 0}, {2, 1}, {2, 2}}));
        QCOMPARE(b->ids.dense_shape, (std::array<int64_t, 2>{3, 3}));
        QVERIFY(!b->weights);

        const std::string weighted =
            writeFile(dir, "w.csv", "example,id,weight\r\n0, 4, 0.5\r\n\r\n1,4,2\r\n1,0,-1.25\r\n");
        auto w = readIdBatchCsv(weighted);
        QVERIFY2(w.ok(), w.ok() ? "" : w.error().message.c_str());
        QCOMPARE(w->ids.values, (std::vector<int64_t>{4, 4, 0}));
        QVERIFY(w->weights.has_value());
        QCOMPARE(*w->weights, (std::vector<float>{0.5f, 2.0f, -1.25f}));
        QCOMPARE(w->ids.dense_shape, (std::array<int64_t, 2>{2, 2}));
    }

    void csvErrors() {
        QTemporaryDir dir;
        const auto message = [&](const char* name, const std::string& text) {
            const std::string path = writeFile(dir, name, text);
            auto r = readIdBatchCsv(path);
            return r.ok() ? std::string("ok") : r.error().kind + ": " + r.error().message.substr(path.size() - std::strlen(name));
        };
        QCOMPARE(message("ids.csv", "example,id\n0,1\n0,abc\n"),
                 std::string("DataError: ids.csv: line 3: id \"abc\" is not an integer"));
        QCOMPARE(message("a.csv", "0,1\n1.5,2\n"), std::string("DataError: a.csv: line 2: example \"1.5\" is not an integer"));
        QCOMPARE(message("b.csv", "0,1\n-1,2\n"), std::string("DataError: b.csv: line 2: example -1 is negative"));
        QCOMPARE(message("c.csv", "3,1\n2,2\n"),
                 std::string("DataError: c.csv: line 2: example 2 after example 3 (examples must be non-decreasing)"));
        QCOMPARE(message("d.csv", "0,1,1\n0,2\n"),
                 std::string("DataError: d.csv: line 2: 2 fields, expected 3 as in line 1 (either every line has a weight or none)"));
        QCOMPARE(message("e.csv", "0,1,x\n"), std::string("DataError: e.csv: line 1: weight \"x\" is not a number"));
        QCOMPARE(message("f.csv", "0\n"),
                 std::string("DataError: f.csv: line 1: 1 fields, expected example,id or example,id,weight"));
        QCOMPARE(message("h.csv", "9223372036854775807,1\n"),  // its + 1 overflowed
                 std::string("DataError: h.csv: line 1: example 9223372036854775807 is too large (at most 2^31 - 1)"));
        QCOMPARE(message("i.csv", "2147483647,1\n"), std::string("ok"));
        QCOMPARE(message("g.csv", "example,id\n"), std::string("DataError: g.csv: no lookups (expected lines example,id[,weight])"));
        auto missing = readIdBatchCsv(dir.filePath("none.csv").toStdString());
        QVERIFY(!missing.ok());
        QVERIFY(missing.error().message.find("cannot open") != std::string::npos);
    }

    // ---- storage quantization ----

    void codeDtype() {
        const RowMatrix table{2, 2, {-1.0f, 0.0f, 0.5f, 1.0f}};
        const auto analyze = [&](int64_t buckets) { return analyzeStorageQuantization(table, {buckets, -1.0, 1.0}); };
        auto a = analyze(256);
        QVERIFY(a.ok());
        QCOMPARE(a->code_bits, 8);
        QCOMPARE(a->information_bits, 8);
        auto b = analyze(257);
        QCOMPARE(b->code_bits, 16);
        QCOMPARE(b->information_bits, 9);
        QCOMPARE(analyze(65536)->code_bits, 16);
        QCOMPARE(analyze(65537)->code_bits, 32);
        QCOMPARE(analyze(2)->information_bits, 1);
        QCOMPARE(analyze(int64_t{1} << 32)->code_bits, 32);
        auto tooMany = analyze((int64_t{1} << 32) + 1);
        QVERIFY(!tooMany.ok());
        QCOMPARE(tooMany.error().kind, std::string("InvalidArgument"));
        QCOMPARE(analyze(1).error().kind, std::string("ValueError"));
        QCOMPARE(analyzeStorageQuantization(table, {16, 1.0, 1.0}).error().kind, std::string("InvalidArgument"));
        QCOMPARE(analyzeStorageQuantization(RowMatrix{}, {16, 0.0, 1.0}).error().kind, std::string("InvalidArgument"));
    }

    void bytesAndSavedFraction() {
        const RowMatrix table{3, 5, std::vector<float>(15, 0.25f)};
        auto s = analyzeStorageQuantization(table, {16, 0.0, 1.0});
        QVERIFY(s.ok());
        QCOMPARE(s->rows, int64_t{3});
        QCOMPARE(s->dim, int64_t{5});
        QCOMPARE(s->bytes_float32, int64_t{60});
        QCOMPARE(s->bytes_codes, int64_t{15 + 12});
        QCOMPARE(s->bytes_packed, int64_t{8 + 12});  // 15 * 4 bits = 7.5 bytes -> 8
        QCOMPARE(s->saved_fraction, 1.0 - 27.0 / 60.0);
        // 0.25 with quantum 1/15: bucket floor(3.75 + 0.5) = 4, value 4/15.
        QCOMPARE(s->reconstruction.count, int64_t{15});
        const float r = 4.0f * (1.0f / 15.0f);
        QCOMPARE(s->reconstruction.max_abs_error, std::fabs(double(r) - 0.25));
    }

    void exportMatchesSimulatedQuantization() {
        QTemporaryDir dir;
        InitializerSpec init;
        init.stddev = 0.5;
        auto made = initializeTable(100, 64, init);
        QVERIFY(made.ok());
        RowMatrix* table = &made.value();
        table->values[0] = NAN;     // NaN: code 0, skipped by the statistics
        table->values[1] = 5.0f;    // clipped high
        table->values[2] = -5.0f;   // clipped low
        // 2^32: the last code, 2^32 - 1, is 2^32 in float32 (the clipped 5.0 lands there); it
        // must be written as 2^32 - 1, not converted out of uint32's range (x86 wrote 0).
        for (int64_t buckets : {int64_t{256}, int64_t{257}, int64_t{70000}, int64_t{1} << 32}) {
            const qs::tpu::QuantizationConfig config{buckets, -0.8, 0.9};
            const std::string codes = dir.filePath("codes.npy").toStdString();
            const std::string params = dir.filePath("params.json").toStdString();
            auto s = exportStorageQuantization(*table, config, codes, params, Exec{2});
            QVERIFY2(s.ok(), s.ok() ? "" : s.error().message.c_str());
            // The two files and no temporary left beside them.
            QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden),
                     (QStringList{QStringLiteral("codes.npy"), QStringLiteral("params.json")}));

            std::string header;
            const std::string data = npyData(readAll(codes), &header);
            QCOMPARE((10 + header.size()) % 64, size_t{0});
            const char* descr = buckets == 256 ? "'|u1'" : buckets == 257 ? "'<u2'" : "'<u4'";
            QVERIFY2(header.find(descr) != std::string::npos, header.c_str());
            QVERIFY(header.find("'shape': (100, 64)") != std::string::npos);
            const size_t width = static_cast<size_t>(s->code_bits / 8);
            QCOMPARE(data.size(), 6400 * width);

            const auto k = qs::tpu::prepareF32(config);
            int mismatches = 0;
            for (size_t i = 0; i < 6400; ++i) {
                uint32_t code = 0;
                std::memcpy(&code, data.data() + i * width, width);
                const float x = table->values[i];
                if (std::isnan(x)) {
                    QCOMPARE(code, 0u);
                    continue;
                }
                const float y = static_cast<float>(code) * k.quantum + k.lower;
                const float expected = qs::tpu::simulateQuantizationF32(x, k);
                mismatches += std::memcmp(&y, &expected, 4) != 0;
            }
            QCOMPARE(mismatches, 0);
            QCOMPARE(s->reconstruction.nan_pairs, int64_t{1});
            QCOMPARE(s->reconstruction.count, int64_t{6399});
            QVERIFY(s->reconstruction.max_abs_error >= 4.1 - 1e-6);  // the clipped 5.0

            QFile f(QString::fromStdString(params));
            QVERIFY(f.open(QIODevice::ReadOnly));
            QJsonParseError err;
            const QJsonObject json = QJsonDocument::fromJson(f.readAll(), &err).object();
            QCOMPARE(err.error, QJsonParseError::NoError);
            QCOMPARE(json["format"].toString(), QString("quantscope-storage-quantization"));
            QCOMPARE(json["version"].toInt(), 1);
            QCOMPARE(json["num_buckets"].toInteger(), buckets);
            QCOMPARE(json["lower"].toDouble(), -0.8);
            QCOMPARE(json["upper"].toDouble(), 0.9);
            QCOMPARE(static_cast<float>(json["lower_f32"].toDouble()), k.lower);
            QCOMPARE(json["lower_f32"].toDouble(), double(k.lower));
            QCOMPARE(json["quantum_f32"].toDouble(), double(k.quantum));
            QCOMPARE(json["dtype"].toString(), QString(buckets == 256 ? "uint8" : buckets == 257 ? "uint16" : "uint32"));
            QCOMPARE(json["shape"].toArray(), (QJsonArray{100, 64}));
            QCOMPARE(json["mse"].toDouble(), s->reconstruction.mse);
            QCOMPARE(json["max_abs_error"].toDouble(), s->reconstruction.max_abs_error);
            QCOMPARE(json["bytes_float32"].toInteger(), qint64{25600});
            QCOMPARE(json["bytes_codes"].toInteger(), static_cast<qint64>(6400 * width + 12));

            auto analyzed = analyzeStorageQuantization(*table, config, Exec{1});
            QVERIFY(analyzed.ok());
            QCOMPARE(analyzed->reconstruction.mse, s->reconstruction.mse);
        }
    }

    void exportErrors() {
        const RowMatrix table{1, 2, {0.0f, 1.0f}};
        QTemporaryDir dir;
        const std::string ok = dir.filePath("p.json").toStdString();
        auto r = exportStorageQuantization(table, {4, 0.0, 1.0}, "/nonexistent-dir/codes.npy", ok);
        QVERIFY(!r.ok());
        QCOMPARE(r.error().kind, std::string("DataError"));
        QCOMPARE(r.error().message, std::string("cannot write /nonexistent-dir/codes.npy: No such file or directory"));
        const std::string codes = dir.filePath("c.npy").toStdString();
        auto j = exportStorageQuantization(table, {4, 0.0, 1.0}, codes, dir.path().toStdString());  // a directory
        QVERIFY(!j.ok());
        QVERIFY2(j.error().message.find("cannot write " + dir.path().toStdString() + ": ") == 0, j.error().message.c_str());
        const QFileInfo asFile(dir.path());
        QVERIFY(asFile.dir().entryList({QLatin1Char('.') + asFile.fileName() + QLatin1Char('*')},
                                       QDir::Files | QDir::Hidden).isEmpty());
        int calls = 0;
        auto cancelled = exportStorageQuantization(table, {4, 0.0, 1.0}, codes, ok, {}, [&](double) { return ++calls < 1; });
        QCOMPARE(cancelled.error().kind, std::string("Cancelled"));
    }

    void npyWriterRoundTrip() {
        QTemporaryDir dir;
        const std::string path = dir.filePath("v.npy").toStdString();
        const std::vector<float> values{1.5f, -2.0f, 0.1f, 3.0f, NAN};
        QVERIFY(qs::data::writeNpy(path, std::span<const float>(values), {5}).ok());
        std::string header;
        npyData(readAll(path), &header);
        QCOMPARE(header.substr(0, 54), std::string("{'descr': '<f4', 'fortran_order': False, 'shape': (5,)"));
        QCOMPARE(header.back(), '\n');
        auto back = qs::data::readNpy(path);
        QVERIFY(back.ok());
        QCOMPARE(back->shape, (qs::Shape{5}));
        QVERIFY(sameBits(back->values, values));
        const std::vector<uint16_t> wrongSize{1, 2, 3};
        QCOMPARE(qs::data::writeNpy(path, std::span<const uint16_t>(wrongSize), {2, 2}).error().kind,
                 std::string("InvalidArgument"));
    }
};

QTEST_APPLESS_MAIN(TestEmbeddingData)
#include "tst_embedding_data.moc"
