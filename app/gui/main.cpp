// quantscope: the desktop explorer. Beyond Qt's own options: a session to open, whether to
// restore the last session, a lesson to open, and --screenshot for the docs (waits for the
// first result and for the lesson check and framework comparison it starts).
#include <csignal>
#include <cstdio>
#include <cstring>
#include <memory>

#include <QApplication>
#include <QBuffer>
#include <QCommandLineParser>
#include <QDockWidget>
#include <QIcon>
#include <QPushButton>
#include <QTabWidget>
#include <QTimer>

#include "app/gui/heap_tuning.h"
#include "app/gui/startup_timing.h"
#include "qs_build_info.h"
#include "ui/embedding/embedding_model.h"
#include "ui/embedding/workbench_controller.h"
#include "ui/embedding/workbench_window.h"
#include "ui/analysis/analysis_tabs.h"
#include "ui/compute/data_service.h"
#include "ui/lessons/lesson_controller.h"
#include "ui/main_window.h"
#include "ui/modelfile/model_docks.h"
#include "ui/modelfile/model_file_controller.h"
#include "ui/modelfile/model_report_view.h"
#include "ui/modelfile/stored_quant_view.h"
#include "ui/modelfile/tensor_text.h"
#include "ui/presentation_mode.h"
#include "ui/model/explorer_model.h"
#include "ui/model/native_file.h"
#include "ui/views/framework_view.h"

namespace {
// --screenshot: the PNG is encoded in memory and written like every export (native_file.h).
bool saveScreenshot(const QPixmap& picture, const QString& path) {
    QByteArray png;
    QBuffer buffer(&png);
    return buffer.open(QIODevice::WriteOnly) && picture.save(&buffer, "PNG") &&
           qs::ui::writeFileBytes(path, png, nullptr);
}
}  // namespace

int main(int argc, char* argv[]) {
    // --version alone is answered before QApplication, which needs a display: it works over
    // ssh and in scripts. (With other arguments QCommandLineParser prints the same line.)
    if (argc == 2 && (std::strcmp(argv[1], "--version") == 0 || std::strcmp(argv[1], "-v") == 0)) {
        std::printf("QuantScope %s\n", QS_VERSION_TEXT);
        return 0;
    }
    qs::app::StartupTiming timing;  // first: its origin is main()'s entry (or the launcher's)
    qs::app::keepResultBuffersInHeap();
    // Past a file-size limit (ulimit -f) a write fails with EFBIG instead of killing the
    // window with every unsaved change: the save reports it and keeps the previous file.
    std::signal(SIGXFSZ, SIG_IGN);
    QApplication app(argc, argv);
    timing.markAppCreated();
    QApplication::setApplicationName(QStringLiteral("QuantScope"));
    QApplication::setOrganizationName(QStringLiteral("QuantScope"));
    QApplication::setApplicationVersion(QStringLiteral(QS_VERSION_TEXT));  // also in Help > About
    QApplication::setDesktopFileName(QStringLiteral("quantscope"));  // matches the .desktop
    QApplication::setWindowIcon(QIcon(QStringLiteral(":/icons/quantscope.svg")));

    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("Explore TensorFlow's quantization ops, computed bit for bit."));
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addPositionalArgument(QStringLiteral("file"),
                                 QStringLiteral("A .qscope session to open, or a model file (.onnx, .tflite, "
                                                ".safetensors, .h5, .keras, .npz, a checkpoint's .index or a "
                                                "SavedModel folder) to list in the Model dock (optional)."));
    const QCommandLineOption fresh(QStringLiteral("fresh"),
                                   QStringLiteral("Start with the defaults instead of "
                                                  "restoring the last session."));
    const QCommandLineOption tab(QStringLiteral("tab"),
                                 QStringLiteral("Show view <n> (0: transfer, 1: data histogram, "
                                                "2: error histogram, 3: per channel, 4: bit sweep, "
                                                "5: clipping sweep, 6: calibration, 7: compare, "
                                                "8: frameworks)."),
                                 QStringLiteral("n"));
    const QCommandLineOption screenshot(
        QStringLiteral("screenshot"),
        QStringLiteral("Show the window, save it as a PNG image to <file> once the first "
                       "result is drawn, and quit."),
        QStringLiteral("file"));
    const QCommandLineOption presentation(
        QStringLiteral("presentation"),
        QStringLiteral("Start in presentation mode (full screen, large text, thick lines)."));
    const QCommandLineOption workbench(
        QStringLiteral("workbench"),
        QStringLiteral("Open the TPU embedding workbench, with <config> (a workbench JSON file; "
                       "'-' for the example)."),
        QStringLiteral("config"));
    const QCommandLineOption workbenchTab(QStringLiteral("workbench-tab"),
                                          QStringLiteral("Show workbench view <n>."),
                                          QStringLiteral("n"));
    const QCommandLineOption lesson(QStringLiteral("lesson"),
                                    QStringLiteral("Open the guided lesson <id> (e.g. scaled-bound)."),
                                    QStringLiteral("id"));
    const QCommandLineOption tensor(QStringLiteral("tensor"),
                                    QStringLiteral("With a model file: explore its tensor <name>."),
                                    QStringLiteral("name"));
    const QCommandLineOption modelView(QStringLiteral("model-view"),
                                       QStringLiteral("With a model file: show the dock <view> (tensors, report or "
                                                      "stored) in front."),
                                       QStringLiteral("view"));
    // For quantscope-startup-bench: print the start-up times as JSON once the first result is
    // on screen, and quit (startup_timing.h).
    QCommandLineOption startupTiming(QStringLiteral("startup-timing"),
                                     QStringLiteral("Print the start-up times as JSON and quit."));
    startupTiming.setFlags(QCommandLineOption::HiddenFromHelp);
    parser.addOptions(
        {fresh, tab, screenshot, presentation, lesson, workbench, workbenchTab, tensor, modelView, startupTiming});
    parser.process(app);

    // The app owns both documents: the explorer's and the workbench's (the workbench window
    // opens on it when first shown).
    qs::ui::ExplorerModel model;
    qs::ui::EmbeddingModel workbenchModel;
    qs::ui::MainWindow window(&model);
    window.setWorkbenchModel(&workbenchModel);
    timing.markWindowConstructed();
    if (parser.isSet(startupTiming)) timing.watch(&window);
    const QStringList positional = parser.positionalArguments();
    const bool modelArgument = !positional.isEmpty() && qs::ui::isModelFilePath(positional.first()) &&
                               !positional.first().endsWith(QStringLiteral(".qscope"));
    if (modelArgument) {
        // A model opens on the last session's settings (or the defaults); its tensor, if
        // named, becomes the data.
        if (!parser.isSet(fresh) && !parser.isSet(screenshot)) window.restoreLastSession();
        qs::ui::ModelFileController* models = window.modelFiles();
        QObject::connect(models, &qs::ui::ModelFileController::openFailed, &window, [](const QString& message) {
            std::fprintf(stderr, "quantscope: %s\n", qPrintable(message));
        });
        if (parser.isSet(tensor))
            QObject::connect(
                models, &qs::ui::ModelFileController::opened, &window,
                [models, name = parser.value(tensor)] {
                    QString error;
                    if (!models->selectTensor(name, &error)) std::fprintf(stderr, "quantscope: %s\n", qPrintable(error));
                },
                Qt::SingleShotConnection);
        if (parser.isSet(modelView)) {
            const QString view = parser.value(modelView);
            qs::ui::ModelDocks* docks = window.modelDocks();
            QDockWidget* dock = view == QLatin1String("report")   ? docks->reportDockWidget()
                                : view == QLatin1String("stored") ? docks->storedDockWidget()
                                                                  : docks->modelDockWidget();
            QObject::connect(models, &qs::ui::ModelFileController::opened, dock, [dock] { dock->raise(); },
                             Qt::SingleShotConnection);
        }
        window.openModel(positional.first());
    } else if (!positional.isEmpty()) {
        QString error;
        if (!window.openSession(positional.first(), &error))
            std::fprintf(stderr, "quantscope: %s\n", qPrintable(error));
    } else if (!parser.isSet(fresh) && !parser.isSet(screenshot)) {
        window.restoreLastSession();
    }
    if (parser.isSet(lesson) && !window.lessons()->openLesson(parser.value(lesson)))
        std::fprintf(stderr, "quantscope: no lesson '%s'\n", qPrintable(parser.value(lesson)));
    if (parser.isSet(tab)) window.tabs()->setCurrentIndex(parser.value(tab).toInt());
    window.show();
    timing.markShown();
    if (parser.isSet(presentation)) window.presentationMode()->setOn(true);

    if (parser.isSet(workbench)) {
        qs::ui::WorkbenchWindow* w = window.showWorkbench();
        const QString config = parser.value(workbench);
        QString error;
        if (config != QLatin1String("-") && !w->openConfig(config, &error))
            std::fprintf(stderr, "quantscope: %s\n", qPrintable(error));
        if (parser.isSet(workbenchTab)) w->tabs()->setCurrentIndex(parser.value(workbenchTab).toInt());
        if (parser.isSet(screenshot)) {
            const QString path = parser.value(screenshot);
            // Wait for the feature (the last analysis) and, on the pipelining tab, run it.
            auto grab = [w, path] {
                QTimer::singleShot(600, w, [w, path] {
                    const bool ok = saveScreenshot(w->grab(), path);
                    std::fprintf(ok ? stdout : stderr, ok ? "quantscope: screenshot saved to %s\n"
                                                          : "quantscope: cannot write '%s'\n",
                                 qPrintable(path));
                    QCoreApplication::exit(ok ? 0 : 1);
                });
            };
            // Both analyses (table and feature) shown, then, on the pipelining tab, its run.
            auto pending = std::make_shared<int>(2);
            auto oneShown = [w, grab, pending] {
                if (--*pending != 0) return;
                if (w->tabs()->currentWidget()->findChild<QWidget*>(QStringLiteral("runPipelineDemo"))) {
                    QObject::connect(w->controller(), &qs::ui::WorkbenchController::pipelineDemoReady, w,
                                     [grab] { grab(); }, Qt::SingleShotConnection);
                    QTimer::singleShot(0, w->pipelineRunButton(), &QPushButton::click);
                } else {
                    grab();
                }
            };
            QObject::connect(w, &qs::ui::WorkbenchWindow::featureAnalysisShown, w, oneShown,
                             Qt::SingleShotConnection);
            QObject::connect(w, &qs::ui::WorkbenchWindow::tableAnalysisShown, w, oneShown,
                             Qt::SingleShotConnection);
        }
        return app.exec();
    }

    if (parser.isSet(screenshot)) {
        const QString path = parser.value(screenshot);
        auto grab = [&window, path] {
            const bool ok = saveScreenshot(window.grab(), path);
            std::fprintf(ok ? stdout : stderr, ok ? "quantscope: screenshot saved to %s\n"
                                                  : "quantscope: cannot write '%s'\n",
                         qPrintable(path));
            QCoreApplication::exit(ok ? 0 : 1);
        };
        // After the first result, wait until the lesson check and the framework comparison
        // it started are shown, then let the replot and layout settle and grab once (checked
        // every 20 ms, grabbed 50 ms after: every tab, a lesson, presentation mode and the
        // model docks come out pixel-identical to the former 100 + 400 ms).
        // An analysis tab runs after the explorer's result: wait for its own too.
        auto analysisPending = std::make_shared<bool>(window.analysisTabs()->visibleKind().has_value());
        QObject::connect(window.analysisTabs(), &qs::ui::AnalysisTabs::resultShown, &window,
                         [analysisPending] { *analysisPending = false; });
        auto* settle = new QTimer(&window);
        settle->setInterval(20);
        QObject::connect(settle, &QTimer::timeout, &window, [&window, settle, grab, analysisPending] {
            if (window.lessons()->checkBusy() || window.frameworkView()->busy() ||
                window.dataService()->loading() || window.modelFiles()->opening() ||
                window.modelDocks()->reportView()->service()->busy() || window.modelDocks()->storedView()->busy() ||
                *analysisPending)
                return;
            settle->stop();
            QTimer::singleShot(50, &window, grab);
        });
        QObject::connect(&window, &qs::ui::MainWindow::resultShown, settle,
                         qOverload<>(&QTimer::start), Qt::SingleShotConnection);
    }
    return app.exec();
}
