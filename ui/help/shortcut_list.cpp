#include "ui/help/shortcut_list.h"

#include <QAction>
#include <QKeySequence>
#include <QMenu>
#include <QMenuBar>
#include <QRegularExpression>
#include <QSet>

namespace qs::ui {

namespace {

QString plain(QString text) {
    text.remove(QRegularExpression(QStringLiteral("&(?!&)")));
    text.replace(QStringLiteral("&&"), QStringLiteral("&"));
    return text.remove(QChar(0x2026)).trimmed();  // "Open model…" reads as "Open model"
}

void collect(const QMenu* menu, const QString& path, QSet<const QAction*>& seen, QList<ShortcutRow>& rows) {
    for (QAction* a : menu->actions()) {
        if (a->isSeparator() || seen.contains(a)) continue;
        seen.insert(a);
        if (QMenu* sub = a->menu()) {
            collect(sub, path + QStringLiteral(" › ") + plain(sub->title()), seen, rows);
            continue;
        }
        QStringList keys;
        for (const QKeySequence& k : a->shortcuts())
            if (!k.isEmpty()) keys << k.toString(QKeySequence::NativeText);
        if (!keys.isEmpty()) rows.append({path, plain(a->text()), keys.join(QStringLiteral(", "))});
    }
}

}  // namespace

QList<ShortcutRow> shortcutRows(const QMenuBar* menuBar) {
    QList<ShortcutRow> rows;
    QSet<const QAction*> seen;
    for (QAction* top : menuBar->actions())
        if (QMenu* menu = top->menu()) collect(menu, plain(menu->title()), seen, rows);
    return rows;
}

}  // namespace qs::ui
