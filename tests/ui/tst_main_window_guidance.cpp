// First use and leaving: the welcome page (shown on a first start, each choice does what it
// says, remembered once answered), Help > Manual and Help > Keyboard shortcuts (the table is
// the window's actual shortcuts), the Data dock's tab where it is seen, and closing with
// unsaved edits (Save / Discard / Cancel). A real MainWindow, offscreen, with the resources
// (the manual, the lessons) compiled in; QSettings and QStandardPaths isolated.
#include <QtTest>

#include <QAction>
#include <QDockWidget>
#include <QMenu>
#include <QMenuBar>
#include <QPushButton>
#include <QSettings>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTextBrowser>
#include <memory>

#include "session/explorer/explorer_model.h"
#include "tests/ui/isolated_user_files.h"
#include "tests/ui/show_exposed.h"
#include "ui/help/help_dialog.h"
#include "ui/help/welcome_page.h"
#include "ui/lessons/lesson_controller.h"
#include "ui/main_window.h"

using namespace qs::ui;

class TstMainWindowGuidance : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        QVERIFY(isolateUserFiles(settingsDir_));
    }
    void init() {
        QSettings().clear();
        makeWindow();
    }
    void cleanup() {
        w_.reset();
        model_.reset();
        QFile::remove(MainWindow::lastSessionPath());
    }

    void welcomeOnFirstStartOnly() {
        QVERIFY(w_->showWelcomeIfFirstStart());
        WelcomePage* page = w_->welcomePage();
        QVERIFY(page && page->isVisible());
        // It covers the views.
        QCOMPARE(page->geometry(), w_->centralWidget()->rect());
        shoot(w_.get(), "welcome");
        QTest::mouseClick(page->lessonButton(), Qt::LeftButton);
        QVERIFY(!page->isVisible());
        QCOMPARE(w_->lessons()->currentIndex(), 0);
        QCOMPARE(w_->currentView(), QStringLiteral("transfer"));
        // Answered once: the next start goes straight to the window.
        makeWindow();
        QVERIFY(!w_->showWelcomeIfFirstStart());
        QVERIFY(!w_->welcomePage());
        // Help > Welcome page brings it back; "Explore" only closes it.
        w_->findChild<QAction*>(QStringLiteral("welcomeAction"))->trigger();
        QVERIFY(w_->welcomePage()->isVisible());
        QTest::mouseClick(w_->welcomePage()->exploreButton(), Qt::LeftButton);
        QVERIFY(!w_->welcomePage()->isVisible());
        QCOMPARE(w_->lessons()->currentIndex(), -1);
    }

    void helpManualAndShortcuts() {
        QMenu* help = w_->findChild<QMenu*>(QStringLiteral("helpMenu"));
        QVERIFY(help);
        w_->findChild<QAction*>(QStringLiteral("helpManualAction"))->trigger();
        auto* dialog = w_->findChild<HelpDialog*>();
        QVERIFY(dialog && dialog->isVisible());
        QVERIFY(dialog->manual()->toPlainText().contains(QStringLiteral("Presentation mode")));
        QVERIFY(dialog->manual()->toPlainText().contains(QStringLiteral("Lessons")));
        shoot(dialog, "help-manual");

        w_->findChild<QAction*>(QStringLiteral("helpShortcutsAction"))->trigger();
        QTableWidget* table = dialog->shortcutTable();
        auto rowOf = [table](const QString& action) {
            for (int r = 0; r < table->rowCount(); ++r)
                if (table->item(r, 1)->text() == action) return r;
            return -1;
        };
        // Every menu action with a shortcut is listed with its keys, once.
        int withKeys = 0;
        for (QAction* a : w_->findChildren<QAction*>())
            if (!a->shortcut().isEmpty() && !a->menu() && a->isVisible()) {
                const QString keys = a->shortcut().toString(QKeySequence::NativeText);
                bool found = false;
                for (int r = 0; r < table->rowCount(); ++r)
                    found = found || table->item(r, 0)->text().split(QStringLiteral(", ")).contains(keys);
                if (found) ++withKeys;
            }
        QVERIFY(withKeys >= 15);
        const int open = rowOf(QStringLiteral("Open data file"));
        QVERIFY(open >= 0);
        QCOMPARE(table->item(open, 0)->text(), QKeySequence(QStringLiteral("Ctrl+D")).toString(QKeySequence::NativeText));
        QCOMPARE(table->item(open, 2)->text(), QStringLiteral("File"));
        QVERIFY(rowOf(QStringLiteral("Presentation mode")) >= 0);
        QVERIFY(rowOf(QStringLiteral("Next lesson")) >= 0);  // presentation mode's keys
        shoot(dialog, "help-shortcuts");
        // Read from the actions, not a list kept by hand: a changed shortcut shows.
        auto* dark = w_->findChild<QAction*>(QStringLiteral("darkThemeAction"));
        dark->setShortcut(QKeySequence(QStringLiteral("Ctrl+Alt+K")));
        w_->showHelp(1);
        QCOMPARE(table->item(rowOf(QStringLiteral("Dark theme")), 0)->text(),
                 QKeySequence(QStringLiteral("Ctrl+Alt+K")).toString(QKeySequence::NativeText));
    }

    // The Data dock's tab sits on top of the left docks, beside Parameters, where it is seen.
    void dataDockTabOnTop() {
        QCOMPARE(w_->tabPosition(Qt::LeftDockWidgetArea), QTabWidget::North);
        QDockWidget* data = w_->findChild<QDockWidget*>(QStringLiteral("dataDock"));
        QVERIFY(data && !data->isHidden());
    }

    void closingWithUnsavedEditsAsks() {
        int asked = 0;
        MainWindow::UnsavedChoice answer = MainWindow::UnsavedChoice::Cancel;
        w_->setUnsavedChangesPrompt([&] {
            ++asked;
            return answer;
        });
        // Nothing edited: no question.
        QVERIFY(w_->close());
        QCOMPARE(asked, 0);
        makeWindow();
        w_->setUnsavedChangesPrompt([&] {
            ++asked;
            return answer;
        });
        model_->setMaxRange(2.0f);
        QVERIFY(w_->isWindowModified());
        QVERIFY(!w_->close());  // Cancel: the window stays, with its edit
        QCOMPARE(asked, 1);
        QVERIFY(w_->isVisible());
        QCOMPARE(model_->maxRange(), 2.0f);
        // Save (into the session it came from): saved, then closed.
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("s.qscope"));
        QVERIFY(w_->saveSessionAs(path));
        model_->setMaxRange(3.0f);
        answer = MainWindow::UnsavedChoice::Save;
        QVERIFY(w_->close());
        QCOMPARE(asked, 2);
        QVERIFY(model_->undoStack()->isClean());
        makeWindow();
        QVERIFY(w_->openSession(path));
        QCOMPARE(model_->maxRange(), 3.0f);
        // Discard: closed without saving.
        w_->setUnsavedChangesPrompt([&] {
            ++asked;
            return MainWindow::UnsavedChoice::Discard;
        });
        model_->setMaxRange(4.0f);
        QVERIFY(w_->close());
        QCOMPARE(asked, 3);
        makeWindow();
        QVERIFY(w_->openSession(path));
        QCOMPARE(model_->maxRange(), 3.0f);
    }

private:
    // QS_GUIDANCE_SCREENSHOTS=<dir> saves what the user sees (QS_GUIDANCE_SIZE=1600x1000 for
    // another window size than 1280×800).
    static void shoot(QWidget* w, const char* name) {
        const QString dir = qEnvironmentVariable("QS_GUIDANCE_SCREENSHOTS");
        if (dir.isEmpty()) return;
        QTest::qWait(200);
        QVERIFY(w->grab().save(QDir(dir).filePath(QLatin1String(name) + QStringLiteral(".png"))));
    }

    void makeWindow() {
        w_.reset();
        model_ = std::make_unique<ExplorerModel>();
        DataSource small;
        small.generator = QStringLiteral("normal:n=20000,seed=1");
        model_->reset(model_->spec(), small, ViewState{});
        w_ = std::make_unique<MainWindow>(model_.get());
        const QStringList size = qEnvironmentVariable("QS_GUIDANCE_SIZE", QStringLiteral("1280x800")).split('x');
        QVERIFY(showExposed(w_.get(), {size.value(0).toInt(), size.value(1).toInt()}));
    }

    QTemporaryDir settingsDir_;
    std::unique_ptr<ExplorerModel> model_;
    std::unique_ptr<MainWindow> w_;
};

QTEST_MAIN(TstMainWindowGuidance)
#include "tst_main_window_guidance.moc"
