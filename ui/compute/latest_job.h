// A background job with a one-slot queue, for the analysis panels (lesson checks, the
// framework comparison): the job runs on the thread pool and returns what to do with its
// result, which then runs on the UI thread. While one runs, newer submissions replace the
// queued one, so a burst of parameter edits costs one extra run, not one per edit.
#pragma once

#include <QFutureWatcher>
#include <QObject>
#include <functional>
#include <optional>

namespace qs::ui {

class LatestJob : public QObject {
    Q_OBJECT
public:
    // Runs off the UI thread; the returned function (may be empty) runs on the UI thread.
    using Job = std::function<std::function<void()>()>;

    explicit LatestJob(QObject* parent = nullptr);
    ~LatestJob() override;  // waits for a running job, drops its delivery

    void submit(Job job);
    // Forgets the queued job and drops the running one's delivery.
    void discard();
    bool busy() const { return running_ || queued_.has_value(); }

signals:
    // A job threw (e.g. bad_alloc): its message, on the UI thread, unless the job was
    // discarded or replaced meanwhile.
    void failed(const QString& message);
    void idle();  // after a delivery, when nothing is queued

private:
    void startNext();
    void finished();

    std::optional<Job> queued_;
    bool running_ = false;
    quint64 generation_ = 0, runningGeneration_ = 0;
    QFutureWatcher<std::function<void()>> watcher_;
};

}  // namespace qs::ui
