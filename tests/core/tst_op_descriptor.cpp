// The op descriptor table (core/analysis/op_descriptor.h): every op has exactly one row, in
// enum order, with its names; the predicates, names and round modes that quant_spec.h and
// op_attributes.h answer from it are what they were before the table (written out below by
// hand, not read from the table); the bit widths and storage of today's ops.
#include <QtTest>

#include <set>
#include <string>
#include <vector>

#include "core/analysis/op_attributes.h"
#include "core/analysis/op_descriptor.h"
#include "core/analysis/quant_spec.h"

using namespace qs;

namespace {

using RM = RoundMode;

// What each op answered before the descriptor table existed.
struct Expected {
    QuantOp op;
    const char* key;
    const char* name;
    const char* formula;
    const char* tf_min;
    const char* tf_max;
    const char* case_min;
    const char* case_max;
    bool case_in_attrs;
    const char* used_min;
    const char* used_max;
    bool qdq, mode, narrow, axis;
    std::vector<RoundMode> round_modes;
    RoundMode default_round;
    QdqVersion qdq_version;
};

const std::vector<Expected>& expected() {
    static const std::vector<Expected> rows = {
        {QuantOp::QuantizeV2, "QuantizeV2", "QuantizeV2 → Dequantize", "Dequantize(QuantizeV2(x))", "min_range",
         "max_range", "input_min", "input_max", false, "output_min", "output_max", false, true, true, true,
         {RM::HalfAwayFromZero, RM::HalfToEven}, RM::HalfAwayFromZero, QdqVersion::V2},
        {QuantOp::QuantizeAndDequantizeV2, "QuantizeAndDequantizeV2", "QuantizeAndDequantizeV2",
         "QuantizeAndDequantizeV2(x)", "input_min", "input_max", "input_min", "input_max", false, "effective min",
         "effective max", true, false, true, true, {RM::HalfToEven, RM::HalfUp}, RM::HalfToEven, QdqVersion::V2},
        {QuantOp::QuantizeAndDequantizeV3, "QuantizeAndDequantizeV3", "QuantizeAndDequantizeV3",
         "QuantizeAndDequantizeV3(x)", "input_min", "input_max", "input_min", "input_max", false, "effective min",
         "effective max", true, false, true, true, {}, RM::HalfToEven, QdqVersion::V3},
        {QuantOp::QuantizeAndDequantizeV4, "QuantizeAndDequantizeV4", "QuantizeAndDequantizeV4",
         "QuantizeAndDequantizeV4(x)", "input_min", "input_max", "input_min", "input_max", false, "effective min",
         "effective max", true, false, true, true, {RM::HalfToEven, RM::HalfUp}, RM::HalfToEven, QdqVersion::V4},
        {QuantOp::TpuSimulatedQuantization, "TPUSimulatedQuantization", "TPU simulated quantization",
         "TPU simulated quantization(x)", "lower", "upper", "lower", "upper", true, "lower", "upper", false, false,
         false, false, {}, RM::HalfToEven, QdqVersion::V2},
    };
    return rows;
}

QuantSpec specOf(QuantOp op) {
    QuantSpec s;
    s.op = op;
    return s;
}

}  // namespace

class TstOpDescriptor : public QObject {
    Q_OBJECT
private slots:
    void everyOpHasOneRowWithNames() {
        QCOMPARE(opDescriptors().size(), expected().size());
        QCOMPARE(kAllQuantOps.size(), expected().size());
        std::set<std::string_view> keys, names;
        for (size_t i = 0; i < kAllQuantOps.size(); ++i) {
            const OpDescriptor& d = opDescriptors()[i];
            QCOMPARE(d.op, kAllQuantOps[i]);
            QCOMPARE(&opDescriptor(d.op), &d);
            for (std::string_view text : {d.key, d.name, d.short_name, d.formula, d.range.tf_min, d.range.tf_max,
                                          d.range.case_min, d.range.case_max, d.range.used_min, d.range.used_max,
                                          d.storage.layout})
                QVERIFY2(!text.empty(), d.key.data());
            keys.insert(d.key);
            names.insert(d.name);
        }
        QCOMPARE(keys.size(), kAllQuantOps.size());
        QCOMPARE(names.size(), kAllQuantOps.size());
    }

    void namesAndPredicatesAreTheOldOnes() {
        for (const Expected& e : expected()) {
            const QuantOp op = e.op;
            QCOMPARE(quantOpKey(op), std::string_view(e.key));
            QCOMPARE(quantOpName(op), std::string_view(e.name));
            QuantOp parsed = QuantOp::Count;
            QVERIFY(parseQuantOpKey(e.key, parsed));
            QCOMPARE(parsed, op);
            QCOMPARE(opDescriptor(op).formula, std::string_view(e.formula));
            const RangeInputNames r = rangeInputNames(op);
            QCOMPARE(r.tf_min, std::string_view(e.tf_min));
            QCOMPARE(r.tf_max, std::string_view(e.tf_max));
            QCOMPARE(r.case_min, std::string_view(e.case_min));
            QCOMPARE(r.case_max, std::string_view(e.case_max));
            QCOMPARE(r.case_in_attrs, e.case_in_attrs);
            QCOMPARE(r.used_min, std::string_view(e.used_min));
            QCOMPARE(r.used_max, std::string_view(e.used_max));
            QCOMPARE(isQdq(op), e.qdq);
            QCOMPARE(usesMode(op), e.mode);
            QCOMPARE(usesNarrowRange(op), e.narrow);
            QCOMPARE(usesAxis(op), e.axis);
            const auto modes = roundModesFor(op);
            QCOMPARE(std::vector<RoundMode>(modes.begin(), modes.end()), e.round_modes);
            QCOMPARE(defaultRoundMode(op), e.default_round);
            // An op offers round modes exactly when it can parse one.
            QCOMPARE(opDescriptor(op).parse_round_mode != nullptr, !modes.empty());
            QCOMPARE(qdqAttrs(specOf(op)).version, e.qdq_version);
        }
    }

    // The facts the views and the evaluator used to spell with `op ==`.
    void theFactsViewsAsk() {
        auto returned = [](QuantOp op) { return opDescriptor(op).range.used_is_returned; };
        auto scalarOnly = [](QuantOp op) { return opDescriptor(op).range.given_range_scalar_only; };
        QVERIFY(returned(QuantOp::QuantizeV2));
        QVERIFY(scalarOnly(QuantOp::QuantizeAndDequantizeV2) && scalarOnly(QuantOp::QuantizeAndDequantizeV4));
        for (QuantOp op : {QuantOp::QuantizeAndDequantizeV2, QuantOp::QuantizeAndDequantizeV3,
                           QuantOp::QuantizeAndDequantizeV4, QuantOp::TpuSimulatedQuantization})
            QVERIFY(!returned(op));
        for (QuantOp op : {QuantOp::QuantizeV2, QuantOp::QuantizeAndDequantizeV3, QuantOp::TpuSimulatedQuantization})
            QVERIFY(!scalarOnly(op));
        QCOMPARE(opDescriptor(QuantOp::QuantizeV2).short_name, std::string_view("QuantizeV2"));
        QCOMPARE(opDescriptor(QuantOp::QuantizeAndDequantizeV3).short_name, std::string_view("QDQ V3"));
        QCOMPARE(opDescriptor(QuantOp::TpuSimulatedQuantization).short_name, std::string_view("TPU"));
        QCOMPARE(opDescriptor(QuantOp::QuantizeV2).family, OpFamily::QuantizeV2);
        QCOMPARE(opDescriptor(QuantOp::QuantizeAndDequantizeV4).family, OpFamily::Qdq);
        QCOMPARE(opDescriptor(QuantOp::TpuSimulatedQuantization).family, OpFamily::TpuSimulated);
        // Only QuantizeV2 takes the explorer's range_source.
        for (QuantOp op : kAllQuantOps)
            QCOMPARE(findOpAttribute("range_source")->use(op) == AttrUse::Attr, op == QuantOp::QuantizeV2);
    }

    void bitWidthsAndStorage() {
        QuantSpec v2 = specOf(QuantOp::QuantizeV2);
        v2.T = QType::QUInt16;
        QCOMPARE(specBitWidth(v2), 16.0);
        QCOMPARE(wholeBitWidth(v2), 16);
        QuantSpec qdq = specOf(QuantOp::QuantizeAndDequantizeV3);
        qdq.num_bits = 5;
        QCOMPARE(specBitWidth(qdq), 5.0);
        QCOMPARE(wholeBitWidth(qdq), 5);
        QuantSpec tpu = specOf(QuantOp::TpuSimulatedQuantization);
        tpu.num_buckets = 100;
        QCOMPARE(specBitWidth(tpu), std::log2(100.0));
        QCOMPARE(wholeBitWidth(tpu), 7);
        tpu.num_buckets = 1;  // below 2 counts as 2: one bit
        QCOMPARE(wholeBitWidth(tpu), 1);
        // TF's ops keep no per-block scales: a value costs its code.
        for (QuantOp op : kAllQuantOps) {
            QCOMPARE(opDescriptor(op).storage.block_size, int64_t{0});
            QCOMPARE(bitsPerWeight(specOf(op)), specBitWidth(specOf(op)));
        }
    }

    void aValueOutsideTheEnumTakesNothing() {
        const QuantOp bad = static_cast<QuantOp>(99);
        QCOMPARE(quantOpName(bad), std::string_view("?"));
        QCOMPARE(quantOpKey(bad), std::string_view("?"));
        QVERIFY(!isQdq(bad) && !usesMode(bad) && !usesAxis(bad) && !usesNarrowRange(bad));
        QVERIFY(roundModesFor(bad).empty());
        for (const OpAttribute& a : opAttributes()) QCOMPARE(a.use(bad), AttrUse::None);
        QuantOp parsed = QuantOp::QuantizeV2;
        QVERIFY(!parseQuantOpKey("?", parsed));
    }
};

QTEST_APPLESS_MAIN(TstOpDescriptor)
#include "tst_op_descriptor.moc"
