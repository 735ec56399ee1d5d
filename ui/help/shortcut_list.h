// The keyboard shortcuts of a window, read from its menus' QActions (so the list is always the
// one the window actually answers to), for Help > Keyboard shortcuts.
#pragma once

#include <QList>
#include <QString>

class QMenuBar;

namespace qs::ui {

struct ShortcutRow {
    QString menu;    // "View", "File › Open recent"
    QString action;  // "Dark theme" (the menu's & removed)
    QString keys;    // "Ctrl+Shift+T" in the platform's words; several joined with ", "
};

// Every action with a shortcut, in menu order (submenus included, each action once).
QList<ShortcutRow> shortcutRows(const QMenuBar* menuBar);

}  // namespace qs::ui
