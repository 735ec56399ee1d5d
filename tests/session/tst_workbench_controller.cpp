// The embedding workbench's controller without any widget: the shipped example loads and
// is analysed with the core's numbers; feature edits reuse the table's analysis; going back
// to the loaded table during another table's load keeps it; results in flight do not
// un-stale an invalid configuration; a suggested range is one undo step; the pipelining
// demonstration uses at most 100 000 rows; the storage export writes its files.
// (Moved here from tst_workbench_window, which keeps what the widgets show.)
#include <QCoreApplication>
#include <QFile>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QUndoStack>
#include <QtTest>

#include "core/data/npy_writer.h"
#include "core/embedding/pipeline_demo.h"
#include "core/embedding/workbench.h"
#include "session/workbench/embedding_model.h"
#include "session/workbench/workbench_controller.h"
#include "session/workbench/workbench_inputs.h"

using namespace qs::ui;

namespace {

const QString kExample = QStringLiteral(QS_SOURCE_DIR "/resources/embedding/example.json");

}  // namespace

class TstWorkbenchController : public QObject {
    Q_OBJECT
private slots:
    void init();
    void cleanup() {
        c_.reset();
        model_.reset();
    }

    void analysesMatchTheCore();
    void featureEditsReuseTheTableAnalysis();
    void switchingBackDuringALoadKeepsTheLoadedTable();
    void resultsInFlightDoNotUnstaleAnInvalidConfig();
    void noTableOrNoFeatureSaysSo();
    void applySuggestionIsOneUndoStep();
    void pipelineDemoUsesTheFirstRowsOfABigTable();
    void storageExport();
    void cancellingAQueuedLoadReportsIt();
    void aTableLargerThanTheBudgetIsStreamed();

private:
    // Waits until both analyses of the current inputs are shown.
    bool settled(int timeoutMs = 60000);

    std::unique_ptr<EmbeddingModel> model_;
    std::unique_ptr<WorkbenchController> c_;
};

bool TstWorkbenchController::settled(int timeoutMs) {
    QElapsedTimer t;
    t.start();
    while (t.elapsed() < timeoutMs) {
        QCoreApplication::processEvents(QEventLoop::AllEvents, 50);
        const WorkbenchService* s = c_->service();
        if (!s->loading() && !s->analyzing()) {
            QCoreApplication::processEvents();
            if (!s->loading() && !s->analyzing()) return true;
        }
    }
    return false;
}

void TstWorkbenchController::init() {
    model_ = std::make_unique<EmbeddingModel>();
    c_ = std::make_unique<WorkbenchController>(model_.get());
    QString error;
    QVERIFY2(model_->load(kExample, &error), qPrintable(error));
    QTRY_VERIFY_WITH_TIMEOUT(c_->lastFeatureAnalysis() && c_->lastTableAnalysis() && c_->tableInputs() &&
                                 c_->tableInputs()->vocabulary_size == 100000 && c_->table() &&
                                 c_->table()->rows() == 100000,
                             60000);
    QVERIFY(c_->showingResults());
}

void TstWorkbenchController::analysesMatchTheCore() {
    const EmbeddingDocument& doc = model_->document();
    const auto in = workbenchTableInputs(doc, 0);
    QVERIFY(in);
    QCOMPARE(in->quantization->num_buckets, int64_t(256));
    const auto table = qs::embedding::loadTable(in->source, in->vocabulary_size, in->dim);
    QVERIFY(table);
    QCOMPARE((*table)->values, c_->table()->memory->values);  // the same table, bit for bit
    const auto batch = workbenchFeatureBatch(doc, 0, in->vocabulary_size, in->dim);
    QVERIFY(batch);
    const auto fa = qs::embedding::analyzeFeature(**table, *batch, in->combiner, in->quantization, doc.num_hosts,
                                                  workbenchStrategy(doc));
    QVERIFY(fa);
    const auto& shown = c_->lastFeatureAnalysis()->simulation;
    QCOMPARE(shown.stats.mse, fa->simulation.stats.mse);
    QCOMPARE(shown.stats.sqnr_db, fa->simulation.stats.sqnr_db);
    QCOMPARE(shown.ids, int64_t(8192 * 8));
    QCOMPARE(c_->lastFeatureAnalysis()->sharding.hosts.size(), size_t(8));
    QCOMPARE(c_->analyzedFeature(), 0);
    QCOMPARE(c_->featureSource(), QStringLiteral("zipf:batch=8192,ids=8,s=1.1,seed=1"));
    qs::embedding::TableAnalysisOptions options;
    options.window_rows = doc.view.rows;
    const auto ta = qs::embedding::analyzeTable(**table, in->quantization, options);
    QVERIFY(ta);
    QCOMPARE(c_->lastTableAnalysis()->occupancy->counts, ta->occupancy->counts);
    QCOMPARE(c_->lastTableAnalysis()->suggestions.size(), ta->suggestions.size());
}

// Hosts, ids and strategy are the feature's: the table's analysis (seconds on a big table)
// is not recomputed for them, and an invalid edit undone shows the kept result again.
void TstWorkbenchController::featureEditsReuseTheTableAnalysis() {
    QSignalSpy tables(c_->service(), &WorkbenchService::tableAnalyzed);
    QSignalSpy features(c_->service(), &WorkbenchService::featureAnalyzed);
    QSignalSpy shownTables(c_.get(), &WorkbenchController::tableAnalysisReady);
    QSignalSpy stale(c_.get(), &WorkbenchController::resultsStale);
    model_->setNumHosts(4);
    QVERIFY(features.wait(30000));
    QTRY_COMPARE(c_->lastFeatureAnalysis()->sharding.hosts.size(), size_t(4));
    QCOMPARE(tables.count(), 0);

    EmbeddingTable t = model_->document().tables[0];
    const EmbeddingTable valid = t;
    t.combiner = QStringLiteral("median");  // TF rejects it
    model_->setTable(0, t, QStringLiteral("combiner"));
    QTRY_VERIFY(!c_->showingResults());
    QCOMPARE(stale.count(), 1);
    QVERIFY(stale.last().at(0).toString().contains(QStringLiteral("combiner")));
    const int shownBefore = shownTables.count();
    model_->undoStack()->undo();
    QTRY_VERIFY(c_->showingResults());
    QCOMPARE(shownTables.count(), shownBefore + 1);  // the kept analysis, shown again
    QCOMPARE(tables.count(), 0);
    QCOMPARE(model_->document().tables[0], valid);

    // A change of the quantization is the table's: analysed again.
    t = valid;
    t.quantization->upper = 0.3;
    model_->setTable(0, t, QStringLiteral("upper"));
    QVERIFY(tables.wait(30000));
    QTRY_COMPARE(c_->lastTableAnalysis()->occupancy->config.upper, 0.3);
}

// Selecting another table starts its load; selecting the loaded table again before that
// load ends must keep the loaded table. The other load used to land anyway and be analysed
// with the selected table's inputs (another table's numbers under this table's name).
void TstWorkbenchController::switchingBackDuringALoadKeepsTheLoadedTable() {
    QSignalSpy ended(c_.get(), &WorkbenchController::loadEnded);
    EmbeddingTable big = model_->document().tables[1];
    big.vocabulary_size = 1000000;  // 1M x 64: a load that takes a while
    big.dim = 64;
    model_->setTable(1, big, QStringLiteral("make country big"));
    EmbeddingViewState v = model_->document().view;
    v.table = 1;
    v.feature = 1;
    model_->setView(v);
    QCoreApplication::processEvents();  // the refresh: the big table starts loading
    QVERIFY(c_->service()->loading());
    v.table = 0;
    v.feature = 0;
    model_->setView(v);
    QCoreApplication::processEvents();
    QCOMPARE(ended.count(), 1);  // the progress goes away at once
    QVERIFY(settled());
    QCOMPARE(QString::fromStdString(c_->tableInputs()->name), QStringLiteral("video_id"));
    QCOMPARE(c_->table()->rows(), int64_t(100000));
    QCOMPARE(c_->lastFeatureAnalysis()->simulation.float_activations.cols, int64_t(64));
    QCOMPARE(c_->lastFeatureAnalysis()->sharding.vocabulary_size, int64_t(100000));
    QVERIFY(c_->showingResults());
}

// An analysis still running when the configuration becomes invalid must not bring the
// results back when it finishes.
void TstWorkbenchController::resultsInFlightDoNotUnstaleAnInvalidConfig() {
    EmbeddingTable t = model_->document().tables[0];
    t.quantization->lower = -0.3;
    model_->setTable(0, t, QStringLiteral("valid edit"));
    QCoreApplication::processEvents();  // the refresh: analyses of the valid table start
    QVERIFY(c_->service()->analyzing());
    QSignalSpy stale(c_.get(), &WorkbenchController::resultsStale);
    QSignalSpy shownTables(c_.get(), &WorkbenchController::tableAnalysisReady);
    QSignalSpy shownFeatures(c_.get(), &WorkbenchController::featureAnalysisReady);
    t.dim = 0;
    model_->setTable(0, t, QStringLiteral("invalid edit"));
    QCoreApplication::processEvents();
    QCOMPARE(stale.count(), 1);
    QVERIFY2(stale.last().at(0).toString().contains(QStringLiteral("dim")), qPrintable(stale.last().at(0).toString()));
    QVERIFY(settled());
    QCOMPARE(shownTables.count(), 0);
    QCOMPARE(shownFeatures.count(), 0);
    QVERIFY(!c_->showingResults());
    QVERIFY(!c_->tableInputs());
}

void TstWorkbenchController::noTableOrNoFeatureSaysSo() {
    QSignalSpy stale(c_.get(), &WorkbenchController::resultsStale);
    QSignalSpy noFeature(c_.get(), &WorkbenchController::noFeature);
    // The country table without its feature.
    model_->removeFeature(1);
    EmbeddingViewState v = model_->document().view;
    v.table = 1;
    v.feature = -1;
    model_->setView(v);
    QTRY_COMPARE_WITH_TIMEOUT(noFeature.count(), 1, 30000);
    QCOMPARE(noFeature.last().at(0).toString(), QStringLiteral("country"));
    QCOMPARE(c_->analyzedFeature(), -1);
    QVERIFY(settled());
    // No table at all.
    model_->removeTable(1);
    model_->removeTable(0);
    QTRY_COMPARE(stale.count(), 1);
    QCOMPARE(stale.last().at(0).toString(), QStringLiteral("The configuration has no table: add one in the editor."));
    QVERIFY(!c_->tableInputs());
    model_->addTable();  // table_0, 1000 x 16; the remaining feature has no table now
    QTRY_VERIFY_WITH_TIMEOUT(c_->table() && c_->table()->rows() == 1000 && c_->showingResults(), 60000);
    QCOMPARE(QString::fromStdString(c_->tableInputs()->name), QStringLiteral("table_0"));
}

void TstWorkbenchController::applySuggestionIsOneUndoStep() {
    QUndoStack* undo = model_->undoStack();
    const int before = undo->count();
    c_->applySuggestion(-0.125, 0.2);
    QCOMPARE(undo->count(), before + 1);
    const auto& q = *model_->document().tables[0].quantization;
    QCOMPARE(q.lower.toDouble(), -0.125);
    QCOMPARE(q.upper.toDouble(), 0.2);
    QTRY_VERIFY_WITH_TIMEOUT(c_->lastTableAnalysis()->occupancy &&
                                 c_->lastTableAnalysis()->occupancy->config.lower == -0.125,
                             30000);
    undo->undo();
    QCOMPARE(model_->document().tables[0].quantization->lower.toDouble(), -0.25);

    // A table without quantization_config gets one.
    EmbeddingTable t = model_->document().tables[0];
    t.quantization.reset();
    model_->setTable(0, t, QStringLiteral("no quantization"));
    c_->applySuggestion(-1.0, 1.0);
    QVERIFY(model_->document().tables[0].quantization);
    QCOMPARE(model_->document().tables[0].quantization->num_buckets, QJsonValue(256));
}

void TstWorkbenchController::pipelineDemoUsesTheFirstRowsOfABigTable() {
    QSignalSpy ready(c_.get(), &WorkbenchController::pipelineDemoReady);
    QVERIFY(c_->runPipelineDemo(3));
    QVERIFY(ready.wait(60000));
    auto demo = ready.last().at(0).value<PipelineDemoPtr>();
    QCOMPARE(demo->steps.size(), size_t(3));
    // Zipf batches share hot ids between steps: pipelining reads stale rows.
    int64_t stale = 0;
    for (const auto& s : demo->steps) stale += s.stale_activations;
    QVERIFY(stale > 0);

    // 120 000 rows: the demo trains on the first 100 000, with the feature's batches.
    EmbeddingTable t = model_->document().tables[0];
    t.vocabulary_size = 120000;
    t.dim = 8;
    model_->setTable(0, t, QStringLiteral("bigger"));
    QTRY_VERIFY_WITH_TIMEOUT(c_->table()->rows() == 120000, 60000);
    QVERIFY(settled());
    QVERIFY(c_->runPipelineDemo(2));
    QVERIFY(ready.wait(60000));
    demo = ready.last().at(0).value<PipelineDemoPtr>();
    qs::tpu::RowMatrix first;
    first.rows = 100000;
    first.cols = 8;
    first.values.assign(c_->table()->memory->values.begin(), c_->table()->memory->values.begin() + 100000 * 8);
    qs::embedding::PipelineDemoSpec spec;
    spec.steps = 2;
    spec.batches = *qs::embedding::parseIdBatchSpec("zipf:batch=8192,ids=8,s=1.1,seed=1");
    spec.combiner = c_->tableInputs()->combiner;
    spec.quantization = c_->tableInputs()->quantization;
    spec.optimizer = c_->tableInputs()->optimizer;
    const auto expected = qs::embedding::runPipelineDemo(first, spec);
    QVERIFY(expected);
    QCOMPARE(demo->steps.size(), size_t(2));
    for (size_t i = 0; i < 2; ++i) {
        QCOMPARE(demo->steps[i].loss_sequential, expected->steps[i].loss_sequential);
        QCOMPARE(demo->steps[i].loss_pipelined, expected->steps[i].loss_pipelined);
    }
    QCOMPARE(demo->final_table_max_abs_difference, expected->final_table_max_abs_difference);

    // Without a loaded table there is nothing to run.
    model_->removeTable(1);
    model_->removeTable(0);
    QTRY_VERIFY(!c_->tableInputs());
    QVERIFY(!c_->runPipelineDemo(3));
}

void TstWorkbenchController::storageExport() {
    QSignalSpy status(c_.get(), &WorkbenchController::statusMessage);
    QTemporaryDir dir;
    const QString codes = dir.filePath(QStringLiteral("video.npy"));
    c_->exportStorage(codes);
    QCOMPARE(status.first().at(0).toString(), QStringLiteral("Exporting the quantized table…"));
    QTRY_VERIFY_WITH_TIMEOUT(status.count() == 2, 60000);
    QVERIFY2(status.last().at(0).toString().startsWith(QStringLiteral("Exported video.npy and video.params.json: ")),
             qPrintable(status.last().at(0).toString()));
    QVERIFY(QFile::exists(codes));
    QVERIFY(QFile::exists(dir.filePath(QStringLiteral("video.params.json"))));
    QCOMPARE(QFile(codes).size(), qint64(100000) * 64 + 128);  // uint8 codes + the .npy header

    // A write that fails is reported, not thrown.
    c_->exportStorage(dir.filePath(QStringLiteral("no/such/dir/x.npy")));
    QTRY_VERIFY_WITH_TIMEOUT(status.count() == 4, 60000);
    QVERIFY(!status.last().at(0).toString().startsWith(QStringLiteral("Exported")));

    // Exports asked for while one runs all run, in order: none is dropped.
    const QStringList many = {dir.filePath(QStringLiteral("a.npy")), dir.filePath(QStringLiteral("b.npy")),
                              dir.filePath(QStringLiteral("c.npy")), dir.filePath(QStringLiteral("d.npy"))};
    for (const QString& path : many) c_->exportStorage(path);
    QTRY_VERIFY_WITH_TIMEOUT(status.count() == 4 + 2 * many.size(), 120000);
    QStringList exported;
    for (qsizetype i = 4; i < status.count(); ++i)
        if (status.at(i).at(0).toString().startsWith(QStringLiteral("Exported ")))
            exported << status.at(i).at(0).toString().section(QLatin1Char(' '), 1, 1);
    QCOMPARE(exported, (QStringList{"a.npy", "b.npy", "c.npy", "d.npy"}));
    for (const QString& path : many) QVERIFY2(QFile::exists(path), qPrintable(path));

    // No quantization_config: nothing to export.
    EmbeddingTable t = model_->document().tables[0];
    t.quantization.reset();
    model_->setTable(0, t, QStringLiteral("no quantization"));
    QTRY_VERIFY(c_->tableInputs() && !c_->tableInputs()->quantization);
    c_->exportStorage(codes);
    QCOMPARE(status.last().at(0).toString(), QStringLiteral("Export needs a loaded table with a quantization_config."));
}

// A load waiting behind a running one, then Cancel: both report their cancel (the waiting
// one never starts), so nobody waits for a table that will not come.
void TstWorkbenchController::cancellingAQueuedLoadReportsIt() {
    WorkbenchService service;
    QSignalSpy cancelled(&service, &WorkbenchService::loadCancelled);
    QSignalSpy loaded(&service, &WorkbenchService::tableLoaded);
    const auto in = workbenchTableInputs(model_->document(), 0);
    QVERIFY(in);
    // Large enough to be still running when the second load and the cancel arrive.
    const quint64 first = service.loadTable(in->source, 2'000'000, 128);
    const quint64 second = service.loadTable(in->source, 2'000'000, 128);
    service.cancel();
    QTRY_VERIFY_WITH_TIMEOUT(!service.loading(), 60000);
    QTRY_VERIFY_WITH_TIMEOUT(cancelled.count() >= 2, 10000);
    QList<quint64> serials;
    for (const auto& call : cancelled) serials << call.at(0).value<quint64>();
    QVERIFY2(serials.contains(first) && serials.contains(second), qPrintable(QString::number(serials.size())));
    QCOMPARE(loaded.count(), 0);
}


// A .npy table larger than the memory budget (QS_MEMORY_BUDGET, set small here) is opened
// as a stream, not loaded: its occupancy, suggestions, storage statistics and feature
// figures equal those of the same table in memory; the pipeline demo reads its first rows;
// the storage export, which needs the table in memory, says so.
void TstWorkbenchController::aTableLargerThanTheBudgetIsStreamed() {
    QTemporaryDir dir;
    const int64_t rows = 6000, dim = 32;  // 768 KB of values, over a 256 KB budget
    std::vector<float> values(size_t(rows * dim));
    for (size_t i = 0; i < values.size(); ++i) values[i] = float(std::sin(double(i) * 0.37) * 0.15);
    const QString path = dir.filePath(QStringLiteral("big.npy"));
    QVERIFY(qs::data::writeNpy(path.toStdString(), std::span<const float>(values), qs::Shape{rows, dim}));
    qputenv("QS_MEMORY_BUDGET", "256K");
    EmbeddingTable t = model_->document().tables[0];
    t.vocabulary_size = double(rows);
    t.dim = double(dim);
    t.data_file = path;
    QSignalSpy timing(c_.get(), &WorkbenchController::timing);
    model_->setTable(0, t, QStringLiteral("big table"));
    QTRY_VERIFY_WITH_TIMEOUT(c_->table() && c_->table()->rows() == rows, 60000);
    qunsetenv("QS_MEMORY_BUDGET");
    QVERIFY(settled());
    QVERIFY(c_->table()->stream && !c_->table()->memory);
    // Said when opened, and still said by the last line (the analysis's).
    QVERIFY(!timing.isEmpty());
    QVERIFY2(timing.last().at(0).toString().contains(QStringLiteral("streamed from its file")),
             qPrintable(timing.last().at(0).toString()));
    bool opened = false;
    for (const auto& args : timing) opened |= args.at(0).toString().startsWith(QStringLiteral("table larger than"));
    QVERIFY(opened);

    const EmbeddingDocument& doc = model_->document();
    const auto in = workbenchTableInputs(doc, 0);
    QVERIFY(in);
    const auto memory = qs::embedding::loadTable(in->source, in->vocabulary_size, in->dim);
    QVERIFY(memory);
    qs::embedding::TableAnalysisOptions options;
    options.window_rows = doc.view.rows;
    const auto ta = qs::embedding::analyzeTable(**memory, in->quantization, options);
    QVERIFY(ta);
    QTRY_VERIFY(c_->lastTableAnalysis() && c_->lastTableAnalysis()->storage &&
                c_->lastTableAnalysis()->storage->rows == rows);
    const auto& shown = *c_->lastTableAnalysis();
    QCOMPARE(shown.occupancy->counts, ta->occupancy->counts);
    QCOMPARE(shown.suggestions.size(), ta->suggestions.size());
    for (size_t i = 0; i < ta->suggestions.size(); ++i) {
        QCOMPARE(shown.suggestions[i].lower, ta->suggestions[i].lower);
        QCOMPARE(shown.suggestions[i].upper, ta->suggestions[i].upper);
    }
    QCOMPARE(shown.storage->reconstruction.mse, ta->storage->reconstruction.mse);
    QCOMPARE(shown.table_error.mse, ta->table_error.mse);
    const auto batch = workbenchFeatureBatch(doc, 0, in->vocabulary_size, in->dim);
    QVERIFY(batch);
    const auto fa = qs::embedding::analyzeFeature(**memory, *batch, in->combiner, in->quantization, doc.num_hosts,
                                                  workbenchStrategy(doc));
    QVERIFY(fa);
    QTRY_VERIFY(c_->lastFeatureAnalysis());
    QCOMPARE(c_->lastFeatureAnalysis()->simulation.stats.mse, fa->simulation.stats.mse);

    QSignalSpy ready(c_.get(), &WorkbenchController::pipelineDemoReady);
    QVERIFY(c_->runPipelineDemo(2));
    QVERIFY(ready.wait(60000));
    QCOMPARE(ready.last().at(0).value<PipelineDemoPtr>()->steps.size(), size_t(2));

    QSignalSpy status(c_.get(), &WorkbenchController::statusMessage);
    c_->exportStorage(dir.filePath(QStringLiteral("codes.npy")));
    QCOMPARE(status.count(), 1);
    QVERIFY(status.last().at(0).toString().contains(QStringLiteral("larger than the memory budget")));
    QVERIFY(!QFile::exists(dir.filePath(QStringLiteral("codes.npy"))));

    // The same table cut short: over the budget it is refused when opened, in words naming
    // the file and the bytes missing, and the views go stale instead of showing old figures.
    QFile whole(path);
    QVERIFY(whole.open(QIODevice::ReadOnly));
    const QByteArray head = whole.read(100000);
    whole.close();
    const QString cut = dir.filePath(QStringLiteral("cut.npy"));
    QFile part(cut);
    QVERIFY(part.open(QIODevice::WriteOnly) && part.write(head) == head.size());
    part.close();
    QSignalSpy stale(c_.get(), &WorkbenchController::resultsStale);
    qputenv("QS_MEMORY_BUDGET", "256K");
    t.data_file = cut;
    model_->setTable(0, t, QStringLiteral("cut table"));
    QTRY_VERIFY_WITH_TIMEOUT(!stale.isEmpty() && stale.last().at(0).toString().contains(QStringLiteral("truncated")),
                             30000);
    qunsetenv("QS_MEMORY_BUDGET");
    const QString why = stale.last().at(0).toString();
    QVERIFY2(why.contains(QStringLiteral("cut.npy")) && why.contains(QStringLiteral("needs 768000 bytes")), qPrintable(why));
    QVERIFY(!c_->showingResults());
}

QTEST_MAIN(TstWorkbenchController)
#include "tst_workbench_controller.moc"
