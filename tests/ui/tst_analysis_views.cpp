// The analysis tabs of the real MainWindow, driven as a user drives them, offscreen: each tab
// computes when shown (and only then), and what it draws is what the core functions return
// when called directly on the same data and spec: the bit sweep's SQNR and MSE against
// sweepBits, the clipping sweep against sweepClip, the calibration table against calibrate,
// the comparison against applySpec/errorStats. "Apply α*" and the calibration's "Apply" set
// the explorer's range in one undo step. Set QS_ANALYSIS_SCREENSHOTS=<dir> to save the window.
#include <QtTest>

#include <QAction>
#include <QApplication>
#include <QDoubleSpinBox>
#include <QListWidget>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTableWidget>
#include <QTemporaryDir>
#include <cmath>
#include <memory>
#include <qcustomplot.h>

#include "core/analysis/bit_sweep.h"
#include "core/analysis/calibration.h"
#include "core/analysis/clip_sweep.h"
#include "core/analysis/error_stats.h"
#include "core/analysis/histogram.h"
#include "session/explorer/data_service.h"
#include "session/explorer/explorer_model.h"
#include "tests/ui/explorer_window_slot.h"
#include "ui/analysis/analysis_tabs.h"
#include "ui/analysis/bit_sweep_view.h"
#include "ui/analysis/calibration_panel.h"
#include "ui/analysis/clip_sweep_view.h"
#include "ui/analysis/comparison_view.h"
#include "ui/main_window.h"
#include "ui/status/job_status.h"

using namespace qs::ui;
using qs::analysis::DataKind;

namespace {

const QString kUniform = QStringLiteral("uniform:n=20000,seed=3");
const QString kNormal = QStringLiteral("normal:n=20000,seed=1");
constexpr int kBitTab = 4, kClipTab = 5, kCalibrationTab = 6, kCompareTab = 7;

std::vector<std::pair<double, double>> points(QCPGraph* g) {
    std::vector<std::pair<double, double>> out;
    for (auto it = g->data()->constBegin(); it != g->data()->constEnd(); ++it) out.emplace_back(it->key, it->value);
    return out;
}

qs::QuantSpec signedQdq(int bits, float lo, float hi) {
    return {.op = qs::QuantOp::QuantizeAndDequantizeV2, .round_mode = qs::RoundMode::HalfToEven,
            .signed_input = true, .num_bits = bits, .range_given = true, .min_range = lo, .max_range = hi};
}

}  // namespace

class TstAnalysisViews : public ExplorerWindowSlot {
    Q_OBJECT

private slots:
    void initTestCase();
    void init();
    void cleanup();

    void tabsAndShortcuts();
    void onlyTheVisibleTabComputes();
    void bitSweepMatchesTheCore();
    void bitSweepTpuAxisIsLog2Buckets();
    void clipSweepMatchesTheCoreAndAppliesAlpha();
    void calibrationMatchesTheCoreAndApplies();
    void comparisonOfTwoConfigurations();
    void analysisErrorsAreShown();

private:
    void makeWindow(const QString& generator, const qs::QuantSpec& spec);
    bool showTab(int tab, AnalysisKind kind);  // shows it and waits for its result
    std::span<const float> data() const { return w_->dataService()->dataset()->values; }
    void screenshot(const QString& name);
};

void TstAnalysisViews::initTestCase() { QVERIFY(isolate()); }

void TstAnalysisViews::makeWindow(const QString& generator, const qs::QuantSpec& spec) {
    QVERIFY(openWindow(spec, generator));
    QVERIFY(settle());
    QVERIFY(w_->lastResult());
}

void TstAnalysisViews::init() { makeWindow(kUniform, signedQdq(8, -1.0f, 1.0f)); }

void TstAnalysisViews::cleanup() { closeWindow(); }

bool TstAnalysisViews::showTab(int tab, AnalysisKind kind) {
    AnalysisTabs* a = w_->analysisTabs();
    QSignalSpy shown(a, &AnalysisTabs::resultShown);
    w_->tabs()->setCurrentIndex(tab);
    const bool ok = QTest::qWaitFor([&] {
        for (const auto& args : shown)
            if (args.at(0).value<AnalysisKind>() == kind && !a->isOutOfDate(kind) && !a->service()->busy())
                return true;
        return false;
    }, 30000);
    return ok && settle();
}

void TstAnalysisViews::screenshot(const QString& name) {
    const QString dir = qEnvironmentVariable("QS_ANALYSIS_SCREENSHOTS");
    if (dir.isEmpty()) return;
    QTest::qWait(300);
    QVERIFY(w_->grab().save(QDir(dir).filePath(name)));
}

void TstAnalysisViews::tabsAndShortcuts() {
    QTabWidget* tabs = w_->tabs();
    QCOMPARE(tabs->count(), 9);  // the explorer's four, these four, Frameworks
    QCOMPARE(tabs->tabText(8), QStringLiteral("Frameworks"));
    const QStringList names{QStringLiteral("Bit sweep"), QStringLiteral("Clipping sweep"),
                            QStringLiteral("Calibration"), QStringLiteral("Compare")};
    for (int i = 0; i < 4; ++i) QCOMPARE(tabs->tabText(kBitTab + i), names[i]);
    QCOMPARE(tabs->widget(kBitTab), w_->analysisTabs()->bitSweepView());
    QCOMPARE(tabs->widget(kCompareTab), w_->analysisTabs()->comparisonView());
    w_->activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(w_.get()));
    for (int i : {kClipTab, kCompareTab, kBitTab, kCalibrationTab}) {
        QTest::keyClick(w_.get(), Qt::Key(Qt::Key_1 + i), Qt::AltModifier);
        QCOMPARE(tabs->currentIndex(), i);
        QCOMPARE(model_->viewState().tab, i);
    }
    // The export actions reach the plot inside a panel.
    QCOMPARE(w_->currentPlot(), w_->analysisTabs()->calibrationPanel()->plotFrame());
    tabs->setCurrentIndex(kBitTab);
    QCOMPARE(w_->currentPlot(), w_->analysisTabs()->bitSweepView());
}

void TstAnalysisViews::onlyTheVisibleTabComputes() {
    AnalysisTabs* a = w_->analysisTabs();
    QSignalSpy started(a->service(), &AnalysisService::started);
    // On an explorer tab, an edit recomputes the explorer only.
    model_->setNumBits(6);
    QVERIFY(settle());
    QTest::qWait(50);
    QCOMPARE(started.count(), 0);
    QVERIFY(a->isOutOfDate(AnalysisKind::BitSweep));
    QVERIFY(!a->bitSweepView()->result());
    // Showing the bit sweep runs it, and only it.
    QVERIFY(showTab(kBitTab, AnalysisKind::BitSweep));
    QCOMPARE(started.count(), 1);
    QCOMPARE(started.first().at(0).value<AnalysisKind>(), AnalysisKind::BitSweep);
    QVERIFY(a->isOutOfDate(AnalysisKind::ClipSweep));
    QVERIFY(!a->clipSweepView()->result());
    QVERIFY(a->bitSweepView()->status()->isHidden());
    // An edit while the tab is shown recomputes the explorer first, then the sweep.
    QSignalSpy explorerShown(w_.get(), &MainWindow::resultShown);
    model_->setNumBits(5);
    QVERIFY(showTab(kBitTab, AnalysisKind::BitSweep));
    QVERIFY(explorerShown.count() >= 1);
    QCOMPARE(started.count(), 2);
    QCOMPARE(a->bitSweepView()->result()->rows.front().spec.num_bits, 2);  // the sweep's own widths
}

void TstAnalysisViews::bitSweepMatchesTheCore() {
    QVERIFY(showTab(kBitTab, AnalysisKind::BitSweep));
    BitSweepView* view = w_->analysisTabs()->bitSweepView();
    auto expected = qs::analysis::sweepBits(data(), model_->spec(), 2, 16, DataKind::Uniform);
    QVERIFY(expected);
    QCOMPARE(expected->rows.size(), size_t(15));
    const auto sqnr = points(view->sqnrGraph());
    const auto theory = points(view->theoryGraph());
    const auto mse = points(view->mseGraph());
    QCOMPARE(sqnr.size(), expected->rows.size());
    for (size_t i = 0; i < sqnr.size(); ++i) {
        const auto& row = expected->rows[i];
        QCOMPARE(sqnr[i].first, double(row.bits));
        QCOMPARE(sqnr[i].second, row.sqnr_db);
        QCOMPARE(theory[i].second, row.theory_sqnr_db);
        QCOMPARE(mse[i].second, row.mse);
        // Signed QDQ on uniform data over [−1, 1]: 20·log10(2^b − 2).
        QVERIFY(std::abs(row.theory_sqnr_db - 20 * std::log10(std::ldexp(1.0, row.bits) - 2)) < 1e-3);  // Δ is a float32 step
    }
    QCOMPARE(view->theoryGraph()->name(), QStringLiteral("theory: 20·log10(2^b − 2) (signed QDQ, uniform data)"));
    QVERIFY(view->textbookGraph()->dataCount() == 15);
    QVERIFY2(view->caption().contains(QStringLiteral("2^b − 1 of them inside the range")), qPrintable(view->caption()));
    QVERIFY(view->mseRect()->axis(QCPAxis::atLeft)->scaleType() == QCPAxis::stLogarithmic);
    // The CSV holds the rows.
    const auto csv = view->csvTable();
    QCOMPARE(csv.header.front(), std::string("bits"));
    QCOMPARE(csv.rowCount(), size_t(15));
    QCOMPARE(csv.columns[6][6], expected->rows[6].sqnr_db);
    QCOMPARE(csv.columns[3][6], double(expected->rows[6].levels_used));
    // A view image is not blank.
    const QImage image = view->exporter().renderImage(800, 600);
    QCOMPARE(image.size(), QSize(800, 600));
    screenshot(QStringLiteral("screenshot-bit-sweep.png"));
}

void TstAnalysisViews::bitSweepTpuAxisIsLog2Buckets() {
    qs::QuantSpec tpu;
    tpu.op = qs::QuantOp::TpuSimulatedQuantization;
    tpu.num_buckets = 256;
    model_->editSpec(tpu, QStringLiteral("TPU"));
    QVERIFY(settle());
    QVERIFY(showTab(kBitTab, AnalysisKind::BitSweep));
    BitSweepView* view = w_->analysisTabs()->bitSweepView();
    QCOMPARE(view->mseRect()->axis(QCPAxis::atBottom)->label(), QStringLiteral("bits = log2(num_buckets)"));
    const auto& rows = view->result()->rows;
    QCOMPARE(rows[6].bits, 8);
    QCOMPARE(rows[6].spec.num_buckets, int64_t{256});
    QCOMPARE(view->theoryGraph()->name(), QStringLiteral("theory: 20·log10(2^b − 1) (TPU, uniform data)"));
}

void TstAnalysisViews::clipSweepMatchesTheCoreAndAppliesAlpha() {
    makeWindow(kNormal, signedQdq(4, -1.0f, 1.0f));
    QVERIFY(showTab(kClipTab, AnalysisKind::ClipSweep));
    ClipSweepView* view = w_->analysisTabs()->clipSweepView();
    auto expected = qs::analysis::sweepClip(data(), model_->spec());
    QVERIFY(expected);
    const auto measured = points(view->measuredGraph());
    const auto gauss = points(view->gaussianGraph());
    QCOMPARE(measured.size(), expected->points.size());
    for (size_t i = 0; i < measured.size(); ++i) {
        QCOMPARE(measured[i].first, expected->points[i].alpha);
        QCOMPARE(measured[i].second, expected->points[i].mse);
        QCOMPARE(gauss[i].second, expected->points[i].gaussian_mse);
    }
    const auto best = points(view->optimumGraph());
    QCOMPARE(best.size(), size_t(1));
    QCOMPARE(best[0].first, expected->best_alpha);
    QVERIFY(view->optimumLabel()->text().startsWith(QStringLiteral("α* = ")));
    // The table: 2..8 bits, the 4-bit row with the op's and the measured ratios.
    QTableWidget* table = view->table();
    QCOMPARE(table->rowCount(), 7);
    QCOMPARE(table->item(2, 0)->text(), QStringLiteral("4 (shown)"));
    QCOMPARE(table->item(2, 1)->text(), QStringLiteral("2.559"));  // ACIQ's textbook value
    QCOMPARE(table->item(2, 2)->text(), QStringLiteral("2.378"));  // signed QDQ's (clip_sweep.h)
    QCOMPARE(table->item(2, 3)->text(), QString::number(expected->best_alpha / expected->sigma, 'f', 3));
    QVERIFY(table->item(3, 3)->text().isEmpty());
    // Measured optimum of normal data near the closed form for this quantizer (within 5 %:
    // 20 000 samples; the core tests hold 2 % on large data).
    QVERIFY(std::abs(expected->best_alpha / expected->gaussian_alpha - 1) < 0.05);
    screenshot(QStringLiteral("screenshot-clip-sweep.png"));

    // Apply α*: the explorer's range becomes [−α*, α*], one undo step.
    const int steps = model_->undoStack()->count();
    QTest::mouseClick(view->applyButton(), Qt::LeftButton);
    const float a = static_cast<float>(expected->best_alpha);
    QCOMPARE(model_->minRange(), -a);
    QCOMPARE(model_->maxRange(), a);
    QCOMPARE(model_->undoStack()->count(), steps + 1);
    model_->undoStack()->undo();
    QCOMPARE(model_->minRange(), -1.0f);
    QCOMPARE(model_->maxRange(), 1.0f);
    // The spec changed back: the sweep reruns (out of date, then fresh) after the explorer.
    QVERIFY(showTab(kClipTab, AnalysisKind::ClipSweep));
}

void TstAnalysisViews::calibrationMatchesTheCoreAndApplies() {
    makeWindow(kNormal, signedQdq(8, -1.0f, 1.0f));
    QVERIFY(showTab(kCalibrationTab, AnalysisKind::Calibration));
    CalibrationPanel* panel = w_->analysisTabs()->calibrationPanel();
    QCOMPARE(panel->percentileSpin()->value(), 99.99);
    auto expected = qs::analysis::calibrate(data(), model_->spec());
    QVERIFY(expected);
    QTableWidget* table = panel->table();
    QCOMPARE(table->rowCount(), 5);  // the four methods, then the explorer's current settings
    QVERIFY(table->item(4, 0)->text().startsWith(QStringLiteral("current")));
    QCOMPARE(table->item(4, 3)->text(), QString::number(w_->lastResult()->stats.sqnr_db, 'f', 2));
    for (int r = 0; r < 4; ++r) {
        const auto& c = (*expected)[static_cast<size_t>(r)];
        QVERIFY(table->item(r, 0)->text().startsWith(QString::fromUtf8(qs::analysis::calibrationMethodName(c.method).data())));
        QCOMPARE(panel->result()->methods[static_cast<size_t>(r)].min, c.min);
        QCOMPARE(panel->result()->methods[static_cast<size_t>(r)].max, c.max);
        QCOMPARE(table->item(r, 3)->text(), QString::number(c.stats.sqnr_db, 'f', 2));
        // The range lines on the histogram.
        QCOMPARE(panel->plotFrame()->rangeLine(r, false)->point1->coords().x(), double(c.min));
        QCOMPARE(panel->plotFrame()->rangeLine(r, true)->point1->coords().x(), double(c.max));
        QVERIFY(panel->applyButton(r));
    }
    screenshot(QStringLiteral("screenshot-calibration.png"));

    // Apply the min-max range: one undo step, undone by one undo.
    const int steps = model_->undoStack()->count();
    QTest::mouseClick(panel->applyButton(0), Qt::LeftButton);
    QCOMPARE(model_->minRange(), (*expected)[0].min);
    QCOMPARE(model_->maxRange(), (*expected)[0].max);
    QCOMPARE(model_->undoStack()->count(), steps + 1);
    model_->undoStack()->undo();
    QCOMPARE(model_->minRange(), -1.0f);
    QCOMPARE(model_->maxRange(), 1.0f);
    QVERIFY(settle());

    // A new percentile recalibrates with it.
    panel->percentileSpin()->setValue(99.0);
    QVERIFY(showTab(kCalibrationTab, AnalysisKind::Calibration));
    const auto p99 = qs::analysis::percentileOf(data(), 99.0);  // of |x|: symmetric default
    QVERIFY(p99);
    std::vector<float> absx(data().begin(), data().end());
    for (float& v : absx) v = std::abs(v);
    const auto a99 = qs::analysis::percentileOf(absx, 99.0);
    QVERIFY(a99);
    QCOMPARE(panel->result()->methods[1].max, static_cast<float>(*a99));
}

void TstAnalysisViews::comparisonOfTwoConfigurations() {
    QVERIFY(showTab(kCompareTab, AnalysisKind::Comparison));
    ComparisonView* view = w_->analysisTabs()->comparisonView();
    QVERIFY(view->configs().empty());
    QVERIFY(!view->status()->isHidden());  // "Add current …"
    QTest::mouseClick(view->addButton(), Qt::LeftButton);
    QCOMPARE(view->configs().size(), size_t(1));
    QVERIFY(!view->addConfig(model_->spec()));  // the same one twice: refused
    model_->setNumBits(3);
    model_->setRange(-0.75f, 0.75f);
    QVERIFY(settle());
    QTest::mouseClick(view->addButton(), Qt::LeftButton);
    QCOMPARE(view->configs().size(), size_t(2));
    QVERIFY(showTab(kCompareTab, AnalysisKind::Comparison));

    const ComparisonPtr r = view->result();
    QVERIFY(r);
    QCOMPARE(r->entries.size(), size_t(2));
    QTableWidget* table = view->table();
    QCOMPARE(table->columnCount(), 2);
    ComparisonPlot* plot = view->plotFrame();
    for (int i = 0; i < 2; ++i) {
        QVERIFY(plot->curveGraph(i)->dataCount() > 10);
        QVERIFY(plot->errorGraph(i)->dataCount() > 10);
        QVERIFY(plot->curveGraph(i)->name().contains(i == 0 ? QStringLiteral("8 bit") : QStringLiteral("3 bit")));
        // Statistics against the op run directly.
        const qs::QuantSpec& spec = view->configs()[static_cast<size_t>(i)];
        std::vector<float> y(data().size());
        QVERIFY(qs::applySpec(spec, w_->dataService()->dataset()->ref(), y));
        const auto stats = qs::analysis::errorStats(data(), y);
        QVERIFY(stats);
        QCOMPARE(r->entries[static_cast<size_t>(i)].stats.mse, stats->mse);
        QCOMPARE(table->item(1, i)->text(), QString::number(stats->sqnr_db, 'f', 2));
        QCOMPARE(table->item(3, i)->text(), QString::number(stats->distinct_levels));
        // The error plot draws the counts of x - Q(x) over the shared span (it drew zeros).
        std::vector<float> errors(y.size());
        for (size_t k = 0; k < y.size(); ++k) errors[k] = data()[k] - y[k];
        const auto expected = qs::analysis::histogram(errors, -r->error_span, r->error_span,
                                                      plot->errorGraph(i)->dataCount());
        QVERIFY(expected);
        QVector<double> drawn;
        for (auto it = plot->errorGraph(i)->data()->constBegin(); it != plot->errorGraph(i)->data()->constEnd(); ++it)
            drawn << it->value;
        QCOMPARE(drawn.size(), expected->bins());
        double total = 0;
        for (int b = 0; b < expected->bins(); ++b) {
            QCOMPARE(drawn[b], static_cast<double>(expected->counts[static_cast<size_t>(b)]));
            total += drawn[b];
        }
        QVERIFY(total > 0.5 * static_cast<double>(y.size()));
    }
    QVERIFY(plot->curveGraph(2)->data()->isEmpty());
    QCOMPARE(plot->curveGraph(0)->pen().color() == plot->curveGraph(1)->pen().color(), false);
    screenshot(QStringLiteral("screenshot-compare.png"));

    // Load the first into the explorer (undoable), remove the second.
    view->list()->setCurrentRow(0);
    QTest::mouseClick(view->loadButton(), Qt::LeftButton);
    QCOMPARE(model_->spec(), view->configs()[0]);
    QVERIFY(settle());
    view->list()->setCurrentRow(1);
    QTest::mouseClick(view->removeButton(), Qt::LeftButton);
    QCOMPARE(view->configs().size(), size_t(1));
    QVERIFY(showTab(kCompareTab, AnalysisKind::Comparison));
    QCOMPARE(view->table()->columnCount(), 1);
    // At most four.
    for (int bits : {4, 5, 6, 7}) {
        model_->setNumBits(bits);
        view->addConfig(model_->spec());
    }
    QCOMPARE(view->configs().size(), size_t(4));
    QVERIFY(!view->addButton()->isEnabled());
    // Removing them all empties the view (and keeps its layout: the legend is only hidden).
    for (int i = 3; i >= 0; --i) view->removeConfig(i);
    QVERIFY(showTab(kCompareTab, AnalysisKind::Comparison));
    QVERIFY(!view->result());
    QCOMPARE(view->table()->columnCount(), 0);
    QVERIFY(view->plotFrame()->curveGraph(0)->data()->isEmpty());
    QVERIFY(view->addButton()->isEnabled());
}

void TstAnalysisViews::analysisErrorsAreShown() {
    // QuantizeV2 rejects HALF_TO_EVEN outside SCALED: TF's text on the tab (the explorer
    // fails the same way, and the analysis runs after it all the same).
    qs::QuantSpec bad;
    bad.op = qs::QuantOp::QuantizeV2;
    bad.mode = qs::QuantizeMode::MinCombined;
    bad.round_mode = qs::RoundMode::HalfToEven;
    model_->editSpec(bad, QStringLiteral("bad"));
    QVERIFY(settle());
    QVERIFY(w_->resultIsStale());
    AnalysisTabs* a = w_->analysisTabs();
    QSignalSpy failed(a->service(), &AnalysisService::failed);
    w_->tabs()->setCurrentIndex(kClipTab);
    QTRY_VERIFY_WITH_TIMEOUT(failed.count() == 1, 20000);
    const QString message = failed.first().at(1).toString();
    QVERIFY(!message.isEmpty());
    QCOMPARE(a->clipSweepView()->status()->text(), message);
    QVERIFY(!a->clipSweepView()->status()->isBusy());
    QVERIFY(message.contains(QStringLiteral("HALF_TO_EVEN")) || message.contains(QStringLiteral("round")));
}

QTEST_MAIN(TstAnalysisViews)
#include "tst_analysis_views.moc"
