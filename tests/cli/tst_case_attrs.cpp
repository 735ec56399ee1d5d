// The CLI's side of the attribute table: a case's attributes are read by the table (absent
// ones take TF's default, present ones land in their QuantSpec field), the report's spec
// JSON lists the op's attributes in the table's order, and `export --help` names every
// attribute a case may give (the help is hand-wrapped text, so it is checked rather than
// generated).
#include <QtTest>

#include <QJsonDocument>
#include <QJsonObject>

#include "app/cli/analysis_report.h"
#include "app/cli/case_spec.h"
#include "app/cli/cmd_common.h"
#include "core/analysis/op_attributes.h"

namespace qs::cli {
extern const Command exportCommand;
}

using namespace qs;

namespace {

QJsonValue caseJson(const OpAttribute& a, const AttrValue& v) {
    switch (a.kind) {
        case AttrKind::Bool: return std::get<bool>(v);
        case AttrKind::Int: return static_cast<qint64>(std::get<int64_t>(v));
        case AttrKind::Float: return std::get<double>(v);
        case AttrKind::Enum: break;
    }
    return QString::fromUtf8(a.choiceName(std::get<int64_t>(v)).data());
}

// The smallest valid case of `op`: required attributes and inputs only.
QJsonObject minimalCase(QuantOp op) {
    QJsonObject attrs;
    QJsonObject c{{"op", QString::fromUtf8(quantOpKey(op).data())}};
    if (op == QuantOp::QuantizeV2) attrs["T"] = "qint8";
    if (op == QuantOp::QuantizeAndDequantizeV3) c["num_bits"] = 8;
    if (op == QuantOp::TpuSimulatedQuantization) {
        attrs["num_buckets"] = 16;
        attrs["lower"] = -1;
        attrs["upper"] = 1;
    } else {
        c["input_min"] = -1;
        c["input_max"] = 1;
    }
    c["attrs"] = attrs;
    return c;
}

Result<QuantSpec> read(const QJsonObject& c) {
    return cli::caseSpecFromJson(QJsonDocument(c).toJson(), "case.json");
}

}  // namespace

class TstCaseAttrs : public QObject {
    Q_OBJECT
private slots:
    void absentAttributesTakeTfDefaults() {
        for (QuantOp op : kAllQuantOps) {
            const auto base = read(minimalCase(op));
            QVERIFY2(base, base ? "" : base.error().message.c_str());
            for (const OpAttribute& a : opAttributes()) {
                if (!a.tf || a.use(op) != AttrUse::Attr) continue;
                const auto def = a.tf_default(op);
                if (!def) continue;
                QVERIFY2(a.get(*base) == *def, std::string(a.name).c_str());
            }
        }
    }

    void givenAttributesLandInTheirField() {
        for (QuantOp op : kAllQuantOps)
            for (const OpAttribute& a : opAttributes()) {
                if (!a.tf || a.use(op) != AttrUse::Attr) continue;
                QJsonObject c = minimalCase(op);
                const auto base = read(c);
                QVERIFY(base);
                // A value TF accepts for the op that differs from the default.
                AttrValue v = a.get(*base);
                switch (a.kind) {
                    case AttrKind::Bool: v = !std::get<bool>(v); break;
                    case AttrKind::Int: v = std::get<int64_t>(v) + 1; break;
                    case AttrKind::Float: v = 0.25; break;
                    case AttrKind::Enum:
                        for (const AttrChoice& ch : a.values())
                            if (ch.value != std::get<int64_t>(v) && a.parse(ch.name, op)) v = ch.value;
                        break;
                }
                QJsonObject attrs = c["attrs"].toObject();
                attrs[QString::fromUtf8(a.name.data())] = caseJson(a, v);
                c["attrs"] = attrs;
                const auto got = read(c);
                QVERIFY2(got, got ? "" : got.error().message.c_str());
                QVERIFY2(a.get(*got) == v, (std::string(quantOpKey(op)) + " " + std::string(a.name)).c_str());
                QuantSpec expected = *base;
                a.set(expected, v);
                QVERIFY(*got == expected);  // that field and no other
            }
    }

    void malformedAttributesNameTheirField() {
        QJsonObject c = minimalCase(QuantOp::QuantizeAndDequantizeV4);
        QJsonObject attrs = c["attrs"].toObject();
        attrs["round_mode"] = "HALF_AWAY_FROM_ZERO";
        c["attrs"] = attrs;
        QCOMPARE(read(c).error().message,
                 std::string("case.json: field \"attrs.round_mode\" Round mode string must be 'HALF_UP' or "
                             "'HALF_TO_EVEN', is 'HALF_AWAY_FROM_ZERO'"));
        c = minimalCase(QuantOp::QuantizeV2);
        c["attrs"] = QJsonObject{};
        QCOMPARE(read(c).error().message, std::string("case.json: field \"attrs.T\" is missing"));
    }

    void specJsonListsTheOpsAttributes() {
        for (QuantOp op : kAllQuantOps) {
            const std::string json = cli::specJson(defaultSpecFor(op)).dump();
            const QJsonObject o = QJsonDocument::fromJson(QByteArray::fromStdString(json)).object();
            qsizetype at = 0;
            for (const OpAttribute& a : opAttributes()) {
                const QString key = QString::fromUtf8(a.name.data());
                const bool listed = a.tf && a.use(op) != AttrUse::None;
                QCOMPARE(o.contains(key), listed);
                if (!listed) continue;
                const qsizetype pos = QString::fromStdString(json).indexOf("\"" + key + "\"");
                QVERIFY2(pos > at, qPrintable(key));  // in the table's order
                at = pos;
            }
            const RangeInputNames range = rangeInputNames(op);
            QVERIFY(o.contains(QString::fromUtf8(range.case_min.data())));
            QVERIFY(o.contains(QString::fromUtf8(range.case_max.data())));
        }
    }

    void exportHelpNamesEveryAttribute() {
        const QString help = QString::fromUtf8(cli::exportCommand.usage.data(),
                                               static_cast<qsizetype>(cli::exportCommand.usage.size()));
        // The option's description (not the usage line at the top).
        const qsizetype from = help.indexOf(QLatin1String("\n  --case CASE.json"));
        const qsizetype to = help.indexOf(QLatin1String("\n  --session FILE.qscope"), from);
        QVERIFY(from >= 0 && to > from);
        const QString text = help.mid(from, to - from).simplified();
        for (QuantOp op : kAllQuantOps) {
            const QString name = QString::fromUtf8(quantOpKey(op).data());
            // The op's paragraph: from its name (V2/V4 share one) to the next ')'.
            qsizetype at = text.indexOf(name.left(name.size() - (isQdq(op) ? 2 : 0)));
            if (op == QuantOp::QuantizeAndDequantizeV3) at = text.indexOf(QLatin1String("QuantizeAndDequantizeV3"));
            QVERIFY2(at >= 0, qPrintable(name));
            const QString part = text.mid(at, text.indexOf(QLatin1Char(')'), at) - at);
            for (const OpAttribute& a : opAttributes()) {
                if (!a.tf) continue;
                const AttrUse use = a.use(op);
                // V3 lists what differs from V2/V4 (num_bits is an input, range_given true).
                if (op == QuantOp::QuantizeAndDequantizeV3 && a.name != "num_bits" && a.name != "range_given") continue;
                if (use == AttrUse::Attr || use == AttrUse::Input)
                    QVERIFY2(part.contains(QString::fromUtf8(a.name.data())), qPrintable(name + ": " + QString::fromUtf8(a.name.data())));
            }
            const RangeInputNames range = rangeInputNames(op);
            if (range.case_in_attrs) QVERIFY(part.contains(QString::fromUtf8(range.case_min.data())));
        }
    }
};

QTEST_APPLESS_MAIN(TstCaseAttrs)
#include "tst_case_attrs.moc"
