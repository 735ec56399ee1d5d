#include "ui/recent_files.h"

#include <QAction>
#include <QFileInfo>
#include <QMenu>
#include <QSettings>
#include <QStringList>

namespace qs::ui {

namespace {
constexpr int kMaxRecent = 8;
}  // namespace

void rememberRecent(const char* key, const QString& path) {
    QSettings settings;
    QStringList recent = settings.value(key).toStringList();
    const QString abs = QFileInfo(path).absoluteFilePath();
    recent.removeAll(abs);
    recent.prepend(abs);
    while (recent.size() > kMaxRecent) recent.removeLast();
    settings.setValue(key, recent);
}

void fillRecentMenu(QMenu* menu, const char* key, QObject* context, const std::function<void(const QString&)>& open) {
    menu->clear();
    const QStringList recent = QSettings().value(key).toStringList();
    for (const QString& path : recent)
        menu->addAction(QFileInfo(path).fileName(), context, [open, path] { open(path); })->setToolTip(path);
    menu->setEnabled(!recent.isEmpty());
}

}  // namespace qs::ui
