// What the GUI tests set up around their widgets: settings kept in a temporary folder (never
// the user's), the C locale, and a quiet offscreen platform.
#pragma once

#include <QApplication>
#include <QCoreApplication>
#include <QLocale>
#include <QSettings>
#include <QStandardPaths>
#include <QString>

// Test mode paths, INI settings under `settingsDir`, windows that may all close, C locale.
inline void useTestSettings(const QString& applicationName, const QString& settingsDir) {
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("QuantScopeTests"));
    QCoreApplication::setApplicationName(applicationName);
    QSettings::setDefaultFormat(QSettings::IniFormat);
    QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, settingsDir);
    QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, settingsDir);
    QApplication::setQuitOnLastWindowClosed(false);
    QLocale::setDefault(QLocale::c());
}

// The offscreen platform warns on every top-level resize; while installed, exactly that
// message is dropped.
class SizeHintWarningFilter {
public:
    void install() { previous() = qInstallMessageHandler(&filter); }
    void uninstall() { qInstallMessageHandler(previous()); }

private:
    static QtMessageHandler& previous() {
        static QtMessageHandler handler = nullptr;
        return handler;
    }
    static void filter(QtMsgType type, const QMessageLogContext& context, const QString& message) {
        if (message == QLatin1String("This plugin does not support propagateSizeHints()")) return;
        previous()(type, context, message);
    }
};
