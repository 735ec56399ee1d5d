#include "ui/compute/latest_job.h"

#include <QtConcurrent/QtConcurrentRun>
#include <exception>

namespace qs::ui {

LatestJob::LatestJob(QObject* parent) : QObject(parent) {
    connect(&watcher_, &QFutureWatcher<std::function<void()>>::finished, this, &LatestJob::finished);
}

LatestJob::~LatestJob() {
    ++generation_;
    watcher_.waitForFinished();
}

void LatestJob::submit(Job job) {
    queued_ = std::move(job);
    if (!running_) startNext();
}

void LatestJob::discard() {
    queued_.reset();
    ++generation_;
}

void LatestJob::startNext() {
    if (!queued_) return;
    Job job = std::move(*queued_);
    queued_.reset();
    running_ = true;
    runningGeneration_ = generation_;
    // `this` outlives the job: the destructor waits for it.
    watcher_.setFuture(QtConcurrent::run([this, job = std::move(job)]() -> std::function<void()> {
        try {
            return job();
        } catch (const std::exception& e) {  // e.g. bad_alloc: report it, keep the app
            const QString message = QStringLiteral("the computation failed: ") + QString::fromLocal8Bit(e.what());
            return [this, message] { emit failed(message); };
        }
    }));
}

void LatestJob::finished() {
    running_ = false;
    std::function<void()> deliver = watcher_.result();
    if (deliver && runningGeneration_ == generation_) deliver();
    startNext();
    if (!busy()) emit idle();
}

}  // namespace qs::ui
