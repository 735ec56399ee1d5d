// The TPU embedding workbench window end to end: the shipped example configuration is
// opened, the table loads and every view shows the controller's results; typing an invalid
// value in the editor shows TF's error next to the field and greys the views, fixing it
// brings them back; applying a suggested range from its panel is one undo step; the
// pipelining demonstration runs from its button; a bad id batch is shown in the caption.
// The controller's own rules (what is loaded, analysed again or kept, the export) are
// tst_workbench_controller's.
#include <QApplication>
#include <QFile>
#include <QLabel>
#include <QMenu>
#include <QTemporaryDir>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTabWidget>
#include <QUndoStack>
#include <QtTest>

#include "session/workbench/embedding_model.h"
#include "session/workbench/workbench_controller.h"
#include "tests/ui/line_edit_typing.h"
#include "ui/embedding/config_editor.h"
#include "ui/embedding/views/feature_stats_panel.h"
#include "ui/embedding/views/occupancy_view.h"
#include "ui/embedding/views/pipeline_view.h"
#include "ui/embedding/views/range_suggestions_panel.h"
#include "ui/embedding/views/sharding_view.h"
#include "ui/embedding/views/table_panel.h"
#include "ui/embedding/workbench_window.h"
#include <qcustomplot.h>
#include "ui/plot/plot_frame.h"

using namespace qs::ui;

namespace {

const QString kExample = QStringLiteral(QS_SOURCE_DIR "/resources/embedding/example.json");

}  // namespace

class TstWorkbenchWindow : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }
    void init();
    void cleanup() {
        w_.reset();
        model_.reset();
    }

    void viewsShowTheResults();
    void invalidFieldShowsTfErrorAndStalesTheViews();
    void applySuggestedRangeIsOneUndoStep();
    void pipeliningDemo();
    void badIdBatchIsReportedFromTheWorker();
    void removingEveryTableSaysSo();
    void viewMenuShowsTheAmpersand();
    void editorOpenAndSaveNameTheWindow();
    void staleBannerStaysInsideThePlot();

private:
    std::unique_ptr<EmbeddingModel> model_;  // the app's: made before the window, gone after it
    std::unique_ptr<WorkbenchWindow> w_;
    WorkbenchController* c_ = nullptr;
};

void TstWorkbenchWindow::init() {
    model_ = std::make_unique<EmbeddingModel>();
    w_ = std::make_unique<WorkbenchWindow>(model_.get());
    c_ = w_->controller();
    w_->show();
    QString error;
    QVERIFY2(w_->openConfig(kExample, &error), qPrintable(error));
    // Both of the example's analyses shown (the window's signals), on its 100 000-row table.
    QSignalSpy tableShown(w_.get(), &WorkbenchWindow::tableAnalysisShown);
    QSignalSpy featureShown(w_.get(), &WorkbenchWindow::featureAnalysisShown);
    QTRY_VERIFY_WITH_TIMEOUT(!tableShown.isEmpty() && !featureShown.isEmpty(), 60000);
    QCOMPARE(c_->table()->rows(), int64_t(100000));
}

void TstWorkbenchWindow::viewsShowTheResults() {
    QTRY_VERIFY(w_->featureStats()->hasSimulation());
    QVERIFY(!w_->featureStats()->valueText(QStringLiteral("mse")).isEmpty());
    QCOMPARE(w_->shardingView()->report()->hosts.size(), size_t(8));
    QCOMPARE(w_->shardingView()->hotHost(), 0);  // Zipf under div: host 0 serves the hot ids
    QCOMPARE(w_->occupancyView()->occupancy()->counts, c_->lastTableAnalysis()->occupancy->counts);
    QCOMPARE(w_->occupancyView()->occupancy()->counts.size(), size_t(256));
    QCOMPARE(w_->suggestions()->suggestions().size(), size_t(4));
    auto* caption = w_->findChild<QLabel*>(QStringLiteral("featureCaption"));
    QVERIFY(caption->text().startsWith(QStringLiteral("Feature 'watched_videos' on table 'video_id' (100000 × 64")));
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
    QTRY_VERIFY_WITH_TIMEOUT(c_->table() && c_->table()->dim() == 32 && !w_->occupancyView()->isStale() &&
                                 c_->lastFeatureAnalysis() &&
                                 c_->lastFeatureAnalysis()->simulation.float_activations.cols == 32,
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
    QTRY_VERIFY(c_->lastTableAnalysis() && c_->lastTableAnalysis()->occupancy &&
                c_->lastTableAnalysis()->occupancy->config.lower == s.lower);
    undo->undo();
    QCOMPARE(w_->model()->document().tables[0].quantization->lower.toDouble(), -0.25);
}

void TstWorkbenchWindow::pipeliningDemo() {
    QSignalSpy ready(c_, &WorkbenchController::pipelineDemoReady);
    QTest::mouseClick(w_->pipelineRunButton(), Qt::LeftButton);
    QVERIFY(!w_->pipelineRunButton()->isEnabled());  // until the run ends
    QVERIFY(ready.wait(60000));
    QVERIFY(w_->pipelineRunButton()->isEnabled());
    QVERIFY(w_->pipelineView()->demo());
    QCOMPARE(w_->pipelineView()->demo()->steps.size(), size_t(12));  // the steps spin box
    QVERIFY(w_->statusLabel()->text().startsWith(QStringLiteral("pipelining demonstration: 12 steps in ")));
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
    QTRY_VERIFY_WITH_TIMEOUT(c_->table() && c_->table()->rows() == 1000 && !w_->occupancyView()->isStale(), 60000);
    QCOMPARE(QString::fromStdString(c_->tableInputs()->name), QStringLiteral("table_0"));
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
    QTRY_VERIFY_WITH_TIMEOUT(!w_->featureStats()->isStale() && c_->lastFeatureAnalysis() &&
                                 c_->lastFeatureAnalysis()->simulation.ids == 200, 30000);
    QVERIFY(caption->text().contains(QStringLiteral("200 ids in 100 examples")));
}

// "Table && buckets" is a literal & in the View menu too (it showed "Table _buckets": the &
// became a mnemonic).
void TstWorkbenchWindow::viewMenuShowsTheAmpersand() {
    QStringList texts;
    for (QAction* a : w_->viewMenu()->actions()) texts << a->text();
    QVERIFY2(texts.contains(QStringLiteral("Table && buckets")), qPrintable(texts.join(u'|')));
    QCOMPARE(texts.filter(QStringLiteral("Table")).size(), 1);
}

// The editor's own Open config… / Save config… buttons change the window's file and title as
// the File menu does (the title stayed "untitled").
void TstWorkbenchWindow::editorOpenAndSaveNameTheWindow() {
    QTemporaryDir dir;
    const QString other = dir.filePath(QStringLiteral("other.json"));
    QVERIFY(QFile::copy(kExample, other));
    QVERIFY(w_->editor()->openFrom(other));
    QVERIFY2(w_->windowTitle().startsWith(QStringLiteral("other.json — ")), qPrintable(w_->windowTitle()));
    const QString saved = dir.filePath(QStringLiteral("saved.json"));
    QVERIFY(w_->editor()->saveTo(saved));
    QVERIFY2(w_->windowTitle().startsWith(QStringLiteral("saved.json — ")), qPrintable(w_->windowTitle()));
}

// A long error on a view's stale banner breaks into lines inside the axis rect (it ran past
// both ends of the plot).
void TstWorkbenchWindow::staleBannerStaysInsideThePlot() {
    PlotFrame* view = w_->occupancyView();
    w_->tabs()->setCurrentIndex(0);
    const QString message = QStringLiteral("ValueError: Argument `dim` (embedding dimension) must be an int and must "
                                            "be >= 1. Received: 0 (table 'video_id', feature 'watched', "
                                            "quantization_config num_buckets 256 on [-0.25, 0.25])");
    view->setStale(true, message);
    view->plot()->replot();
    view->plot()->replot();
    QCPItemText* banner = view->staleText();
    QCPAxisRect* rect = view->plot()->axisRect();
    QVERIFY(banner->text().contains(QLatin1Char('\n')));
    const QFontMetricsF metrics(banner->font());
    for (const QString& line : banner->text().split(QLatin1Char('\n')))
        QVERIFY2(metrics.horizontalAdvance(line) + banner->padding().left() + banner->padding().right() <= rect->width(),
                 qPrintable(line));
    QCOMPARE(view->staleMessage(), message);  // the message itself is whole
}

QTEST_MAIN(TstWorkbenchWindow)
#include "tst_workbench_window.moc"
