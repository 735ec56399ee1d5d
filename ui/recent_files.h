// The recent-files lists of the File menu (sessions, models), kept in QSettings.
#pragma once

#include <QString>
#include <functional>

class QMenu;
class QObject;

namespace qs::ui {

// Puts `path` (made absolute) first in the list under `key`, at most 8 entries.
void rememberRecent(const char* key, const QString& path);
// The list under `key` as menu entries (file name, the path as tooltip) that call `open`.
void fillRecentMenu(QMenu* menu, const char* key, QObject* context, const std::function<void(const QString&)>& open);

}  // namespace qs::ui
