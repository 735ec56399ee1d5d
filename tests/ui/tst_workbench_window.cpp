// The TPU embedding workbench window end to end: the shipped example configuration is
// opened, the table loads and every view gets the core's numbers for the same inputs
// (computed here directly); typing an invalid value in the editor shows TF's error next to
// the field and greys the views, fixing it brings them back; applying a suggested range
// is one undo step; the pipelining demonstration runs; the quantized table exports.
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QUndoStack>
#include <QtTest>
#include <QApplication>

#include "core/embedding/workbench.h"
#include "ui/embedding/config_editor.h"
#include "ui/embedding/embedding_model.h"
#include "ui/embedding/views/feature_stats_panel.h"
#include "ui/embedding/views/table_panel.h"
#include "ui/embedding/views/occupancy_view.h"
#include "ui/embedding/views/pipeline_view.h"
#include "ui/embedding/views/range_suggestions_panel.h"
#include "ui/embedding/views/sharding_view.h"
#include "ui/embedding/workbench_inputs.h"
#include "ui/embedding/workbench_window.h"
#include "tests/ui/line_edit_typing.h"

using namespace qs::ui;

namespace {

const QString kExample = QStringLiteral(QS_SOURCE_DIR "/resources/embedding/example.json");

}  // namespace

class TstWorkbenchWindow : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }
    void init();
    void cleanup() { w_.reset(); }

    void lookupStatisticsMatchTheCore();
    void invalidFieldShowsTfErrorAndStalesTheViews();
    void applySuggestedRangeIsOneUndoStep();
    void pipeliningDemoAndStorageExport();
    void badIdBatchIsReportedFromTheWorker();
    void featureEditsReuseTheTableAnalysis();
    void switchingBackDuringALoadKeepsTheLoadedTable();
    void resultsInFlightDoNotUngreyAnInvalidConfig();
    void removingEveryTableSaysSo();

private:
    std::unique_ptr<WorkbenchWindow> w_;
};

void TstWorkbenchWindow::init() {
    w_ = std::make_unique<WorkbenchWindow>();
    w_->show();
    QSignalSpy shown(w_.get(), &WorkbenchWindow::featureAnalysisShown);
    QString error;
    QVERIFY2(w_->openConfig(kExample, &error), qPrintable(error));
    QTRY_VERIFY_WITH_TIMEOUT(w_->lastFeatureAnalysis() && w_->lastTableAnalysis() &&
                                 w_->tableInputs() && w_->tableInputs()->vocabulary_size == 100000 &&
                                 w_->table() && w_->table()->rows == 100000,
                             60000);
}

void TstWorkbenchWindow::lookupStatisticsMatchTheCore() {
    const EmbeddingDocument& doc = w_->model()->document();
    const auto in = workbenchTableInputs(doc, 0);
    QVERIFY(in);
    QCOMPARE(in->quantization->num_buckets, int64_t(256));
    const auto table = qs::embedding::loadTable(in->source, in->vocabulary_size, in->dim);
    QVERIFY(table);
    QCOMPARE((*table)->values, w_->table()->values);  // the same table, bit for bit
    const auto batch = workbenchFeatureBatch(doc, 0, in->vocabulary_size, in->dim);
    QVERIFY(batch);
    const auto fa = qs::embedding::analyzeFeature(**table, *batch, in->combiner, in->quantization,
                                                  doc.num_hosts, workbenchStrategy(doc));
    QVERIFY(fa);
    QTRY_VERIFY(w_->lastFeatureAnalysis());
    const auto& shown = w_->lastFeatureAnalysis()->simulation;
    QCOMPARE(shown.stats.mse, fa->simulation.stats.mse);
    QCOMPARE(shown.stats.sqnr_db, fa->simulation.stats.sqnr_db);
    QCOMPARE(shown.ids, int64_t(8192 * 8));
    QVERIFY(w_->featureStats()->hasSimulation());
    QVERIFY(!w_->featureStats()->valueText(QStringLiteral("mse")).isEmpty());
    // Sharding and occupancy views show those results.
    QCOMPARE(w_->shardingView()->report()->hosts.size(), size_t(8));
    QCOMPARE(w_->shardingView()->hotHost(), 0);  // Zipf under div: host 0 serves the hot ids
    QCOMPARE(w_->occupancyView()->occupancy()->counts.size(), size_t(256));
    QCOMPARE(w_->suggestions()->suggestions().size(), size_t(4));
}

void TstWorkbenchWindow::invalidFieldShowsTfErrorAndStalesTheViews() {
    auto* dim = w_->editor()->findChild<QLineEdit*>(QStringLiteral("tableDim"));
    auto* dimError = w_->editor()->findChild<QLabel*>(QStringLiteral("tableDimError"));
    QVERIFY(dim && dimError);
    QVERIFY(dimError->isHidden());
    retype(dim, QStringLiteral("0"));
    QVERIFY(!dimError->isHidden());
    QVERIFY(dimError->text().contains(
        QStringLiteral("Argument `dim` (embedding dimension) must be an int and must be >= 1. Received: 0")));
    QTRY_VERIFY(w_->occupancyView()->isStale());
    QVERIFY(w_->occupancyView()->staleMessage().contains(QStringLiteral("video_id")));
    QVERIFY(w_->shardingView()->isStale());

    retype(dim, QStringLiteral("32"));
    QVERIFY(dimError->isHidden());
    // A new table (dim 32) loads and the views are fresh again.
    QTRY_VERIFY_WITH_TIMEOUT(w_->table() && w_->table()->cols == 32 && !w_->occupancyView()->isStale() &&
                                 w_->lastFeatureAnalysis() &&
                                 w_->lastFeatureAnalysis()->simulation.float_activations.cols == 32,
                             60000);
}

void TstWorkbenchWindow::applySuggestedRangeIsOneUndoStep() {
    QUndoStack* undo = w_->model()->undoStack();
    const int before = undo->count();
    auto* panel = w_->suggestions();
    const int row = panel->bestRow();
    QVERIFY(row >= 0);
    const auto s = panel->suggestions()[static_cast<size_t>(row)];
    QTest::mouseClick(panel->applyButton(row), Qt::LeftButton);
    QCOMPARE(undo->count(), before + 1);
    const auto& q = *w_->model()->document().tables[0].quantization;
    QCOMPARE(q.lower.toDouble(), s.lower);
    QCOMPARE(q.upper.toDouble(), s.upper);
    // The next analysis uses the applied range.
    QTRY_VERIFY(w_->lastTableAnalysis() && w_->lastTableAnalysis()->occupancy &&
                w_->lastTableAnalysis()->occupancy->config.lower == s.lower);
    undo->undo();
    QCOMPARE(w_->model()->document().tables[0].quantization->lower.toDouble(), -0.25);
}

void TstWorkbenchWindow::pipeliningDemoAndStorageExport() {
    QSignalSpy ready(w_->service(), &WorkbenchService::pipelineDemoReady);
    QTest::mouseClick(w_->pipelineRunButton(), Qt::LeftButton);
    QVERIFY(ready.wait(60000));
    QVERIFY(w_->pipelineView()->demo());
    QCOMPARE(w_->pipelineView()->demo()->steps.size(), size_t(12));
    // Zipf batches share hot ids between steps: pipelining reads stale rows.
    int64_t stale = 0;
    for (const auto& s : w_->pipelineView()->demo()->steps) stale += s.stale_activations;
    QVERIFY(stale > 0);

    QTemporaryDir dir;
    const QString codes = dir.filePath(QStringLiteral("video.npy"));
    w_->exportStorage(codes);
    QTRY_VERIFY_WITH_TIMEOUT(w_->statusLabel()->text().startsWith(QStringLiteral("Exported")), 60000);
    QVERIFY(QFile::exists(codes));
    QVERIFY(QFile::exists(dir.filePath(QStringLiteral("video.params.json"))));
    QCOMPARE(QFile(codes).size(), qint64(100000) * 64 + 128);  // uint8 codes + the .npy header
}

// Selecting another table starts its load; selecting the loaded table again before that
// load ends must keep the loaded table. The other load used to land anyway and be analysed
// with the selected table's inputs (another table's numbers under this table's name).
void TstWorkbenchWindow::switchingBackDuringALoadKeepsTheLoadedTable() {
    EmbeddingModel* model = w_->model();
    EmbeddingTable big = model->document().tables[1];
    big.vocabulary_size = 1000000;  // 1M x 64: a load that takes a while
    big.dim = 64;
    model->setTable(1, big, QStringLiteral("make country big"));
    EmbeddingViewState v = model->document().view;
    v.table = 1;
    v.feature = 1;
    model->setView(v);
    QCoreApplication::processEvents();  // the refresh: the big table starts loading
    QVERIFY(w_->service()->loading());
    v.table = 0;
    v.feature = 0;
    model->setView(v);
    QCoreApplication::processEvents();
    QTRY_VERIFY_WITH_TIMEOUT(!w_->service()->loading() && !w_->service()->analyzing(), 60000);
    QCoreApplication::processEvents();
    QCOMPARE(QString::fromStdString(w_->tableInputs()->name), QStringLiteral("video_id"));
    QCOMPARE(w_->table()->rows, int64_t(100000));
    QCOMPARE(w_->lastFeatureAnalysis()->simulation.float_activations.cols, int64_t(64));
    QCOMPARE(w_->lastFeatureAnalysis()->sharding.vocabulary_size, int64_t(100000));
    QVERIFY(!w_->occupancyView()->isStale());
}

// An analysis still running when the configuration becomes invalid must not bring the
// greyed views back (nor replace TF's error in the status line) when it finishes.
void TstWorkbenchWindow::resultsInFlightDoNotUngreyAnInvalidConfig() {
    EmbeddingModel* model = w_->model();
    EmbeddingTable t = model->document().tables[0];
    t.quantization->lower = -0.3;
    model->setTable(0, t, QStringLiteral("valid edit"));
    QCoreApplication::processEvents();  // the refresh: analyses of the valid table start
    QVERIFY(w_->service()->analyzing());
    t.dim = 0;
    model->setTable(0, t, QStringLiteral("invalid edit"));
    QCoreApplication::processEvents();
    QVERIFY(w_->occupancyView()->isStale());
    QTRY_VERIFY_WITH_TIMEOUT(!w_->service()->analyzing(), 60000);
    QCoreApplication::processEvents();
    QVERIFY(w_->occupancyView()->isStale());
    QVERIFY(w_->shardingView()->isStale());
    QVERIFY2(w_->statusLabel()->text().contains(QStringLiteral("dim")), qPrintable(w_->statusLabel()->text()));
}

// Removing the selected table with the editor's button until none is left: the views say
// why they are stale (they used to say "no table -1"), and a new table brings them back.
void TstWorkbenchWindow::removingEveryTableSaysSo() {
    auto* remove = w_->editor()->findChild<QPushButton*>(QStringLiteral("removeTable"));
    QVERIFY(remove);
    QTest::mouseClick(remove, Qt::LeftButton);
    QCOMPARE(w_->model()->document().tables.size(), size_t(1));
    QTest::mouseClick(remove, Qt::LeftButton);
    QVERIFY(w_->model()->document().tables.empty());
    QTRY_VERIFY(w_->occupancyView()->isStale());
    QCOMPARE(w_->occupancyView()->staleMessage(), QStringLiteral("The configuration has no table: add one in the editor."));
    QCOMPARE(w_->statusLabel()->text(), QStringLiteral("The configuration has no table: add one in the editor."));
    QVERIFY(w_->featureStats()->isStale());
    w_->model()->addTable();  // table_0, 1000 x 16; the features have no table now
    QTRY_VERIFY_WITH_TIMEOUT(w_->table() && w_->table()->rows == 1000 && !w_->occupancyView()->isStale(), 60000);
    QCOMPARE(QString::fromStdString(w_->tableInputs()->name), QStringLiteral("table_0"));
}

// The batch is built on the worker: a spec it rejects comes back as the feature's error,
// shown in the caption and on the greyed views; fixing it brings the statistics back.
void TstWorkbenchWindow::badIdBatchIsReportedFromTheWorker() {
    EmbeddingFeature f = w_->model()->document().features[0];
    f.ids = QStringLiteral("zipf:batch=x");
    w_->model()->setFeature(0, f, QStringLiteral("ids"));
    auto* caption = w_->findChild<QLabel*>(QStringLiteral("featureCaption"));
    QVERIFY(caption);
    QTRY_VERIFY_WITH_TIMEOUT(caption->text().contains(QStringLiteral("batch must be an integer")), 30000);
    QVERIFY(w_->featureStats()->isStale());
    f.ids = QStringLiteral("uniform:batch=100,ids=2,seed=4");
    w_->model()->setFeature(0, f, QStringLiteral("ids"));
    QTRY_VERIFY_WITH_TIMEOUT(!w_->featureStats()->isStale() && w_->lastFeatureAnalysis() &&
                                 w_->lastFeatureAnalysis()->simulation.ids == 200, 30000);
    QVERIFY(caption->text().contains(QStringLiteral("200 ids in 100 examples")));
}

// Hosts, ids and strategy are the feature's: the table's analysis (seconds on a big table)
// is not recomputed for them, and an invalid edit undone shows the kept result again.
void TstWorkbenchWindow::featureEditsReuseTheTableAnalysis() {
    QSignalSpy tables(w_->service(), &WorkbenchService::tableAnalyzed);
    QSignalSpy features(w_->service(), &WorkbenchService::featureAnalyzed);
    w_->model()->setNumHosts(4);
    QVERIFY(features.wait(30000));
    QTRY_COMPARE(w_->shardingView()->report()->hosts.size(), size_t(4));
    QCOMPARE(tables.count(), 0);

    EmbeddingTable t = w_->model()->document().tables[0];
    const EmbeddingTable valid = t;
    t.combiner = QStringLiteral("median");  // TF rejects it
    w_->model()->setTable(0, t, QStringLiteral("combiner"));
    QTRY_VERIFY(w_->occupancyView()->isStale());
    w_->model()->undoStack()->undo();
    QTRY_VERIFY(!w_->occupancyView()->isStale());
    QCOMPARE(tables.count(), 0);
    QCOMPARE(w_->model()->document().tables[0], valid);

    // A change of the quantization is the table's: analysed again.
    t = valid;
    t.quantization->upper = 0.3;
    w_->model()->setTable(0, t, QStringLiteral("upper"));
    QVERIFY(tables.wait(30000));
    QTRY_COMPARE(w_->lastTableAnalysis()->occupancy->config.upper, 0.3);
}

QTEST_MAIN(TstWorkbenchWindow)
#include "tst_workbench_window.moc"
