// quantscope's command line: its options and their help, apart from main() so that --help
// can be answered by a QCoreApplication (no display needed) before the window's QApplication.
#pragma once

#include <QCommandLineOption>
#include <QCommandLineParser>

namespace qs::app {

struct GuiCommandLine {
    GuiCommandLine();  // the parser, with every option below, help and version

    QCommandLineParser parser;
    const QCommandLineOption fresh{QStringLiteral("fresh"),
                                   QStringLiteral("Start with the defaults instead of restoring the last session.")};
    const QCommandLineOption tab{QStringLiteral("tab"),
                                 QStringLiteral("Show view <n> (0: transfer, 1: data histogram, 2: error histogram, "
                                                "3: per channel, 4: bit sweep, 5: clipping sweep, 6: calibration, "
                                                "7: compare, 8: frameworks)."),
                                 QStringLiteral("n")};
    const QCommandLineOption screenshot{QStringLiteral("screenshot"),
                                        QStringLiteral("Show the window, save it as a PNG image to <file> once the "
                                                       "first result is drawn, and quit."),
                                        QStringLiteral("file")};
    const QCommandLineOption presentation{
        QStringLiteral("presentation"),
        QStringLiteral("Start in presentation mode (full screen, large text, thick lines).")};
    const QCommandLineOption workbench{QStringLiteral("workbench"),
                                       QStringLiteral("Open the TPU embedding workbench, with <config> (a workbench "
                                                      "JSON file; '-' for the example)."),
                                       QStringLiteral("config")};
    const QCommandLineOption workbenchTab{QStringLiteral("workbench-tab"), QStringLiteral("Show workbench view <n>."),
                                          QStringLiteral("n")};
    const QCommandLineOption lesson{QStringLiteral("lesson"),
                                    QStringLiteral("Open the guided lesson <id> (e.g. scaled-bound)."),
                                    QStringLiteral("id")};
    const QCommandLineOption tensor{QStringLiteral("tensor"),
                                    QStringLiteral("With a model file: explore its tensor <name>."),
                                    QStringLiteral("name")};
    const QCommandLineOption modelView{QStringLiteral("model-view"),
                                       QStringLiteral("With a model file: show the dock <view> (tensors, report or "
                                                      "stored) in front."),
                                       QStringLiteral("view")};
    // For quantscope-startup-bench: print the start-up times as JSON once the first result is
    // on screen, and quit (startup_timing.h). Hidden from --help.
    const QCommandLineOption startupTiming{QStringLiteral("startup-timing"),
                                           QStringLiteral("Print the start-up times as JSON and quit.")};
};

}  // namespace qs::app
