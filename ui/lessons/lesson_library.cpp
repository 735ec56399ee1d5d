#include "ui/lessons/lesson_library.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QStandardPaths>
#include <algorithm>

namespace qs::ui {

QString builtInLessonDir() { return QStringLiteral(":/lessons"); }

QString userLessonDir() {
    return QDir(QStandardPaths::writableLocation(QStandardPaths::AppDataLocation))
        .filePath(QStringLiteral("lessons"));
}

QString fileOnDisk(const QString& path, QString* error) {
    if (!path.startsWith(QLatin1Char(':'))) return path;
    const QString resource = QDir::cleanPath(path);  // ":/lessons/../data/x" -> ":/data/x"
    QFile source(resource);
    if (!source.exists()) {
        if (error) *error = QStringLiteral("%1: no such built-in file").arg(resource);
        return {};
    }
    const QString target = QDir(QStandardPaths::writableLocation(QStandardPaths::CacheLocation))
                               .filePath(QStringLiteral("resources") + resource.mid(1));
    if (QFileInfo(target).size() == source.size()) return target;
    QDir().mkpath(QFileInfo(target).path());
    QFile::remove(target);
    if (!source.copy(target)) {
        if (error) *error = QStringLiteral("%1: cannot copy to %2 (%3)").arg(resource, target, source.errorString());
        return {};
    }
    // Resources are read-only and QFile::copy keeps the permissions; the next copy must be
    // able to replace this one.
    QFile::setPermissions(target, QFile::permissions(target) | QFileDevice::WriteOwner);
    return target;
}

QList<Lesson> loadLessonLibrary(QStringList* errors, const QString& builtInDir, const QString& userDir) {
    QList<Lesson> lessons = loadLessons(builtInDir, errors);
    if (!userDir.isEmpty() && QFileInfo(userDir).isDir()) {
        for (const Lesson& own : loadLessons(userDir, errors)) {
            auto same = std::find_if(lessons.begin(), lessons.end(),
                                     [&](const Lesson& l) { return l.id == own.id; });
            if (same != lessons.end()) *same = own;
            else lessons << own;
        }
    }
    for (auto it = lessons.begin(); it != lessons.end();) {
        QString error;
        if (it->data.isFile()) it->data.path = fileOnDisk(it->data.path, &error);
        if (error.isEmpty() && !it->check.stored_model.empty())
            it->check.stored_model = fileOnDisk(QString::fromStdString(it->check.stored_model), &error).toStdString();
        if (!error.isEmpty()) {
            if (errors) errors->append(QStringLiteral("%1: %2").arg(QFileInfo(it->path).fileName(), error));
            it = lessons.erase(it);
        } else {
            ++it;
        }
    }
    std::stable_sort(lessons.begin(), lessons.end(), [](const Lesson& a, const Lesson& b) {
        return a.order != b.order ? a.order < b.order : a.id < b.id;
    });
    return lessons;
}

}  // namespace qs::ui
