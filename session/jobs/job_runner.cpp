#include "session/jobs/job_runner.h"

#include <QtConcurrent/QtConcurrentRun>
#include <exception>

namespace qs::ui {

JobContext::JobContext(JobRunner* runner, std::shared_ptr<std::atomic<bool>> cancel, quint64 generation)
    : runner_(runner), cancel_(std::move(cancel)), generation_(generation) {
    timer_.start();
}

bool JobContext::progress(double fraction) const {
    // The runner outlives the job (its destructor waits), so posting to it is safe; a job
    // discarded meanwhile reports nothing.
    JobRunner* runner = runner_;
    const quint64 generation = generation_;
    QMetaObject::invokeMethod(runner, [runner, generation, fraction] {
        if (generation == runner->generation_) emit runner->progress(fraction);
    }, Qt::QueuedConnection);
    return !cancelled();
}

JobRunner::JobRunner(QString failureText, QObject* parent)
    : QObject(parent), failureText_(failureText.isEmpty() ? tr("the computation failed") : std::move(failureText)) {
    connect(&watcher_, &QFutureWatcher<Delivery>::finished, this, &JobRunner::finished);
}

JobRunner::~JobRunner() {
    discard();
    watcher_.waitForFinished();
}

void JobRunner::submit(Job job, Running running, quint64 tag) {
    queued_ = Pending{std::move(job), tag};
    if (!running_) {
        startNext();
        return;
    }
    if (running != Running::Finish) cancel();
    if (running == Running::Discard) ++generation_;
}

void JobRunner::cancel() {
    if (running_ && cancel_) cancel_->store(true);
}

void JobRunner::dropQueued() { queued_.reset(); }

void JobRunner::discard() {
    dropQueued();
    cancel();
    ++generation_;
}

void JobRunner::startNext() {
    if (!queued_) return;
    Pending next = std::move(*queued_);
    queued_.reset();
    running_ = true;
    runningGeneration_ = generation_;
    cancel_ = std::make_shared<std::atomic<bool>>(false);
    emit started(next.tag);
    // `this` outlives the job: the destructor waits for it.
    watcher_.setFuture(QtConcurrent::run(
        [this, next = std::move(next), cancel = cancel_, generation = generation_,
         failureText = failureText_]() -> Delivery {
            const JobContext context(this, cancel, generation);
            QString message;
            try {
                return next.job(context);
            } catch (const std::exception& e) {  // e.g. bad_alloc on huge data: report, keep the app
                message = failureText + QStringLiteral(": ") + QString::fromLocal8Bit(e.what());
            } catch (...) {
                message = failureText + QStringLiteral(": ") + tr("an unknown error");
            }
            return [this, message, tag = next.tag] { emit failed(message, tag); };
        }));
}

void JobRunner::finished() {
    running_ = false;
    const Delivery deliver = watcher_.result();
    if (deliver && runningGeneration_ == generation_) deliver();
    startNext();
    if (!busy()) emit idle();
}

}  // namespace qs::ui
