#include "app/gui/startup_timing.h"

#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <functional>
#include <utility>

#include <sys/resource.h>

#include <QCoreApplication>
#include <QEvent>
#include <QTabWidget>
#include <QTimer>

#include <qcustomplot.h>

#include "ui/main_window.h"
#include "ui/plot/plot_frame.h"

namespace qs::app {

namespace {

int64_t monotonicNs() {
    timespec t{};
    clock_gettime(CLOCK_MONOTONIC, &t);
    return static_cast<int64_t>(t.tv_sec) * 1'000'000'000 + t.tv_nsec;
}

double cpuMs() {
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    auto ms = [](const timeval& t) { return static_cast<double>(t.tv_sec) * 1e3 + static_cast<double>(t.tv_usec) / 1e3; };
    return ms(u.ru_utime) + ms(u.ru_stime);
}

// Calls `done` once, after the first paint event `widget` receives has been handled (the
// 0-timer runs when the paint, and the flush of the window it belongs to, are over).
class FirstPaint : public QObject {
public:
    FirstPaint(QWidget* widget, std::function<void()> done) : QObject(widget), done_(std::move(done)) {
        widget->installEventFilter(this);
    }

protected:
    bool eventFilter(QObject* watched, QEvent* event) override {
        if (event->type() == QEvent::Paint) {
            watched->removeEventFilter(this);
            QTimer::singleShot(0, this, [this] {
                done_();
                deleteLater();
            });
        }
        return false;
    }

private:
    std::function<void()> done_;
};

}  // namespace

StartupTiming::StartupTiming() {
    const QByteArray launch = qgetenv("QS_LAUNCH_MONOTONIC_NS");
    bool ok = false;
    const qlonglong origin = launch.toLongLong(&ok);
    fromLaunch_ = ok && origin > 0 && origin <= monotonicNs();
    originNs_ = fromLaunch_ ? origin : monotonicNs();
    mainMs_ = now();
}

double StartupTiming::now() const { return static_cast<double>(monotonicNs() - originNs_) / 1e6; }

void StartupTiming::watch(qs::ui::MainWindow* window) {
    new FirstPaint(window, [this] {
        firstPaintMs_ = now();
        finish();
    });
    QObject::connect(
        window, &qs::ui::MainWindow::resultShown, window,
        [this, window] {
            resultMs_ = now();
            QWidget* view = window->currentPlot() ? static_cast<QWidget*>(window->currentPlot()->plot())
                                                  : window->tabs()->currentWidget();
            new FirstPaint(view, [this] {
                resultPaintMs_ = now();
                finish();
            });
            view->update();
        },
        Qt::SingleShotConnection);
}

void StartupTiming::finish() {
    if (firstPaintMs_ < 0 || resultPaintMs_ < 0) return;
    std::printf("{\"origin\": \"%s\", \"main_ms\": %.2f, \"app_ms\": %.2f, \"window_ms\": %.2f, \"shown_ms\": %.2f, "
                "\"first_paint_ms\": %.2f, \"first_result_ms\": %.2f, \"first_result_painted_ms\": %.2f, "
                "\"cpu_ms\": %.1f}\n",
                fromLaunch_ ? "launch" : "main", mainMs_, appMs_, windowMs_, shownMs_, firstPaintMs_, resultMs_,
                resultPaintMs_, cpuMs());
    std::fflush(stdout);
    QCoreApplication::exit(0);
}

}  // namespace qs::app
