// `quantscope-cli model FILE --report OUT.json [--csv] [--png] --case CASE.json` end to end on
// a real safetensors file, against the core's report computed here; usage and file errors
// exit 2.
#include <QImage>
#include <QJsonArray>
#include <QTemporaryDir>
#include <QtTest>

#include "core/analysis/op_attributes.h"
#include "core/model_analysis/model_report.h"
#include "core/modelfile/model_file.h"
#include "tests/cli/cli_process.h"

using namespace qs::testing;

namespace {

const QString kModel = QStringLiteral(QS_TEST_DATA_DIR "/models/safetensors/test-model-float32.safetensors");
const QByteArray kCase =
    R"({"op": "QuantizeAndDequantizeV2", "attrs": {"num_bits": 6, "range_given": false},
        "input_min": -1, "input_max": 1})";

}  // namespace

class TstCliModelReport : public QObject {
    Q_OBJECT

private slots:
    void reportJsonCsvAndPngMatchTheCore() {
        QTemporaryDir dir;
        const QString casePath = writeFile(dir, "case.json", kCase);
        const Run r = runCli({"model", kModel, "--report", dir.filePath("r.json"), "--csv", dir.filePath("r.csv"),
                              "--png", dir.filePath("r.png"), "--case", casePath});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QVERIFY(r.out.isEmpty());

        auto model = qs::modelfile::openModel(kModel.toStdString());
        QVERIFY(model.ok());
        qs::QuantSpec spec = qs::defaultSpecFor(qs::QuantOp::QuantizeAndDequantizeV2);
        spec.num_bits = 6;
        spec.range_given = false;
        auto expected = qs::analysis::computeModelReport(**model, spec);
        QVERIFY(expected.ok());
        QCOMPARE(expected->rows.size(), size_t{1});

        const QJsonObject o = readJson(dir.filePath("r.json"));
        QCOMPARE(o["format"].toString(), QString("safetensors"));
        QCOMPARE(o["spec"].toObject()["num_bits"].toInt(), 6);
        const QJsonObject row = o["tensors"].toArray().at(0).toObject();
        QCOMPARE(row["name"].toString(), QString("embeddings"));
        QCOMPARE(row["shape"].toArray(), QJsonArray({29528, 2}));
        QCOMPARE(row["sqnr_db"].toDouble(), expected->rows[0].stats.sqnr_db);
        QCOMPARE(row["mse"].toDouble(), expected->rows[0].stats.mse);
        QCOMPARE(row["levels_available"].toInt(), 64);
        QCOMPARE(row["best_calibration"].toObject()["sqnr_db"].toDouble(), expected->rows[0].calibration->sqnr_db);
        QCOMPARE(readAll(dir.filePath("r.json")), QByteArray::fromStdString(qs::analysis::modelReportJson(*expected)));

        const QList<QByteArray> csv = readAll(dir.filePath("r.csv")).split('\n');
        QCOMPARE(csv[0], QByteArray("tensor,channel,shape,dtype,axis,elements,min,max,mse,sqnr_db,clipped_fraction,"
                                    "levels_used,levels_available,best_calibration,best_calibration_sqnr_db"));
        QVERIFY(csv[1].startsWith("embeddings,,29528x2,float32,-1,59056,"));

        const QImage png(dir.filePath("r.png"));
        QCOMPARE(png.size(), QSize(1600, 1000));
        // The bar is named on its left (the PNG had no names: they were chosen on a replot,
        // which an offscreen export never does). The one bar sits mid-height.
        int barStart = -1;
        for (int x = 0; x < png.width() && barStart < 0; ++x) {
            const QColor c = png.pixelColor(x, png.height() / 2);
            if (c.blue() > c.red() + 40) barStart = x;
        }
        QVERIFY(barStart > 40);
        int text = 0;
        for (int y = png.height() / 2 - 30; y < png.height() / 2 + 30; ++y)
            for (int x = 0; x < barStart - 10; ++x) text += png.pixelColor(x, y).lightness() < 110;
        QVERIFY2(text > 50, qPrintable(QString("%1 text pixels left of the bar at %2").arg(text).arg(barStart)));
    }

    void perChannelAndStandardOutput() {
        QTemporaryDir dir;
        const QString casePath = writeFile(
            dir, "case.json", R"({"op": "QuantizeV2", "attrs": {"T": "qint8", "mode": "SCALED", "axis": 0},
                                  "input_min": -1, "input_max": 1})");
        const Run r = runCli({"model", kModel, "--report", "-", "--case", casePath});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const QJsonObject o = QJsonDocument::fromJson(r.out.toUtf8()).object();
        QCOMPARE(o["per_channel"].toBool(), true);
        const QJsonObject row = o["tensors"].toArray().at(0).toObject();
        QCOMPARE(row["axis"].toInt(), 0);  // safetensors: PyTorch's layout, channels (rows) first
        QCOMPARE(row["channels"].toArray().size(), 29528);
    }

    void errorsExitTwo() {
        QTemporaryDir dir;
        const QString casePath = writeFile(dir, "case.json", kCase);
        const QString bad = writeFile(dir, "bad.json", R"({"op": "Nope"})");
        const QString out = dir.filePath("r.json");
        struct Case {
            QStringList args;
            QString message;
        };
        const QList<Case> cases = {
            {{"model", dir.filePath("missing.safetensors"), "--report", out, "--case", casePath}, "missing.safetensors"},
            {{"model", kModel, "--report", out}, "--case"},
            {{"model", kModel, "--report", out, "--case", bad}, "Nope"},
            {{"model", kModel, "--report", out, "--case", dir.filePath("none.json")}, "none.json"},
            {{"model", kModel, "--report", dir.filePath("no/dir/r.json"), "--case", casePath}, "no/dir/r.json"},
        };
        for (const Case& c : cases) {
            const Run r = runCli(c.args);
            QCOMPARE(r.exitCode, 2);
            QVERIFY2(r.err.contains(c.message), qPrintable(r.err));
        }
        QVERIFY(!QFile::exists(out));
    }
};

QTEST_GUILESS_MAIN(TstCliModelReport)
#include "tst_cli_model_report.moc"
