#include "app/cli/pictures/offscreen_app.h"

namespace qs::cli {

std::unique_ptr<QApplication> offscreenApplication(QtMessageHandler handler) {
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
    static int argc = 1;  // QApplication keeps references to both
    static char arg0[] = "quantscope-cli";
    static char* argv[] = {arg0, nullptr};
    qInstallMessageHandler(handler);
    return std::make_unique<QApplication>(argc, argv);
}

}  // namespace qs::cli
