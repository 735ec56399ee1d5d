// Over 500 lines on purpose: the TPU ops' cases share their float32 hand computations and the
// vectors file.
// TPU embedding: simulated quantization (formula, repr, errors), optimizer clipvalue,
// div/mod sharding, embedding lookups with combiners, and the CLI evaluators against
// tests/data/tpu_simulated_quantization.json. Expected float32 values were computed by
// hand with Python's struct-based float32 rounding (each op rounded once).
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QtTest>
#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

#include "app/cli/evaluators.h"
#include "core/tpu/lookup.h"
#include "core/tpu/optimizer_clip.h"
#include "core/tpu/sharding.h"
#include "core/tpu/simulated_quantization.h"

using namespace qs;
using namespace qs::tpu;

// Bit-exact comparison (QCOMPARE on float/double is fuzzy): both sides widened to double,
// which is exact for float.
#define QCOMPARE_EXACT(a, b) \
    QCOMPARE(std::bit_cast<uint64_t>(double(a)), std::bit_cast<uint64_t>(double(b)))

namespace {

uint32_t bits(float v) {
    uint32_t b;
    std::memcpy(&b, &v, 4);
    return b;
}

QuantizationConfig cfg(int64_t n, double lo, double hi) { return *makeQuantizationConfig(n, lo, hi); }

RowMatrix matrix(const std::vector<std::vector<float>>& rows) {
    RowMatrix m;
    m.rows = static_cast<int64_t>(rows.size());
    m.cols = rows.empty() ? 0 : static_cast<int64_t>(rows[0].size());
    for (const auto& r : rows) m.values.insert(m.values.end(), r.begin(), r.end());
    return m;
}

std::vector<std::vector<float>> toRows(const RowMatrix& m) {
    std::vector<std::vector<float>> out;
    for (int64_t r = 0; r < m.rows; ++r) out.emplace_back(m.row(r).begin(), m.row(r).end());
    return out;
}

SparseIds sparse(std::vector<std::array<int64_t, 2>> idx, std::vector<int64_t> vals,
                 std::array<int64_t, 2> shape) {
    return {std::move(idx), std::move(vals), shape};
}

// JsonOut -> QJsonValue through its own text, so tests see what the CLI prints.
QJsonValue parsed(const cli::JsonOut& v) {
    std::string text = "[";
    text += v.dump(-1);
    text += ']';
    return QJsonDocument::fromJson(QByteArray::fromStdString(text)).array().at(0);
}

double number(const QJsonValue& v) {
    if (v.isString()) {
        const QString s = v.toString();
        if (s == "nan") return std::numeric_limits<double>::quiet_NaN();
        return s.startsWith('-') ? -INFINITY : INFINITY;
    }
    return v.toDouble();
}

// Recursive comparison of numbers within |got - exp| <= atol + rtol |exp|, nulls and lists.
bool close(const QJsonValue& got, const QJsonValue& exp, double atol, double rtol, QString& why) {
    if (exp.isArray()) {
        if (!got.isArray() || got.toArray().size() != exp.toArray().size()) {
            why = "shape differs";
            return false;
        }
        for (qsizetype i = 0; i < exp.toArray().size(); ++i)
            if (!close(got.toArray().at(i), exp.toArray().at(i), atol, rtol, why)) return false;
        return true;
    }
    if (exp.isNull()) {
        if (!got.isNull()) why = "expected null";
        return got.isNull();
    }
    const double g = number(got), e = number(exp);
    if (std::isnan(e) ? std::isnan(g) : std::fabs(g - e) <= atol + rtol * std::fabs(e)) return true;
    why = QString("got %1, expected %2").arg(g, 0, 'g', 17).arg(e, 0, 'g', 17);
    return false;
}

cli::Evaluator tpuEvaluator(const std::string& op) {
    for (const auto& e : cli::tpuOpEvaluators())
        if (e.op == op) return e.fn;
    return nullptr;
}

}  // namespace

class TstTpu : public QObject {
    Q_OBJECT

private slots:
    // ---- QuantizationConfig ---------------------------------------------------------
    void configErrors() {
        for (int64_t n : {0, 1, -3}) {
            auto c = makeQuantizationConfig(n, -1.0, 1.0);
            QVERIFY(!c.ok());
            QCOMPARE(c.error().kind, std::string("ValueError"));
            QCOMPARE(c.error().message, "num_buckets is " + std::to_string(n) +
                                            ", must be at least 2 for simulated quantization.");
        }
        QVERIFY(makeQuantizationConfig(2, 1.0, -1.0).ok());  // TF does not check the range
    }

    void configRepr() {
        QCOMPARE(repr(cfg(10, -1.0, 1.0)),
                 std::string("QuantizationConfig(num_buckets=10, lower=-1.0, upper=1.0)"));
        QCOMPARE(repr(cfg(256, -0.5, 1e-05)),
                 std::string("QuantizationConfig(num_buckets=256, lower=-0.5, upper=1e-05)"));
    }

    void pyFloatReprMatchesPython_data() {
        QTest::addColumn<double>("v");
        QTest::addColumn<QString>("py");
        QTest::newRow("1") << double(1.0) << QStringLiteral("1.0");
        QTest::newRow("-1") << double(-1.0) << QStringLiteral("-1.0");
        QTest::newRow("0") << double(0.0) << QStringLiteral("0.0");
        QTest::newRow("-0") << double(-0.0) << QStringLiteral("-0.0");
        QTest::newRow("0.1") << double(0.1) << QStringLiteral("0.1");
        QTest::newRow("f32 0.1") << double(double(0.1f)) << QStringLiteral("0.10000000149011612");
        QTest::newRow("2.5") << double(2.5) << QStringLiteral("2.5");
        QTest::newRow("1e-4") << double(1e-4) << QStringLiteral("0.0001");
        QTest::newRow("1e-5") << double(1e-5) << QStringLiteral("1e-05");
        QTest::newRow("1.5e-7") << double(1.5e-7) << QStringLiteral("1.5e-07");
        QTest::newRow("1e15") << double(1e15) << QStringLiteral("1000000000000000.0");
        QTest::newRow("1e16") << double(1e16) << QStringLiteral("1e+16");
        QTest::newRow("123.456") << double(123.456) << QStringLiteral("123.456");
        QTest::newRow("1.2345678901234568e+17") << double(123456789012345678.0) << QStringLiteral("1.2345678901234568e+17");
        QTest::newRow("1e100") << double(1e100) << QStringLiteral("1e+100");
        QTest::newRow("denormal") << double(5e-324) << QStringLiteral("5e-324");
        QTest::newRow("inf") << double(INFINITY) << QStringLiteral("inf");
        QTest::newRow("-inf") << double(-INFINITY) << QStringLiteral("-inf");
        QTest::newRow("nan") << double(double(NAN)) << QStringLiteral("nan");
    }
    void pyFloatReprMatchesPython() {
        QFETCH(double, v);
        QFETCH(QString, py);
        QCOMPARE(QString::fromStdString(pyFloatRepr(v)), py);
    }

    // ---- the formula ------------------------------------------------------------------
    void formulaFloat32HandValues() {
        // 3 buckets on [0, 2]: quantum 1; ties (x.5 after the division) go up.
        const auto k = prepareF32(cfg(3, 0.0, 2.0));
        QCOMPARE_EXACT(k.quantum, 1.0f);
        const float in[] = {-1.0f, 0.49f, 0.5f, 1.0f, 1.49f, 1.5f, 2.5f};
        const float exp[] = {0.0f, 0.0f, 1.0f, 1.0f, 1.0f, 2.0f, 2.0f};
        for (int i = 0; i < 7; ++i) QCOMPARE_EXACT(simulateQuantizationF32(in[i], k), exp[i]);
        // 5 buckets on [-2, 2]: -1.5 -> 1 + 0.5 = 2 -> -1 (up, not away from zero: -2);
        // 0.5 -> 2.5 + 0.5 = 3 -> 1 (not to even: 0).
        const auto k5 = prepareF32(cfg(5, -2.0, 2.0));
        QCOMPARE_EXACT(simulateQuantizationF32(-1.5f, k5), -1.0f);
        QCOMPARE_EXACT(simulateQuantizationF32(0.5f, k5), 1.0f);
        QCOMPARE_EXACT(simulateQuantizationF32(-0.5f, k5), 0.0f);
    }

    void formulaFloat32DiffersFromExact() {
        // 10 buckets on [-1, 1], x = 0: float32 quantum f32(2)/9 gives 0.11111116409301758;
        // the exact formula gives 0.11111111111111116 (1/9 rounded in double).
        const QuantizationConfig c = cfg(10, -1.0, 1.0);
        QCOMPARE_EXACT(double(simulateQuantizationF32(0.0f, prepareF32(c))), 0.11111116409301758);
        QCOMPARE_EXACT(simulateQuantizationExact(0.0, c), 0.11111111111111116);
        QCOMPARE_EXACT(simulateQuantizationExact(double(0.5f), c), 0.5555555555555554);
        QCOMPARE_EXACT(double(simulateQuantizationF32(0.5f, prepareF32(c))), 0.5555555820465088);
        QCOMPARE_EXACT(simulateQuantizationExact(double(-0.9f), c), -1.0);  // floor(0.95) = 0
    }

    void formulaNaNAndDegenerate() {
        const auto k = prepareF32(cfg(10, -1.0, 1.0));
        QVERIFY(std::isnan(simulateQuantizationF32(NAN, k)));
        QCOMPARE_EXACT(simulateQuantizationF32(INFINITY, k), 1.0f);
        QCOMPARE_EXACT(simulateQuantizationF32(-INFINITY, k), -1.0f);
        // lower == upper: quantum 0, 0/0 = NaN everywhere.
        QVERIFY(std::isnan(simulateQuantizationF32(0.3f, prepareF32(cfg(4, 1.0, 1.0)))));
    }

    void kernelMatchesScalarBitwise() {
        // Vector body, scalar tail and threads must all give the scalar function's bits.
        const QuantizationConfig c = cfg(7, -1.3, 2.1);
        const auto k = prepareF32(c);
        const int64_t n = (1 << 18) + 13;  // several threads' chunks plus a tail
        std::vector<float> in(n), out(n), out1(n);
        uint32_t s = 12345;
        for (int64_t i = 0; i < n; ++i) {
            s = s * 1664525u + 1013904223u;
            in[i] = (static_cast<float>(s >> 8) / 16777216.0f) * 5.0f - 2.5f;
        }
        in[3] = NAN;
        in[5] = INFINITY;
        in[7] = -0.0f;
        in[n - 1] = NAN;
        QVERIFY(simulateQuantization(in, out, c, Exec{4}).ok());
        QVERIFY(simulateQuantization(in, out1, c, Exec{1}).ok());
        for (int64_t i = 0; i < n; ++i) {
            const float ref = simulateQuantizationF32(in[i], k);
            if (bits(out[i]) != bits(ref) && !(std::isnan(out[i]) && std::isnan(ref)))
                QFAIL(qPrintable(QString("element %1: %2 vs %3").arg(i).arg(out[i]).arg(ref)));
            QCOMPARE(bits(out[i]), bits(out1[i]));
        }
        std::vector<double> ex(n);
        QVERIFY(simulateQuantizationExact(in, ex, c, Exec{4}).ok());
        for (int64_t i = 0; i < n; i += 97)
            if (!std::isnan(in[i])) QCOMPARE_EXACT(ex[i], simulateQuantizationExact(double(in[i]), c));
        QVERIFY(std::isnan(ex[3]));
        std::vector<float> shortOut(3);
        auto st = simulateQuantization(in, shortOut, c);
        QVERIFY(!st.ok());
        QCOMPARE(st.error().kind, std::string("InvalidArgument"));
    }

    // ---- optimizer clipvalue ------------------------------------------------------------
    void clipValues() {
        auto none = gradientClipLimits(OptimizerKind::SGD, true, ClipValue::none());
        QVERIFY(none.ok() && !none->min && !none->max);
        auto scalar = gradientClipLimits(OptimizerKind::Adam, true, ClipValue::number({1.5, false}));
        QVERIFY(scalar.ok());
        QCOMPARE_EXACT(*scalar->min, -1.5);
        QCOMPARE_EXACT(*scalar->max, 1.5);
        auto zero = gradientClipLimits(OptimizerKind::Adam, true, ClipValue::number({0.0, false}));
        QVERIFY(std::signbit(*zero->min));  // -1.0 * 0.0
        auto half = gradientClipLimits(OptimizerKind::FTRL, true,
                                       ClipValue::pair(std::nullopt, PyNumber{1, true}));
        QVERIFY(half.ok() && !half->min);
        QCOMPARE_EXACT(*half->max, 1.0);
        QVERIFY(optimizerKindFromName("AdagradMomentum") == std::optional(OptimizerKind::AdagradMomentum));
        QVERIFY(!optimizerKindFromName("RMSProp"));
        QCOMPARE(optimizerName(OptimizerKind::FTRL), std::string_view("FTRL"));
    }

    void clipValueErrors() {
        const std::string head =
            "When `use_gradient_accumulation` is False, gradient clipping cannot be used and "
            "`clipvalue` should be left as None. Received value ";
        const std::string tail = " for argument `clipvalue`.";
        auto e1 = gradientClipLimits(OptimizerKind::Adam, false, ClipValue::number({0.0, false}));
        QVERIFY(!e1.ok());
        QCOMPARE(e1.error().kind, std::string("ValueError"));
        QCOMPARE(e1.error().message, head + "0.0" + tail);
        auto e2 = gradientClipLimits(OptimizerKind::Adagrad, false,
                                     ClipValue::pair(std::nullopt, PyNumber{1.0, false}));
        QCOMPARE(e2.error().message, head + "(None, 1.0)" + tail);
        auto e3 = gradientClipLimits(OptimizerKind::FTRL, false,
                                     ClipValue::pair(PyNumber{-2, true}, PyNumber{1, true}));
        QCOMPARE(e3.error().message, head + "(-2, 1)" + tail);
        // Accumulation off without clipvalue is fine.
        QVERIFY(gradientClipLimits(OptimizerKind::SGD, false, ClipValue::none()).ok());
        // Python's tuple unpacking.
        ClipValue three{ClipValue::Kind::Tuple, {}, {PyNumber{1, true}, PyNumber{2, true}, PyNumber{3, true}}};
        QCOMPARE(gradientClipLimits(OptimizerKind::SGD, true, three).error().message,
                 std::string("too many values to unpack (expected 2)"));
        ClipValue one{ClipValue::Kind::Tuple, {}, {PyNumber{1, true}}};
        QCOMPARE(gradientClipLimits(OptimizerKind::SGD, true, one).error().message,
                 std::string("not enough values to unpack (expected 2, got 1)"));
        QCOMPARE(pyStr(one), std::string("(1,)"));
    }

    // ---- sharding -----------------------------------------------------------------------
    void shardIdsExamples() {
        using V = std::vector<std::vector<int64_t>>;
        QCOMPARE(*shardIds(13, 5, "mod"), (V{{0, 5, 10}, {1, 6, 11}, {2, 7, 12}, {3, 8}, {4, 9}}));
        QCOMPARE(*shardIds(13, 5, "div"), (V{{0, 1, 2}, {3, 4, 5}, {6, 7, 8}, {9, 10}, {11, 12}}));
        QCOMPARE(*shardIds(10, 5, "div"), (V{{0, 1}, {2, 3}, {4, 5}, {6, 7}, {8, 9}}));
        QCOMPARE(*shardIds(3, 1, "div"), (V{{0, 1, 2}}));
    }

    void shardRows() {
        auto div = *ShardMapping::make(PartitionStrategy::Div, 13, 5);
        QCOMPARE(div.map(2).shard, int64_t{0});
        QCOMPARE(div.map(9).shard, int64_t{3});
        QCOMPARE(div.map(9).row, int64_t{0});
        QCOMPARE(div.map(12).shard, int64_t{4});
        QCOMPARE(div.map(12).row, int64_t{1});
        auto mod = *ShardMapping::make(PartitionStrategy::Mod, 13, 5);
        QCOMPARE(mod.map(12).shard, int64_t{2});
        QCOMPARE(mod.map(12).row, int64_t{2});
        // Floor semantics for negative ids, as TF's FloorMod/FloorDiv.
        QCOMPARE(mod.map(-1).shard, int64_t{4});
        QCOMPARE(mod.map(-1).row, int64_t{-1});
    }

    void shardErrors() {
        auto bad = shardIds(13, 5, "range");
        QVERIFY(!bad.ok());
        QCOMPARE(bad.error().kind, std::string("ValueError"));
        QCOMPARE(bad.error().message,
                 std::string("Unrecognized partition strategy: range.Must be one of either `mod` or `div`."));
        auto ipp0 = shardIds(3, 5, "div");  // ipp = 0
        QCOMPARE(ipp0.error().kind, std::string("InvalidArgument"));
        QCOMPARE(ipp0.error().message, std::string("Integer division by zero"));
        QVERIFY(shardIds(3, 5, "mod").ok());  // mod never divides by ipp
        QCOMPARE(shardIds(3, 0, "mod").error().message, std::string("Integer division by zero"));
        QVERIFY(!shardIds(-1, 2, "mod").ok());
    }

    // ---- embedding_lookup ---------------------------------------------------------------
    void lookupDocstring() {
        // embedding_lookup_v2 docstring: 3 shards of a 5x2 table, "div".
        const std::vector<RowMatrix> shards{matrix({{1, 2}, {3, 4}}), matrix({{5, 6}, {7, 8}}),
                                            matrix({{9, 10}})};
        const std::vector<int64_t> ids{0, 3, 4};
        using R = std::vector<std::vector<float>>;
        QCOMPARE(toRows(*embeddingLookup(shards, ids, "div")), (R{{1, 2}, {7, 8}, {9, 10}}));
        // mod: 0 -> shard 0 row 0, 3 -> shard 0 row 1, 4 -> shard 1 row 1.
        QCOMPARE(toRows(*embeddingLookup(shards, ids, "mod")), (R{{1, 2}, {3, 4}, {7, 8}}));
        // One shard: a gather, and the strategy is never looked at.
        const std::vector<RowMatrix> one{matrix({{1, 2}, {3, 4}})};
        const std::vector<int64_t> ids1{1, 1, 0};
        QCOMPARE(toRows(*embeddingLookup(one, ids1, "bogus")), (R{{3, 4}, {3, 4}, {1, 2}}));
    }

    void lookupErrors() {
        const std::vector<RowMatrix> shards{matrix({{1}, {2}}), matrix({{3}, {4}})};
        const std::vector<int64_t> ok{0};
        auto e = embeddingLookup(shards, ok, "bogus");
        QCOMPARE(e.error().kind, std::string("ValueError"));
        QCOMPARE(e.error().message,
                 std::string("Unrecognized partition strategy: bogus.Must be one of either `mod` or `div`."));
        QCOMPARE(embeddingLookup({}, ok).error().message,
                 std::string("Length of params is currently 0. Need at least one param."));
        const std::vector<RowMatrix> one{matrix({{1}, {2}, {3}, {4}})};
        const std::vector<int64_t> far{0, 7};
        auto g = embeddingLookup(one, far);
        QCOMPARE(g.error().kind, std::string("InvalidArgument"));
        QCOMPARE(g.error().message, std::string("indices[1] = 7 is not in [0, 4)"));
        // mod over 2 shards: id 5 -> shard 1, row 2 of a 2-row shard; it is the 2nd id of
        // shard 1's gather.
        const std::vector<int64_t> ids{1, 0, 5};
        QCOMPARE(embeddingLookup(shards, ids, "mod").error().message,
                 std::string("indices[1] = 2 is not in [0, 2)"));
        // div with 4 rows / 2 shards: id -3 -> shard max(-3//3, -3//2) = -1.
        const std::vector<int64_t> neg{0, -3};
        QCOMPARE(embeddingLookup(shards, neg, "div").error().message,
                 std::string("partitions[1] = -1 is not in [0, 2)"));
        const std::vector<RowMatrix> tiny{matrix({{1}}), RowMatrix{0, 1, {}}, RowMatrix{0, 1, {}}};
        QCOMPARE(embeddingLookup(tiny, ok, "div").error().message, std::string("Integer division by zero"));
    }

    // ---- embedding_lookup_sparse --------------------------------------------------------
    // The output has (last example + 1) rows: an example index of 10^15 is an allocation
    // failure reported as TF reports it, never a bad_alloc.
    void sparseHugeExampleIndexIsResourceExhausted() {
        const std::vector<RowMatrix> params{matrix({{1, 2}, {3, 4}})};
        const SparseIds sp = sparse({{{0, 0}}, {{1000000000000000, 0}}}, {0, 1}, {1000000000000001, 1});
        const auto r = embeddingLookupSparse(params, sp, std::nullopt);
        QVERIFY(!r);
        QCOMPARE(r.error().kind, std::string("ResourceExhausted"));
        QVERIFY(r.error().message.find("shape[1000000000000001,2]") != std::string::npos);
    }

    void sparseDoctests() {
        const std::vector<RowMatrix> params{matrix({{1, 2}, {3, 4}, {5, 6}, {7, 8}})};
        const SparseIds sp = sparse({{{0, 0}}, {{0, 1}}, {{1, 0}}, {{2, 0}}}, {0, 1, 3, 2}, {3, 2});
        using R = std::vector<std::vector<float>>;
        SparseLookupOptions sum;
        sum.combiner = "sum";
        QCOMPARE(toRows(*embeddingLookupSparse(params, sp, std::nullopt, sum)), (R{{4, 6}, {7, 8}, {5, 6}}));
        const std::vector<float> w{0.1f, 1.0f, 0.5f, 2.0f};
        // 1*0.1 + 3*1 = 3.1f, 2*0.1 + 4 = 4.2f in float32.
        QCOMPARE(toRows(*embeddingLookupSparse(params, sp, w, sum)),
                 (R{{0.1f + 3.0f, 0.2f + 4.0f}, {3.5f, 4.0f}, {10, 12}}));
        // Default combiner: mean.
        QCOMPARE(toRows(*embeddingLookupSparse(params, sp, std::nullopt)), (R{{2, 3}, {7, 8}, {5, 6}}));
    }

    void sparseCombinerArithmetic() {
        const std::vector<RowMatrix> p3{matrix({{0.1f}, {0.4f}, {1.9f}})};
        const SparseIds three = sparse({{{0, 0}}, {{0, 1}}, {{0, 2}}}, {0, 1, 2}, {1, 3});
        // Unweighted mean of 3 (SparseSegmentMean): sum * (1/3f) = 0.8000000715255737,
        // not sum / 3 = 0.800000011920929.
        auto m = embeddingLookupSparse(p3, three, std::nullopt);
        QCOMPARE_EXACT(double(m->values[0]), 0.8000000715255737);
        // Weighted mean with unit weights (SegmentSum + div_no_nan): sum / 3.
        auto wm = embeddingLookupSparse(p3, three, std::vector<float>{1, 1, 1});
        QCOMPARE_EXACT(double(wm->values[0]), 0.800000011920929);

        // Unweighted sqrtn of 2 rows: (a + b) * (1 / f32(sqrt 2)).
        const std::vector<RowMatrix> p2{matrix({{1, 2}, {3, 4}})};
        const SparseIds two = sparse({{{0, 0}}, {{0, 1}}}, {0, 1}, {1, 2});
        SparseLookupOptions sq;
        sq.combiner = "sqrtn";
        auto s = embeddingLookupSparse(p2, two, std::nullopt, sq);
        QCOMPARE_EXACT(double(s->values[0]), 2.8284270763397217);
        QCOMPARE_EXACT(double(s->values[1]), 4.242640495300293);  // 6 / sqrt 2 would be ...0972137451
        // Weighted sqrtn: (3*1 + 4*1) / sqrt(9 + 16) = 1.4.
        const std::vector<RowMatrix> ones{matrix({{1}, {1}})};
        auto ws = embeddingLookupSparse(ones, two, std::vector<float>{3, 4}, sq);
        QCOMPARE_EXACT(ws->values[0], 7.0f / 5.0f);

        // 10 entries: head of 2, one block of 8, then / 10.
        std::vector<std::array<int64_t, 2>> idx;
        for (int64_t k = 0; k < 10; ++k) idx.push_back({0, k});
        const std::vector<RowMatrix> p01{matrix({{0.1f}})};
        auto ten = embeddingLookupSparse(p01, sparse(idx, std::vector<int64_t>(10, 0), {1, 10}),
                                         std::nullopt);
        QCOMPARE_EXACT(double(ten->values[0]), 0.10000000894069672);
    }

    void sparseEmptyRowsAndZeroWeights() {
        const std::vector<RowMatrix> params{matrix({{1, 2}, {3, 4}})};
        // Example 1 has no ids: a zero row. Example 3 (trailing) is absent, like TF.
        const SparseIds sp = sparse({{{0, 0}}, {{2, 0}}, {{2, 1}}}, {0, 1, 0}, {4, 2});
        using R = std::vector<std::vector<float>>;
        QCOMPARE(toRows(*embeddingLookupSparse(params, sp, std::nullopt)), (R{{1, 2}, {0, 0}, {2, 3}}));
        // Zero total weight: div_no_nan gives 0 for mean and sqrtn; sum keeps the products.
        const std::vector<float> w{0.0f, 1.0f, -1.0f};
        QCOMPARE(toRows(*embeddingLookupSparse(params, sp, w)), (R{{0, 0}, {0, 0}, {0, 0}}));
        SparseLookupOptions sum;
        sum.combiner = "sum";
        QCOMPARE(toRows(*embeddingLookupSparse(params, sp, w, sum)), (R{{0, 0}, {0, 0}, {2, 2}}));
        SparseLookupOptions sq;
        sq.combiner = "sqrtn";
        const std::vector<float> z{0.0f, 0.0f, 0.0f};
        QCOMPARE(toRows(*embeddingLookupSparse(params, sp, z, sq)), (R{{0, 0}, {0, 0}, {0, 0}}));
        // No entries at all: no rows.
        QCOMPARE(embeddingLookupSparse(params, SparseIds{}, std::nullopt)->rows, int64_t{0});
    }

    void sparseQuantizesBeforeCombining() {
        // 3 buckets on [0, 1] (quantum 0.5): Q(0.2) = 0, Q(0.3) = 0.5, so the mean of the
        // quantized rows is 0.25, while quantizing the mean (0.25) would give 0.5.
        const std::vector<RowMatrix> params{matrix({{0.2f}, {0.3f}})};
        const SparseIds sp = sparse({{{0, 0}}, {{0, 1}}}, {0, 1}, {1, 2});
        SparseLookupOptions opt;
        opt.quantization = cfg(3, 0.0, 1.0);
        QCOMPARE_EXACT(embeddingLookupSparse(params, sp, std::nullopt, opt)->values[0], 0.25f);
        QCOMPARE_EXACT(simulateQuantizationF32(0.25f, prepareF32(cfg(3, 0.0, 1.0))), 0.5f);
        // Weighted: quantized rows times weights, 0*1 + 0.5*3 = 1.5, / 4.
        QCOMPARE_EXACT(embeddingLookupSparse(params, sp, std::vector<float>{1, 3}, opt)->values[0], 0.375f);
        // Without quantization the plain mean.
        QCOMPARE_EXACT(embeddingLookupSparse(params, sp, std::nullopt)->values[0], (0.2f + 0.3f) * 0.5f);
    }

    void sparseErrors() {
        const std::vector<RowMatrix> params{matrix({{1}, {2}, {3}, {4}})};
        const SparseIds sp = sparse({{{0, 0}}, {{1, 0}}}, {0, 9}, {2, 1});
        SparseLookupOptions max;
        max.combiner = "max";
        auto c = embeddingLookupSparse(params, sp, std::nullopt, max);
        QCOMPARE(c.error().kind, std::string("ValueError"));
        QCOMPARE(c.error().message, std::string("combiner must be one of 'mean', 'sqrtn' or 'sum', got max"));
        // Fast path (one table, no weights): the sparse segment kernel's message.
        auto bad = embeddingLookupSparse(params, sp, std::nullopt);
        QCOMPARE(bad.error().kind, std::string("InvalidArgument"));
        QCOMPARE(bad.error().message, std::string("Bad: indices[1] == 9 out of range [0, 4)"));
        // Weighted: embedding_lookup of the unique ids [0, 9] -> gather message.
        auto badw = embeddingLookupSparse(params, sp, std::vector<float>{1, 1});
        QCOMPARE(badw.error().message, std::string("indices[1] = 9 is not in [0, 4)"));
        auto neg = embeddingLookupSparse(params, sparse({{{0, 0}}}, {-1}, {1, 1}), std::nullopt);
        QCOMPARE(neg.error().message, std::string("Bad: indices[0] == -1 out of range [0, 4)"));
        // Example indices must be sorted and non-negative.
        auto unsorted = embeddingLookupSparse(params, sparse({{{1, 0}}, {{0, 0}}, {{2, 0}}}, {0, 1, 2}, {3, 1}), std::nullopt);
        QCOMPARE(unsorted.error().message, std::string("segment ids are not increasing"));
        auto negSeg = embeddingLookupSparse(params, sparse({{{-1, 0}}}, {0}, {1, 1}), std::nullopt);
        QCOMPARE(negSeg.error().message, std::string("segment ids must be >= 0"));
        auto negFirst = embeddingLookupSparse(params, sparse({{{-1, 0}}, {{1, 0}}}, {0, 1}, {2, 1}), std::nullopt);
        QCOMPARE(negFirst.error().message,
                 std::string("Segment id -1 out of range [0, 2), possibly because 'segment_ids' input is not sorted."));
        // Weights of another length.
        auto w = embeddingLookupSparse(params, sparse({{{0, 0}}}, {0}, {1, 1}), std::vector<float>{1, 2});
        QCOMPARE(w.error().kind, std::string("ValueError"));
        QCOMPARE(w.error().message, std::string("Shapes (1,) and (2,) are incompatible"));
    }

    // ---- the CLI evaluators on the shipped vectors --------------------------------------
    void evaluatorsPassVectors() {
        QFile f(QStringLiteral(QS_TEST_DATA_DIR "/tpu_simulated_quantization.json"));
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QJsonArray cases = QJsonDocument::fromJson(f.readAll()).object().value("cases").toArray();
        QVERIFY(cases.size() >= 20);
        int checked = 0;
        for (const QJsonValue& cv : cases) {
            const QJsonObject c = cv.toObject();
            const QString name = c.value("name").toString();
            const cli::Evaluator fn = tpuEvaluator(c.value("op").toString().toStdString());
            QVERIFY2(fn, qPrintable(name));
            const QJsonValue got = parsed(fn(cli::CaseReader(c)));
            const QJsonObject g = got.toObject();
            if (c.contains("expected_error")) {
                const QJsonObject ee = c.value("expected_error").toObject();
                QVERIFY2(g.contains("error"), qPrintable(name));
                const QJsonObject err = g.value("error").toObject();
                QCOMPARE(err.value("kind").toString(), ee.value("kind").toString());
                QVERIFY2(err.value("message").toString().contains(ee.value("message_contains").toString()),
                         qPrintable(name + ": " + err.value("message").toString()));
            } else if (c.contains("expected_repr")) {
                QCOMPARE(g.value("repr").toString(), c.value("expected_repr").toString());
            } else {
                const QJsonObject tol = c.value("tolerance").toObject();
                const bool exact = tol.value("mode").toString("exact") == "exact";
                QString why;
                QVERIFY2(close(g.value("output"), c.value("expected_output"),
                               exact ? 0.0 : tol.value("atol").toDouble(),
                               exact ? 0.0 : tol.value("rtol").toDouble(), why),
                         qPrintable(name + ": " + why));
            }
            ++checked;
        }
        QCOMPARE(checked, int(cases.size()));
    }

    void evaluatorsExtraCases() {
        auto run = [](const char* json) {
            const QJsonObject c = QJsonDocument::fromJson(QByteArray(json)).object();
            return parsed(tpuEvaluator(c.value("op").toString().toStdString())(cli::CaseReader(c))).toObject();
        };
        // embedding_lookup_v2 docstring through the evaluator.
        auto lk = run(R"({"op":"EmbeddingLookup","attrs":{"partition_strategy":"div"},
            "params_shards":[[[1,2],[3,4]],[[5,6],[7,8]],[[9,10]]],"ids":[0,3,4]})");
        QCOMPARE(lk.value("output").toArray(), QJsonDocument::fromJson("[[1,2],[7,8],[9,10]]").array());
        // Quantization attribute of the sparse lookup.
        auto q = run(R"({"op":"EmbeddingLookupSparse","attrs":{"quantization":{"num_buckets":3,"lower":0,"upper":1}},
            "params":[[0.2],[0.3]],"sp_indices":[[0,0],[0,1]],"sp_values":[0,1],"dense_shape":[1,2]})");
        QCOMPARE_EXACT(q.value("output").toArray().at(0).toArray().at(0).toDouble(), 0.25);
        auto qe = run(R"({"op":"EmbeddingLookupSparse","attrs":{"quantization":{"num_buckets":1,"lower":0,"upper":1}},
            "params":[[0.2]],"sp_indices":[[0,0]],"sp_values":[0],"dense_shape":[1,1]})");
        QCOMPARE(qe.value("error").toObject().value("kind").toString(), QString("ValueError"));
        // JSON numbers are Python floats in the clipvalue message (Qt cannot tell 1 from 1.0).
        auto cv = run(R"({"op":"TPUOptimizerClipValue","attrs":{"optimizer":"SGD","use_gradient_accumulation":false,"clipvalue":[null,1]}})");
        QVERIFY(cv.value("error").toObject().value("message").toString().contains("Received value (None, 1.0) for"));
        auto cvf = run(R"({"op":"TPUOptimizerClipValue","attrs":{"optimizer":"SGD","use_gradient_accumulation":false,"clipvalue":2.0}})");
        QVERIFY(cvf.value("error").toObject().value("message").toString().contains("Received value 2.0 for"));
        // float32 precision is the default and prints float32 values.
        auto sq = run(R"({"op":"TPUSimulatedQuantization","attrs":{"num_buckets":10,"lower":-1,"upper":1},"input":[0.0]})");
        QCOMPARE_EXACT(float(sq.value("output").toArray().at(0).toDouble()), 0.11111116409301758f);
        // Malformed cases throw CaseFormatError.
        const QJsonObject bad = QJsonDocument::fromJson(R"({"op":"ShardIds","attrs":{"num_shards":2}})").object();
        bool threw = false;
        try {
            tpuEvaluator("ShardIds")(cli::CaseReader(bad));
        } catch (const cli::CaseFormatError& e) {
            threw = e.field == "attrs.vocab_size";
        }
        QVERIFY(threw);
    }
};

QTEST_GUILESS_MAIN(TstTpu)
#include "tst_tpu.moc"
