// Help > Manual and Help > Keyboard shortcuts: one dialog with two tabs. The manual is a page
// compiled into the application (resources/help/manual.html); the shortcut table is built from
// the window's menus when the dialog opens (shortcut_list.h), plus the keys presentation mode
// reads itself.
#pragma once

#include <QDialog>

class QMenuBar;
class QTabWidget;
class QTableWidget;
class QTextBrowser;

namespace qs::ui {

class HelpDialog : public QDialog {
    Q_OBJECT
public:
    HelpDialog(const QMenuBar* menuBar, QWidget* parent = nullptr);
    void showTab(int tab);  // 0 manual, 1 shortcuts
    QTextBrowser* manual() const { return manual_; }
    QTableWidget* shortcutTable() const { return shortcuts_; }
    void refreshShortcuts();  // the menus may have changed (recent files, lessons)

private:
    const QMenuBar* menuBar_;
    QTabWidget* tabs_;
    QTextBrowser* manual_;
    QTableWidget* shortcuts_;
};

}  // namespace qs::ui
