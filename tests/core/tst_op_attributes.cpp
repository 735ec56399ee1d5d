// The attribute table (core/analysis/op_attributes.h): each row reads and writes its own
// QuantSpec field and no other, its TF defaults are the core ops' own, the ops that take it
// are the ones the op definitions say, and enum values parse with TF's errors.
#include <QtTest>

#include <set>
#include <string>

#include "core/analysis/op_attributes.h"

using namespace qs;

namespace {

// A value of the row's kind that differs from `current`.
AttrValue otherValue(const OpAttribute& a, const AttrValue& current) {
    switch (a.kind) {
        case AttrKind::Bool: return !std::get<bool>(current);
        case AttrKind::Int: return std::get<int64_t>(current) == 3 ? int64_t{4} : int64_t{3};
        case AttrKind::Float: return std::get<double>(current) == 0.5 ? 0.25 : 0.5;
        case AttrKind::Enum: {
            for (const AttrChoice& c : a.values())
                if (c.value != std::get<int64_t>(current)) return c.value;
        }
    }
    return current;
}

}  // namespace

class TstOpAttributes : public QObject {
    Q_OBJECT
private slots:
    void namesAreUniqueAndFindable() {
        std::set<std::string_view> names;
        for (const OpAttribute& a : opAttributes()) {
            QVERIFY2(names.insert(a.name).second, std::string(a.name).c_str());
            QCOMPARE(findOpAttribute(a.name), &a);
            QVERIFY(!a.tooltip.empty());
            if (a.kind == AttrKind::Enum) QVERIFY(!a.values().empty());
            if (a.kind == AttrKind::Int || a.kind == AttrKind::Float) QVERIFY(a.min < a.max);
        }
        QVERIFY(!findOpAttribute("no_such_attribute"));
    }

    // Setting one row changes that row only (each row is bound to its own field), and the
    // value reads back as set.
    void eachRowOwnsOneField() {
        for (const OpAttribute& a : opAttributes()) {
            const QuantSpec before;
            QuantSpec after = before;
            const AttrValue v = otherValue(a, a.get(before));
            a.set(after, v);
            QVERIFY2(a.get(after) == v, std::string(a.name).c_str());
            QVERIFY2(!(after == before), std::string(a.name).c_str());
            for (const OpAttribute& b : opAttributes())
                if (&b != &a) QVERIFY2(b.get(after) == b.get(before), (std::string(a.name) + " moved " + std::string(b.name)).c_str());
            QCOMPARE(after.min_range, before.min_range);
            QCOMPARE(after.max_range, before.max_range);
            QCOMPARE(after.op, before.op);
        }
    }

    // TF's defaults are the ones the core ops' attribute structs start from.
    void defaultsAreTheCoreOps() {
        const QuantizeV2Attrs v2;
        const QdqAttrs qdq;
        auto def = [](const char* name, QuantOp op) { return findOpAttribute(name)->tf_default(op); };
        QVERIFY(!def("T", QuantOp::QuantizeV2));  // TF has none: a case must name it
        QCOMPARE(std::get<int64_t>(*def("mode", QuantOp::QuantizeV2)), int64_t(v2.mode));
        QCOMPARE(std::get<int64_t>(*def("round_mode", QuantOp::QuantizeV2)), int64_t(v2.round_mode));
        QCOMPARE(std::get<double>(*def("ensure_minimum_range", QuantOp::QuantizeV2)), double(v2.ensure_minimum_range));
        QCOMPARE(std::get<double>(*def("ensure_minimum_range", QuantOp::QuantizeV2)), double(0.01f));
        QCOMPARE(std::get<int64_t>(*def("axis", QuantOp::QuantizeV2)), v2.axis);
        QCOMPARE(std::get<bool>(*def("narrow_range", QuantOp::QuantizeV2)), v2.narrow_range);
        for (QuantOp op : {QuantOp::QuantizeAndDequantizeV2, QuantOp::QuantizeAndDequantizeV4}) {
            QCOMPARE(std::get<bool>(*def("signed_input", op)), qdq.signed_input);
            QCOMPARE(std::get<int64_t>(*def("num_bits", op)), qdq.num_bits);
            QCOMPARE(std::get<bool>(*def("range_given", op)), false);
            QCOMPARE(std::get<int64_t>(*def("round_mode", op)), int64_t(qdq.round_mode));
        }
        QCOMPARE(std::get<bool>(*def("range_given", QuantOp::QuantizeAndDequantizeV3)), true);
        QVERIFY(!def("num_bits", QuantOp::QuantizeAndDequantizeV3));  // an input tensor
        QVERIFY(!def("num_buckets", QuantOp::TpuSimulatedQuantization));
        // The explorer's own start: TF's defaults except range_given (handles need a range).
        const QuantSpec s;
        QCOMPARE(s.ensure_minimum_range, v2.ensure_minimum_range);
        QCOMPARE(s.num_bits, qdq.num_bits);
        QVERIFY(s.range_given);
    }

    void whichOpsTakeWhat() {
        auto use = [](const char* name, QuantOp op) { return findOpAttribute(name)->use(op); };
        QCOMPARE(use("T", QuantOp::QuantizeV2), AttrUse::Attr);
        QCOMPARE(use("T", QuantOp::QuantizeAndDequantizeV2), AttrUse::None);
        QCOMPARE(use("round_mode", QuantOp::QuantizeAndDequantizeV3), AttrUse::Fixed);
        QCOMPARE(use("round_mode", QuantOp::TpuSimulatedQuantization), AttrUse::None);
        QCOMPARE(use("num_bits", QuantOp::QuantizeAndDequantizeV3), AttrUse::Input);
        QCOMPARE(use("num_bits", QuantOp::QuantizeAndDequantizeV4), AttrUse::Attr);
        QCOMPARE(use("num_buckets", QuantOp::TpuSimulatedQuantization), AttrUse::Attr);
        QCOMPARE(use("axis", QuantOp::TpuSimulatedQuantization), AttrUse::None);
        QVERIFY(!findOpAttribute("range_source")->tf);  // the explorer's, in sessions only
        // Each op's TF attributes in the table's order (the order of forms and reports).
        auto names = [](QuantOp op) {
            std::string s;
            for (const OpAttribute& a : opAttributes())
                if (a.tf && a.use(op) != AttrUse::None) {
                    if (!s.empty()) s += ',';
                    s += a.name;
                }
            return s;
        };
        QCOMPARE(names(QuantOp::QuantizeV2), std::string("T,mode,round_mode,narrow_range,axis,ensure_minimum_range"));
        QCOMPARE(names(QuantOp::QuantizeAndDequantizeV3),
                 std::string("signed_input,num_bits,range_given,round_mode,narrow_range,axis"));
        QCOMPARE(names(QuantOp::TpuSimulatedQuantization), std::string("num_buckets"));
    }

    void enumsParseWithTfErrors() {
        const OpAttribute& round = *findOpAttribute("round_mode");
        QVERIFY(round.parse("HALF_UP", QuantOp::QuantizeAndDequantizeV2));
        QCOMPARE(round.parse("HALF_UP", QuantOp::QuantizeV2).error().message,
                 std::string("Round mode string must be 'HALF_AWAY_FROM_ZERO' or 'HALF_TO_EVEN', is 'HALF_UP'"));
        QCOMPARE(findOpAttribute("T")->parse("qint4", QuantOp::QuantizeV2).error().message,
                 std::string("Value for attr 'T' of qint4 is not in the list of allowed values: qint8, quint8, "
                             "qint32, qint16, quint16"));
        QCOMPARE(findOpAttribute("mode")->parse("FOO", QuantOp::QuantizeV2).error().message,
                 std::string("Mode string must be 'MIN_COMBINED', 'MIN_FIRST', or 'SCALED', is 'FOO'"));
        for (const OpAttribute& a : opAttributes())
            for (const AttrChoice& c : a.values()) {
                QCOMPARE(a.choiceName(c.value), c.name);
                if (a.name != "round_mode") QCOMPARE(*a.parse(c.name, QuantOp::QuantizeV2), c.value);
            }
    }

    void rangeInputsByOp() {
        QCOMPARE(rangeInputNames(QuantOp::QuantizeV2).tf_min, std::string_view("min_range"));
        QCOMPARE(rangeInputNames(QuantOp::QuantizeV2).case_min, std::string_view("input_min"));
        QCOMPARE(rangeInputNames(QuantOp::QuantizeAndDequantizeV3).tf_max, std::string_view("input_max"));
        QVERIFY(rangeInputNames(QuantOp::TpuSimulatedQuantization).case_in_attrs);
        QCOMPARE(rangeInputNames(QuantOp::TpuSimulatedQuantization).case_max, std::string_view("upper"));
    }

    void defaultSpecRoundsAsTheOp() {
        QCOMPARE(defaultSpecFor(QuantOp::QuantizeV2).round_mode, RoundMode::HalfAwayFromZero);
        QCOMPARE(defaultSpecFor(QuantOp::QuantizeAndDequantizeV4).round_mode, RoundMode::HalfToEven);
        QCOMPARE(defaultSpecFor(QuantOp::QuantizeAndDequantizeV4).op, QuantOp::QuantizeAndDequantizeV4);
    }
};

QTEST_APPLESS_MAIN(TstOpAttributes)
#include "tst_op_attributes.moc"
