// quantscope-cli embedding: the built executable through QProcess on the shipped example
// configuration. Its numbers are checked against the core's workbench functions called here
// on the same typed inputs (equal to the last digit: the writer prints shortest round-trip
// text), against what sharding must conserve (rows add up to the padded vocabulary, lookups
// to the batch), and its error paths by exit code and message.
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include "core/embedding/workbench.h"
#include "session/workbench/embedding_document.h"
#include "session/workbench/workbench_inputs.h"

#include "tests/cli/cli_process.h"

namespace {

using namespace qs::testing;

const QString kExample = QStringLiteral(QS_SOURCE_DIR "/resources/embedding/example.json");

}  // namespace

class TstCliEmbedding : public QObject {
    Q_OBJECT
private slots:
    void reportMatchesTheCore();
    void generateIdsOverride();
    void invalidConfigListsTfErrors();
    void badInput();
    void unsimulatableQuantizationIsAnError();
    void oversizedBatchRefusedBeforeGenerating();
};

void TstCliEmbedding::reportMatchesTheCore() {
    QTemporaryDir dir;
    const QString report = dir.filePath("r.json"), csv = dir.filePath("r.csv");
    const Run run = runCli({"embedding", kExample, "--report", report, "--csv", csv});
    QCOMPARE(run.exitCode, 0);
    const QJsonObject r = readJson(report);
    QVERIFY(r["valid"].toBool());
    QCOMPARE(r["tables"].toArray().size(), 2);
    QCOMPARE(r["features"].toArray().size(), 2);

    QString error;
    const auto doc = qs::ui::loadEmbeddingDocument(kExample, &error);
    QVERIFY2(doc, qPrintable(error));
    const auto in = qs::ui::workbenchTableInputs(*doc, 0);
    QVERIFY(in);
    const auto table = qs::embedding::loadTable(in->source, in->vocabulary_size, in->dim);
    QVERIFY(table);
    const auto batch = qs::ui::workbenchFeatureBatch(*doc, 0, in->vocabulary_size, in->dim);
    QVERIFY(batch);
    const auto fa = qs::embedding::analyzeFeature(**table, *batch, in->combiner, in->quantization,
                                                  doc->num_hosts, qs::ui::workbenchStrategy(*doc));
    QVERIFY(fa);
    const QJsonObject f0 = r["features"].toArray()[0].toObject();
    QCOMPARE(f0["name"].toString(), QStringLiteral("watched_videos"));
    QCOMPARE(f0["stats"].toObject()["mse"].toDouble(), fa->simulation.stats.mse);
    QCOMPARE(f0["stats"].toObject()["sqnr_db"].toDouble(), fa->simulation.stats.sqnr_db);
    QCOMPARE(f0["gathered_rows"].toObject()["max_abs_error"].toDouble(), fa->simulation.gathered_rows.max_abs_error);
    QCOMPARE(f0["ids"].toInteger(), qint64(8192 * 8));
    // The TPU's order (quantize rows, then combine) differs from quantizing the mean.
    QVERIFY(f0["stats"].toObject()["mse"].toDouble() != f0["stats_quantize_after_combine"].toObject()["mse"].toDouble());

    // Sharding conserves rows and lookups; Zipf under "div" puts the hot ids on host 0.
    const QJsonObject sh = f0["sharding"].toObject();
    QCOMPARE(sh["num_hosts"].toInt(), 8);
    qint64 rows = 0, lookups = 0;
    for (const QJsonValue h : sh["hosts"].toArray()) {
        rows += h.toObject()["rows"].toInteger();
        lookups += h.toObject()["lookups"].toInteger();
    }
    QCOMPARE(rows, qint64(100000));
    QCOMPARE(lookups, qint64(8192 * 8));
    QVERIFY(sh["traffic_imbalance"].toDouble() > 4);
    QCOMPARE(sh["traffic_imbalance"].toDouble(), fa->sharding.traffic_imbalance);
    // The 3-row table is padded to one row per host.
    const QJsonObject country = r["features"].toArray()[1].toObject()["sharding"].toObject();
    QCOMPARE(country["padded_vocabulary"].toInteger(), qint64(8));

    // Table: occupancy counts add up to the table; storage saves 75 % with uint8 codes.
    const QJsonObject t0 = r["tables"].toArray()[0].toObject();
    qint64 total = 0;
    for (const QJsonValue c : t0["occupancy"].toObject()["counts"].toArray()) total += c.toInteger();
    QCOMPARE(total, qint64(100000) * 64);
    QCOMPARE(t0["storage"].toObject()["code_bits"].toInt(), 8);
    QCOMPARE(t0["suggestions"].toArray().size(), 4);

    QFile c(csv);
    QVERIFY(c.open(QIODevice::ReadOnly));
    const QStringList lines = QString::fromUtf8(c.readAll()).split('\n', Qt::SkipEmptyParts);
    QCOMPARE(lines.first(), QStringLiteral("feature,table,host,rows,bytes_float32,bytes_quantized,lookups,unique_lookups"));
    QCOMPARE(lines.size(), 1 + 8 + 8);
    QVERIFY(lines[1].startsWith(QStringLiteral("watched_videos,video_id,0,12500,3200000,800000,")));
}

void TstCliEmbedding::generateIdsOverride() {
    QTemporaryDir dir;
    const QString report = dir.filePath("r.json");
    QCOMPARE(runCli({"embedding", kExample, "--generate-ids", "uniform:batch=100,ids=3,seed=5",
                     "--report", report}).exitCode, 0);
    for (const QJsonValue f : readJson(report)["features"].toArray())
        QCOMPARE(f.toObject()["ids"].toInteger(), qint64(300));
    // Uniform ids spread evenly: no host gets much more than its share.
    const QJsonObject sh = readJson(report)["features"].toArray()[0].toObject()["sharding"].toObject();
    QVERIFY(sh["traffic_imbalance"].toDouble() < 2);
}

void TstCliEmbedding::invalidConfigListsTfErrors() {
    QTemporaryDir dir;
    QFile in(kExample);
    QVERIFY(in.open(QIODevice::ReadOnly));
    QJsonObject doc = QJsonDocument::fromJson(in.readAll()).object();
    QJsonArray tables = doc["tables"].toArray();
    QJsonObject t1 = tables[1].toObject();
    t1["dim"] = 0;
    tables[1] = t1;
    doc["tables"] = tables;
    const QString path = dir.filePath("bad.json"), report = dir.filePath("r.json");
    QFile out(path);
    QVERIFY(out.open(QIODevice::WriteOnly));
    out.write(QJsonDocument(doc).toJson());
    out.close();
    QCOMPARE(runCli({"embedding", path, "--report", report}).exitCode, 1);
    const QJsonObject r = readJson(report);
    QVERIFY(!r["valid"].toBool());
    const QJsonObject e = r["errors"].toArray()[0].toObject();
    QCOMPARE(e["object"].toString(), QStringLiteral("table country"));
    QCOMPARE(e["field"].toString(), QStringLiteral("dim"));
    QCOMPARE(e["kind"].toString(), QStringLiteral("ValueError"));
    QCOMPARE(e["message"].toString(),
             QStringLiteral("Argument `dim` (embedding dimension) must be an int and must be >= 1. Received: 0"));
    // The valid table is still reported.
    QVERIFY(r["tables"].toArray()[0].toObject().contains("occupancy"));
}

void TstCliEmbedding::badInput() {
    QTemporaryDir dir;
    const QString report = dir.filePath("r.json");
    Run r = runCli({"embedding", dir.filePath("missing.json"), "--report", report});
    QCOMPARE(r.exitCode, 2);
    QVERIFY(r.err.contains("missing.json"));
    r = runCli({"embedding", kExample});
    QCOMPARE(r.exitCode, 2);
    QVERIFY(r.err.contains("--report"));
    r = runCli({"embedding", kExample, "--generate-ids", "zipf:batch=x", "--report", report});
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.err.contains("batch"), qPrintable(r.err));
    // 2^28 ids: refused by the lookup's size limit before a single id is generated (it used
    // to take 51 s and 6.4 GiB to generate, then the lookup refused it).
    r = runCli({"embedding", kExample, "--generate-ids", "uniform:batch=268435456,ids=1", "--report", report});
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.err.contains("uniform:batch=268435456,ids=1") && r.err.contains("2^28"), qPrintable(r.err));
    r = runCli({"embedding", kExample, "--table", "nosuch=x.npy", "--report", report});
    QCOMPARE(r.exitCode, 2);
    QVERIFY(r.err.contains("nosuch"));
    // A table file whose shape is not [vocabulary_size, dim].
    const QString csv = dir.filePath("t.csv");
    QFile f(csv);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("1,2\n3,4\n");
    f.close();
    r = runCli({"embedding", kExample, "--table", csv, "--report", report});
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.err.contains("t.csv"), qPrintable(r.err));
}

// The size check comes before generation, at the table's dim: a batch the lookup takes at
// dim 1 is refused at dim 64.
void TstCliEmbedding::oversizedBatchRefusedBeforeGenerating() {
    QString error;
    auto doc = qs::ui::loadEmbeddingDocument(kExample, &error);
    QVERIFY2(doc, qPrintable(error));
    doc->features[0].ids = QStringLiteral("uniform:batch=8388608,ids=1");  // 2^23 examples
    doc->features[0].ids_file.clear();
    const auto atDim64 = qs::ui::workbenchFeatureBatch(*doc, 0, 1000, 64);
    QVERIFY(!atDim64);
    QCOMPARE(atDim64.error().kind, std::string("InvalidArgument"));
    QVERIFY2(QString::fromStdString(atDim64.error().message).contains("2^28"), atDim64.error().message.c_str());
    doc->features[0].ids = QStringLiteral("uniform:batch=1024,ids=4");
    const auto small = qs::ui::workbenchFeatureBatch(*doc, 0, 1000, 64);
    QVERIFY(small);
    QCOMPARE(small->numIds(), int64_t(4096));
}

// TF accepts QuantizationConfig(num_buckets=256.5) or lower='a' (it checks num_buckets >= 2
// only); the table used to be analysed without quantization, a silent zero error.
void TstCliEmbedding::unsimulatableQuantizationIsAnError() {
    QString error;
    auto doc = qs::ui::loadEmbeddingDocument(kExample, &error);
    QVERIFY2(doc, qPrintable(error));
    doc->tables[0].quantization->num_buckets = 256.5;
    auto in = qs::ui::workbenchTableInputs(*doc, 0);
    QVERIFY(!in);
    QCOMPARE(in.error().kind, std::string("InvalidArgument"));
    QCOMPARE(in.error().message,
             std::string("table 'video_id': QuantizationConfig(num_buckets=256.5, lower=-0.25, upper=0.25) "
                         "cannot be simulated: num_buckets must be an int and lower, upper numbers (TF "
                         "accepts it here, the TPU's int64/float fields cannot hold it)"));
    doc->tables[0].quantization->num_buckets = 256;
    doc->tables[0].quantization->lower = QStringLiteral("a");
    QVERIFY(!qs::ui::workbenchTableInputs(*doc, 0));
    doc->tables[0].quantization->lower = -0.25;
    QVERIFY(qs::ui::workbenchTableInputs(*doc, 0));

    QTemporaryDir dir;
    const QString path = dir.filePath("q.json"), report = dir.filePath("r.json");
    doc->tables[0].quantization->num_buckets = 256.5;
    QVERIFY(qs::ui::saveEmbeddingDocument(path, *doc, &error));
    QCOMPARE(runCli({"embedding", path, "--report", report}).exitCode, 1);
    const QJsonObject r = readJson(report);
    QVERIFY(r["valid"].toBool());  // TF accepts it
    QVERIFY(r["tables"].toArray()[0].toObject()["error"].toString().contains(QStringLiteral("cannot be simulated")));
}

QTEST_GUILESS_MAIN(TstCliEmbedding)
#include "tst_cli_embedding.moc"
