// quantscope-gui-bench: how long the explorer window takes from a parameter edit to the
// replotted views. Builds the real qs::ui::MainWindow offscreen, loads N samples
// (normal:n=N,seed=1), waits for the first result, then makes K realistic edits through the
// model one at a time (range nudges, type, mode, narrow_range, op switches, num_bits for
// QuantizeAndDequantize ...) and times each from the setter call to MainWindow::resultShown
// for the result of that edit. resultShown is emitted after every view's setResult, which
// replots synchronously (QCustomPlot::replot draws into its paint buffers, visible or not).
// A program that prints figures, never a test.
//
//   quantscope-gui-bench [--samples N] [--changes K] [--channels C] [--tab T] [--trace]
//
// --channels C: the N samples (normal, seeded) as a [N/C, C] float32 .npy in a temporary
// folder, explored per channel (axis 1, each channel's range from its data): the per-channel view then draws C
// channels (its redraw cost must follow the plot's width, not C).
// --tab T: the view on screen during the edits (0 transfer curve, the default; 1 data
// histogram; 2 error histogram; 3 per channel): hidden views draw only when shown, so each
// tab's edit-to-screen time differs.
// --trace prints each edit (time, setter time, compute time, replots of the transfer plot).
//
// Prints {"samples", "channels", "tab", "changes", "median_ms", "p95_ms", "max_ms",
// "compute_median_ms", "ui_thread_cpu_median_ms", "failed", "unchanged", "first_result_ms",
// "setresult_median_ms": {view: ms}, "memcpy_ms", "read_pass_ms"} and one human line on
// stderr; the last two are the memory limit measured in the same run (a memcpy of the
// samples, one read pass over them, one thread).
// compute_median_ms is the worker's computeExplorer time (ComputeService's own figure);
// ui_thread_cpu_median_ms the UI thread's CPU time per edit (setter to painted), which the
// worker shares the cores with; setresult_median_ms times each view's setResult with the last result afterwards, each
// view's tab made current for its own timing (hidden views only draw when shown).
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include <QApplication>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTimer>

#include <qcustomplot.h>

#include "app/bench/bench_args.h"
#include "app/gui/heap_tuning.h"
#include "core/data/generator_spec.h"
#include "core/data/npy_writer.h"
#include "session/explorer/compute_service.h"
#include "session/explorer/data_service.h"
#include "session/explorer/explorer_model.h"
#include "ui/main_window.h"
#include "ui/views/channel_view.h"
#include "ui/views/error_histogram_view.h"
#include "ui/views/histogram_view.h"
#include "ui/views/stats_panel.h"
#include "ui/views/transfer_view.h"

namespace {

struct Options {
    long long samples = 1'000'000;
    int changes = 200;
    long long channels = 0;      // > 0: a [N/C, C] file on axis 1
    int tab = 0;                 // the view on screen while editing
    bool trace = false;          // one line per edit on stderr
};

void usage() {
    std::puts("usage: quantscope-gui-bench [--samples N] [--changes K] [--channels C] [--tab T] [--trace]\n"
              "Opens the explorer window offscreen on N normal samples (default 1000000), makes\n"
              "K parameter edits (default 200) one at a time and prints, as JSON, the time from\n"
              "each edit to the replotted views. --channels C: the samples as a [N/C, C] .npy\n"
              "explored per channel (axis 1). --tab T: the view shown while editing (0 transfer\n"
              "curve, 1 data histogram, 2 error histogram, 3 per channel). --trace: one line per\n"
              "edit on stderr.");
}

bool parse(int argc, char** argv, Options& o) {
    return qs::bench::parseArgs(argc, argv, "quantscope-gui-bench", usage,
                            {{"--samples", [&](int64_t v) { o.samples = v; }, 10'000'000},
                             {"--changes", [&](int64_t v) { o.changes = static_cast<int>(v); }, 100'000},
                             {"--channels", [&](int64_t v) { o.channels = v; }, 1'000'000},
                             {"--tab", [&](int64_t v) { o.tab = static_cast<int>(v); }, 3, 0}},
                            {{"--trace", [&] { o.trace = true; }}});
}

double percentile(std::vector<double> v, double p) {
    if (v.empty()) return 0;
    std::sort(v.begin(), v.end());
    const size_t i = std::min(v.size() - 1, static_cast<size_t>(p * (v.size() - 1) + 0.5));
    return v[i];
}

// CPU time of the calling (UI) thread: what an edit costs the UI thread, free of the
// wall-clock noise of a shared VM (the worker threads' time is not in it).
double uiThreadCpuMs() {
    timespec t{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return static_cast<double>(t.tv_sec) * 1e3 + static_cast<double>(t.tv_nsec) / 1e6;
}

std::string describe(const qs::QuantSpec& s) {
    char text[160];
    if (qs::usesMode(s.op))
        std::snprintf(text, sizeof text, "QuantizeV2 %s %s%s [%g, %g]",
                      std::string(qs::qtypeInfo(s.T).name).c_str(),
                      std::string(qs::modeName(s.mode)).c_str(), s.narrow_range ? " narrow" : "",
                      s.min_range, s.max_range);
    else
        std::snprintf(text, sizeof text, "%s %lld bit%s [%g, %g]",
                      std::string(qs::quantOpKey(s.op)).c_str(), static_cast<long long>(s.num_bits),
                      s.narrow_range ? " narrow" : "", s.min_range, s.max_range);
    return text;
}

// The edits, in a cycle that visits what a user touches: the range handles, the type, the
// mode, narrow_range, and QuantizeAndDequantizeV2 with its bit width. Every edit changes the
// spec and stays valid (no TF error), so each one produces exactly one result.
// Per channel (axis set) MIN_FIRST is not implemented by TF: the mode edit skips it there.
std::function<void()> edit(qs::ui::ExplorerModel& m, int i, bool perChannel) {
    using qs::QuantOp;
    static const qs::QType types[] = {qs::QType::QUInt8, qs::QType::QInt16, qs::QType::QInt8};
    static const qs::QuantizeMode modes[] = {qs::QuantizeMode::MinFirst,
                                             qs::QuantizeMode::Scaled,
                                             qs::QuantizeMode::MinCombined};
    const int round = i / 12;
    // Per channel the op stays QuantizeV2 (TF's QDQ V2 wants scalar ranges there).
    if (perChannel && (i % 12 == 7 || i % 12 == 11)) return [&m] { m.setNarrowRange(!m.narrowRange()); };
    switch (i % 12) {
        case 0: return [&m] { m.setMaxRange(m.maxRange() + 0.05f); };
        case 1: return [&m] { m.setMinRange(m.minRange() - 0.05f); };
        case 2: return [&m, round] { m.setType(types[round % 3]); };
        case 3: return [&m] { m.setMaxRange(m.maxRange() - 0.05f); };
        case 4: return [&m, round, perChannel] { m.setMode(perChannel ? modes[1 + round % 2] : modes[round % 3]); };
        case 5: return [&m] { m.setNarrowRange(!m.narrowRange()); };
        case 6: return [&m] { m.setMinRange(m.minRange() + 0.05f); };
        case 7: return [&m] { m.setOp(QuantOp::QuantizeAndDequantizeV2); };
        case 8: return [&m, round] { m.setNumBits(4 + round % 4); };  // 4..7 (was 8)
        case 9: return [&m, round] {  // a handle drag's end: both ends at once
            const float f = round % 2 == 0 ? 1.1f : 1.0f / 1.1f;
            m.setRange(m.minRange() * f, m.maxRange() * f);
        };
        case 10: return [&m] { m.setNumBits(8); };
        default: return [&m] { m.setOp(QuantOp::QuantizeV2); };
    }
}

// Qt's notes that say nothing about the measurement (the offscreen platform cannot
// propagate size hints; XDG_RUNTIME_DIR unset) are dropped, anything else is shown.
void qtMessage(QtMsgType type, const QMessageLogContext&, const QString& message) {
    if (type == QtDebugMsg || type == QtInfoMsg) return;
    if (message.contains(QLatin1String("propagateSizeHints")) ||
        message.contains(QLatin1String("XDG_RUNTIME_DIR")))
        return;
    std::fprintf(stderr, "quantscope-gui-bench: Qt: %s\n", qPrintable(message));
}

}  // namespace

int main(int argc, char* argv[]) {
    qs::app::keepResultBuffersInHeap();  // as the explorer does
    Options opt;
    if (!parse(argc, argv, opt)) return 2;
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
    qInstallMessageHandler(qtMessage);
    QApplication app(argc, argv);
    // Its own settings and data paths: the bench never touches the user's recent files or
    // last session (and never closes the window, which would autosave).
    QApplication::setApplicationName(QStringLiteral("quantscope-gui-bench"));
    QApplication::setOrganizationName(QStringLiteral("QuantScope"));

    qs::ui::ExplorerModel model;
    qs::ui::DataSource source;
    source.generator = QStringLiteral("normal:n=%1,seed=1").arg(opt.samples);
    qs::QuantSpec spec;
    spec.min_range = -3.0f;
    spec.max_range = 3.0f;
    QTemporaryDir folder;
    if (opt.channels > 0) {  // the same samples, as a [N/C, C] file on axis 1
        auto data = qs::data::generate(*qs::data::parseGeneratorSpec(source.generator.toStdString()));
        const int64_t rows = opt.samples / opt.channels;
        if (!data || rows < 1 || !folder.isValid()) {
            std::fprintf(stderr, "quantscope-gui-bench: cannot make the per-channel data\n");
            return 1;
        }
        const std::string path = folder.filePath(QStringLiteral("channels.npy")).toStdString();
        const std::span<const float> values(data->values.data(), static_cast<size_t>(rows * opt.channels));
        if (!qs::data::writeNpy(path, values, qs::Shape{rows, opt.channels})) {
            std::fprintf(stderr, "quantscope-gui-bench: cannot write %s\n", path.c_str());
            return 1;
        }
        source.path = QString::fromStdString(path);
        spec.axis = 1;
        spec.range_source = qs::RangeSource::FromData;  // QDQ per channel takes one range per slice
    }
    model.reset(spec, source, qs::ui::ViewState{});
    qs::ui::MainWindow window(&model);
    window.show();
    QWidget* const shownViews[] = {window.transferView(), window.histogramView(), window.errorHistogramView(),
                                   window.channelView()};
    window.tabs()->setCurrentWidget(shownViews[opt.tab]);

    // Waits until the views show a result for the model's current spec (or the op fails).
    bool failedNow = false;
    double lastComputeMs = 0;
    int resultsSeen = 0, shownSeen = 0;
    QObject::connect(window.computeService(), &qs::ui::ComputeService::failed, &window,
                     [&](const QString& kind, const QString& message, quint64) {
                         std::fprintf(stderr, "quantscope-gui-bench: edit failed: %s: %s\n",
                                      qPrintable(kind), qPrintable(message));
                         failedNow = true;
                     });
    QObject::connect(window.computeService(), &qs::ui::ComputeService::resultReady, &window,
                     [&](qs::ui::ExplorerResultPtr, quint64, double ms) {
                         lastComputeMs = ms;
                         ++resultsSeen;
                     });
    QObject::connect(&window, &qs::ui::MainWindow::resultShown, &window, [&] { ++shownSeen; });
    // Replots of the transfer view's plot (for --trace): a resize replots too.
    int transferReplots = 0;
    QObject::connect(window.transferView()->plot(), &QCustomPlot::afterReplot, &window,
                     [&] { ++transferReplots; });
    auto waitForCurrent = [&](int timeoutMs) {
        QEventLoop loop;
        bool done = false;
        auto check = [&] {
            const auto r = window.lastResult();
            if (failedNow || (r && r->spec == model.spec() && !window.resultIsStale())) {
                done = true;
                loop.quit();
            }
        };
        const auto c1 = QObject::connect(&window, &qs::ui::MainWindow::resultShown, &loop,
                                         [&](quint64) { check(); });
        const auto c2 = QObject::connect(window.computeService(), &qs::ui::ComputeService::failed,
                                         &loop, [&] { check(); });
        QTimer::singleShot(timeoutMs, &loop, &QEventLoop::quit);
        check();
        if (!done) loop.exec();
        QObject::disconnect(c1);
        QObject::disconnect(c2);
        return done;
    };

    QElapsedTimer total;
    total.start();
    if (!waitForCurrent(120000)) {
        std::fprintf(stderr, "quantscope-gui-bench: no first result after 120 s\n");
        return 1;
    }
    const double firstMs = static_cast<double>(total.nsecsElapsed()) / 1e6;
    app.processEvents();  // let the first paint happen

    std::vector<double> times, computes, uiCpu;
    int failed = 0, unchanged = 0;
    for (int i = 0; i < opt.changes; ++i) {
        failedNow = false;
        resultsSeen = shownSeen = transferReplots = 0;
        const auto change = edit(model, i, opt.channels > 0);
        const qs::QuantSpec before = model.spec();
        const double cpuBefore = uiThreadCpuMs();
        QElapsedTimer t;
        t.start();
        change();
        const double setterMs = static_cast<double>(t.nsecsElapsed()) / 1e6;
        if (model.spec() == before) {  // not an edit after all: nothing to time
            ++unchanged;
            continue;
        }
        const bool ok = waitForCurrent(60000);
        const double ms = static_cast<double>(t.nsecsElapsed()) / 1e6;
        if (!ok || failedNow) {
            ++failed;
            continue;
        }
        times.push_back(ms);
        computes.push_back(lastComputeMs);
        if (opt.trace)
            std::fprintf(stderr,
                         "edit %3d (kind %2d): %7.1f ms (setter %6.1f, compute %6.1f), %d result(s) "
                         "shown, %d transfer replots  %s\n",
                         i, i % 12, ms, setterMs, lastComputeMs, shownSeen, transferReplots,
                         describe(model.spec()).c_str());
        app.processEvents();  // the paint of the visible tab, outside the measurement
        uiCpu.push_back(uiThreadCpuMs() - cpuBefore);
    }

    // Where the time goes on the UI thread: each view's setResult with the last result.
    const auto last = window.lastResult();
    struct ViewTime {
        const char* name;
        QWidget* tab;  // shown while timed (null: a dock, always shown)
        std::function<void()> run;
    };
    const ViewTime views[] = {
        {"transfer", window.transferView(), [&] { window.transferView()->setResult(last); }},
        {"histogram", window.histogramView(), [&] { window.histogramView()->setResult(last); }},
        {"error_histogram", window.errorHistogramView(), [&] { window.errorHistogramView()->setResult(last); }},
        {"per_channel", window.channelView(), [&] { window.channelView()->setResult(last); }},
        {"stats", nullptr, [&] { window.statsPanel()->setResult(last); }},
    };
    std::string viewJson;
    double viewsSum = 0;
    for (const ViewTime& v : views) {
        if (v.tab) {  // on screen, as when the user looks at it (hidden views draw when shown)
            window.tabs()->setCurrentWidget(v.tab);
            app.processEvents();
        }
        std::vector<double> t;
        for (int r = 0; r < 15; ++r) {
            QElapsedTimer e;
            e.start();
            v.run();
            t.push_back(static_cast<double>(e.nsecsElapsed()) / 1e6);
        }
        const double med = percentile(t, 0.5);
        viewsSum += med;
        char buf[96];
        std::snprintf(buf, sizeof buf, "%s\"%s\": %.3f", viewJson.empty() ? "" : ", ", v.name, med);
        viewJson += buf;
    }

    // The memory limit in the same run: a memcpy of the samples and one read pass over them
    // (the least any recomputation must do), each the best of 20.
    const auto data = window.dataService()->dataset();
    const std::span<const float> values = data ? data->ref().data : std::span<const float>{};
    std::vector<float> copy(values.size());
    double memcpyMs = 1e300, readMs = 1e300;
    volatile float sink = 0;
    for (int r = 0; r < 20; ++r) {
        QElapsedTimer e;
        e.start();
        std::memcpy(copy.data(), values.data(), values.size_bytes());
        memcpyMs = std::min(memcpyMs, static_cast<double>(e.nsecsElapsed()) / 1e6);
        e.restart();
        float m = 0;
        for (float v : values) m = v > m ? v : m;
        sink = m;
        readMs = std::min(readMs, static_cast<double>(e.nsecsElapsed()) / 1e6);
    }
    (void)sink;

    const double median = percentile(times, 0.5), p95 = percentile(times, 0.95),
                 mx = times.empty() ? 0 : *std::max_element(times.begin(), times.end()),
                 computeMedian = percentile(computes, 0.5), uiCpuMedian = percentile(uiCpu, 0.5);
    std::printf("{\"samples\": %lld, \"channels\": %lld, \"tab\": %d, \"changes\": %d, \"median_ms\": %.3f, \"p95_ms\": %.3f, "
                "\"max_ms\": %.3f, \"compute_median_ms\": %.3f, \"ui_thread_cpu_median_ms\": %.3f, \"failed\": %d, "
                "\"unchanged\": %d, \"first_result_ms\": %.1f, \"setresult_median_ms\": {%s}, "
                "\"memcpy_ms\": %.3f, \"read_pass_ms\": %.3f}\n",
                opt.samples, opt.channels, opt.tab, opt.changes, median, p95, mx, computeMedian, uiCpuMedian, failed,
                unchanged, firstMs, viewJson.c_str(), memcpyMs, readMs);
    std::fprintf(stderr,
                 "quantscope-gui-bench: %lld samples, %d edits: change-to-replot median %.1f ms, "
                 "p95 %.1f ms, max %.1f ms (compute median %.1f ms; UI thread CPU %.1f ms per edit; views' setResult %.1f ms; "
                 "memcpy of the samples %.2f ms, one read pass %.2f ms)\n",
                 opt.samples, static_cast<int>(times.size()), median, p95, mx, computeMedian,
                 uiCpuMedian, viewsSum, memcpyMs, readMs);
    std::fflush(stdout);
    return failed == 0 && unchanged == 0 ? 0 : 1;
}
