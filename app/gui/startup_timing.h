// --startup-timing (hidden): how long the explorer takes to come up, for
// quantscope-startup-bench. Prints one JSON line on stdout and quits once the first result is
// on screen:
//   {"origin": "launch"|"main", "main_ms", "app_ms", "window_ms", "shown_ms", "first_paint_ms",
//    "first_result_ms", "first_result_painted_ms", "cpu_ms"}
// Times are milliseconds of CLOCK_MONOTONIC from the origin: the launcher's clock reading
// in QS_LAUNCH_MONOTONIC_NS (so dynamic loading and Qt's start count), else main()'s entry.
// app: QApplication constructed; window: the main window constructed; shown: show() returned;
// first_paint is the end of the main window's first paint; first_result_painted the end of
// the first paint of the view on show after its first result. cpu_ms: user + system time of
// the process up to then.
#pragma once

#include <cstdint>

class QWidget;

namespace qs::ui {
class MainWindow;
}

namespace qs::app {

class StartupTiming {
public:
    // Call first thing in main(): reads the origin.
    StartupTiming();
    // Now, in ms since the origin.
    double now() const;
    void markAppCreated() { appMs_ = now(); }
    void markWindowConstructed() { windowMs_ = now(); }
    void markShown() { shownMs_ = now(); }
    // Watches `window` for its first paint and first result; prints and quits after both.
    void watch(qs::ui::MainWindow* window);

private:
    void finish();

    int64_t originNs_ = 0;
    bool fromLaunch_ = false;
    double mainMs_ = 0, appMs_ = 0, windowMs_ = 0, shownMs_ = 0, firstPaintMs_ = -1, resultMs_ = -1, resultPaintMs_ = -1;
};

}  // namespace qs::app
