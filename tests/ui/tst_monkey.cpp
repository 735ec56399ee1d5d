// Over 500 lines on purpose: one action list and one set of checks after every action; splitting
// them apart would hide which checks run after which action.
// A GUI monkey: the explorer (MainWindow) and the TPU embedding workbench driven by a long
// seeded sequence of random user actions — typing into every spin box and line edit,
// every combo box and button, drags / wheel / double-clicks on every plot (the range
// handles included), undo/redo, tab and window switches, good and broken data files,
// sessions and configurations, exports, presentation mode — with one set of checks after
// every action (checkAfterAction): the event loop answers, the models hold valid values and
// the widgets show them, a session / configuration saved now reads back the same; and,
// every kSettleEvery actions, once the background work is done, the views show what the
// model asks for.
//
// Controls are found generically (findChildren of QAbstractSpinBox, QComboBox, QLineEdit,
// QAbstractButton, QTabBar, QListWidget, QCustomPlot), so new controls are covered without
// changing this file. Only buttons and menu entries that open file dialogs are left out
// (their code paths — openSession, saveSessionAs, exportImage, openConfig, ... — are
// actions), and the lessons, whose presets load a million samples.
//
// Reproducible: QS_MONKEY_SEED (default kDefaultSeed) and QS_MONKEY_ACTIONS (default
// kDefaultActions) choose the run; the action kinds and every random number an action draws
// depend only on (seed, action number), so the same seed and count replay the same
// sequence. What an action hits can still depend on how far the background work got;
// QS_MONKEY_SETTLE=1 waits for it after every action, so a replay also meets the same
// application state (slower). A failure
// prints the seed and the actions so far, one line each; a hang (no progress for
// QS_MONKEY_HANG_S seconds, default 60) is reported the same way by a watchdog thread, a
// crash by a signal handler. QS_MONKEY_VERBOSE=1 prints every action as it is done;
// QS_MONKEY_KEEP_GOING=1 reports each problem and goes on (to collect several in one run).
#include <QtTest>

#include <QAbstractSpinBox>
#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QContextMenuEvent>
#include <QDialog>
#include <QDockWidget>
#include <QFileDialog>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QPushButton>
#include <QSettings>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTabBar>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QThread>
#include <QTimer>
#include <QUndoStack>
#include <QWheelEvent>
#include <atomic>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <functional>
#include <memory>
#include <mutex>
#include <qcustomplot.h>
#include <thread>
#include <unistd.h>

#include "core/analysis/explorer.h"
#include "core/data/generator_spec.h"
#include "session/explorer/analysis_service.h"
#include "session/explorer/compute_service.h"
#include "session/explorer/data_service.h"
#include "session/explorer/explorer_model.h"
#include "session/explorer/session.h"
#include "session/modelfile/model_file_controller.h"
#include "session/workbench/embedding_document.h"
#include "session/workbench/embedding_model.h"
#include "session/workbench/embedding_validation.h"
#include "session/workbench/workbench_controller.h"
#include "session/workbench/workbench_inputs.h"
#include "session/workbench/workbench_service.h"
#include "ui/analysis/analysis_tabs.h"
#include "ui/analysis/bit_sweep_view.h"
#include "ui/analysis/calibration_panel.h"
#include "ui/analysis/clip_sweep_view.h"
#include "ui/embedding/views/occupancy_view.h"
#include "ui/embedding/workbench_window.h"
#include "ui/main_window.h"
#include "ui/panels/parameter_panel.h"
#include "ui/plot/plot_frame.h"
#include "ui/plot/range_handles.h"
#include "ui/views/channel_view.h"
#include "ui/views/error_histogram_view.h"
#include "ui/views/histogram_view.h"
#include "ui/views/stats_panel.h"
#include "ui/views/transfer_view.h"
#include "ui/window/presentation_mode.h"

using namespace qs::ui;

namespace {

constexpr quint64 kDefaultSeed = 20261124;
constexpr int kDefaultActions = 10000;
constexpr int kSettleEvery = 40;          // settled checks every this many actions
constexpr int kResponsiveMs = 5000;       // a posted event must be handled within this
constexpr int kSettleTimeoutMs = 60000;   // background work must end within this
const QString kSmallData = QStringLiteral("normal:n=20000,seed=1");

quint64 envNumber(const char* name, quint64 fallback) {
    bool ok = false;
    const quint64 v = qEnvironmentVariable(name).toULongLong(&ok);
    return ok ? v : fallback;
}

// splitmix64: the random numbers of one action depend only on (seed, action number).
class Rng {
public:
    explicit Rng(quint64 seed) : state_(seed) {}
    quint64 next() {
        quint64 z = (state_ += 0x9E3779B97F4A7C15ull);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        return z ^ (z >> 31);
    }
    int below(int n) { return n <= 0 ? 0 : static_cast<int>(next() % static_cast<quint64>(n)); }
    bool chance(int percent) { return below(100) < percent; }
    double unit() { return static_cast<double>(next() >> 11) * 0x1p-53; }
    template <typename T>
    const T& pick(const QList<T>& list) { return list[below(static_cast<int>(list.size()))]; }

private:
    quint64 state_;
};

// Prints the seed and the action log when the process is about to die: lastWords for a
// Qt fatal message; for a crash signal, crashText (kept up to date after every action) is
// written with write(2), since the heap may be what broke (no allocation in the handler).
std::function<void(const char*)> lastWords;
std::string crashText;
char crashAction[128] = "";  // the action running (its number and kind)

extern "C" void onCrashSignal(int sig) {
    static const char head[] = "MONKEY CRASH (fatal signal). ";
    [[maybe_unused]] auto a = ::write(2, head, sizeof head - 1);
    [[maybe_unused]] auto b = ::write(2, crashText.data(), crashText.size());
    [[maybe_unused]] auto c = ::write(2, crashAction, strnlen(crashAction, sizeof crashAction));
    std::signal(sig, SIG_DFL);
    std::raise(sig);
}

// Warnings are failures (the application must run warning-free), except what the
// offscreen platform says about window-manager features it lacks.
std::mutex warningsMutex;
QStringList warnings;
QtMessageHandler previousHandler = nullptr;
void messageFilter(QtMsgType type, const QMessageLogContext& context, const QString& message) {
    for (const char* noise : {"This plugin does not support propagateSizeHints()",
                              "This plugin does not support raise()",
                              "This plugin does not support grabbing the keyboard",
                              "This plugin does not support setParent!"})
        if (message == QLatin1String(noise)) return;
    if (type == QtFatalMsg && lastWords) lastWords(qPrintable(message));
    if (type == QtWarningMsg || type == QtCriticalMsg || type == QtFatalMsg) {
        std::lock_guard lock(warningsMutex);
        warnings << message;
    }
    previousHandler(type, context, message);
}

bool writeBytes(const QString& path, const QByteArray& bytes) {
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(bytes) == bytes.size();
}

// A .npy file: header with `descr` and `shape` as given, then `payload` as is (it may
// disagree with the header: that is the point of some files).
QByteArray npyBytes(const char* descr, const QString& shape, const QByteArray& payload, bool fortran = false) {
    QByteArray header = QStringLiteral("{'descr': '%1', 'fortran_order': %2, 'shape': (%3), }")
                            .arg(QLatin1String(descr), fortran ? QStringLiteral("True") : QStringLiteral("False"), shape)
                            .toLatin1();
    while ((10 + header.size() + 1) % 64 != 0) header += ' ';
    header += '\n';
    QByteArray out("\x93NUMPY\x01\x00", 8);
    out += static_cast<char>(header.size() & 0xff);
    out += static_cast<char>(header.size() >> 8);
    return out + header + payload;
}

QByteArray floats(int n, double scale) {
    QByteArray b(n * 4, Qt::Uninitialized);
    for (int i = 0; i < n; ++i) {
        const float v = static_cast<float>(std::sin(0.7 * i) * scale * (1 + i % 5));
        memcpy(b.data() + 4 * i, &v, 4);
    }
    return b;
}

QString describe(const QObject* o) {
    if (!o) return QStringLiteral("null");
    if (!o->objectName().isEmpty()) return o->objectName();
    const QObject* p = o->parent();
    while (p && p->objectName().isEmpty()) p = p->parent();
    QString text;
    if (auto* b = qobject_cast<const QAbstractButton*>(o)) text = QLatin1Char('\'') + b->text() + QLatin1Char('\'');
    return QString::fromLatin1(o->metaObject()->className()) + text +
           (p ? QStringLiteral(" in ") + p->objectName() : QString());
}

// Types text as key events: QTest::keyClicks for ASCII, a key event carrying the character
// for anything else (keyClicks accepts ASCII only).
void typeText(QWidget* w, const QString& text) {
    for (const QChar c : text) {
        if (c.unicode() < 128) {
            QTest::keyClick(w, c.toLatin1());
            continue;
        }
        QKeyEvent press(QEvent::KeyPress, Qt::Key_unknown, Qt::NoModifier, QString(c));
        QKeyEvent release(QEvent::KeyRelease, Qt::Key_unknown, Qt::NoModifier, QString(c));
        QApplication::sendEvent(w, &press);
        QApplication::sendEvent(w, &release);
    }
}

// Runs the event loop until `done` or `ms` passed. Unlike QTest::qWaitFor, which sleeps
// 10 ms per round, it polls every 0.2 ms: 10 000 actions cannot afford 10 ms each.
bool waitUntil(const std::function<bool()>& done, int ms) {
    QElapsedTimer t;
    t.start();
    for (;;) {
        QCoreApplication::processEvents(QEventLoop::AllEvents);
        QCoreApplication::sendPostedEvents(nullptr, QEvent::DeferredDelete);
        if (done()) return true;
        if (t.elapsed() > ms) return false;
        QThread::usleep(200);
    }
}

// A relative path in a saved file is read relative to the file (as documented).
QString besideFile(const QString& file, const QString& path) {
    return path.isEmpty() || QFileInfo(path).isAbsolute() ? path : QFileInfo(file).dir().filePath(path);
}

// `value` as JSON text, read back: the problems found (none, or one).
template <typename T, typename FromJson, typename ToJson>
QStringList memoryRoundTrip(const T& value, FromJson fromJson, ToJson toJson) {
    QString error;
    const QByteArray bytes = QJsonDocument(toJson(value)).toJson(QJsonDocument::Compact);
    const auto back = fromJson(QJsonDocument::fromJson(bytes).object(), &error);
    if (!back) return {QStringLiteral("the JSON of the current state does not read back: ") + error};
    if (toJson(*back) != toJson(value))
        return {QStringLiteral("round trip differs: %1 vs %2")
                    .arg(QString::fromUtf8(bytes), QString::fromUtf8(QJsonDocument(toJson(*back)).toJson(QJsonDocument::Compact)))};
    return {};
}

// Saves `value` to `path`, loads it back and compares the JSON with `expected`'s: the
// problems found (none, or one).
template <typename T, typename Save, typename Load, typename ToJson>
QStringList fileRoundTrip(const QString& path, const T& value, const T& expected, Save save, Load load, ToJson toJson) {
    QString error;
    if (!save(path, value, &error)) return {QStringLiteral("saving %1 failed: %2").arg(path, error)};
    const auto back = load(path, &error);
    if (!back) return {QStringLiteral("%1 does not load back: %2").arg(path, error)};
    if (toJson(*back) != toJson(expected)) return {QStringLiteral("%1 reads back differently").arg(path)};
    return {};
}

QString oneLine(QString s, int max = 90) {
    s.replace(QLatin1Char('\n'), QLatin1String("\\n"));
    return s.size() > max ? s.left(max) + QStringLiteral("…") : s;
}

}  // namespace

class TstMonkey : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void monkey();
    void cleanupTestCase();

private:
    using Run = QString (TstMonkey::*)(Rng&);
    struct Action {
        const char* name;
        int weight;
        Run run;
    };
    static const QList<Action>& actions();

    // --- actions (each returns what it did, for the log; empty = nothing to act on) ---
    QString editSpin(Rng& r);
    QString editCombo(Rng& r);
    QString clickButton(Rng& r);
    QString editLine(Rng& r);
    QString pickListRow(Rng& r);
    QString switchTab(Rng& r);
    QString dragPlot(Rng& r);
    QString wheelPlot(Rng& r);
    QString doubleClickPlot(Rng& r);
    QString contextMenuPlot(Rng& r);
    QString triggerMenu(Rng& r);
    QString pressShortcut(Rng& r);
    QString undoRedo(Rng& r);
    QString undoRedoRoundTrip(Rng& r);
    QString loadDataFile(Rng& r);
    QString modelFile(Rng& r);
    QString openSessionFile(Rng& r);
    QString saveSessionFile(Rng& r);
    QString exportView(Rng& r);
    QString togglePresentation(Rng& r);
    QString toggleWorkbench(Rng& r);
    QString workbenchFile(Rng& r);
    QString settleAction(Rng& r);

    // --- the checks ----------------------------------------------------------------------
    void checkAfterAction(bool settled);
    QStringList sameNumbersProblems(const qs::analysis::ExplorerResult& r, bool sampled) const;
    QStringList explorerProblems() const;
    QStringList workbenchProblems() const;
    QStringList settledExplorerProblems() const;
    QStringList settledWorkbenchProblems() const;
    bool responsive();
    bool settle();
    void fail(const QString& why);

    // --- helpers -------------------------------------------------------------------------
    QList<QWidget*> windows() const;  // the explorer and, when shown, the workbench
    template <typename T>
    QList<T*> usable(const std::function<bool(T*)>& keep = {}) const;
    void writeFiles();
    QString tmp(const QString& name) const { return dir_.filePath(name); }
    void beat() { heartbeat_ = std::chrono::steady_clock::now().time_since_epoch().count(); }
    void appendLog(const QString& line);

    QTemporaryDir settingsDir_;
    QTemporaryDir dir_;
    std::unique_ptr<ExplorerModel> model_;
    std::unique_ptr<MainWindow> w_;
    WorkbenchWindow* bench_ = nullptr;  // owned by w_
    QStringList modelFiles_;
    QStringList dataFiles_, sessionFiles_, configFiles_, savedSessions_;
    QList<QString> modalsDismissed_;
    quint64 seed_ = kDefaultSeed;
    int count_ = kDefaultActions;
    bool settleAlways_ = false;
    bool previousDataShown_ = false;  // the last load was cancelled: the old data stays
    bool verbose_ = false;  // QS_MONKEY_VERBOSE=1: every action as it is done
    bool keepGoing_ = false;  // QS_MONKEY_KEEP_GOING=1: report problems and go on
    qint64 checkMs_[5] = {};  // responsive, settle, explorer, workbench, settled checks
    int index_ = 0;
    bool failed_ = false;

    // The action log, read by the watchdog thread on a hang.
    std::mutex logMutex_;
    QStringList log_;
    std::atomic<qint64> heartbeat_{0};
    std::atomic<bool> stopWatchdog_{false};
    std::thread watchdog_;
};

// ---------------------------------------------------------------------------------------
// The action table: name, weight (relative frequency), function.

const QList<TstMonkey::Action>& TstMonkey::actions() {
    static const QList<Action> table = {
        {"spin", 16, &TstMonkey::editSpin},
        {"combo", 10, &TstMonkey::editCombo},
        {"button", 10, &TstMonkey::clickButton},
        {"line", 8, &TstMonkey::editLine},
        {"list", 3, &TstMonkey::pickListRow},
        {"tab", 6, &TstMonkey::switchTab},
        {"drag", 10, &TstMonkey::dragPlot},
        {"wheel", 5, &TstMonkey::wheelPlot},
        {"dclick", 3, &TstMonkey::doubleClickPlot},
        {"ctxmenu", 1, &TstMonkey::contextMenuPlot},
        {"menu", 5, &TstMonkey::triggerMenu},
        {"key", 5, &TstMonkey::pressShortcut},
        {"undo", 6, &TstMonkey::undoRedo},
        {"undotrip", 2, &TstMonkey::undoRedoRoundTrip},
        {"data", 3, &TstMonkey::loadDataFile},
        {"model", 2, &TstMonkey::modelFile},
        {"session", 2, &TstMonkey::openSessionFile},
        {"save", 2, &TstMonkey::saveSessionFile},
        {"export", 1, &TstMonkey::exportView},
        {"present", 1, &TstMonkey::togglePresentation},
        {"bench", 2, &TstMonkey::toggleWorkbench},
        {"config", 2, &TstMonkey::workbenchFile},
        {"settle", 2, &TstMonkey::settleAction},
    };
    return table;
}

// ---------------------------------------------------------------------------------------

void TstMonkey::initTestCase() {
    previousHandler = qInstallMessageHandler(messageFilter);
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("QuantScopeTests"));
    QCoreApplication::setApplicationName(QStringLiteral("tst_monkey"));
    QVERIFY(settingsDir_.isValid() && dir_.isValid());
    QSettings::setDefaultFormat(QSettings::IniFormat);
    QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, settingsDir_.path());
    QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, settingsDir_.path());
    QSettings().clear();
    QApplication::setQuitOnLastWindowClosed(false);
    QLocale::setDefault(QLocale::c());
    QFile::remove(MainWindow::lastSessionPath());

    seed_ = envNumber("QS_MONKEY_SEED", kDefaultSeed);
    count_ = static_cast<int>(envNumber("QS_MONKEY_ACTIONS", kDefaultActions));
    settleAlways_ = envNumber("QS_MONKEY_SETTLE", 0) != 0;
    verbose_ = envNumber("QS_MONKEY_VERBOSE", 0) != 0;
    keepGoing_ = envNumber("QS_MONKEY_KEEP_GOING", 0) != 0;
    writeFiles();

    model_ = std::make_unique<ExplorerModel>();
    DataSource small;
    small.generator = kSmallData;
    model_->reset(model_->spec(), small, ViewState{});
    w_ = std::make_unique<MainWindow>(model_.get());
    // A cancelled load keeps the previous data on show ("the previous data stays") while the
    // model keeps the source the user asked for; until a load completes again, the shown
    // data is not the source's.
    connect(w_->dataService(), &DataService::cancelled, this, [this] { previousDataShown_ = true; });
    connect(w_->dataService(), &DataService::loaded, this, [this] { previousDataShown_ = false; });
    w_->resize(820, 560);  // smaller than the default: every action repaints what is shown
    w_->show();
    w_->activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(w_.get()));
    QVERIFY(settle());

    // Modal dialogs are not part of the monkey's actions; should one open anyway (a
    // message box of a failed open or save), it is answered and noted in the log. A button's
    // drop-down menu (the model report's Export) runs its own event loop until it closes:
    // it is closed, as a user pressing Esc would.
    auto* dismisser = new QTimer(this);
    dismisser->setInterval(20);
    connect(dismisser, &QTimer::timeout, this, [this] {
        if (auto* menu = qobject_cast<QMenu*>(QApplication::activePopupWidget())) {
            modalsDismissed_ << QStringLiteral("menu closed: ") + describe(menu->parentWidget());
            menu->close();
            return;
        }
        QWidget* modal = QApplication::activeModalWidget();
        if (!modal) return;
        if (auto* box = qobject_cast<QMessageBox*>(modal)) {
            modalsDismissed_ << QStringLiteral("message box: ") + oneLine(box->text(), 200);
            box->accept();
        } else if (auto* dialog = qobject_cast<QDialog*>(modal)) {
            modalsDismissed_ << QStringLiteral("dialog cancelled: ") + describe(dialog);
            dialog->reject();
        }
    });
    dismisser->start();

    crashText = QStringLiteral("Replay: QS_MONKEY_SEED=%1 QS_MONKEY_ACTIONS=<last action + 1>\nActions so far:\n")
                    .arg(seed_).toStdString();
    lastWords = [this](const char* why) {
        std::unique_lock lock(logMutex_, std::try_to_lock);
        fprintf(stderr, "MONKEY CRASH (%s) in action %d. Replay: QS_MONKEY_SEED=%llu QS_MONKEY_ACTIONS=%d\nActions so far:\n%s\n",
                why, index_, static_cast<unsigned long long>(seed_), index_ + 1,
                lock.owns_lock() ? qPrintable(log_.join(QLatin1Char('\n'))) : "(log busy)");
        fflush(stderr);
    };
    for (int sig : {SIGSEGV, SIGABRT, SIGFPE, SIGBUS, SIGILL}) std::signal(sig, onCrashSignal);

    // The watchdog: no progress for QS_MONKEY_HANG_S seconds is a hang; report and stop.
    const auto hangNs = static_cast<qint64>(envNumber("QS_MONKEY_HANG_S", 60)) * 1'000'000'000;
    beat();
    watchdog_ = std::thread([this, hangNs] {
        while (!stopWatchdog_) {
            std::this_thread::sleep_for(std::chrono::milliseconds(200));
            const qint64 now = std::chrono::steady_clock::now().time_since_epoch().count();
            if (now - heartbeat_ > hangNs) {
                std::lock_guard lock(logMutex_);
                fprintf(stderr, "MONKEY HANG: no progress for %lld s. Replay: QS_MONKEY_SEED=%llu QS_MONKEY_ACTIONS=%d\n%s\n",
                        static_cast<long long>(hangNs / 1'000'000'000), static_cast<unsigned long long>(seed_),
                        count_, qPrintable(log_.join(QLatin1Char('\n'))));
                fflush(stderr);
                std::_Exit(3);
            }
        }
    });
}

void TstMonkey::cleanupTestCase() {
    snprintf(crashAction, sizeof crashAction, "(crashed in cleanupTestCase: deleting the windows)\n");
    stopWatchdog_ = true;
    if (watchdog_.joinable()) watchdog_.join();
    w_.reset();
    model_.reset();
    QFile::remove(MainWindow::lastSessionPath());
    lastWords = nullptr;
    qInstallMessageHandler(previousHandler);
}

void TstMonkey::appendLog(const QString& line) {
    std::lock_guard lock(logMutex_);
    log_ << line;
}

void TstMonkey::fail(const QString& why) {
    if (keepGoing_) {  // every problem once, no stop: for hunting several defects in one run
        fprintf(stderr, "MONKEY PROBLEM at action %d: %s\n", index_, qPrintable(why));
        return;
    }
    if (failed_) return;
    failed_ = true;
    QStringList lines;
    {
        std::lock_guard lock(logMutex_);
        lines = log_;
    }
    fprintf(stderr, "MONKEY FAILURE after action %d: %s\nReplay: QS_MONKEY_SEED=%llu QS_MONKEY_ACTIONS=%d%s\nActions so far:\n%s\n",
            index_, qPrintable(why), static_cast<unsigned long long>(seed_), index_ + 1,
            settleAlways_ ? " QS_MONKEY_SETTLE=1" : "", qPrintable(lines.join(QLatin1Char('\n'))));
    fflush(stderr);
}

void TstMonkey::monkey() {
    int totalWeight = 0;
    for (const Action& a : actions()) totalWeight += a.weight;
    Rng kinds(seed_);
    QElapsedTimer clock;
    clock.start();
    qint64 slowest = 0;
    QString slowestAction;
    QMap<QString, QPair<int, qint64>> perKind;  // name -> (count, ms)
    qint64 checkMs = 0;
    for (index_ = 0; index_ < count_ && !failed_; ++index_) {
        int roll = kinds.below(totalWeight);
        const Action* action = nullptr;
        for (const Action& a : actions()) {
            if (roll < a.weight) {
                action = &a;
                break;
            }
            roll -= a.weight;
        }
        Rng r(seed_ * 0x100000001B3ull + static_cast<quint64>(index_));
        const QString head = QStringLiteral("#%1 %2").arg(index_, 5, 10, QLatin1Char('0')).arg(QLatin1String(action->name));
        appendLog(head + QStringLiteral(" …"));  // so a crash or hang inside the action is attributed
        snprintf(crashAction, sizeof crashAction, "%s (crashed in it)\n", qPrintable(head));
        beat();
        QElapsedTimer t;
        t.start();
        modalsDismissed_.clear();
        QString what = (this->*(action->run))(r);
        if (what.isEmpty()) what = QStringLiteral("(nothing to act on)");
        if (!modalsDismissed_.isEmpty()) what += QStringLiteral(" [") + modalsDismissed_.join(QStringLiteral("; ")) + u']';
        {
            std::lock_guard lock(logMutex_);
            log_.last() = head + u' ' + what;
        }
        if (verbose_) fprintf(stderr, "%s\n", qPrintable(head + u' ' + what));
        crashText += (head + u' ' + what + u'\n').toStdString();
        crashText.reserve(crashText.size() + 4096);  // room for the next line's header
        const qint64 actionMs = t.elapsed();
        const bool settleNow = settleAlways_ || (index_ + 1) % kSettleEvery == 0;
        checkAfterAction(settleNow);
        checkMs += t.elapsed() - actionMs;
        auto& kind = perKind[QLatin1String(action->name)];
        ++kind.first;
        kind.second += actionMs;
        if (t.elapsed() > slowest) {
            slowest = t.elapsed();
            std::lock_guard lock(logMutex_);
            slowestAction = log_.last();
        }
        beat();
    }
    if (!failed_) checkAfterAction(true);
    qInfo("monkey: seed %llu, %d actions in %.1f s; slowest action %lld ms: %s",
          static_cast<unsigned long long>(seed_), index_, clock.elapsed() / 1000.0,
          static_cast<long long>(slowest), qPrintable(slowestAction));
    QStringList timings;
    for (auto it = perKind.begin(); it != perKind.end(); ++it)
        timings << QStringLiteral("%1 %2×/%3ms").arg(it.key()).arg(it->first).arg(it->second);
    qInfo("monkey: per action kind (count/time): %s; checks %lld ms (responsive %lld, settle %lld, explorer %lld, "
          "workbench %lld, settled %lld)",
          qPrintable(timings.join(QStringLiteral(", "))), static_cast<long long>(checkMs), static_cast<long long>(checkMs_[0]),
          static_cast<long long>(checkMs_[1]), static_cast<long long>(checkMs_[2]), static_cast<long long>(checkMs_[3]),
          static_cast<long long>(checkMs_[4]));
    QVERIFY2(!failed_, "see MONKEY FAILURE above");
}

// ---------------------------------------------------------------------------------------
// Checks

void TstMonkey::checkAfterAction(bool settled) {
    QStringList problems;
    QElapsedTimer t;
    t.start();
    auto lap = [&](int i) { checkMs_[i] += t.restart(); };
    if (!responsive())
        problems << QStringLiteral("the event loop did not handle a posted event within %1 ms").arg(kResponsiveMs);
    lap(0);
    if (settled && !settle())
        problems << QStringLiteral("the background work did not finish within %1 ms").arg(kSettleTimeoutMs);
    lap(1);
    problems << explorerProblems();
    lap(2);
    problems << workbenchProblems();
    lap(3);
    if (settled) problems << settledExplorerProblems() << settledWorkbenchProblems();
    lap(4);
    {
        std::lock_guard lock(warningsMutex);
        for (const QString& w : warnings) problems << QStringLiteral("warning: ") + w;
        warnings.clear();
    }
    if (!problems.isEmpty()) fail(problems.join(QStringLiteral("\n  ")));
}

bool TstMonkey::responsive() {
    auto handled = std::make_shared<bool>(false);
    QMetaObject::invokeMethod(this, [handled] { *handled = true; }, Qt::QueuedConnection);
    return waitUntil([handled] { return *handled; }, kResponsiveMs);
}

bool TstMonkey::settle() {
    auto busy = [this] {
        if (w_->computeService()->busy() || w_->dataService()->loading() ||
            w_->analysisTabs()->service()->busy())
            return true;
        if (!bench_) return false;
        const WorkbenchService* s = bench_->controller()->service();
        return s->loading() || s->analyzing() || s->demoRunning();
    };
    // Twice idle with the event loop run in between: a finished job often queues the next.
    for (int quiet = 0; quiet < 2;) {
        if (!waitUntil([&] { return !busy(); }, kSettleTimeoutMs)) return false;
        waitUntil([] { return false; }, 1);
        quiet = busy() ? 0 : quiet + 1;
    }
    return true;
}

// What must hold after every action in the explorer.
QStringList TstMonkey::explorerProblems() const {
    QStringList p;
    const qs::QuantSpec& s = model_->spec();
    const ViewState& v = model_->viewState();
    bool known = false;
    for (qs::QuantOp op : qs::kAllQuantOps) known = known || op == s.op;
    if (!known) p << QStringLiteral("spec.op %1 is not an op").arg(int(s.op));
    // The widgets show the model.
    auto combo = [&](const char* name, int value) {
        auto* c = w_->findChild<QComboBox*>(QLatin1String(name));
        if (c && c->isVisibleTo(w_->parameterPanel()) && c->currentData().toInt() != value)
            p << QStringLiteral("%1 shows %2, the model has %3").arg(QLatin1String(name), c->currentText()).arg(value);
    };
    combo("opCombo", int(s.op));
    combo("typeCombo", int(s.T));
    combo("modeCombo", int(s.mode));
    combo("roundModeCombo", int(s.round_mode));
    auto spin = [&](const char* name, double value) {
        auto* sb = w_->findChild<QAbstractSpinBox*>(QLatin1String(name));
        if (!sb || !sb->isVisibleTo(w_->parameterPanel()) || sb->hasFocus()) return;
        double shown = 0;
        if (auto* i = qobject_cast<QSpinBox*>(sb)) shown = i->value();
        else if (auto* d = qobject_cast<QDoubleSpinBox*>(sb))
            shown = d->value(), value = d->valueFromText(d->textFromValue(value));  // at its decimals
        if (shown != value)
            p << QStringLiteral("%1 shows %2, the model has %3").arg(QLatin1String(name)).arg(shown, 0, 'g', 17).arg(value, 0, 'g', 17);
    };
    spin("numBitsSpin", double(s.num_bits));
    spin("numBucketsSpin", double(s.num_buckets));
    spin("axisSpin", double(s.axis));
    spin("channelSpin", double(v.channel));
    spin("ensureMinimumRangeSpin", double(s.ensure_minimum_range));
    spin("minRangeSpin", double(s.min_range));
    spin("maxRangeSpin", double(s.max_range));
    if (v.tab < 0 || v.tab >= w_->tabs()->count())
        p << QStringLiteral("view.tab %1 is not a tab (0..%2)").arg(v.tab).arg(w_->tabs()->count() - 1);
    else if (w_->tabs()->currentIndex() != v.tab)
        p << QStringLiteral("tab %1 shown, the model says %2").arg(w_->tabs()->currentIndex()).arg(v.tab);
    if (v.channel < 0) p << QStringLiteral("view.channel %1 < 0").arg(v.channel);
    if (auto* dark = w_->findChild<QAction*>(QStringLiteral("darkThemeAction")); dark && dark->isChecked() != v.dark)
        p << QStringLiteral("the dark theme action disagrees with the model");
    if (w_->errorHistogramView()->isLogScale() != v.errorLogScale)
        p << QStringLiteral("the error histogram's log scale disagrees with the model");
    // A session saved now reads back as the same state (in memory here; through a file in
    // the settled checks).
    p << memoryRoundTrip(w_->currentSession(), sessionFromJson, sessionToJson);
    return p;
}

// Once nothing runs: the views show the model's spec, or it is an error and says so.
QStringList TstMonkey::settledExplorerProblems() const {
    QStringList p;
    // The session file of the current state reopens to the same state.
    const Session now = w_->currentSession();
    Session expect = now;
    const QString path = tmp(QStringLiteral("roundtrip.qscope"));
    if (expect.data.isFile()) expect.data.path = besideFile(path, expect.data.path);
    p << fileRoundTrip(path, now, expect, saveSession,
                       [](const QString& f, QString* e) { return loadSession(f, e); }, sessionToJson);
    const DatasetPtr data = w_->dataService()->dataset();
    const DataSource& source = model_->dataSource();
    if (!source.isFile() && !previousDataShown_) {
        // A valid generator is what was loaded (unless its load was cancelled).
        if (auto g = qs::data::parseGeneratorSpec(source.generator.toStdString()); g && data) {
            const auto n = static_cast<size_t>(g->params.at("n"));
            if (data->values.size() != n)
                p << QStringLiteral("the data has %1 values, the generator '%2' asks for %3")
                         .arg(data->values.size()).arg(source.generator).arg(n);
        }
    }
    if (!data) return p << QStringLiteral("no data after settling");
    const ExplorerResultPtr r = w_->lastResult();
    auto core = qs::analysis::computeExplorer(model_->spec(), data->ref(), [&] {
        qs::analysis::ExplorerOptions o;
        o.channel = model_->viewState().channel;
        return o;
    }());
    if (!w_->resultIsStale()) {
        if (!r) return p << QStringLiteral("no result and not stale");
        if (!(r->spec == model_->spec())) p << QStringLiteral("the result shown is not of the model's spec");
        if (!core) p << QStringLiteral("the core rejects the spec (%1) but the window shows it as valid")
                            .arg(QString::fromStdString(core.error().message));
        if (w_->transferView()->result() != r || w_->histogramView()->result() != r ||
            w_->errorHistogramView()->result() != r || w_->channelView()->result() != r ||
            w_->statsPanel()->result() != r)
            p << QStringLiteral("a view shows another result than the last one");
        if (r) p << sameNumbersProblems(*r, data->streamed());
    } else {
        auto* error = w_->findChild<QLabel*>(QStringLiteral("errorLabel"));
        if (core) p << QStringLiteral("the result is marked stale but the core accepts the spec");
        if (!error || error->text().isEmpty()) p << QStringLiteral("stale without an error message");
    }
    return p;
}

// One truth in every view (issue 24): the clipped count is one count (the histogram's red
// values, the channels' sum), and an analysis tab showing a result for the current settings
// shows the Statistics dock's SQNR, MSE and clipped count at the current width / range.
QStringList TstMonkey::sameNumbersProblems(const qs::analysis::ExplorerResult& r, bool sampled) const {
    QStringList p;
    auto same = [](double a, double b) { return a == b || (std::isnan(a) && std::isnan(b)); };
    const int64_t clipped = r.clipped_below + r.clipped_above;
    const qs::analysis::Histogram& red = r.clipped_hist;
    if (red.inRange() + red.underflow + red.overflow != clipped)
        p << QStringLiteral("the histogram's clipped values (%1) are not the clipped count %2")
                 .arg(red.inRange() + red.underflow + red.overflow).arg(clipped);
    if (!r.channels.empty()) {
        int64_t sum = 0;
        for (const auto& c : r.channels) sum += c.clipped;
        if (sum != clipped) p << QStringLiteral("the channels clip %1 values, the tensor %2").arg(sum).arg(clipped);
    }
    const AnalysisTabs* a = w_->analysisTabs();
    if (sampled || a->service()->busy()) return p;  // a streamed data set's analyses run on a sample
    if (const auto sweep = a->bitSweepView()->result(); sweep && !a->isOutOfDate(AnalysisKind::BitSweep) &&
                                                        !a->bitSweepView()->isStale())
        for (const auto& row : sweep->rows)
            if (row.spec == r.spec && (!same(row.sqnr_db, r.stats.sqnr_db) || !same(row.mse, r.stats.mse) || row.clipped != clipped))
                p << QStringLiteral("the bit sweep shows %1 dB / %2 clipped at the current width, the statistics %3 dB / %4")
                         .arg(row.sqnr_db).arg(row.clipped).arg(r.stats.sqnr_db).arg(clipped);
    if (const auto clip = a->clipSweepView()->result(); clip && !a->isOutOfDate(AnalysisKind::ClipSweep) &&
                                                       !a->clipSweepView()->isStale() &&
                                                       (!same(clip->current.mse, r.stats.mse) || clip->current.clipped != clipped))
        p << QStringLiteral("the clipping sweep's current settings show MSE %1, the statistics %2").arg(clip->current.mse).arg(r.stats.mse);
    if (const auto cal = a->calibrationPanel()->result(); cal && !a->isOutOfDate(AnalysisKind::Calibration) &&
                                                         !a->calibrationPanel()->plotFrame()->isStale() &&
                                                         (!same(cal->current.sqnr_db, r.stats.sqnr_db) || cal->current_clipped != clipped))
        p << QStringLiteral("calibration's current row shows %1 dB, the statistics %2 dB").arg(cal->current.sqnr_db).arg(r.stats.sqnr_db);
    return p;
}

QStringList TstMonkey::workbenchProblems() const {
    QStringList p;
    if (!bench_) return p;
    EmbeddingModel* m = bench_->model();
    const EmbeddingDocument& doc = m->document();
    if (!(m->validation() == validateEmbeddingDocument(doc)))
        p << QStringLiteral("the workbench's validation is not the document's");
    for (size_t i = 0; i < doc.features.size(); ++i)
        if (doc.features[i].table < -1 || doc.features[i].table >= int(doc.tables.size()))
            p << QStringLiteral("features[%1].table = %2 with %3 tables").arg(i).arg(doc.features[i].table).arg(doc.tables.size());
    auto* tables = bench_->findChild<QListWidget*>(QStringLiteral("tableList"));
    auto* features = bench_->findChild<QListWidget*>(QStringLiteral("featureList"));
    if (tables && tables->count() != int(doc.tables.size()))
        p << QStringLiteral("the table list shows %1 tables of %2").arg(tables->count()).arg(doc.tables.size());
    if (features && features->count() != int(doc.features.size()))
        p << QStringLiteral("the feature list shows %1 features of %2").arg(features->count()).arg(doc.features.size());
    if (auto* hosts = bench_->findChild<QSpinBox*>(QStringLiteral("numHosts"));
        hosts && !hosts->hasFocus() && doc.num_hosts >= hosts->minimum() && doc.num_hosts <= hosts->maximum() &&
        hosts->value() != doc.num_hosts)
        p << QStringLiteral("numHosts shows %1, the document has %2").arg(hosts->value()).arg(doc.num_hosts);
    // A configuration saved now reads back as the same document (in memory; through a
    // file in the settled checks).
    p << memoryRoundTrip(doc, embeddingDocumentFromJson, embeddingDocumentToJson);
    return p;
}

QStringList TstMonkey::settledWorkbenchProblems() const {
    QStringList p;
    if (!bench_) return p;
    const EmbeddingDocument& doc = bench_->model()->document();
    const QString path = tmp(QStringLiteral("roundtrip.json"));
    EmbeddingDocument expect = doc;
    for (EmbeddingTable& t : expect.tables) t.data_file = besideFile(path, t.data_file);
    for (EmbeddingFeature& f : expect.features) f.ids_file = besideFile(path, f.ids_file);
    p << fileRoundTrip(path, doc, expect, saveEmbeddingDocument,
                       [](const QString& f, QString* e) { return loadEmbeddingDocument(f, e); },
                       embeddingDocumentToJson);
    int table = doc.view.table;
    if (doc.view.feature >= 0 && size_t(doc.view.feature) < doc.features.size() &&
        doc.features[size_t(doc.view.feature)].table >= 0)
        table = doc.features[size_t(doc.view.feature)].table;
    if (table < 0 || size_t(table) >= doc.tables.size()) return p;
    const auto inputs = workbenchTableInputs(doc, table);
    if (!inputs) {
        if (!bench_->occupancyView()->isStale())
            p << QStringLiteral("TF rejects the selected table (%1) but the views are not greyed")
                     .arg(QString::fromStdString(inputs.error().message));
        return p;
    }
    const auto& shown = bench_->controller()->tableInputs();
    if (!shown || shown->name != inputs->name || shown->vocabulary_size != inputs->vocabulary_size ||
        shown->dim != inputs->dim)
        p << QStringLiteral("the workbench shows other table inputs than the selected table's");
    const EmbeddingTablePtr loaded = bench_->controller()->table();
    if (inputs->source.path.empty() && loaded && !bench_->occupancyView()->isStale() &&
        (loaded->rows() != inputs->vocabulary_size || loaded->dim() != inputs->dim))
        p << QStringLiteral("the loaded table is %1 x %2, the configuration says %3 x %4")
                 .arg(loaded->rows()).arg(loaded->dim()).arg(inputs->vocabulary_size).arg(inputs->dim);
    return p;
}

// ---------------------------------------------------------------------------------------
// Helpers

QList<QWidget*> TstMonkey::windows() const {
    QList<QWidget*> out{w_.get()};
    if (bench_ && bench_->isVisible()) out << bench_;
    return out;
}

// The visible, enabled widgets of a type in the shown windows (findChildren order is the
// construction order: deterministic), plus dialogs the windows opened (non-modal ones).
template <typename T>
QList<T*> TstMonkey::usable(const std::function<bool(T*)>& keep) const {
    QList<T*> out;
    for (QWidget* window : windows())
        for (T* w : window->findChildren<T*>())
            if (w->isVisible() && w->isEnabled() && (!keep || keep(w))) out << w;
    return out;
}

void TstMonkey::writeFiles() {
    // Data files for the explorer: good ones, odd ones and broken ones.
    auto add = [this](const QString& name, const QByteArray& bytes) {
        const QString path = tmp(name);
        QVERIFY(writeBytes(path, bytes));
        dataFiles_ << path;
    };
    add(QStringLiteral("channels.npy"), npyBytes("<f4", QStringLiteral("500, 4"), floats(2000, 1.5)));
    add(QStringLiteral("rank3.npy"), npyBytes("<f4", QStringLiteral("10, 20, 5"), floats(1000, 0.3)));
    add(QStringLiteral("fortran.npy"), npyBytes("<f4", QStringLiteral("50, 8"), floats(400, 2), true));
    add(QStringLiteral("truncated.npy"), npyBytes("<f4", QStringLiteral("1000,"), floats(100, 1)));
    add(QStringLiteral("huge-header.npy"), npyBytes("<f4", QStringLiteral("4000000000000,"), floats(16, 1)));
    add(QStringLiteral("negative-shape.npy"), npyBytes("<f4", QStringLiteral("-5, 4"), floats(16, 1)));
    add(QStringLiteral("int32.npy"), npyBytes("<i4", QStringLiteral("16,"), floats(16, 1)));
    add(QStringLiteral("empty-shape.npy"), npyBytes("<f4", QStringLiteral("0,"), QByteArray()));
    add(QStringLiteral("garbage.npy"), QByteArray("\x93NUMPY\x01\x00\xff\xff{'descr'", 18));
    add(QStringLiteral("values.csv"), QByteArray("value\n-2.5\n-1\n0\n0.25\n1\n3\n"));
    add(QStringLiteral("columns.csv"), QByteArray("a,b,c\n1,2,3\n4,5,6\n-7,8,-9\n"));
    add(QStringLiteral("specials.csv"), QByteArray("nan\ninf\n-inf\n1\n-1\n"));
    add(QStringLiteral("constant.csv"), QByteArray("0\n0\n0\n0\n"));
    add(QStringLiteral("one.csv"), QByteArray("3.5\n"));
    add(QStringLiteral("bad.csv"), QByteArray("a,b\n1,x\n2\n"));
    add(QStringLiteral("empty.csv"), QByteArray());
    add(QStringLiteral("words.vec"), QByteArray("3 2\nw 0.1 0.2\nx -0.5 1\ny 2 3\n"));
    add(QStringLiteral("lying.vec"), QByteArray("1000000000 1000000000\nw 0.1\n"));
    dataFiles_ << QStringLiteral(QS_SOURCE_DIR "/resources/data/weights_8ch.npy");
    for (const QString& f : QDir(QStringLiteral(QS_TEST_DATA_DIR "/broken")).entryList(QDir::Files))
        dataFiles_ << QStringLiteral(QS_TEST_DATA_DIR "/broken/") + f;
    dataFiles_ << tmp(QStringLiteral("missing.npy")) << dir_.path();

    // Model files: real ones (per-channel int8, a 2-D float table, its int8 copy) and broken.
    for (const char* f : {"tflite/hello_world_int8.tflite", "tflite/person_detect.tflite",
                          "safetensors/test-model-float32.safetensors", "safetensors/test-model-int8.safetensors"})
        modelFiles_ << QStringLiteral(QS_TEST_DATA_DIR "/models/") + QLatin1String(f);
    modelFiles_ << tmp(QStringLiteral("channels.npy")) << tmp(QStringLiteral("garbage.npy"))
                << tmp(QStringLiteral("missing.onnx")) << dir_.path();

    // Sessions: the presets (with small data), and broken or odd variants of a valid one.
    for (const QString& f : QDir(QStringLiteral(QS_SOURCE_DIR "/resources/presets")).entryList({QStringLiteral("*.qscope")})) {
        QFile in(QStringLiteral(QS_SOURCE_DIR "/resources/presets/") + f);
        QVERIFY(in.open(QIODevice::ReadOnly));
        QJsonObject o = QJsonDocument::fromJson(in.readAll()).object();
        QJsonObject data = o["data"].toObject();
        data["generator"] = data["generator"].toString().replace(QLatin1String("n=1000000"), QLatin1String("n=20000"));
        if (data.contains("file"))
            data["file"] = QDir(QStringLiteral(QS_SOURCE_DIR "/resources/presets")).absoluteFilePath(data["file"].toString());
        o["data"] = data;
        QVERIFY(writeBytes(tmp(f), QJsonDocument(o).toJson()));
        sessionFiles_ << tmp(f);
    }
    const QJsonObject valid = sessionToJson(Session{qs::QuantSpec{}, DataSource{kSmallData, QString()}, ViewState{}});
    auto variant = [&](const QString& name, const char* section, const char* key, const QJsonValue& value) {
        QJsonObject o = valid;
        if (section) {
            QJsonObject s = o[QLatin1String(section)].toObject();
            s[QLatin1String(key)] = value;
            o[QLatin1String(section)] = s;
        } else {
            o[QLatin1String(key)] = value;
        }
        QVERIFY(writeBytes(tmp(name), QJsonDocument(o).toJson()));
        sessionFiles_ << tmp(name);
    };
    variant(QStringLiteral("newer.qscope"), nullptr, "version", kSessionFormatVersion + 1);
    variant(QStringLiteral("badmode.qscope"), "parameters", "mode", QStringLiteral("FOO"));
    variant(QStringLiteral("tab99.qscope"), "view", "tab", 99);
    variant(QStringLiteral("tab-neg.qscope"), "view", "tab", -2);
    variant(QStringLiteral("channel-neg.qscope"), "view", "channel", -7);
    variant(QStringLiteral("channel-big.qscope"), "view", "channel", 2000000000);
    variant(QStringLiteral("bits1000.qscope"), "parameters", "num_bits", 1000);
    variant(QStringLiteral("axis50.qscope"), "parameters", "axis", 50);
    variant(QStringLiteral("axis-neg.qscope"), "parameters", "axis", -9);
    variant(QStringLiteral("emr-neg.qscope"), "parameters", "ensure_minimum_range", -1);
    variant(QStringLiteral("emr-huge.qscope"), "parameters", "ensure_minimum_range", 1e30);
    variant(QStringLiteral("min-overflow.qscope"), "parameters", "min_range", -1e39);
    variant(QStringLiteral("buckets-big.qscope"), "parameters", "num_buckets", 2147483647);
    variant(QStringLiteral("gen-junk.qscope"), "data", "generator", QStringLiteral("normal:n=abc"));
    variant(QStringLiteral("gen-huge.qscope"), "data", "generator", QStringLiteral("uniform:n=1000000000000"));
    variant(QStringLiteral("file-rel.qscope"), "data", "file", QStringLiteral("channels.npy"));
    variant(QStringLiteral("file-broken.qscope"), "data", "file", tmp(QStringLiteral("truncated.npy")));
    variant(QStringLiteral("params-array.qscope"), nullptr, "parameters", QJsonArray{1, 2});
    for (const auto& [name, bytes] : {std::pair{"truncated.qscope", QByteArray("{\n \"format\": \"quantscope-session\",\n \"version\": 1,\n")},
                                      std::pair{"array.qscope", QByteArray("[]")},
                                      std::pair{"empty.qscope", QByteArray()},
                                      std::pair{"binary.qscope", QByteArray("\x00\xff\x13\x37", 4)}}) {
        QVERIFY(writeBytes(tmp(QLatin1String(name)), bytes));
        sessionFiles_ << tmp(QLatin1String(name));
    }
    sessionFiles_ << tmp(QStringLiteral("missing.qscope"));

    // Workbench configurations: a small valid one, the shipped example, broken variants.
    QJsonObject small{
        {"format", "quantscope-embedding"},
        {"version", 1},
        {"tables", QJsonArray{QJsonObject{{"name", "items"}, {"vocabulary_size", 2000}, {"dim", 8}, {"combiner", "mean"},
                                          {"optimizer", QJsonObject{{"type", "Adagrad"}, {"learning_rate", 0.1}}},
                                          {"quantization_config", QJsonObject{{"num_buckets", 64}, {"lower", -0.5}, {"upper", 0.5}}}},
                              QJsonObject{{"name", "tiny"}, {"vocabulary_size", 40}, {"dim", 4}, {"combiner", "sum"},
                                          {"optimizer", QJsonObject{{"type", "SGD"}, {"learning_rate", 0.05}}}}}},
        {"features", QJsonArray{QJsonObject{{"name", "seen"}, {"table", 0}, {"ids", "zipf:batch=256,ids=4,s=1.1,seed=2"}},
                                QJsonObject{{"name", "kind"}, {"table", 1}, {"ids", "uniform:batch=64,ids=1,seed=3"}}}},
        {"sharding", QJsonObject{{"num_hosts", 4}}},
        {"view", QJsonObject{{"table", 0}, {"feature", 0}, {"first_row", 0}, {"rows", 32}}}};
    auto config = [&](const QString& name, const QJsonObject& o) {
        QVERIFY(writeBytes(tmp(name), QJsonDocument(o).toJson()));
        configFiles_ << tmp(name);
    };
    config(QStringLiteral("small.json"), small);
    configFiles_ << QStringLiteral(QS_SOURCE_DIR "/resources/embedding/example.json");
    auto changed = [&](const QString& name, const std::function<void(QJsonObject&)>& change) {
        QJsonObject o = small;
        change(o);
        config(name, o);
    };
    auto firstOf = [](QJsonObject& o, const char* list, const char* key, const QJsonValue& v) {
        QJsonArray a = o[QLatin1String(list)].toArray();
        QJsonObject first = a[0].toObject();
        first[QLatin1String(key)] = v;
        a[0] = first;
        o[QLatin1String(list)] = a;
    };
    changed(QStringLiteral("newer.json"), [](QJsonObject& o) { o["version"] = 2; });
    changed(QStringLiteral("feature-table99.json"), [&](QJsonObject& o) { firstOf(o, "features", "table", 99); });
    changed(QStringLiteral("view-table99.json"), [](QJsonObject& o) {
        o["view"] = QJsonObject{{"table", 99}, {"feature", -5}, {"first_row", -10}, {"rows", 0}};
    });
    changed(QStringLiteral("hosts0.json"), [](QJsonObject& o) { o["sharding"] = QJsonObject{{"num_hosts", 0}}; });
    changed(QStringLiteral("tables-object.json"), [](QJsonObject& o) { o["tables"] = QJsonObject{}; });
    changed(QStringLiteral("dim-text.json"), [&](QJsonObject& o) { firstOf(o, "tables", "dim", "abc"); });
    changed(QStringLiteral("vocab-neg.json"), [&](QJsonObject& o) { firstOf(o, "tables", "vocabulary_size", -5); });
    changed(QStringLiteral("table-file.json"), [&](QJsonObject& o) {
        firstOf(o, "tables", "vocabulary_size", 100);
        firstOf(o, "tables", "data_file", tmp(QStringLiteral("table.npy")));
    });
    changed(QStringLiteral("table-broken-file.json"), [&](QJsonObject& o) {
        firstOf(o, "tables", "data_file", tmp(QStringLiteral("truncated.npy")));
    });
    changed(QStringLiteral("ids-file.json"), [&](QJsonObject& o) { firstOf(o, "features", "ids_file", tmp(QStringLiteral("ids.csv"))); });
    changed(QStringLiteral("ids-bad-file.json"), [&](QJsonObject& o) { firstOf(o, "features", "ids_file", tmp(QStringLiteral("bad.csv"))); });
    QVERIFY(writeBytes(tmp(QStringLiteral("table.npy")), npyBytes("<f4", QStringLiteral("100, 8"), floats(800, 0.2))));
    QVERIFY(writeBytes(tmp(QStringLiteral("ids.csv")), QByteArray("example,id\n0,1\n0,5\n1,7\n2,3\n2,99\n")));
    QVERIFY(writeBytes(tmp(QStringLiteral("truncated.json")), QByteArray("{\"format\": \"quantscope-embedding\", \"tables\": [")));
    configFiles_ << tmp(QStringLiteral("truncated.json")) << tmp(QStringLiteral("missing.json"))
                 << tmp(QStringLiteral("values.csv"));
}

// ---------------------------------------------------------------------------------------
// Actions

namespace {

// Values for a spin box: in range, at the ends, beyond them, and text that is no number.
QString spinText(Rng& r, QAbstractSpinBox* box, double cap) {
    double lo = 0, hi = 0;
    int decimals = 0;
    if (auto* i = qobject_cast<QSpinBox*>(box)) lo = i->minimum(), hi = i->maximum();
    else if (auto* d = qobject_cast<QDoubleSpinBox*>(box)) lo = d->minimum(), hi = d->maximum(), decimals = d->decimals();
    hi = std::min(hi, cap);
    auto number = [decimals](double v) { return QString::number(v, 'f', decimals); };
    switch (r.below(9)) {
        case 0: return number(lo);
        case 1: return number(hi);
        case 2: return number(lo + (hi - lo) * r.unit());
        case 3: return r.pick(QList<QString>{QStringLiteral("abc"), QStringLiteral("-"), QStringLiteral("1e3"),
                                             QStringLiteral(""), QStringLiteral("--1"), QStringLiteral("0.5.5")});
        case 4: return number(std::min(hi, std::max(lo, (r.unit() - 0.5) * 20)));
        default: return number(std::min(hi, std::max(lo, std::round((r.unit() - 0.3) * 12))));
    }
}

// Text typed into the workbench's fields (Python literals, names, id specs, paths) and any
// other line edit. Sizes stay small: the monkey must not make a 10 GB table on purpose.
QString lineText(Rng& r, const QString& name, const QStringList& files) {
    if (name.contains(QLatin1String("File"))) return r.chance(20) ? QString() : r.pick(files);
    if (name == QLatin1String("featureIds"))
        return r.pick(QList<QString>{QStringLiteral("uniform:batch=100,ids=2,seed=4"), QStringLiteral("zipf:batch=200,ids=4,s=1.2"),
                                     QStringLiteral("zipf:batch=x"), QStringLiteral("uniform:batch=0,ids=1"),
                                     QStringLiteral("uniform:batch=64,ids=3,weights=1"), QString(), QStringLiteral("zipf:s=0.5")});
    if (name.endsWith(QLatin1String("Name")))
        return r.pick(QList<QString>{QString(), QStringLiteral("items"), QStringLiteral("tiny"), QStringLiteral("ü née"),
                                     QStringLiteral("a b"), QString(40, QLatin1Char('x'))});
    return r.pick(QList<QString>{
        QString::number(r.below(3000)), QString::number(r.below(64)), QStringLiteral("0"), QStringLiteral("-3"),
        QStringLiteral("16"), QStringLiteral("abc"), QStringLiteral("'sum'"), QStringLiteral("'mean'"),
        QStringLiteral("'sqrtn'"), QStringLiteral("None"), QStringLiteral("3.5"), QStringLiteral("-0.25"),
        QStringLiteral("(1, 2)"), QStringLiteral("(-1.0, 1.0)"), QStringLiteral("[1,"), QStringLiteral("True"),
        QStringLiteral("1e9"), QStringLiteral("''"), QStringLiteral("{'a': 1}"), QStringLiteral("0.1"),
        QStringLiteral("'div'"), QStringLiteral("'mod'"), QString()});
}

// The caps keep a random value from making the run slow (10M samples, 1000 training steps);
// they never exclude a kind of value.
double capOf(const QString& name) {
    if (name == QLatin1String("countSpin")) return 100000;
    if (name == QLatin1String("pipelineSteps")) return 40;
    return std::numeric_limits<double>::infinity();
}

QPoint somewhere(Rng& r, const QWidget* w) {
    return {r.below(std::max(1, w->width())), r.below(std::max(1, w->height()))};
}

void sendWheel(QWidget* w, const QPoint& pos, int delta, Qt::KeyboardModifiers mods) {
    QWheelEvent e(QPointF(pos), QPointF(w->mapToGlobal(pos)), QPoint(), QPoint(0, delta), Qt::NoButton, mods,
                  Qt::NoScrollPhase, false);
    QApplication::sendEvent(w, &e);
}

// Buttons whose only job is a file dialog; the code behind them is driven directly.
bool opensFileDialog(const QAbstractButton* b) {
    static const QStringList names{QStringLiteral("openDataButton"), QStringLiteral("openConfig"),
                                   QStringLiteral("modelOpenButton"), QStringLiteral("storedOriginalButton"),
                                   QStringLiteral("saveConfig"), QStringLiteral("browseTableDataFile"),
                                   QStringLiteral("browseFeatureIdsFile"), QStringLiteral("storageExportButton")};
    return names.contains(b->objectName());
}

}  // namespace

QString TstMonkey::editSpin(Rng& r) {
    const auto spins = usable<QAbstractSpinBox>([](QAbstractSpinBox* s) { return !s->isReadOnly(); });
    if (spins.isEmpty()) return {};
    QAbstractSpinBox* s = r.pick(spins);
    const double cap = capOf(s->objectName());
    const int how = std::isfinite(cap) ? 0 : r.below(10);
    if (how < 6) {
        const QString text = spinText(r, s, cap);
        s->setFocus();
        s->selectAll();
        QTest::keyClick(s, Qt::Key_Backspace);
        typeText(s, text);
        const bool enter = r.chance(80);
        if (enter) QTest::keyClick(s, Qt::Key_Enter);
        else s->clearFocus();  // commits too (editingFinished)
        return QStringLiteral("%1 type '%2'%3 -> %4").arg(describe(s), text, enter ? QStringLiteral("⏎") : QStringLiteral(" blur"), s->text());
    }
    if (how < 9) {
        const Qt::Key key = r.pick(QList<Qt::Key>{Qt::Key_Up, Qt::Key_Down, Qt::Key_PageUp, Qt::Key_PageDown});
        const int n = 1 + r.below(4);
        for (int i = 0; i < n; ++i) QTest::keyClick(s, key);
        return QStringLiteral("%1 key %2 x%3 -> %4").arg(describe(s), QKeySequence(key).toString()).arg(n).arg(s->text());
    }
    const int delta = (r.chance(50) ? 120 : -120) * (1 + r.below(3));
    sendWheel(s, s->rect().center(), delta, Qt::NoModifier);
    return QStringLiteral("%1 wheel %2 -> %3").arg(describe(s)).arg(delta).arg(s->text());
}

QString TstMonkey::editCombo(Rng& r) {
    const auto combos = usable<QComboBox>([](QComboBox* c) { return c->count() > 0; });
    if (combos.isEmpty()) return {};
    QComboBox* c = r.pick(combos);
    const Qt::Key key = r.pick(QList<Qt::Key>{Qt::Key_Up, Qt::Key_Down, Qt::Key_Down, Qt::Key_Home, Qt::Key_End, Qt::Key_PageDown});
    const int n = 1 + r.below(3);
    for (int i = 0; i < n; ++i) QTest::keyClick(c, key);
    return QStringLiteral("%1 key %2 x%3 -> '%4'").arg(describe(c), QKeySequence(key).toString()).arg(n).arg(c->currentText());
}

QString TstMonkey::clickButton(Rng& r) {
    const auto buttons = usable<QAbstractButton>([](QAbstractButton* b) { return !opensFileDialog(b); });
    if (buttons.isEmpty()) return {};
    QAbstractButton* b = r.pick(buttons);
    const QString name = describe(b);
    QPoint at = b->rect().center();
    if (auto* check = qobject_cast<QCheckBox*>(b)) {
        QStyleOptionButton option;
        option.initFrom(check);
        at = check->style()->subElementRect(QStyle::SE_CheckBoxIndicator, &option, check).center();
    }
    QTest::mouseClick(b, Qt::LeftButton, {}, at);
    return name;  // b may be gone (a dialog's Close button)
}

QString TstMonkey::editLine(Rng& r) {
    const auto edits = usable<QLineEdit>([](QLineEdit* e) {
        return !e->isReadOnly() && !qobject_cast<QAbstractSpinBox*>(e->parentWidget());
    });
    if (edits.isEmpty()) return {};
    QLineEdit* e = r.pick(edits);
    const QString name = e->objectName().isEmpty() && e->parentWidget() ? e->parentWidget()->objectName() : e->objectName();
    const QString text = lineText(r, name, dataFiles_ + QStringList{tmp(QStringLiteral("table.npy")), tmp(QStringLiteral("ids.csv"))});
    e->setFocus();
    if (r.chance(70)) {
        e->selectAll();
        QTest::keyClick(e, Qt::Key_Backspace);
    } else {
        e->end(false);
    }
    typeText(e, text);
    const bool enter = r.chance(50);
    if (enter) QTest::keyClick(e, Qt::Key_Return);
    return QStringLiteral("%1 type '%2'%3").arg(describe(e), oneLine(text), enter ? QStringLiteral("⏎") : QString());
}

QString TstMonkey::pickListRow(Rng& r) {
    const auto lists = usable<QListWidget>([](QListWidget* l) { return l->count() > 0; });
    if (lists.isEmpty()) return {};
    QListWidget* l = r.pick(lists);
    const int row = r.below(l->count());
    l->scrollToItem(l->item(row));
    QTest::mouseClick(l->viewport(), Qt::LeftButton, {}, l->visualItemRect(l->item(row)).center());
    return QStringLiteral("%1 row %2 -> current %3").arg(describe(l)).arg(row).arg(l->currentRow());
}

QString TstMonkey::switchTab(Rng& r) {
    const auto bars = usable<QTabBar>([](QTabBar* b) { return b->count() > 1; });
    if (bars.isEmpty()) return {};
    QTabBar* bar = r.pick(bars);
    const int i = r.below(bar->count());
    if (r.chance(60) && bar->tabRect(i).intersects(bar->rect())) {
        QTest::mouseClick(bar, Qt::LeftButton, {}, bar->tabRect(i).center());
        return QStringLiteral("click tab '%1' of %2 -> %3").arg(bar->tabText(i), describe(bar->parentWidget())).arg(bar->currentIndex());
    }
    bar->setCurrentIndex(i);  // what the tab's keyboard shortcut does
    return QStringLiteral("tab %1 of %2 -> %3").arg(i).arg(describe(bar->parentWidget())).arg(bar->currentIndex());
}

QString TstMonkey::dragPlot(Rng& r) {
    const auto plots = usable<QCustomPlot>();
    if (plots.isEmpty()) return {};
    QCustomPlot* plot = r.pick(plots);
    QPoint at = somewhere(r, plot);
    QString start = QStringLiteral("(%1,%2)").arg(at.x()).arg(at.y());
    // Most drags on a plot with range handles start on one of them.
    QList<RangeHandles*> handles;
    if (auto* frame = qobject_cast<PlotFrame*>(plot->parentWidget()))
        for (RangeHandles* h : frame->findChildren<RangeHandles*>())
            if (h->isVisible() && h->isDraggable()) handles << h;
    if (!handles.isEmpty() && r.chance(60)) {
        RangeHandles* h = r.pick(handles);
        const bool min = r.chance(50);
        const QRect rect = plot->axisRect()->rect();
        at = QPoint(int(std::lround(min ? h->minPixel() : h->maxPixel())), rect.top() + r.below(std::max(1, rect.height())));
        start = min ? QStringLiteral("min handle") : QStringLiteral("max handle");
    }
    const Qt::KeyboardModifiers mods = r.chance(70) ? Qt::NoModifier : r.chance(50) ? Qt::ControlModifier : Qt::ShiftModifier;
    const int steps = r.below(8);
    QPoint pos = at;
    QTest::mousePress(plot, Qt::LeftButton, mods, at);
    for (int i = 0; i < steps; ++i) {
        pos += QPoint(r.below(61) - 30, r.below(31) - 15);
        QTest::mouseMove(plot, pos);
    }
    QTest::mouseRelease(plot, Qt::LeftButton, mods, pos);
    return QStringLiteral("%1 %2 %3 %4 moves to (%5,%6)")
        .arg(describe(plot->parentWidget()), mods == Qt::NoModifier ? QString() : mods == Qt::ControlModifier ? QStringLiteral("ctrl") : QStringLiteral("shift"), start)
        .arg(steps).arg(pos.x()).arg(pos.y());
}

QString TstMonkey::wheelPlot(Rng& r) {
    const auto plots = usable<QCustomPlot>();
    if (plots.isEmpty()) return {};
    QCustomPlot* plot = r.pick(plots);
    const QPoint at = somewhere(r, plot);
    const int delta = (r.chance(50) ? 120 : -120) * (1 + r.below(4));
    sendWheel(plot, at, delta, r.chance(20) ? Qt::ControlModifier : Qt::NoModifier);
    return QStringLiteral("%1 at (%2,%3) by %4").arg(describe(plot->parentWidget())).arg(at.x()).arg(at.y()).arg(delta);
}

QString TstMonkey::doubleClickPlot(Rng& r) {
    const auto plots = usable<QCustomPlot>();
    if (plots.isEmpty()) return {};
    QCustomPlot* plot = r.pick(plots);
    const QPoint at = somewhere(r, plot);
    QTest::mouseDClick(plot, Qt::LeftButton, {}, at);
    return QStringLiteral("%1 at (%2,%3)").arg(describe(plot->parentWidget())).arg(at.x()).arg(at.y());
}

QString TstMonkey::contextMenuPlot(Rng& r) {
    const auto plots = usable<QCustomPlot>([](QCustomPlot* p) { return p->contextMenuPolicy() == Qt::CustomContextMenu; });
    if (plots.isEmpty()) return {};
    QCustomPlot* plot = r.pick(plots);
    const QPoint at = somewhere(r, plot);
    QContextMenuEvent e(QContextMenuEvent::Mouse, at, plot->mapToGlobal(at));
    QApplication::sendEvent(plot, &e);
    QString what = QStringLiteral("%1 at (%2,%3)").arg(describe(plot->parentWidget())).arg(at.x()).arg(at.y());
    auto* menu = qobject_cast<QMenu*>(QApplication::activePopupWidget());
    if (!menu) return what + QStringLiteral(": no menu");
    QList<QAction*> safe;
    for (QAction* a : menu->actions())
        if (!a->isSeparator() && a->isEnabled() && !a->text().contains(QStringLiteral("…"))) safe << a;
    menu->close();
    if (!safe.isEmpty() && r.chance(70)) {
        QAction* a = r.pick(safe);
        what += QStringLiteral(": ") + a->text();
        a->trigger();
    }
    return what;
}

QString TstMonkey::triggerMenu(Rng& r) {
    const QList<QWidget*> shown = windows();
    auto* window = qobject_cast<QMainWindow*>(shown[r.below(int(shown.size()))]);
    QList<QAction*> candidates;
    std::function<void(QMenu*)> collect = [&](QMenu* menu) {
        for (QAction* a : menu->actions()) {
            if (a->isSeparator() || !a->isEnabled()) continue;
            if (a->menu()) {
                collect(a->menu());
                continue;
            }
            // Dialogs ("…"), quitting, saving without a name (a dialog), the about box and
            // the lessons (their presets load a million samples) are not monkey business.
            const QString t = a->text();
            if (t.contains(QStringLiteral("…")) || t.startsWith(QLatin1String("&Quit")) ||
                t.startsWith(QLatin1String("&Save")) || t.startsWith(QLatin1String("&About")) ||
                a->objectName().startsWith(QLatin1String("lesson:")))
                continue;
            candidates << a;
        }
    };
    for (QAction* top : window->menuBar()->actions())
        if (top->menu()) collect(top->menu());
    if (candidates.isEmpty()) return {};
    QAction* a = r.pick(candidates);
    const QString text = QString(a->text()).remove(QLatin1Char('&'));
    a->trigger();
    return QStringLiteral("%1: %2").arg(window == w_.get() ? QStringLiteral("explorer") : QStringLiteral("workbench"), text);
}

QString TstMonkey::pressShortcut(Rng& r) {
    static const QList<QKeySequence> keys{
        QKeySequence(Qt::CTRL | Qt::Key_Z), QKeySequence(Qt::CTRL | Qt::Key_Y), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Z),
        QKeySequence(Qt::Key_F5), QKeySequence(Qt::Key_Escape), QKeySequence(Qt::ALT | Qt::Key_1),
        QKeySequence(Qt::ALT | Qt::Key_3), QKeySequence(Qt::ALT | Qt::Key_5), QKeySequence(Qt::ALT | Qt::Key_7),
        QKeySequence(Qt::ALT | Qt::Key_9), QKeySequence(Qt::CTRL | Qt::Key_BracketRight),
        QKeySequence(Qt::CTRL | Qt::Key_BracketLeft), QKeySequence(Qt::CTRL | Qt::Key_0), QKeySequence(Qt::CTRL | Qt::Key_R),
        QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_T), QKeySequence(Qt::CTRL | Qt::Key_B), QKeySequence(Qt::Key_Right),
        QKeySequence(Qt::Key_Left), QKeySequence(Qt::Key_PageDown), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_C)};
    const QKeySequence key = r.pick(keys);
    QWidget* target = QApplication::activeWindow();
    if (!target) target = w_.get();
    if (QWidget* f = QApplication::focusWidget(); f && f->window() == target) target = f;
    const QKeyCombination k = key[0];
    QTest::keyClick(target, k.key(), k.keyboardModifiers());
    return QStringLiteral("%1 on %2").arg(key.toString(), describe(target));
}

QString TstMonkey::undoRedo(Rng& r) {
    const bool bench = bench_ && bench_->isVisible() && r.chance(35);
    QUndoStack* stack = bench ? bench_->model()->undoStack() : model_->undoStack();
    const bool undo = r.chance(60);
    const int n = 1 + r.below(4);
    for (int i = 0; i < n; ++i) undo ? stack->undo() : stack->redo();
    return QStringLiteral("%1 %2 x%3 -> %4/%5").arg(bench ? QStringLiteral("workbench") : QStringLiteral("explorer"),
                                                    undo ? QStringLiteral("undo") : QStringLiteral("redo")).arg(n).arg(stack->index()).arg(stack->count());
}

// Undoing k steps and redoing them gives back the same state.
QString TstMonkey::undoRedoRoundTrip(Rng& r) {
    const bool bench = bench_ && bench_->isVisible() && r.chance(35);
    QUndoStack* stack = bench ? bench_->model()->undoStack() : model_->undoStack();
    auto state = [&] {
        if (!bench) {
            QJsonObject o = sessionToJson(w_->currentSession());
            o.remove(QStringLiteral("view"));  // not undoable
            return o;
        }
        QJsonObject o = embeddingDocumentToJson(bench_->model()->document());
        o.remove(QStringLiteral("view"));
        return o;
    };
    const QJsonObject before = state();
    const int k = std::min(stack->index(), 1 + r.below(6));
    for (int i = 0; i < k; ++i) stack->undo();
    for (int i = 0; i < k; ++i) stack->redo();
    const QString what = QStringLiteral("%1 undo+redo %2").arg(bench ? QStringLiteral("workbench") : QStringLiteral("explorer")).arg(k);
    if (state() != before)
        fail(QStringLiteral("undoing and redoing %1 steps changed the state:\n  %2\n  %3")
                 .arg(k).arg(QString::fromUtf8(QJsonDocument(before).toJson(QJsonDocument::Compact)),
                             QString::fromUtf8(QJsonDocument(state()).toJson(QJsonDocument::Compact))));
    return what;
}

QString TstMonkey::loadDataFile(Rng& r) {
    DataSource source = model_->dataSource();
    if (r.chance(25)) {
        source.path.clear();  // back to a generator
        source.generator = r.pick(QList<QString>{kSmallData, QStringLiteral("uniform:n=5000,seed=2"),
                                                 QStringLiteral("laplace:n=30000,seed=3,loc=0,scale=0.5"),
                                                 QStringLiteral("sine:n=4096"), QStringLiteral("mixture:n=20000")});
    } else {
        source.path = r.pick(dataFiles_);  // what the file dialog would return
    }
    model_->setDataSource(source);
    QString what = source.isFile() ? QFileInfo(source.path).fileName() : source.generator;
    if (r.chance(10)) {  // and cancel it at once
        w_->dataService()->cancel();
        what += QStringLiteral(" (cancelled)");
    }
    return what;
}

// Opens a model file as File → Open model… would, or explores one of the open model's
// tensors as a click in the Model dock would (sometimes also the workbench's table button).
QString TstMonkey::modelFile(Rng& r) {
    const auto model = w_->modelFiles()->model();
    if (!model || r.chance(30)) {
        const QString path = r.pick(modelFiles_);
        w_->openModel(path);
        return QStringLiteral("open model %1").arg(QFileInfo(path).fileName());
    }
    if (model->tensors().empty()) return {};
    const auto& t = model->tensors()[static_cast<size_t>(r.below(int(std::min<size_t>(model->tensors().size(), 1000))))];
    const QString name = QString::fromStdString(t.name);
    QString error;
    const bool ok = w_->modelFiles()->selectTensor(name, &error);
    return QStringLiteral("tensor %1 -> %2").arg(name, ok ? QStringLiteral("chosen") : oneLine(error));
}

QString TstMonkey::openSessionFile(Rng& r) {
    const QStringList files = sessionFiles_ + savedSessions_;
    const QString path = r.pick(files);
    QString error;
    const bool ok = w_->openSession(path, &error);
    return QStringLiteral("%1 -> %2").arg(QFileInfo(path).fileName(), ok ? QStringLiteral("opened") : oneLine(error));
}

QString TstMonkey::saveSessionFile(Rng& r) {
    if (r.chance(10)) {
        const bool ok = w_->saveSessionAs(tmp(QStringLiteral("no/such/dir/x.qscope")));
        if (ok) fail(QStringLiteral("saving into a missing directory succeeded"));
        return QStringLiteral("into a missing directory -> refused");
    }
    const QString path = tmp(QStringLiteral("saved%1.qscope").arg(r.below(6)));
    const bool ok = w_->saveSessionAs(path);
    if (!ok) fail(QStringLiteral("saving %1 failed").arg(path));
    if (!savedSessions_.contains(path)) savedSessions_ << path;
    return QFileInfo(path).fileName();
}

QString TstMonkey::exportView(Rng& r) {
    QList<PlotFrame*> frames;
    for (QWidget* window : windows()) frames << window->findChildren<PlotFrame*>();
    PlotFrame* view = r.chance(50) && w_->currentPlot() ? w_->currentPlot() : r.pick(frames);
    const bool bad = r.chance(10);
    const QString base = bad ? tmp(QStringLiteral("no/such/dir/view")) : tmp(QStringLiteral("view"));
    QString error, path;
    bool ok = false;
    switch (r.below(5)) {
        case 0:
            path = base + QStringLiteral(".png");
            ok = view->exporter().exportImage(path, 200 + r.below(400), 150 + r.below(300), r.chance(50) ? 96 : 192, &error);
            break;
        case 1: path = base + QStringLiteral(".svg"); ok = view->exporter().exportSvg(path, 400, 300, &error); break;
        case 2: path = base + QStringLiteral(".pdf"); ok = view->exporter().exportPdf(path, 400, 300, &error); break;
        case 3: path = base + QStringLiteral(".csv"); ok = view->exporter().exportCsv(path, &error); break;
        default: path = base + QStringLiteral("-stats.csv"); ok = w_->statsPanel()->exportCsv(path, &error); break;
    }
    if (ok == bad || (ok && QFileInfo(path).size() == 0))
        fail(QStringLiteral("export to %1: %2 (%3)").arg(path, ok ? QStringLiteral("succeeded") : QStringLiteral("failed"), error));
    return QStringLiteral("%1 as %2%3").arg(describe(view), QFileInfo(path).fileName(), bad ? QStringLiteral(" (refused)") : QString());
}

QString TstMonkey::togglePresentation(Rng&) {
    w_->presentationMode()->action()->trigger();
    return w_->presentationMode()->isOn() ? QStringLiteral("on") : QStringLiteral("off");
}

QString TstMonkey::toggleWorkbench(Rng& r) {
    if (bench_ && bench_->isVisible() && r.chance(40)) {
        bench_->close();
        return QStringLiteral("closed");
    }
    const bool first = !bench_;
    bench_ = w_->showWorkbench();
    if (first) {  // start from the small configuration (the default one is small too)
        bench_->resize(900, 600);
        QString error;
        if (!bench_->openConfig(configFiles_.first(), &error)) fail(QStringLiteral("small.json: ") + error);
    }
    if (r.chance(30)) w_->activateWindow();
    return QStringLiteral("shown%1").arg(first ? QStringLiteral(" (first time)") : QString());
}

QString TstMonkey::workbenchFile(Rng& r) {
    if (!bench_ || !bench_->isVisible()) return {};
    QString error;
    switch (r.below(6)) {
        case 0:
        case 1: {
            // The shipped example is large (100000 x 64): rarely.
            QStringList files = configFiles_;
            if (!r.chance(10)) files.removeAll(QStringLiteral(QS_SOURCE_DIR "/resources/embedding/example.json"));
            const QString path = r.pick(files);
            const bool ok = bench_->openConfig(path, &error);
            return QStringLiteral("open %1 -> %2").arg(QFileInfo(path).fileName(), ok ? QStringLiteral("opened") : oneLine(error));
        }
        case 2: {
            const QString path = tmp(QStringLiteral("config%1.json").arg(r.below(3)));
            if (!bench_->saveConfig(path, &error)) fail(QStringLiteral("saving %1: %2").arg(path, error));
            if (!configFiles_.contains(path)) configFiles_ << path;
            return QStringLiteral("save ") + QFileInfo(path).fileName();
        }
        case 3: {
            const bool ok = bench_->saveConfig(tmp(QStringLiteral("no/such/dir/c.json")), &error);
            if (ok) fail(QStringLiteral("saving a configuration into a missing directory succeeded"));
            return QStringLiteral("save into a missing directory -> refused");
        }
        case 4:
            bench_->controller()->exportStorage(tmp(QStringLiteral("codes.npy")));
            return QStringLiteral("export storage codes.npy");
        default:
            bench_->model()->reset(EmbeddingDocument::example());
            return QStringLiteral("new configuration");
    }
}

QString TstMonkey::settleAction(Rng&) {
    if (!settle()) fail(QStringLiteral("the background work did not finish"));
    const QStringList p = settledExplorerProblems() + settledWorkbenchProblems();
    if (!p.isEmpty()) fail(p.join(QStringLiteral("\n  ")));
    return QStringLiteral("done");
}

QTEST_MAIN(TstMonkey)
#include "tst_monkey.moc"
