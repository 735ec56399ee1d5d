// quantscope: the desktop explorer. Beyond Qt's own options: a session to open, whether to
// restore the last session, a lesson to open, and --screenshot for the docs (waits for the
// first result and for the lesson check and framework comparison it starts).
#include <csignal>
#include <cstdio>
#include <cstring>
#include <memory>

#include <QApplication>
#include <QBuffer>
#include <QDockWidget>
#include <QIcon>
#include <QPushButton>
#include <QTabWidget>
#include <QTimer>

#include "app/gui/command_line.h"
#include "app/gui/heap_tuning.h"
#include "app/gui/startup_timing.h"
#include "qs_build_info.h"
#include "session/explorer/data_service.h"
#include "session/explorer/explorer_model.h"
#include "session/files/native_file.h"
#include "session/modelfile/model_file_controller.h"
#include "session/modelfile/tensor_text.h"
#include "session/workbench/embedding_model.h"
#include "session/workbench/workbench_controller.h"
#include "ui/analysis/analysis_tabs.h"
#include "ui/embedding/workbench_window.h"
#include "ui/lessons/lesson_controller.h"
#include "ui/main_window.h"
#include "ui/modelfile/model_docks.h"
#include "ui/modelfile/model_report_view.h"
#include "ui/modelfile/stored_quant_view.h"
#include "ui/views/framework_view.h"
#include "ui/window/presentation_mode.h"

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
    // So is --help (QCommandLineParser prints it and exits).
    for (int i = 1; i < argc; ++i)
        if (std::strcmp(argv[i], "--help") == 0 || std::strcmp(argv[i], "-h") == 0 ||
            std::strcmp(argv[i], "--help-all") == 0) {
            QCoreApplication core(argc, argv);
            QCoreApplication::setApplicationName(QStringLiteral("quantscope"));
            QCoreApplication::setApplicationVersion(QStringLiteral(QS_VERSION_TEXT));
            qs::app::GuiCommandLine cl;
            cl.parser.process(core);
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

    qs::app::GuiCommandLine cl;
    cl.parser.process(app);

    // The app owns both documents: the explorer's and the workbench's (the workbench window
    // opens on it when first shown).
    qs::ui::ExplorerModel model;
    qs::ui::EmbeddingModel workbenchModel;
    qs::ui::MainWindow window(&model);
    window.setWorkbenchModel(&workbenchModel);
    timing.markWindowConstructed();
    if (cl.parser.isSet(cl.startupTiming)) timing.watch(&window);
    const QStringList positional = cl.parser.positionalArguments();
    const bool modelArgument = !positional.isEmpty() && qs::ui::isModelFilePath(positional.first()) &&
                               !positional.first().endsWith(QStringLiteral(".qscope"));
    if (modelArgument) {
        // A model opens on the last session's settings (or the defaults); its tensor, if
        // named, becomes the data.
        if (!cl.parser.isSet(cl.fresh) && !cl.parser.isSet(cl.screenshot)) window.restoreLastSession();
        qs::ui::ModelFileController* models = window.modelFiles();
        QObject::connect(models, &qs::ui::ModelFileController::openFailed, &window, [](const QString& message) {
            std::fprintf(stderr, "quantscope: %s\n", qPrintable(message));
        });
        if (cl.parser.isSet(cl.tensor))
            QObject::connect(
                models, &qs::ui::ModelFileController::opened, &window,
                [models, name = cl.parser.value(cl.tensor)] {
                    QString error;
                    if (!models->selectTensor(name, &error)) std::fprintf(stderr, "quantscope: %s\n", qPrintable(error));
                },
                Qt::SingleShotConnection);
        if (cl.parser.isSet(cl.modelView)) {
            const QString view = cl.parser.value(cl.modelView);
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
    } else if (!cl.parser.isSet(cl.fresh) && !cl.parser.isSet(cl.screenshot)) {
        window.restoreLastSession();
    }
    if (cl.parser.isSet(cl.lesson) && !window.lessons()->openLesson(cl.parser.value(cl.lesson)))
        std::fprintf(stderr, "quantscope: no lesson '%s'\n", qPrintable(cl.parser.value(cl.lesson)));
    if (cl.parser.isSet(cl.tab)) window.tabs()->setCurrentIndex(cl.parser.value(cl.tab).toInt());
    window.show();
    timing.markShown();
    // Started on nothing in particular (no file, session or lesson): the first time, say
    // where to begin.
    if (positional.isEmpty() && !cl.parser.isSet(cl.lesson) && !cl.parser.isSet(cl.screenshot) &&
        !cl.parser.isSet(cl.workbench) && !cl.parser.isSet(cl.presentation))
        window.showWelcomeIfFirstStart();
    if (cl.parser.isSet(cl.presentation)) window.presentationMode()->setOn(true);

    if (cl.parser.isSet(cl.workbench)) {
        qs::ui::WorkbenchWindow* w = window.showWorkbench();
        const QString config = cl.parser.value(cl.workbench);
        QString error;
        if (config != QLatin1String("-") && !w->openConfig(config, &error))
            std::fprintf(stderr, "quantscope: %s\n", qPrintable(error));
        if (cl.parser.isSet(cl.workbenchTab)) w->tabs()->setCurrentIndex(cl.parser.value(cl.workbenchTab).toInt());
        if (cl.parser.isSet(cl.screenshot)) {
            const QString path = cl.parser.value(cl.screenshot);
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

    if (cl.parser.isSet(cl.screenshot)) {
        const QString path = cl.parser.value(cl.screenshot);
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
        // model docks come out pixel-identical to a much longer fixed wait).
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
