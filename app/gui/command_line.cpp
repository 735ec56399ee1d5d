#include "app/gui/command_line.h"

namespace qs::app {

GuiCommandLine::GuiCommandLine() {
    parser.setApplicationDescription(QStringLiteral("Explore TensorFlow's quantization ops, computed bit for bit."));
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addPositionalArgument(QStringLiteral("file"),
                                 QStringLiteral("A .qscope session to open, or a model file (.onnx, .tflite, "
                                                ".safetensors, .h5, .keras, .npz, a checkpoint's .index or a "
                                                "SavedModel folder) to list in the Model dock (optional)."));
    QCommandLineOption hiddenTiming = startupTiming;
    hiddenTiming.setFlags(QCommandLineOption::HiddenFromHelp);
    parser.addOptions({fresh, tab, screenshot, presentation, lesson, workbench, workbenchTab, tensor, modelView,
                       hiddenTiming});
}

}  // namespace qs::app
