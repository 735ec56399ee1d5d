// The one way QuantScope runs work off the UI thread. Every service (explorer, data,
// analyses, workbench lanes, lessons, the framework comparison) is a thin user of it.
//
//   * Serial, newest request wins: one job runs on the thread pool, at most one waits (a
//     one-slot queue that newer submissions overwrite), so a burst of edits costs one extra
//     run, not one per edit. By default the running job finishes and delivers (a drag shows
//     results at the speed of the computation); a submission may instead cancel it (a new
//     load makes the old one pointless) or discard it (its outcome must not show at all).
//   * Cancel: each job gets a token it polls (JobContext::cancelled, or cancelFlag() for the
//     core's `const std::atomic<bool>*` options, or progress()'s return value).
//   * Progress: JobContext::progress(fraction) reaches progress() on the UI thread.
//   * Errors: any exception a job throws (std::exception or anything else) becomes
//     failed(message, tag) on the UI thread, "<failure text>: <what()>"; the app stays up.
//   * Delivery: a job returns what to do with its result; that runs on the UI thread, unless
//     the job was discarded (discard(), a Discard submission or the runner's destruction).
//   * The destructor cancels the running job and waits for it; nothing is delivered after.
#pragma once

#include <QElapsedTimer>
#include <QFutureWatcher>
#include <QObject>
#include <QString>
#include <atomic>
#include <functional>
#include <memory>
#include <optional>

namespace qs::ui {

class JobRunner;

// What a running job sees: its cancel token, its progress reporter and its clock.
class JobContext {
public:
    bool cancelled() const { return cancel_->load(); }
    // The core's cancel option (ExplorerOptions::cancel and friends); valid while the job runs.
    const std::atomic<bool>* cancelFlag() const { return cancel_.get(); }
    // Reports fraction (0..1) to JobRunner::progress on the UI thread; false once cancelled,
    // so it fits the core's `std::function<bool(double)>` progress callbacks as it is.
    bool progress(double fraction) const;
    std::function<bool(double)> progressCallback() const {
        return [this](double fraction) { return progress(fraction); };
    }
    double elapsedMilliseconds() const { return static_cast<double>(timer_.nsecsElapsed()) / 1e6; }

private:
    friend class JobRunner;
    JobContext(JobRunner* runner, std::shared_ptr<std::atomic<bool>> cancel, quint64 generation);
    JobRunner* runner_;
    std::shared_ptr<std::atomic<bool>> cancel_;
    quint64 generation_;
    QElapsedTimer timer_;
};

class JobRunner : public QObject {
    Q_OBJECT
public:
    // Runs on the UI thread with the job's result (may be empty: nothing to show).
    using Delivery = std::function<void()>;
    // Runs on the thread pool.
    using Job = std::function<Delivery(const JobContext&)>;
    // What a new submission does to the job that is running.
    enum class Running {
        Finish,   // let it finish and deliver (then the newest queued job starts)
        Cancel,   // cancel it; it still delivers (typically its "cancelled" outcome)
        Discard,  // cancel it and drop its delivery and progress
    };

    // failureText starts the message of a job that threw (empty: "the computation failed").
    explicit JobRunner(QString failureText = {}, QObject* parent = nullptr);
    ~JobRunner() override;  // cancels and waits for the running job; delivers nothing more

    // Queues `job` in place of a queued one that has not started; `tag` comes back with
    // started() and failed() (the caller's serial number, or 0).
    void submit(Job job, Running running = Running::Finish, quint64 tag = 0);
    void cancel();      // the running job (it delivers its cancelled outcome)
    void dropQueued();  // forgets the job waiting to start
    void discard();     // dropQueued, then cancel the running job and drop its delivery

    bool running() const { return running_; }  // false while a delivery runs
    bool hasQueued() const { return queued_.has_value(); }
    bool busy() const { return running_ || queued_.has_value(); }

signals:
    void started(quint64 tag);
    void progress(double fraction);
    void failed(const QString& message, quint64 tag);
    void idle();  // after a delivery, when nothing is queued

private:
    friend class JobContext;
    struct Pending {
        Job job;
        quint64 tag = 0;
    };
    void startNext();
    void finished();

    QString failureText_;
    std::optional<Pending> queued_;
    bool running_ = false;
    // Bumped to drop the running job's delivery; a job delivers only if it is unchanged.
    quint64 generation_ = 0, runningGeneration_ = 0;
    std::shared_ptr<std::atomic<bool>> cancel_;
    QFutureWatcher<Delivery> watcher_;
};

}  // namespace qs::ui
