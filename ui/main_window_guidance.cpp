// MainWindow: guidance for new users and the question before losing work: the Help menu
// (manual, keyboard shortcuts, welcome page, about), the first-start welcome page, and
// Save / Discard / Cancel when the window closes with unsaved edits.
#include <QAction>
#include <QFileInfo>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QPointer>
#include <QPushButton>
#include <QSettings>

#include "session/explorer/explorer_model.h"
#include "ui/help/help_dialog.h"
#include "ui/help/welcome_page.h"
#include "ui/lessons/lesson_controller.h"
#include "ui/main_window.h"

namespace qs::ui {

namespace {
// Set once the user has answered the welcome page: it does not show at start again.
const char* kWelcomeDismissedKey = "welcome/dismissed";
}  // namespace

void MainWindow::createHelpMenu() {
    QMenu* help = menuBar()->addMenu(tr("&Help"));
    help->setObjectName(QStringLiteral("helpMenu"));
    QAction* manual = help->addAction(tr("&Manual"), this, [this] { showHelp(0); });
    manual->setObjectName(QStringLiteral("helpManualAction"));
    manual->setShortcut(QKeySequence::HelpContents);
    QAction* keys = help->addAction(tr("&Keyboard shortcuts"), this, [this] { showHelp(1); });
    keys->setObjectName(QStringLiteral("helpShortcutsAction"));
    keys->setShortcut(QKeySequence(tr("Ctrl+/")));
    help->addAction(tr("&Welcome page"), this, &MainWindow::showWelcome)->setObjectName(QStringLiteral("welcomeAction"));
    help->addSeparator();
    help->addAction(tr("&About QuantScope"), this, &MainWindow::about);
}

void MainWindow::showHelp(int tab) {
    auto* dialog = findChild<HelpDialog*>();
    if (!dialog) dialog = new HelpDialog(menuBar(), this);
    dialog->showTab(tab);
    dialog->show();
    dialog->raise();
    dialog->activateWindow();
}

bool MainWindow::showWelcomeIfFirstStart() {
    if (QSettings().value(QLatin1String(kWelcomeDismissedKey), false).toBool()) return false;
    showWelcome();
    return true;
}

void MainWindow::showWelcome() {
    if (!welcome_) {
        welcome_ = new WelcomePage(centralWidget());
        connect(welcome_, &WelcomePage::lessonRequested, this, [this] { lessons_->openLesson(0); });
        connect(welcome_, &WelcomePage::openModelRequested, this, &MainWindow::openModelDialog);
        connect(welcome_, &WelcomePage::openDataRequested, this, &MainWindow::openDataFileDialog);
        connect(welcome_, &WelcomePage::dismissed, this,
                [] { QSettings().setValue(QLatin1String(kWelcomeDismissedKey), true); });
        // Started another way (the Lessons menu, a dropped file): the page has done its job.
        connect(lessons_, &LessonController::lessonOpened, welcome_, &QWidget::hide);
        connect(model_, &ExplorerModel::dataSourceChanged, welcome_, &QWidget::hide);
    }
    welcome_->show();
    welcome_->raise();
    welcome_->lessonButton()->setFocus();
}

bool MainWindow::confirmClose() {
    if (model_->undoStack()->isClean()) return true;
    UnsavedChoice choice = UnsavedChoice::Discard;
    if (unsavedPrompt_) {
        choice = unsavedPrompt_();
    } else {
        const QString name = sessionPath_.isEmpty() ? tr("The untitled session")
                                                    : tr("The session '%1'").arg(QFileInfo(sessionPath_).fileName());
        QMessageBox box(QMessageBox::Warning, tr("Unsaved changes"),
                        tr("%1 has changes that are not saved.").arg(name),
                        QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, this);
        box.setInformativeText(tr("Save them before closing?"));
        box.setDefaultButton(QMessageBox::Save);
        const int answer = box.exec();
        choice = answer == QMessageBox::Save      ? UnsavedChoice::Save
                 : answer == QMessageBox::Discard ? UnsavedChoice::Discard
                                                  : UnsavedChoice::Cancel;
    }
    if (choice == UnsavedChoice::Cancel) return false;
    if (choice == UnsavedChoice::Save) {
        saveSession();  // asks for a file when untitled; a cancelled dialog keeps the window
        return model_->undoStack()->isClean();
    }
    return true;
}

}  // namespace qs::ui
