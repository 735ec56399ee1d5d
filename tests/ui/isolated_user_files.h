// Keeps a GUI test program away from the user's files and from the other test programs:
// QStandardPaths in test mode (~/.qttest/…, under the program's own name, so programs running
// at the same time do not share an autosave) and QSettings in `settingsDir`. False when that
// folder could not be made.
#pragma once

#include <QApplication>
#include <QFileInfo>
#include <QSettings>
#include <QStandardPaths>
#include <QTemporaryDir>

[[nodiscard]] inline bool isolateUserFiles(const QTemporaryDir& settingsDir) {
    if (!settingsDir.isValid()) return false;
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("QuantScopeTests"));
    QCoreApplication::setApplicationName(QFileInfo(QCoreApplication::applicationFilePath()).completeBaseName());
    QSettings::setDefaultFormat(QSettings::IniFormat);
    QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, settingsDir.path());
    QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, settingsDir.path());
    QApplication::setQuitOnLastWindowClosed(false);
    return true;
}
