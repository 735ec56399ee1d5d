// Where the lessons come from: the built-in ones, compiled into the application as Qt
// resources (:/lessons, from resources/lessons), and the user's own folder
// (QStandardPaths::AppDataLocation + "/lessons"), so lessons can be added without code. A
// user lesson with the id of a built-in one replaces it.
//
// The core's file readers cannot open ":/" paths, so a lesson whose data file lives in the
// resources (":/lessons/../data/weights_8ch.npy") gets a copy of it in the cache folder.
#pragma once

#include <QList>
#include <QString>
#include <QStringList>

#include "session/lessons/lesson_file.h"

namespace qs::ui {

QString builtInLessonDir();  // ":/lessons"
QString userLessonDir();     // <AppDataLocation>/lessons (may not exist)

// Both folders' lessons, sorted by order then id. Failing files are skipped, their messages
// appended to `errors`.
QList<Lesson> loadLessonLibrary(QStringList* errors, const QString& builtInDir = builtInLessonDir(),
                                const QString& userDir = userLessonDir());

// `path` itself unless it names a Qt resource; then a copy of it under
// <CacheLocation>/resources/… (rewritten when the size differs). Empty with `error` set
// when the resource is missing or the copy fails.
QString fileOnDisk(const QString& path, QString* error);

}  // namespace qs::ui
