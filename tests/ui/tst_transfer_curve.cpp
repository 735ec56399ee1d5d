// qs::sampleTransferCurve, without widgets: the points the transfer view draws are the
// values the real ops (run on whole tensors) produce, the steps sit on the exact float32
// where the code changes, and invalid parameters come back as TF's error.
#include <QtTest>

#include <cmath>
#include <set>
#include <vector>

#include "core/analysis/transfer_curve.h"
#include "core/ops/dequantize.h"
#include "core/ops/quantize_and_dequantize.h"
#include "core/ops/quantize_v2.h"

Q_DECLARE_METATYPE(qs::QuantSpec)

namespace {

using qs::QType;
using qs::QuantizeMode;
using qs::RoundMode;
using qs::QuantOp;
using qs::QuantSpec;

QuantSpec quantizeSpec(QType t, QuantizeMode mode, float lo, float hi,
                       RoundMode round = RoundMode::HalfAwayFromZero, bool narrow = false) {
    QuantSpec s;
    s.op = QuantOp::QuantizeV2;
    s.T = t;
    s.mode = mode;
    s.round_mode = round;
    s.narrow_range = narrow;
    s.min_range = lo;
    s.max_range = hi;
    return s;
}

// QDQ with the bit width and signedness of T, the range given.
QuantSpec qdqSpec(QType t, float lo, float hi, RoundMode round = RoundMode::HalfToEven,
                  bool narrow = false) {
    QuantSpec s = quantizeSpec(t, QuantizeMode::MinCombined, lo, hi, round, narrow);
    s.op = QuantOp::QuantizeAndDequantizeV2;
    s.num_bits = qs::qtypeInfo(t).bits;
    s.signed_input = qs::qtypeInfo(t).isSigned;
    s.range_given = true;
    return s;
}

struct OpOutputs {
    std::vector<double> code, output;
};

// The ops themselves on a tensor holding every x: an independent route to the same numbers.
OpOutputs runOps(const QuantSpec& spec, const std::vector<float>& xs) {
    const qs::TensorRef<float> input{xs, {static_cast<int64_t>(xs.size())}};
    OpOutputs result;
    if (spec.op == QuantOp::QuantizeV2) {
        qs::QuantizeV2Attrs q;
        q.T = spec.T;
        q.mode = spec.mode;
        q.round_mode = spec.round_mode;
        q.narrow_range = spec.narrow_range;
        std::vector<int32_t> codes(xs.size());
        const auto ranges = qs::quantizeV2<int32_t>(input, qs::scalarRef(spec.min_range),
                                                    qs::scalarRef(spec.max_range), q, codes);
        if (!ranges) qFatal("quantizeV2 failed: %s", ranges.error().message.c_str());
        qs::DequantizeAttrs d;
        d.T = spec.T;
        d.mode = spec.mode;
        d.narrow_range = spec.narrow_range;
        std::vector<float> out(xs.size());
        const float outMin = ranges->output_min.at(0), outMax = ranges->output_max.at(0);
        const auto status = qs::dequantize<int32_t>(
            {codes, {static_cast<int64_t>(codes.size())}}, qs::scalarRef(outMin),
            qs::scalarRef(outMax), d, out);
        if (!status) qFatal("dequantize failed: %s", status.error().message.c_str());
        result.code.assign(codes.begin(), codes.end());
        result.output.assign(out.begin(), out.end());
    } else {
        const qs::QTypeInfo info = qs::qtypeInfo(spec.T);
        qs::QdqAttrs a;
        a.signed_input = info.isSigned;
        a.num_bits = info.bits;
        a.range_given = true;
        a.round_mode = spec.round_mode;
        a.narrow_range = spec.narrow_range;
        std::vector<float> out(xs.size());
        const auto ran = qs::quantizeAndDequantize(input, qs::scalarRef(spec.min_range),
                                                   qs::scalarRef(spec.max_range), a, out);
        if (!ran) qFatal("quantizeAndDequantize failed: %s", ran.error().message.c_str());
        const qs::QdqSliceParams p = ran->slices.at(0);
        for (float x : xs) result.code.push_back(qs::qdqCode(x, p, spec.round_mode));
        result.output.assign(out.begin(), out.end());
    }
    return result;
}

std::vector<float> asFloats(const std::vector<double>& v) { return {v.begin(), v.end()}; }

}  // namespace

class TstTransferCurve : public QObject {
    Q_OBJECT

private slots:
    void pointsAreTheOpsOutputs_data();
    void pointsAreTheOpsOutputs();
    void stepsStartAtTheExactFloat_data();
    void stepsStartAtTheExactFloat();
    void levelCountFollowsTheType();
    void windowIsTheRangeWidenedByAQuarter();
    void reportsTheReturnedRange();
    void codeAxisIsAffineInTheOutput();
    void errorsAreTensorFlows();
    void degenerateRangeStillGivesACurve();
    void closeUpShowsSingleSteps();
};

// The 8-bit specs (every mode, both rounding modes of the QDQ ops) as rows of a "spec" column.
static void addEightBitSpecRows() {
    QTest::addColumn<QuantSpec>("spec");
    QTest::newRow("qint8 MIN_COMBINED") << quantizeSpec(QType::QInt8, QuantizeMode::MinCombined, -1, 1);
    QTest::newRow("quint8 MIN_COMBINED") << quantizeSpec(QType::QUInt8, QuantizeMode::MinCombined, -0.3f, 2.7f);
    QTest::newRow("quint8 MIN_FIRST") << quantizeSpec(QType::QUInt8, QuantizeMode::MinFirst, -1, 1);
    QTest::newRow("qint8 SCALED even narrow")
        << quantizeSpec(QType::QInt8, QuantizeMode::Scaled, -10, 9, RoundMode::HalfToEven, true);
    QTest::newRow("QDQ qint8") << qdqSpec(QType::QInt8, -1, 1);
    QTest::newRow("QDQ quint8 HALF_UP") << qdqSpec(QType::QUInt8, -0.5f, 3, RoundMode::HalfUp);
}

void TstTransferCurve::pointsAreTheOpsOutputs_data() {
    addEightBitSpecRows();
    QTest::newRow("quint16 SCALED") << quantizeSpec(QType::QUInt16, QuantizeMode::Scaled, 0, 4);
    QTest::newRow("qint16 MIN_COMBINED") << quantizeSpec(QType::QInt16, QuantizeMode::MinCombined, -2, 5);
    QTest::newRow("qint32 SCALED") << quantizeSpec(QType::QInt32, QuantizeMode::Scaled, -1, 1);
    QTest::newRow("QDQ qint16 narrow") << qdqSpec(QType::QInt16, -3, 1, RoundMode::HalfToEven, true);
}

void TstTransferCurve::pointsAreTheOpsOutputs() {
    QFETCH(QuantSpec, spec);
    const auto curve = qs::sampleTransferCurve(spec);
    QVERIFY2(curve.ok(), curve.ok() ? "" : curve.error().message.c_str());
    QVERIFY(curve->x.size() >= 2001);
    QCOMPARE(curve->x.size(), curve->output.size());
    QCOMPARE(curve->x.size(), curve->code.size());
    QVERIFY(std::is_sorted(curve->x.begin(), curve->x.end()));

    const OpOutputs expected = runOps(spec, asFloats(curve->x));
    for (size_t i = 0; i < curve->x.size(); ++i) {
        // Bit-exact: each point is a float32 the op returns, widened to double.
        if (curve->output[i] != expected.output[i] || curve->code[i] != expected.code[i])
            QFAIL(qPrintable(QString("x = %1: curve (%2, %3), ops (%4, %5)")
                                 .arg(curve->x[i], 0, 'g', 9)
                                 .arg(curve->code[i], 0, 'g', 12)
                                 .arg(curve->output[i], 0, 'g', 9)
                                 .arg(expected.code[i], 0, 'g', 12)
                                 .arg(expected.output[i], 0, 'g', 9)));
    }
}

void TstTransferCurve::stepsStartAtTheExactFloat_data() {
    // 8-bit types: few enough codes for every step to be resolved by the samples.
    addEightBitSpecRows();
}

void TstTransferCurve::stepsStartAtTheExactFloat() {
    QFETCH(QuantSpec, spec);
    const auto curve = qs::sampleTransferCurve(spec);
    QVERIFY(curve.ok());
    QVERIFY(curve->steps_resolved);

    // Where the code changes at point i, the float just below x[i] must still have the old
    // code: the drawn step is where the op's step is, to the last bit.
    std::vector<float> below;
    std::vector<size_t> changes;
    for (size_t i = 1; i < curve->x.size(); ++i) {
        if (curve->code[i] == curve->code[i - 1]) continue;
        changes.push_back(i);
        below.push_back(std::nextafter(static_cast<float>(curve->x[i]), -INFINITY));
    }
    QVERIFY(changes.size() > 100);
    const OpOutputs justBelow = runOps(spec, below);
    for (size_t k = 0; k < changes.size(); ++k)
        QCOMPARE(justBelow.code[k], curve->code[changes[k] - 1]);
}

void TstTransferCurve::levelCountFollowsTheType() {
    auto levels = [](const QuantSpec& spec) {
        const auto curve = qs::sampleTransferCurve(spec);
        return std::set<double>(curve->output.begin(), curve->output.end()).size();
    };
    // The window holds the whole range, so every code appears.
    QCOMPARE(levels(quantizeSpec(QType::QInt8, QuantizeMode::MinCombined, -1, 1)), size_t(256));
    QCOMPARE(levels(quantizeSpec(QType::QUInt8, QuantizeMode::MinCombined, -1, 1)), size_t(256));
    QCOMPARE(levels(qdqSpec(QType::QUInt8, 0, 1)), size_t(256));
    // 65536 codes, 2001 samples: every in-range sample is its own level.
    const auto curve16 = qs::sampleTransferCurve(
        quantizeSpec(QType::QInt16, QuantizeMode::MinCombined, -1, 1));
    QVERIFY(!curve16->steps_resolved);
    QVERIFY(levels(quantizeSpec(QType::QInt16, QuantizeMode::MinCombined, -1, 1)) > 1300);
}

void TstTransferCurve::windowIsTheRangeWidenedByAQuarter() {
    const auto symmetric =
        qs::sampleTransferCurve(quantizeSpec(QType::QInt8, QuantizeMode::MinCombined, -1, 1));
    QCOMPARE(symmetric->x_first, -1.5);
    QCOMPARE(symmetric->x_last, 1.5);
    QCOMPARE(symmetric->x.front(), -1.5);
    QCOMPARE(symmetric->x.back(), 1.5);
    // QuantizeV2 widens [0.5, 1] to [0, 1] (the range must hold 0): the window shows both.
    const auto positive =
        qs::sampleTransferCurve(quantizeSpec(QType::QUInt8, QuantizeMode::MinCombined, 0.5f, 1));
    QCOMPARE(positive->output_min, 0.0f);
    QCOMPARE(positive->x_first, -0.25);
    QCOMPARE(positive->x_last, 1.25);
}

void TstTransferCurve::reportsTheReturnedRange() {
    // The example of tf.quantization.quantize's documentation: s = 12.8, max' = 127/12.8.
    const QuantSpec spec = quantizeSpec(QType::QInt8, QuantizeMode::Scaled, -10, 9);
    const auto curve = qs::sampleTransferCurve(spec);
    QCOMPARE(curve->output_min, -10.0f);
    QCOMPARE(curve->output_max, 9.921875f);
    QCOMPARE(curve->scale, 12.8f);
    QCOMPARE(curve->code_lowest, int64_t(-128));
    QCOMPARE(curve->code_highest, int64_t(127));

    const auto qdq = qs::sampleTransferCurve(qdqSpec(QType::QInt8, -1, 2));
    const qs::QdqSliceParams p = qs::qdqSliceParams(-1, 2, [] {
        qs::QdqAttrs a;
        a.range_given = true;
        return a;
    }());
    QCOMPARE(qdq->output_min, p.min);
    QCOMPARE(qdq->output_max, p.max);
    QCOMPARE(qdq->output_per_code, double(p.inv));
}

void TstTransferCurve::codeAxisIsAffineInTheOutput() {
    for (const QuantSpec& spec :
         {quantizeSpec(QType::QInt8, QuantizeMode::MinCombined, -1, 3),
          quantizeSpec(QType::QUInt8, QuantizeMode::MinFirst, -2, 1),
          quantizeSpec(QType::QInt16, QuantizeMode::Scaled, -1, 1), qdqSpec(QType::QInt8, -1, 1)}) {
        const auto curve = qs::sampleTransferCurve(spec);
        const double width = curve->x_last - curve->x_first;
        for (size_t i = 0; i < curve->x.size(); ++i) {
            const double predicted =
                curve->code[i] * curve->output_per_code + curve->output_at_code_zero;
            QVERIFY(std::abs(predicted - curve->output[i]) <= 1e-5 * width);
        }
    }
}

void TstTransferCurve::errorsAreTensorFlows() {
    const auto reversed =
        qs::sampleTransferCurve(quantizeSpec(QType::QInt8, QuantizeMode::MinCombined, 1, -1));
    QVERIFY(!reversed.ok());
    QCOMPARE(reversed.error().kind, std::string("InvalidArgument"));
    QCOMPARE(reversed.error().message,
             std::string("input_max_range must be larger than input_min_range."));

    const auto evenNotScaled = qs::sampleTransferCurve(quantizeSpec(
        QType::QInt8, QuantizeMode::MinCombined, -1, 1, RoundMode::HalfToEven));
    QVERIFY(!evenNotScaled.ok());
    QCOMPARE(evenNotScaled.error().message,
             std::string("Round mode 'HALF_TO_EVEN' only supported for mode 'SCALED', but mode "
                         "is 'MIN_COMBINED'."));

    const auto qdqReversed = qs::sampleTransferCurve(qdqSpec(QType::QInt8, 1, 0));
    QVERIFY(!qdqReversed.ok());
    QCOMPARE(qdqReversed.error().message, std::string("Invalid range: input_min 1 > input_max 0"));
}

void TstTransferCurve::degenerateRangeStillGivesACurve() {
    // Both scale candidates fail on [0, 0]: TF uses FLT_MAX and inv = 0, so every x gives 0.
    const auto curve = qs::sampleTransferCurve(qdqSpec(QType::QInt8, 0, 0));
    QVERIFY(curve.ok());
    QVERIFY(curve->x_first < 0 && curve->x_last > 0);
    QVERIFY(std::isfinite(curve->x_first) && std::isfinite(curve->x_last));
    for (double y : curve->output) QCOMPARE(y, 0.0);
}

void TstTransferCurve::closeUpShowsSingleSteps() {
    const QuantSpec spec = quantizeSpec(QType::QInt16, QuantizeMode::MinCombined, -1, 1);
    const auto whole = qs::sampleTransferCurve(spec);
    const qs::TransferWindow window = qs::closeUpWindow(*whole, 8);
    QVERIFY(window.first < 0 && window.last > 0);
    QCOMPARE(window.last - window.first, 8 * whole->output_per_code);
    const auto closeUp = qs::sampleTransferCurve(spec, window);
    QVERIFY(closeUp->steps_resolved);
    QCOMPARE(closeUp->x_first, window.first);
    const std::set<double> levels(closeUp->output.begin(), closeUp->output.end());
    QVERIFY(levels.size() >= 8 && levels.size() <= 10);  // + a sliver at each end
    const OpOutputs expected = runOps(spec, asFloats(closeUp->x));
    for (size_t i = 0; i < closeUp->x.size(); ++i) QCOMPARE(closeUp->output[i], expected.output[i]);

    // Zero outside the op's range (unsigned narrow SCALED starts at 1/s): centre on its end.
    const auto narrow = qs::sampleTransferCurve(
        quantizeSpec(QType::QUInt8, QuantizeMode::Scaled, -1, 2, RoundMode::HalfAwayFromZero, true));
    const qs::TransferWindow shifted = qs::closeUpWindow(*narrow);
    QCOMPARE((shifted.first + shifted.last) / 2, double(narrow->output_min));
}

QTEST_APPLESS_MAIN(TstTransferCurve)
#include "tst_transfer_curve.moc"
