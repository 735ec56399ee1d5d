// A running analysis in the real MainWindow, offscreen, on data large enough to watch: the
// tab's bar moves up in many steps to 100 % and the result follows; Cancel (the button or Esc)
// stops it, no result arrives, the tab says "Cancelled" and keeps the previous result greyed
// until Run again; an edit or another tab's analysis while one runs stops the stale one, and
// only the newest request's result is shown. Set QS_ANALYSIS_SCREENSHOTS=<dir> to save the
// window mid-run and after the cancel.
#include <QtTest>

#include <QProgressBar>
#include <QPushButton>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTableWidget>
#include <QTemporaryDir>
#include <functional>
#include <memory>

#include "session/explorer/data_service.h"
#include "session/explorer/explorer_model.h"
#include "session/explorer/framework_service.h"
#include "tests/ui/explorer_window_slot.h"
#include "ui/analysis/analysis_tabs.h"
#include "ui/analysis/bit_sweep_view.h"
#include "ui/analysis/clip_sweep_view.h"
#include "ui/main_window.h"
#include "ui/status/job_status.h"
#include "ui/views/framework_view.h"

using namespace qs::ui;

namespace {

// A million values: the clipping sweep runs the op ~215 times over them (a second or two
// on one core), the bit sweep 15 times.
const QString kLarge = QStringLiteral("normal:n=1000000,seed=4");
constexpr int kBitTab = 4, kClipTab = 5, kFrameworkTab = 8;

qs::QuantSpec signedQdq(int bits) {
    return {.op = qs::QuantOp::QuantizeAndDequantizeV2, .round_mode = qs::RoundMode::HalfToEven,
            .signed_input = true, .num_bits = bits, .range_given = true, .min_range = -3, .max_range = 3};
}

}  // namespace

class TstAnalysisProgressUi : public ExplorerWindowSlot {
    Q_OBJECT

private slots:
    void initTestCase();
    void init();
    void cleanup();

    void progressRisesToCompletion();
    void cancelKeepsThePreviousResultGreyed();
    void escapeCancels();
    void aNewRequestStopsTheStaleOne();
    void anotherTabStopsTheRunningOne();
    void frameworksProgressAndCancel();

private:
    AnalysisTabs* tabs() const { return w_->analysisTabs(); }
    JobStatus* clipStatus() const { return tabs()->clipSweepView()->status(); }
    // Runs `action` from the progress report that first takes the clipping sweep's bar past
    // `permille` (so the sweep is surely running, however fast the machine); false when no
    // such report came. Shows the clipping tab first when `show`.
    bool atClipProgress(int permille, const std::function<void()>& action, bool show = true);
    bool waitForClipResult();
    // With QS_ANALYSIS_SCREENSHOTS set, saves the window there.
    void screenshot(const QString& name);
};

void TstAnalysisProgressUi::initTestCase() { QVERIFY(isolate()); }

void TstAnalysisProgressUi::init() {
    QVERIFY(openWindow(signedQdq(4), kLarge));
    QVERIFY(settle());
}

void TstAnalysisProgressUi::cleanup() { closeWindow(); }

bool TstAnalysisProgressUi::atClipProgress(int permille, const std::function<void()>& action, bool show) {
    bool done = false;
    // After AnalysisTabs' own connection: the bar already shows this report.
    const auto connection = connect(tabs()->service(), &AnalysisService::progress, this, [&] {
        if (done || clipStatus()->progressPermille() <= permille) return;
        done = true;
        action();
    });
    if (show) w_->tabs()->setCurrentIndex(kClipTab);
    const bool ok = QTest::qWaitFor([&] { return done; }, 20000);
    disconnect(connection);
    return ok;
}

bool TstAnalysisProgressUi::waitForClipResult() {
    return QTest::qWaitFor([this] {
        return !tabs()->isOutOfDate(AnalysisKind::ClipSweep) && !tabs()->service()->busy() && clipStatus()->isHidden();
    }, 30000);
}

void TstAnalysisProgressUi::screenshot(const QString& name) {
    const QString dir = qEnvironmentVariable("QS_ANALYSIS_SCREENSHOTS");
    if (!dir.isEmpty()) QVERIFY(w_->grab().save(QDir(dir).filePath(name)));
}

void TstAnalysisProgressUi::progressRisesToCompletion() {
    QSignalSpy progress(tabs()->service(), &AnalysisService::progress);
    QSignalSpy ready(tabs()->service(), &AnalysisService::clipSweepReady);
    // What the bar shows each time a report arrives.
    std::vector<int> shown;
    connect(tabs()->service(), &AnalysisService::progress, this,
            [&] { shown.push_back(clipStatus()->progressPermille()); });
    w_->tabs()->setCurrentIndex(kClipTab);
    QTRY_VERIFY_WITH_TIMEOUT(clipStatus()->isRunning(), 20000);
    QVERIFY(clipStatus()->cancelButton()->isVisible());
    QVERIFY(waitForClipResult());
    QCOMPARE(ready.count(), 1);
    QVERIFY(tabs()->clipSweepView()->result());
    QVERIFY(!tabs()->clipSweepView()->isStale());
    // One report per α the op ran at: a bar that moves in hundreds of steps, never back.
    QVERIFY2(progress.count() > 200, qPrintable(QString::number(progress.count())));
    double last = -1;
    for (const auto& args : progress) {
        QCOMPARE(args.at(0).value<AnalysisKind>(), AnalysisKind::ClipSweep);
        const double f = args.at(1).toDouble();
        QVERIFY(f >= last);
        last = f;
    }
    QCOMPARE(last, 1.0);
    QVERIFY(std::is_sorted(shown.begin(), shown.end()));
    QCOMPARE(shown.back(), 1000);
    QVERIFY(shown.front() < 100);
}

void TstAnalysisProgressUi::cancelKeepsThePreviousResultGreyed() {
    w_->tabs()->setCurrentIndex(kClipTab);
    QVERIFY(waitForClipResult());
    const auto previous = tabs()->clipSweepView()->result();
    QCOMPARE(previous->sweep.spec.num_bits, 4);

    QSignalSpy ready(tabs()->service(), &AnalysisService::clipSweepReady);
    QSignalSpy cancelled(tabs()->service(), &AnalysisService::cancelled);
    model_->setNumBits(6);
    // Cancel mid-way (at 40 %, where the screenshot shows the bar).
    QVERIFY(atClipProgress(400, [this] {
        screenshot(QStringLiteral("analysis-progress.png"));
        QTest::mouseClick(clipStatus()->cancelButton(), Qt::LeftButton);
    }, false));
    QTRY_COMPARE_WITH_TIMEOUT(cancelled.count(), 1, 10000);
    QCOMPARE(cancelled.first().at(0).value<AnalysisKind>(), AnalysisKind::ClipSweep);
    QTest::qWait(200);
    QCOMPARE(ready.count(), 0);  // no result for the cancelled run
    QVERIFY(!tabs()->service()->busy());
    // The tab says so, keeps the previous result greyed, and does not rerun by itself.
    QVERIFY(clipStatus()->text().startsWith(QStringLiteral("Cancelled")));
    QVERIFY(!clipStatus()->isBusy());
    QVERIFY(clipStatus()->rerunButton()->isVisible());
    QVERIFY(tabs()->isCancelled(AnalysisKind::ClipSweep));
    QCOMPARE(tabs()->clipSweepView()->result(), previous);
    QVERIFY(tabs()->clipSweepView()->isStale());
    screenshot(QStringLiteral("analysis-cancelled.png"));
    w_->tabs()->setCurrentIndex(kBitTab);  // away and back: still cancelled
    QVERIFY(QTest::qWaitFor([this] { return !tabs()->service()->busy() && !tabs()->isOutOfDate(AnalysisKind::BitSweep); }, 20000));
    QSignalSpy started(tabs()->service(), &AnalysisService::started);
    w_->tabs()->setCurrentIndex(kClipTab);
    QTest::qWait(100);
    QCOMPARE(started.count(), 0);
    // Run again computes the current settings.
    QTest::mouseClick(clipStatus()->rerunButton(), Qt::LeftButton);
    QVERIFY(waitForClipResult());
    QCOMPARE(ready.count(), 1);
    QCOMPARE(tabs()->clipSweepView()->result()->sweep.spec.num_bits, 6);
    QVERIFY(!tabs()->clipSweepView()->isStale());
    QVERIFY(!tabs()->isCancelled(AnalysisKind::ClipSweep));
}

void TstAnalysisProgressUi::escapeCancels() {
    w_->activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(w_.get()));
    QSignalSpy ready(tabs()->service(), &AnalysisService::clipSweepReady);
    QSignalSpy cancelled(tabs()->service(), &AnalysisService::cancelled);
    QVERIFY(atClipProgress(20, [this] { QTest::keyClick(w_.get(), Qt::Key_Escape); }));
    QTRY_COMPARE_WITH_TIMEOUT(cancelled.count(), 1, 10000);
    QTest::qWait(200);
    QCOMPARE(ready.count(), 0);
    // Nothing computed before: nothing to grey, and the tab says there is no result.
    QVERIFY(!tabs()->clipSweepView()->result());
    QVERIFY(clipStatus()->text().startsWith(QStringLiteral("Cancelled")));
    // An edit is a new request: the cancelled tab computes it.
    model_->setNumBits(5);
    QVERIFY(settle());
    QVERIFY(waitForClipResult());
    QCOMPARE(ready.count(), 1);
    QCOMPARE(tabs()->clipSweepView()->result()->sweep.spec.num_bits, 5);
}

void TstAnalysisProgressUi::aNewRequestStopsTheStaleOne() {
    QSignalSpy ready(tabs()->service(), &AnalysisService::clipSweepReady);
    QSignalSpy started(tabs()->service(), &AnalysisService::started);
    // An edit while the sweep runs: it stops at once (before the explorer recomputes) and
    // its result never arrives; the sweep of the new settings does.
    bool stoppedAtOnce = false;
    QVERIFY(atClipProgress(20, [&] {
        model_->setNumBits(7);
        stoppedAtOnce = !clipStatus()->isRunning();
    }));
    QVERIFY(stoppedAtOnce);
    QVERIFY(settle());
    QVERIFY(waitForClipResult());
    QCOMPARE(started.count(), 2);
    QCOMPARE(ready.count(), 1);
    QCOMPARE(ready.first().at(0).value<ClipAnalysisPtr>()->sweep.spec.num_bits, 7);
    QCOMPARE(tabs()->clipSweepView()->result()->sweep.spec.num_bits, 7);
    QVERIFY(!tabs()->clipSweepView()->isStale());
    QVERIFY(!tabs()->isCancelled(AnalysisKind::ClipSweep));
}

void TstAnalysisProgressUi::anotherTabStopsTheRunningOne() {
    QSignalSpy clipReady(tabs()->service(), &AnalysisService::clipSweepReady);
    QSignalSpy bitsReady(tabs()->service(), &AnalysisService::bitSweepReady);
    // The user moves on: the clipping sweep stops, the bit sweep runs at once.
    QVERIFY(atClipProgress(20, [this] { w_->tabs()->setCurrentIndex(kBitTab); }));
    QVERIFY(QTest::qWaitFor([this] { return !tabs()->service()->busy() && !tabs()->isOutOfDate(AnalysisKind::BitSweep); }, 20000));
    QCOMPARE(bitsReady.count(), 1);
    QCOMPARE(clipReady.count(), 0);
    QVERIFY(tabs()->isOutOfDate(AnalysisKind::ClipSweep));
    QVERIFY(!tabs()->isCancelled(AnalysisKind::ClipSweep));  // stopped, not cancelled: it catches up
    QTest::qWait(200);  // hidden: it must not run
    QCOMPARE(clipReady.count(), 0);
    QVERIFY(tabs()->clipSweepView()->status()->text().startsWith(QStringLiteral("Stopped")));
    w_->tabs()->setCurrentIndex(kClipTab);
    QVERIFY(waitForClipResult());
    QCOMPARE(clipReady.count(), 1);
}

void TstAnalysisProgressUi::frameworksProgressAndCancel() {
    FrameworkView* view = w_->frameworkView();
    FrameworkService* service = view->service();
    QSignalSpy progress(service, &FrameworkService::progress);
    QSignalSpy compared(service, &FrameworkService::compared);
    QSignalSpy cancelled(service, &FrameworkService::cancelled);
    QElapsedTimer clock;
    clock.start();
    w_->tabs()->setCurrentIndex(kFrameworkTab);
    QTRY_COMPARE_WITH_TIMEOUT(compared.count(), 1, 20000);
    qInfo("comparison of the five schemes over 1e6 values: %lld ms", static_cast<long long>(clock.elapsed()));
    // A report per scheme run and per pair (5 + 10) and the end: rising to 1.
    QVERIFY2(progress.count() >= 16, qPrintable(QString::number(progress.count())));
    double last = -1;
    for (const auto& args : progress) {
        QVERIFY(args.at(0).toDouble() >= last);
        last = args.at(0).toDouble();
    }
    QCOMPARE(last, 1.0);
    QVERIFY(view->status()->isHidden());
    QCOMPARE(view->input().bits, 4);

    // Cancel at the next comparison's first report (it takes a few hundred ms, so it is
    // still running): no result, the old table greyed.
    bool clicked = false;
    connect(service, &FrameworkService::progress, this, [&] {
        if (clicked || !view->status()->isRunning()) return;
        clicked = true;
        QTest::mouseClick(view->status()->cancelButton(), Qt::LeftButton);
    });
    model_->setNumBits(6);
    QTRY_COMPARE_WITH_TIMEOUT(cancelled.count(), 1, 10000);
    QTest::qWait(200);
    QCOMPARE(compared.count(), 1);
    QVERIFY(view->status()->text().startsWith(QStringLiteral("Cancelled")));
    QVERIFY(!view->table()->isEnabled());
    QCOMPARE(view->input().bits, 4);  // the previous comparison's
    QTest::mouseClick(view->status()->rerunButton(), Qt::LeftButton);
    QTRY_COMPARE_WITH_TIMEOUT(compared.count(), 2, 20000);
    QCOMPARE(view->input().bits, 6);
    QVERIFY(view->table()->isEnabled());
    QVERIFY(view->status()->isHidden());
}

QTEST_MAIN(TstAnalysisProgressUi)
#include "tst_analysis_progress_ui.moc"
