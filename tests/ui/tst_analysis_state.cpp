// The analysis tabs' state in the model: the compared configurations, the calibration
// options and the r1.4 switch are undoable edits and session keys (written only when not
// the default, so sessions without them stay as they were, and older sessions open); the
// calibration panel and the comparison view show the model's state and edit through it.
// Also every attribute of the table round-trips through a session.
#include <QtTest>

#include <QCheckBox>
#include <QDoubleSpinBox>
#include <QTemporaryDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QListWidget>
#include <QSignalSpy>

#include "core/analysis/op_attributes.h"
#include "session/explorer/explorer_model.h"
#include "session/explorer/session.h"
#include "tests/ui/isolated_user_files.h"
#include "ui/analysis/calibration_panel.h"
#include "ui/analysis/comparison_view.h"
#include "ui/main_window.h"
#include "ui/views/framework_view.h"

using namespace qs::ui;

namespace {

qs::QuantSpec qdqBits(int bits) {
    qs::QuantSpec s;
    s.op = qs::QuantOp::QuantizeAndDequantizeV2;
    s.round_mode = qs::RoundMode::HalfToEven;
    s.num_bits = bits;
    return s;
}

std::optional<Session> roundTrip(const Session& s, QByteArray* bytes = nullptr) {
    const QByteArray json = QJsonDocument(sessionToJson(s)).toJson();
    if (bytes) *bytes = json;
    QString error;
    auto back = sessionFromJson(QJsonDocument::fromJson(json).object(), &error);
    if (!back) qWarning("%s", qPrintable(error));
    return back;
}

}  // namespace

class TstAnalysisState : public QObject {
    Q_OBJECT
    QTemporaryDir settingsDir_;

private slots:
    void initTestCase() {
        // The window reads and autosaves settings: keep them out of the user's.
        QVERIFY(isolateUserFiles(settingsDir_));
    }

    void comparedConfigurationsUndo() {
        ExplorerModel m;
        QSignalSpy changed(&m, &ExplorerModel::comparedChanged);
        QSignalSpy recompute(&m, &ExplorerModel::changed);
        QVERIFY(m.addCompared(qdqBits(4)));
        QVERIFY(!m.addCompared(qdqBits(4)));  // already there
        QVERIFY(m.addCompared(qdqBits(5)));
        QVERIFY(m.addCompared(qdqBits(6)));
        QVERIFY(m.addCompared(qdqBits(7)));
        QVERIFY(!m.addCompared(qdqBits(8)));  // four at most
        QCOMPARE(m.analysis().compared.size(), size_t(4));
        QCOMPARE(m.undoStack()->count(), 4);
        m.removeCompared(1);
        m.removeCompared(9);  // no such row: nothing
        QCOMPARE(m.undoStack()->count(), 5);
        QCOMPARE(m.analysis().compared[1], qdqBits(6));
        m.undoStack()->undo();
        QCOMPARE(m.analysis().compared[1], qdqBits(5));
        m.undoStack()->undo();
        QCOMPARE(m.analysis().compared.size(), size_t(3));
        m.undoStack()->redo();
        QCOMPARE(m.analysis().compared.size(), size_t(4));
        QCOMPARE(changed.count(), 8);
        QCOMPARE(recompute.count(), 0);  // the explorer's own result does not depend on it
    }

    void calibrationOptionsUndo() {
        ExplorerModel m;
        QSignalSpy changed(&m, &ExplorerModel::calibrationOptionsChanged);
        qs::analysis::CalibrationOptions o = m.analysis().calibration;
        QCOMPARE(o.percentile, 99.99);
        o.percentile = 99.5;
        m.setCalibrationOptions(o);
        m.setCalibrationOptions(o);  // no change, no step
        QCOMPARE(m.undoStack()->count(), 1);
        QCOMPARE(m.analysis().calibration.percentile, 99.5);
        m.undoStack()->undo();
        QCOMPARE(m.analysis().calibration.percentile, 99.99);
        m.undoStack()->redo();
        QCOMPARE(m.analysis().calibration.percentile, 99.5);
        QCOMPARE(changed.count(), 3);
    }

    void r14SwitchUndo() {
        ExplorerModel m;
        QSignalSpy changed(&m, &ExplorerModel::scaledR14Changed);
        QVERIFY(!m.analysis().scaledR14);
        m.setScaledR14(true);
        QVERIFY(m.analysis().scaledR14);
        m.undoStack()->undo();
        QVERIFY(!m.analysis().scaledR14);
        m.undoStack()->redo();
        QVERIFY(m.analysis().scaledR14);
        QCOMPARE(changed.count(), 3);
    }

    void sessionsKeepTheAnalysis() {
        Session s;
        s.analysis.compared = {qdqBits(3), qdqBits(5)};
        s.analysis.compared[1].op = qs::QuantOp::TpuSimulatedQuantization;
        s.analysis.compared[1].num_buckets = 17;
        s.analysis.calibration.percentile = 99.25;
        s.analysis.calibration.bins = 512;
        s.analysis.calibration.symmetric = false;
        s.analysis.scaledR14 = true;
        QByteArray json;
        const auto back = roundTrip(s, &json);
        QVERIFY(back);
        QVERIFY(back->analysis == s.analysis);
        // Each part alone.
        for (int part = 0; part < 3; ++part) {
            Session one;
            if (part == 0) one.analysis.compared = {qdqBits(2)};
            if (part == 1) one.analysis.calibration.percentile = 60;
            if (part == 2) one.analysis.scaledR14 = true;
            const auto b = roundTrip(one);
            QVERIFY(b);
            QVERIFY(b->analysis == one.analysis);
        }
        // A model reset from the session has it, and undo does not reach before the load.
        ExplorerModel m;
        m.reset(back->spec, back->data, back->view, back->analysis);
        QVERIFY(m.analysis() == s.analysis);
        QCOMPARE(m.undoStack()->count(), 0);
    }

    void defaultAnalysisWritesNothing() {
        // Sessions that do not use the analysis state are byte for byte what they were.
        const QJsonObject o = sessionToJson(Session{});
        QVERIFY(!o.contains(QLatin1String("analysis")));
        QCOMPARE(o.keys(), (QStringList{"data", "format", "parameters", "version", "view"}));
    }

    void anOlderSessionOpens() {
        // Written before the analysis keys existed: today's defaults.
        const QByteArray old = R"({"format": "quantscope-session", "version": 1,
            "parameters": {"op": "QuantizeAndDequantizeV2", "num_bits": 4},
            "data": {"generator": "normal:n=1000,seed=1"}, "view": {"tab": 2}})";
        QString error;
        const auto s = sessionFromJson(QJsonDocument::fromJson(old).object(), &error);
        QVERIFY2(s, qPrintable(error));
        QVERIFY(s->analysis == AnalysisState{});
        QCOMPARE(s->spec.num_bits, 4);
        // A model that had analysis state takes the session's (the defaults).
        ExplorerModel m;
        m.setScaledR14(true);
        m.addCompared(qdqBits(3));
        m.reset(s->spec, s->data, s->view, s->analysis);
        QVERIFY(m.analysis() == AnalysisState{});
    }

    void badAnalysisKeysNameTheField() {
        const QList<QPair<QByteArray, QString>> cases{
            {R"({"analysis": 3})", "analysis: must be an object"},
            {R"({"analysis": {"compare": {}}})", "analysis.compare: must be a list"},
            {R"({"analysis": {"compare": [{}, {"mode": "FOO"}]}})",
             "analysis.compare[1].mode: 'FOO' is not one of MIN_COMBINED, MIN_FIRST, SCALED"},
            {R"({"analysis": {"compare": [{}, {}, {}, {}, {}]}})", "analysis.compare: holds 5 configurations; at most 4"},
            {R"({"analysis": {"calibration": {"percentile": 40}}})",
             "analysis.calibration.percentile: 40 is out of range [50, 100]"},
            {R"({"analysis": {"calibration": {"bins": 1}}})", "analysis.calibration.bins: 1 is out of range [2, 65536]"},
            {R"({"analysis": {"scaled_r14": "yes"}})", "analysis.scaled_r14: must be true or false"},
        };
        for (const auto& [extra, message] : cases) {
            QJsonObject o = QJsonDocument::fromJson(extra).object();
            o["format"] = "quantscope-session";
            o["version"] = 1;
            QString error;
            QVERIFY(!sessionFromJson(o, &error));
            QCOMPARE(error, message);
        }
    }

    // Every attribute of the table is a session key and comes back as saved.
    void everyAttributeRoundTrips() {
        for (const qs::OpAttribute& a : qs::opAttributes()) {
            Session s;
            const qs::AttrValue before = a.get(s.spec);
            qs::AttrValue other = before;
            switch (a.kind) {
                case qs::AttrKind::Bool: other = !std::get<bool>(before); break;
                case qs::AttrKind::Int: other = static_cast<int64_t>(a.max); break;
                case qs::AttrKind::Float: other = a.max / 3; break;
                case qs::AttrKind::Enum: other = a.values().back().value; break;
            }
            a.set(s.spec, other);
            QVERIFY2(!(a.get(s.spec) == before), std::string(a.name).c_str());
            QVERIFY(sessionToJson(s).value("parameters").toObject().contains(QString::fromUtf8(a.name.data(), a.name.size())));
            const auto back = roundTrip(s);
            QVERIFY(back);
            QVERIFY2(back->spec == s.spec, std::string(a.name).c_str());
        }
    }

    // The widgets show the model's state and edit through it (one undo step each).
    void widgetsFollowTheModel() {
        ExplorerModel m;
        CalibrationPanel panel(&m);
        QSignalSpy recalibrate(&panel, &CalibrationPanel::optionsChanged);
        QCOMPARE(panel.percentileSpin()->value(), 99.99);
        panel.percentileSpin()->setValue(99.0);
        QCOMPARE(m.analysis().calibration.percentile, 99.0);
        QCOMPARE(panel.options().percentile, 99.0);
        m.undoStack()->undo();
        QCOMPARE(panel.percentileSpin()->value(), 99.99);
        QCOMPARE(recalibrate.count(), 2);

        ComparisonView view(&m);
        QSignalSpy compare(&view, &ComparisonView::configsChanged);
        QVERIFY(view.addConfig(qdqBits(3)));
        QVERIFY(view.addConfig(qdqBits(4)));
        QCOMPARE(view.list()->count(), 2);
        QCOMPARE(m.analysis().compared.size(), size_t(2));
        m.undoStack()->undo();
        QCOMPARE(view.list()->count(), 1);
        QCOMPARE(view.configs().size(), size_t(1));
        m.reset(m.spec(), m.dataSource(), m.viewState(), AnalysisState{});
        QCOMPARE(view.list()->count(), 0);
        QCOMPARE(compare.count(), 4);
    }

    // The Frameworks tab's r1.4 check box edits the model, and undo unchecks it.
    void theR14BoxFollowsTheModel() {
        ExplorerModel m;
        DataSource small;
        small.generator = QStringLiteral("normal:n=1000,seed=1");
        m.reset(m.spec(), small, ViewState{});
        MainWindow w(&m);
        QCheckBox* box = w.frameworkView()->r14Box();
        box->setChecked(true);
        QVERIFY(m.analysis().scaledR14);
        QCOMPARE(m.undoStack()->count(), 1);
        m.undoStack()->undo();
        QVERIFY(!box->isChecked());
        m.undoStack()->redo();
        QVERIFY(box->isChecked());
        AnalysisState none;
        m.reset(m.spec(), m.dataSource(), m.viewState(), none);  // a session without the switch
        QVERIFY(!box->isChecked());
    }
};

QTEST_MAIN(TstAnalysisState)
#include "tst_analysis_state.moc"
