// JobRunner, the one runner behind every service: newest request wins, cancel, progress,
// exceptions as messages, discard, and no delivery once the runner is gone.
#include <QSemaphore>
#include <QSignalSpy>
#include <QTest>
#include <atomic>
#include <memory>
#include <new>
#include <stdexcept>

#include "session/jobs/job_runner.h"

using qs::ui::JobContext;
using qs::ui::JobRunner;

namespace {

// A job that blocks until the gate opens (or it is cancelled), then delivers `value` into `out`.
JobRunner::Job gated(QSemaphore* gate, int value, QList<int>* out) {
    return [gate, value, out](const JobContext& c) -> JobRunner::Delivery {
        while (!gate->tryAcquire(1, 5))
            if (c.cancelled()) return [out] { out->append(-1); };
        return [value, out] { out->append(value); };
    };
}

JobRunner::Job delivering(int value, QList<int>* out) {
    return [value, out](const JobContext&) -> JobRunner::Delivery { return [value, out] { out->append(value); }; };
}

}  // namespace

class TstJobRunner : public QObject {
    Q_OBJECT
private slots:
    // Each test below starts with a fresh runner, an idle spy, a closed gate and no deliveries.
    void init() {
        runner_ = std::make_unique<JobRunner>();
        idle_ = std::make_unique<QSignalSpy>(runner_.get(), &JobRunner::idle);
        gate_ = std::make_unique<QSemaphore>();
        delivered_.clear();
    }
    void cleanup() {
        gate_->release(10);  // a test that failed early must not leave a job blocked
        idle_.reset();
        runner_.reset();
    }

    void newestQueuedRequestWins() {
        runner_->submit(gated(gate_.get(), 1, &delivered_));
        QVERIFY(runner_->running());
        runner_->submit(delivering(2, &delivered_));  // replaced by 3 before it starts
        runner_->submit(delivering(3, &delivered_));
        QVERIFY(runner_->hasQueued());
        gate_->release();
        QTRY_COMPARE(idle_->count(), 1);
        // The running job finished and delivered (a drag shows results), then the newest.
        QCOMPARE(delivered_, (QList<int>{1, 3}));
        QVERIFY(!runner_->busy());
    }

    void cancelStopsTheRunningJobWhichReportsIt() {
        runner_->submit(gated(gate_.get(), 1, &delivered_));
        runner_->cancel();
        QTRY_COMPARE(idle_->count(), 1);
        QCOMPARE(delivered_, (QList<int>{-1}));
    }

    void aCancellingSubmissionCancelsTheRunningJob() {
        runner_->submit(gated(gate_.get(), 1, &delivered_));
        runner_->submit(delivering(2, &delivered_), JobRunner::Running::Cancel);
        QTRY_COMPARE(idle_->count(), 1);
        QCOMPARE(delivered_, (QList<int>{-1, 2}));  // the first reports its cancel
    }

    void aDiscardingSubmissionDropsTheRunningJobsDelivery() {
        runner_->submit(gated(gate_.get(), 1, &delivered_));
        runner_->submit(delivering(2, &delivered_), JobRunner::Running::Discard);
        QTRY_COMPARE(idle_->count(), 1);
        QCOMPARE(delivered_, (QList<int>{2}));
    }

    void discardDropsQueuedAndRunning() {
        runner_->submit(gated(gate_.get(), 1, &delivered_));
        runner_->submit(delivering(2, &delivered_));
        runner_->discard();
        QTRY_COMPARE(idle_->count(), 1);
        QVERIFY(delivered_.isEmpty());
        runner_->submit(delivering(3, &delivered_));  // usable afterwards
        QTRY_COMPARE(idle_->count(), 2);
        QCOMPARE(delivered_, (QList<int>{3}));
    }

    void progressArrivesOnTheUiThreadInOrder() {
        QSignalSpy progress(runner_.get(), &JobRunner::progress);
        QThread* uiThread = QThread::currentThread();
        QThread* seen = nullptr;
        connect(runner_.get(), &JobRunner::progress, this, [&seen] { seen = QThread::currentThread(); });
        std::atomic<bool> keptGoing{false};
        runner_->submit([&keptGoing](const JobContext& c) -> JobRunner::Delivery {
            c.progress(0.25);
            keptGoing = c.progressCallback()(0.75);  // the core's callback form
            return {};
        });
        QTRY_COMPARE(idle_->count(), 1);
        QCOMPARE(progress.count(), 2);
        QCOMPARE(progress.at(0).at(0).toDouble(), 0.25);
        QCOMPARE(progress.at(1).at(0).toDouble(), 0.75);
        QCOMPARE(seen, uiThread);
        QVERIFY(keptGoing);  // not cancelled: the callback says go on
    }

    void startedCarriesTheTag() {
        QSignalSpy started(runner_.get(), &JobRunner::started);
        QList<int> delivered;
        runner_->submit(delivering(1, &delivered), JobRunner::Running::Finish, 42);
        QTRY_COMPARE(idle_->count(), 1);
        QCOMPARE(started.count(), 1);
        QCOMPARE(started.first().at(0).toULongLong(), 42ull);
    }

    // Any exception reaches the UI as the message the user sees, with the caller's tag; the
    // runner stays usable.
    void exceptionsBecomeMessages() {
        JobRunner runner(QStringLiteral("the analysis failed"));
        QSignalSpy failed(&runner, &JobRunner::failed);
        QSignalSpy idle(&runner, &JobRunner::idle);
        runner.submit([](const JobContext&) -> JobRunner::Delivery { throw std::bad_alloc(); },
                      JobRunner::Running::Finish, 7);
        QTRY_COMPARE(idle.count(), 1);
        QCOMPARE(failed.count(), 1);
        const QString message = failed.first().at(0).toString();
        QVERIFY2(message.startsWith(QStringLiteral("the analysis failed: ")) && message.contains(QStringLiteral("bad_alloc")),
                 qPrintable(message));
        QCOMPARE(failed.first().at(1).toULongLong(), 7ull);

        runner.submit([](const JobContext&) -> JobRunner::Delivery { throw 42; });  // not a std::exception
        QTRY_COMPARE(idle.count(), 2);
        QCOMPARE(failed.count(), 2);
        QCOMPARE(failed.at(1).at(0).toString(), QStringLiteral("the analysis failed: an unknown error"));

        QList<int> delivered;
        runner.submit(delivering(5, &delivered));
        QTRY_COMPARE(idle.count(), 3);
        QCOMPARE(delivered, (QList<int>{5}));
        QCOMPARE(failed.count(), 2);
    }

    void theDefaultFailureText() {
        QSignalSpy failed(runner_.get(), &JobRunner::failed);
        runner_->submit([](const JobContext&) -> JobRunner::Delivery { throw std::runtime_error("boom"); });
        QTRY_COMPARE(failed.count(), 1);
        QCOMPARE(failed.first().at(0).toString(), QStringLiteral("the computation failed: boom"));
    }

    void theFailureOfADiscardedJobIsDropped() {
        QSignalSpy failed(runner_.get(), &JobRunner::failed);
        runner_->submit([](const JobContext&) -> JobRunner::Delivery { throw std::runtime_error("stale"); });
        runner_->discard();  // e.g. the lesson changed: its verdict, or failure, must not show
        QTRY_COMPARE(idle_->count(), 1);
        QCOMPARE(failed.count(), 0);
    }

    // The destructor cancels and waits for the running job; neither its delivery nor its
    // progress reaches anyone afterwards.
    void nothingIsDeliveredAfterDestruction() {
        auto delivered = std::make_shared<QList<int>>();
        auto progressed = std::make_shared<int>(0);
        std::atomic<bool> sawCancel{false};
        {
            JobRunner runner;
            connect(&runner, &JobRunner::progress, this, [progressed] { ++*progressed; });
            QSemaphore started;
            runner.submit([&started, &sawCancel, delivered](const JobContext& c) -> JobRunner::Delivery {
                c.progress(0.5);
                started.release();
                while (!c.cancelled()) QThread::msleep(2);
                sawCancel = true;
                return [delivered] { delivered->append(1); };
            });
            QVERIFY(started.tryAcquire(1, 5000));
        }  // waits here
        QVERIFY(sawCancel);
        QTest::qWait(50);
        QCoreApplication::processEvents();
        QVERIFY(delivered->isEmpty());
        QCOMPARE(*progressed, 0);
    }

private:
    std::unique_ptr<JobRunner> runner_;
    std::unique_ptr<QSignalSpy> idle_;
    std::unique_ptr<QSemaphore> gate_;
    QList<int> delivered_;
};

QTEST_GUILESS_MAIN(TstJobRunner)
#include "tst_job_runner.moc"
