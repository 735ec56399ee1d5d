// quantscope-startup-bench: cold start of the explorer window. Launches `quantscope --fresh
// --startup-timing` N times, one after the other, and reports the median (and min/max) of
// what each run prints (app/gui/startup_timing.h): from the launch (the clock read just before
// the process is started) to the end of the main window's first paint, to the first result
// shown and to its first paint, and the process's CPU time by then. The baseline, measured
// in the same run: launching `quantscope --version` (the program, its libraries and Qt's
// start, nothing of the window) until it exits. A program that prints figures, never a test.
//
//   quantscope-startup-bench [--runs N]
//
// The window runs on the platform of the environment (QT_QPA_PLATFORM, DISPLAY; offscreen
// when neither is set). Settings and data folders are a temporary folder, so the user's
// recent files and last session are neither read nor written. QS_QUANTSCOPE names another
// binary (default: ../gui/quantscope beside this program in the build tree).
#include <algorithm>
#include <cstdio>
#include <ctime>
#include <map>
#include <string>
#include <vector>

#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>

#include "app/bench/bench_args.h"

namespace {

struct Options {
    int runs = 9;
};

void usage() {
    std::puts("usage: quantscope-startup-bench [--runs N]\n"
              "Launches `quantscope --fresh --startup-timing` N times (default 9) and prints, as JSON,\n"
              "the median time from launch to the window's first paint and to the first result on\n"
              "screen, with `quantscope --version` (launch to exit) as the baseline.");
}

qint64 monotonicNs() {
    timespec t{};
    clock_gettime(CLOCK_MONOTONIC, &t);
    return static_cast<qint64>(t.tv_sec) * 1'000'000'000 + t.tv_nsec;
}

struct Summary {
    double median = 0, min = 0, max = 0;
};

Summary summarize(std::vector<double> v) {
    if (v.empty()) return {};
    std::sort(v.begin(), v.end());
    return {v[v.size() / 2], v.front(), v.back()};
}

}  // namespace

int main(int argc, char* argv[]) {
    Options opt;
    if (!qs::bench::parseArgs(argc, argv, "quantscope-startup-bench", usage,
                              {{"--runs", [&](int64_t v) { opt.runs = static_cast<int>(v); }, 1000}}))
        return 2;
    QCoreApplication app(argc, argv);
    const QString binary = qEnvironmentVariableIsSet("QS_QUANTSCOPE")
                               ? qEnvironmentVariable("QS_QUANTSCOPE")
                               : QDir(QCoreApplication::applicationDirPath()).filePath(QStringLiteral("../gui/quantscope"));
    if (!QFileInfo(binary).isExecutable()) {
        std::fprintf(stderr, "quantscope-startup-bench: no program '%s' (set QS_QUANTSCOPE)\n", qPrintable(binary));
        return 1;
    }
    QTemporaryDir home;
    if (!home.isValid()) {
        std::fprintf(stderr, "quantscope-startup-bench: cannot create a temporary folder\n");
        return 1;
    }
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("XDG_CONFIG_HOME"), home.filePath(QStringLiteral("config")));
    env.insert(QStringLiteral("XDG_DATA_HOME"), home.filePath(QStringLiteral("data")));
    if (!env.contains(QStringLiteral("QT_QPA_PLATFORM")) && !env.contains(QStringLiteral("DISPLAY")))
        env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
    const QString platform = env.value(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("default"));

    // One launch: the process's stdout, and the wall time from start to exit (ms).
    auto launch = [&](const QStringList& args, QByteArray* out) -> double {
        QProcess p;
        QProcessEnvironment e = env;
        e.insert(QStringLiteral("QS_LAUNCH_MONOTONIC_NS"), QString::number(monotonicNs()));
        p.setProcessEnvironment(e);
        p.setProcessChannelMode(QProcess::SeparateChannels);
        QElapsedTimer t;
        t.start();
        p.start(binary, args);
        if (!p.waitForFinished(60000) || p.exitStatus() != QProcess::NormalExit || p.exitCode() != 0) {
            std::fprintf(stderr, "quantscope-startup-bench: %s %s failed: %s\n", qPrintable(binary),
                         qPrintable(args.join(QLatin1Char(' '))), p.readAllStandardError().constData());
            p.kill();
            p.waitForFinished();
            return -1;
        }
        const double ms = static_cast<double>(t.nsecsElapsed()) / 1e6;
        if (out) *out = p.readAllStandardOutput();
        return ms;
    };

    const char* keys[] = {"main_ms", "app_ms", "window_ms", "shown_ms", "first_paint_ms", "first_result_ms", "first_result_painted_ms",
                          "cpu_ms"};
    std::map<std::string, std::vector<double>> figures;
    std::vector<double> baseline, exits;
    for (int i = 0; i < opt.runs; ++i) {
        // Interleaved, so a burst of load on the machine hits both alike.
        const double version = launch({QStringLiteral("--version")}, nullptr);
        QByteArray out;
        const double total = launch({QStringLiteral("--fresh"), QStringLiteral("--startup-timing")}, &out);
        if (version < 0 || total < 0) return 1;
        const QJsonObject o = QJsonDocument::fromJson(out.trimmed()).object();
        if (o.value(QStringLiteral("origin")).toString() != QLatin1String("launch")) {
            std::fprintf(stderr, "quantscope-startup-bench: unexpected output: %s\n", out.constData());
            return 1;
        }
        for (const char* k : keys) figures[k].push_back(o.value(QLatin1String(k)).toDouble());
        baseline.push_back(version);
        exits.push_back(total);
    }

    std::string json = "{\"runs\": " + std::to_string(opt.runs) + ", \"platform\": \"" + platform.toStdString() + "\"";
    auto add = [&](const std::string& name, const Summary& s) {
        char buf[160];
        std::snprintf(buf, sizeof buf, ", \"%s\": %.1f, \"%s_min\": %.1f, \"%s_max\": %.1f", name.c_str(), s.median,
                      name.c_str(), s.min, name.c_str(), s.max);
        json += buf;
    };
    for (const char* k : keys) add(k, summarize(figures[k]));
    add("exit_ms", summarize(exits));
    add("baseline_version_ms", summarize(baseline));
    json += "}";
    std::printf("%s\n", json.c_str());
    const Summary paint = summarize(figures["first_paint_ms"]), result = summarize(figures["first_result_painted_ms"]);
    std::fprintf(stderr,
                 "quantscope-startup-bench: %d runs (%s): launch to first paint median %.0f ms (%.0f-%.0f), to "
                 "the first result on screen %.0f ms; `quantscope --version` %.0f ms\n",
                 opt.runs, qPrintable(platform), paint.median, paint.min, paint.max, result.median,
                 summarize(baseline).median);
    return 0;
}
