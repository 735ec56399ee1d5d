// The windows on a 1280×800 screen (this program's offscreen screen, tests/screens): the
// explorer and the workbench open inside its available geometry, every view is one click away
// (group, then view) on tab bars that need no scroll arrows, each view is selected by its
// stable name, and no plot title runs past its plot nor a legend over its data.
//
// With QS_SCREENSHOT_DIR set (run under xvfb-run with QT_QPA_PLATFORM=xcb), the last test
// also writes a screenshot of the window on each view there, to be looked at.
#include <QScrollBar>
#include <QTabBar>
#include <QTableWidget>

#include "session/modelfile/model_file_controller.h"
#include "tests/ui/explorer_window_test.h"
#include "ui/analysis/analysis_tabs.h"
#include "ui/analysis/clip_sweep_view.h"
#include "ui/embedding/workbench_window.h"
#include "ui/modelfile/model_docks.h"
#include "ui/view_navigator.h"
#include "ui/views/framework_view.h"

class TstMainWindowFit : public ExplorerWindowTest {
    Q_OBJECT

    QRect available() const { return w_->screen()->availableGeometry(); }

    // The tab bars a user sees in the window (not those of hidden tab widgets).
    QList<QTabBar*> visibleTabBars() const {
        QList<QTabBar*> bars;
        for (QTabBar* bar : w_->findChildren<QTabBar*>())
            if (bar->isVisibleTo(w_.get()) && bar->count() > 0 && !bar->parentWidget()->inherits("QMainWindow"))
                bars << bar;
        return bars;
    }

private slots:
    void theScreenIs1280x800() {
        QCOMPARE(w_->screen()->geometry().size(), QSize(1280, 800));
    }

    void mainWindowOpensInsideTheScreen() {
        QVERIFY2(available().contains(w_->frameGeometry()),
                 qPrintable(QStringLiteral("window %1,%2 %3×%4 on a %5×%6 screen")
                                .arg(w_->frameGeometry().x()).arg(w_->frameGeometry().y())
                                .arg(w_->frameGeometry().width()).arg(w_->frameGeometry().height())
                                .arg(available().width()).arg(available().height())));
        // Its layout can be that small: no dock or view insists on more.
        QVERIFY(w_->minimumSizeHint().width() <= available().width());
        QVERIFY(w_->minimumSizeHint().height() <= available().height());
    }

    void workbenchOpensInsideTheScreen() {
        WorkbenchWindow* bench = w_->showWorkbench();
        QVERIFY(QTest::qWaitForWindowExposed(bench));
        QVERIFY2(available().contains(bench->frameGeometry()),
                 qPrintable(QStringLiteral("workbench %1×%2").arg(bench->width()).arg(bench->height())));
        QVERIFY(bench->minimumSizeHint().width() <= available().width());
        // The optimizer's keyword fields keep room for a value ("T…" at 25 pixels before).
        const int room = bench->fontMetrics().horizontalAdvance(QStringLiteral("0.000001"));
        int fields = 0;
        for (QLineEdit* edit : bench->findChildren<QLineEdit*>())
            if (edit->objectName().startsWith(QLatin1String("optimizer_")) && edit->isVisibleTo(bench)) {
                ++fields;
                QVERIFY2(edit->width() >= room, qPrintable(QStringLiteral("%1 is %2 px").arg(edit->objectName()).arg(edit->width())));
            }
        QVERIFY(fields >= 2);
        // The range suggestions show every column, without a scroll bar.
        auto* suggestions = bench->findChild<QTableWidget*>(QStringLiteral("rangeSuggestionsPanelTable"));
        QVERIFY(suggestions);
        QTRY_VERIFY_WITH_TIMEOUT(suggestions->rowCount() > 0, 10000);
        QTest::qWait(50);
        QVERIFY2(suggestions->horizontalScrollBar()->maximum() == 0,
                 qPrintable(QStringLiteral("%1 px behind the scroll bar").arg(suggestions->horizontalScrollBar()->maximum())));
        bench->close();
    }

    // Every page of the view stack is reached by clicking tabs that lie inside their bars.
    void everyViewIsOneClickAwayWithoutScrollArrows() {
        for (QTabBar* bar : visibleTabBars())
            QVERIFY2(bar->sizeHint().width() <= bar->width(),
                     qPrintable(QStringLiteral("%1 needs %2 px, has %3").arg(bar->objectName()).arg(bar->sizeHint().width()).arg(bar->width())));
        auto* groups = w_->findChild<QTabBar*>(QStringLiteral("viewGroupBar"));
        QVERIFY(groups);
        QVERIFY(!w_->tabs()->tabBar()->isVisibleTo(w_.get()));  // the nine-tab bar is gone
        std::set<int> reached;
        for (int g = 0; g < groups->count(); ++g) {
            QVERIFY(groups->rect().contains(groups->tabRect(g)));
            QTest::mouseClick(groups, Qt::LeftButton, {}, groups->tabRect(g).center());
            QTabBar* views = nullptr;
            for (QTabBar* bar : visibleTabBars())
                if (bar != groups) views = bar;
            QVERIFY(views);
            for (int v = 0; v < views->count(); ++v) {
                QVERIFY2(views->rect().contains(views->tabRect(v)), qPrintable(views->tabText(v)));
                QTest::mouseClick(views, Qt::LeftButton, {}, views->tabRect(v).center());
                QCOMPARE(views->tabText(v), w_->tabs()->tabText(w_->tabs()->currentIndex()));
                QCOMPARE(model_->viewState().tab, w_->tabs()->currentIndex());  // sessions keep it
                reached.insert(w_->tabs()->currentIndex());
            }
        }
        QCOMPARE(int(reached.size()), w_->tabs()->count());
    }

    // Lessons and tests select views by name; Alt+n and sessions keep the flat index.
    void viewsSelectByStableName() {
        const QStringList ids = w_->viewNavigator()->ids();
        QCOMPARE(ids, (QStringList{"transfer", "histogram", "error-histogram", "per-channel", "bit-sweep",
                                   "clip-sweep", "calibration", "compare", "frameworks"}));
        QVERIFY(w_->showView(QStringLiteral("frameworks")));
        QCOMPARE(w_->tabs()->currentWidget(), static_cast<QWidget*>(w_->frameworkView()));
        QCOMPARE(w_->currentView(), QStringLiteral("frameworks"));
        QCOMPARE(w_->viewNavigator()->groupBar()->currentIndex(), 2);
        QVERIFY(w_->showView(QStringLiteral("clip-sweep")));
        QCOMPARE(w_->tabs()->currentWidget(), static_cast<QWidget*>(w_->analysisTabs()->clipSweepView()));
        QCOMPARE(w_->viewNavigator()->groupBar()->currentIndex(), 1);
        QVERIFY(!w_->showView(QStringLiteral("no such view")));
        QCOMPARE(w_->currentView(), QStringLiteral("clip-sweep"));
        // The flat index still selects, and the bars follow it.
        w_->tabs()->setCurrentIndex(1);
        QCOMPARE(w_->currentView(), QStringLiteral("histogram"));
        QCOMPARE(w_->viewNavigator()->groupBar()->currentIndex(), 0);
        QCOMPARE(w_->viewNavigator()->viewBar(0)->currentIndex(), 1);
        // A group opens on the view it showed last.
        w_->showView(QStringLiteral("calibration"));
        w_->showView(QStringLiteral("transfer"));
        QTest::mouseClick(w_->viewNavigator()->groupBar(), Qt::LeftButton, {},
                          w_->viewNavigator()->groupBar()->tabRect(1).center());
        QCOMPARE(w_->currentView(), QStringLiteral("calibration"));
    }

    // At this width the transfer view's title breaks into lines inside the plot and its
    // legend sits above the data, not over the curve.
    void titlesAndLegendsFitThePlots() {
        QVERIFY(w_->showView(QStringLiteral("transfer")));
        QVERIFY(settle());
        QCustomPlot* plot = w_->transferView()->plot();
        plot->replot();
        auto* title = qobject_cast<QCPTextElement*>(plot->plotLayout()->element(0, 0));
        QVERIFY(title);
        const QFontMetricsF metrics(title->font());
        for (const QString& line : title->text().split(QLatin1Char('\n')))
            QVERIFY2(metrics.horizontalAdvance(line) <= plot->width(), qPrintable(line));
        QVERIFY(title->text().contains(QStringLiteral("HALF_AWAY_FROM_ZERO")));
        QVERIFY(plot->legend->visible());
        QVERIFY(!plot->legend->outerRect().intersects(plot->axisRect()->rect()));
        QVERIFY(plot->legend->outerRect().right() <= plot->width());
        // The range handles' labels, "↔ min_range = -3" and "max_range = 3 ↔", do not touch.
        auto rectOf = [plot](const char* name) {
            auto* label = plot->findChild<QCPItemText*>(QLatin1String(name));
            return label ? QRectF(label->topLeft->pixelPosition(), label->bottomRight->pixelPosition()) : QRectF();
        };
        const QRectF minLabel = rectOf("rangeHandleMinLabel"), maxLabel = rectOf("rangeHandleMaxLabel");
        QVERIFY(!minLabel.isEmpty() && !maxLabel.isEmpty());
        QVERIFY2(!minLabel.intersects(maxLabel), qPrintable(QStringLiteral("min label right %1, max label left %2")
                                                                .arg(minLabel.right()).arg(maxLabel.left()) + QStringLiteral(" min %1..%2 max %3..%4").arg(minLabel.top()).arg(minLabel.bottom()).arg(maxLabel.top()).arg(maxLabel.bottom())));
    }

    // A model opened on this screen: its docks join the Statistics dock as tabs, the window
    // stays inside the screen, and the transfer plot keeps a usable data area (below the
    // explorer they left it 120 pixels high under its legend).
    void modelDocksLeaveThePlotsTheirSize() {
        QSignalSpy opened(w_->modelFiles(), &ModelFileController::opened);
        w_->openModel(QStringLiteral(QS_TEST_DATA_DIR "/models/tflite/person_detect.tflite"));
        QVERIFY(opened.count() == 1 || opened.wait(10000));
        QVERIFY(w_->showView(QStringLiteral("transfer")));
        QVERIFY(settle());
        QTest::qWait(50);  // the dock layout settles on the next events
        ModelDocks* docks = w_->modelDocks();
        for (QDockWidget* d : {docks->modelDockWidget(), docks->reportDockWidget(), docks->storedDockWidget()}) {
            QCOMPARE(w_->dockWidgetArea(d), Qt::RightDockWidgetArea);
            QVERIFY2(d->minimumSizeHint().width() <= available().width() / 3,
                     qPrintable(QStringLiteral("%1 needs %2 px").arg(d->objectName()).arg(d->minimumSizeHint().width())));
        }
        QVERIFY(docks->modelDockWidget()->isVisible());  // the tab on show
        QVERIFY2(available().contains(w_->frameGeometry()),
                 qPrintable(QStringLiteral("window %1×%2").arg(w_->width()).arg(w_->height())));
        QCustomPlot* plot = w_->transferView()->plot();
        plot->replot();
        const QRect data = plot->axisRect()->rect();
        QVERIFY2(data.height() >= 250 && data.width() >= 250,
                 qPrintable(QStringLiteral("data area %1×%2").arg(data.width()).arg(data.height())));
    }

    // The Statistics dock at this width: no value is elided ("1,262 below, 1,380 a…"); a long
    // one wraps onto a second line of its row.
    void statisticsShowWholeValues() {
        DataSource source = model_->dataSource();
        source.generator = QStringLiteral("normal:n=200000,std=2,seed=1");  // thousands clipped each side
        model_->setDataSource(source);
        QVERIFY(settle());
        QTableWidget* table = w_->statsPanel()->table();
        const QFontMetrics metrics(table->font());
        const int room = table->columnWidth(1) - 4;
        bool wrapped = false;
        for (int i = 0; i < table->rowCount(); ++i) {
            const QString text = table->item(i, 1)->text();
            const int needed = metrics.boundingRect(QRect(0, 0, room, 1 << 16), Qt::TextWordWrap, text).height();
            QVERIFY2(needed <= table->rowHeight(i), qPrintable(QStringLiteral("'%1' needs %2 px, has %3").arg(text).arg(needed).arg(table->rowHeight(i))));
            wrapped = wrapped || metrics.horizontalAdvance(text) > room;
        }
        QVERIFY(wrapped);  // this window's clipped counts do not fit one line
        // The table shows every row: nothing below its frame.
        const int last = table->rowCount() - 1;
        QVERIFY(table->rowViewportPosition(last) + table->rowHeight(last) <= table->viewport()->height());
    }

    // The welcome page fits between the docks: its card inside the views' area, every
    // button's text whole.
    void welcomePageFitsBetweenTheDocks() {
        w_->showWelcome();
        QTest::qWait(50);
        auto* card = w_->findChild<QFrame*>(QStringLiteral("welcomeCard"));
        QVERIFY(card && card->isVisible());
        const QRect inCentral(card->mapTo(w_->centralWidget(), QPoint(0, 0)), card->size());
        QVERIFY2(w_->centralWidget()->rect().contains(inCentral),
                 qPrintable(QStringLiteral("card %1 px wide in %2").arg(card->width()).arg(w_->centralWidget()->width())));
        for (QPushButton* b : card->findChildren<QPushButton*>())
            QVERIFY2(b->sizeHint().width() <= b->width(), qPrintable(b->text()));
    }

    void screenshots() {
        const QString dir = qEnvironmentVariable("QS_SCREENSHOT_DIR");
        if (dir.isEmpty()) QSKIP("QS_SCREENSHOT_DIR is not set");
        const QSize screen = w_->screen()->geometry().size();
        const QString size = QStringLiteral("%1x%2").arg(screen.width()).arg(screen.height());
        for (const QString& id : w_->viewNavigator()->ids()) {
            w_->showView(id);
            QTest::qWait(2500);  // the analyses compute when shown
            w_->grab().save(QDir(dir).filePath(QStringLiteral("%1_%2.png").arg(size, id)));
        }
        WorkbenchWindow* bench = w_->showWorkbench();
        QVERIFY(QTest::qWaitForWindowExposed(bench));
        QTest::qWait(2500);
        bench->grab().save(QDir(dir).filePath(QStringLiteral("%1_workbench.png").arg(size)));
    }
};

QTEST_MAIN(TstMainWindowFit)
#include "tst_main_window_fit.moc"
