// Keeps a GUI test program away from the user's files and from the other test programs:
// QStandardPaths in test mode (~/.qttest/…, under the program's own name, so programs running
// at the same time do not share an autosave) and QSettings in `settingsDir`.
#pragma once

#include <QApplication>
#include <QFileInfo>
#include <QSettings>
#include <QStandardPaths>

inline void isolateUserFiles(const QString& settingsDir) {
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("QuantScopeTests"));
    QCoreApplication::setApplicationName(QFileInfo(QCoreApplication::applicationFilePath()).completeBaseName());
    QSettings::setDefaultFormat(QSettings::IniFormat);
    QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, settingsDir);
    QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, settingsDir);
    QApplication::setQuitOnLastWindowClosed(false);
}
