#include "app/gui/command_line.h"

#include "core/modelfile/model_formats.h"

namespace qs::app {

GuiCommandLine::GuiCommandLine() {
    parser.setApplicationDescription(QStringLiteral("Explore TensorFlow's quantization ops, computed bit for bit."));
    parser.addHelpOption();
    parser.addVersionOption();
    // The model files as the table of formats lists them: .onnx, …, .index, or a SavedModel folder.
    parser.addPositionalArgument(QStringLiteral("file"),
                                 QStringLiteral("A .qscope session to open, or a model file (%1) to list in the "
                                                "Model dock (optional).")
                                     .arg(QString::fromStdString(qs::modelfile::modelSuffixList())));
    QCommandLineOption hiddenTiming = startupTiming;
    hiddenTiming.setFlags(QCommandLineOption::HiddenFromHelp);
    parser.addOptions({fresh, tab, screenshot, presentation, lesson, workbench, workbenchTab, tensor, modelView,
                       hiddenTiming});
}

}  // namespace qs::app
