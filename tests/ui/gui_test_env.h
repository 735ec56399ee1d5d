// A quiet offscreen platform for the GUI tests (their settings: isolated_user_files.h).
#pragma once

#include <QString>
#include <QtGlobal>

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
