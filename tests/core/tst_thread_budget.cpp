// The process-wide thread budget behind parallelFor: overlapping calls share the workers
// instead of multiplying them, a call with nothing free still finishes on its caller, and
// the split never changes a result.
#include <QTest>
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstring>
#include <mutex>
#include <set>
#include <thread>
#include <vector>

#include "core/analysis/quant_spec.h"
#include "core/data/generators.h"
#include "core/tensor.h"
#include "core/thread_budget.h"

namespace {

// Sets the process budget for one test and puts the old size back.
class BudgetScope {
public:
    explicit BudgetScope(int workers) : old_(qs::ThreadBudget::process().capacity()) {
        qs::ThreadBudget::process().setCapacity(workers);
    }
    ~BudgetScope() { qs::ThreadBudget::process().setCapacity(old_); }

private:
    int old_;
};

// Counts how many threads run chunks at once, and how many of them are workers (not a caller).
struct Occupancy {
    std::atomic<int> active{0}, activeWorkers{0}, peak{0}, peakWorkers{0};
    void enter(bool worker) {
        const int a = ++active;
        const int w = worker ? ++activeWorkers : activeWorkers.load();
        int p = peak.load();
        while (a > p && !peak.compare_exchange_weak(p, a)) {}
        p = peakWorkers.load();
        while (w > p && !peakWorkers.compare_exchange_weak(p, w)) {}
    }
    void leave(bool worker) {
        --active;
        if (worker) --activeWorkers;
    }
};

// One parallelFor over n items (each chunk sleeps a little so calls overlap); returns how
// often each item was visited.
std::vector<int> visit(Occupancy& occupancy, int threads, int64_t n) {
    std::vector<std::atomic<int>> seen(static_cast<size_t>(n));
    const std::thread::id caller = std::this_thread::get_id();
    qs::parallelFor(qs::Exec{threads}, n, 1, [&](int64_t b, int64_t e) {
        const bool worker = std::this_thread::get_id() != caller;
        occupancy.enter(worker);
        for (int64_t i = b; i < e; ++i) ++seen[static_cast<size_t>(i)];
        std::this_thread::sleep_for(std::chrono::milliseconds(30));
        occupancy.leave(worker);
    });
    std::vector<int> counts;
    for (auto& s : seen) counts.push_back(s.load());
    return counts;
}

}  // namespace

class TstThreadBudget : public QObject {
    Q_OBJECT
private slots:
    void acquireTakesWhatIsFree() {
        qs::ThreadBudget budget(3);
        QCOMPARE(budget.acquire(2), 2);
        QCOMPARE(budget.acquire(5), 1);  // only one left
        QCOMPARE(budget.acquire(1), 0);
        QCOMPARE(budget.inUse(), 3);
        budget.release(2);
        QCOMPARE(budget.acquire(4), 2);
        budget.release(3);
        QCOMPARE(budget.inUse(), 0);
        QCOMPARE(budget.acquire(0), 0);
        {
            qs::BudgetLease lease(budget, 2);
            QCOMPARE(lease.workers(), 2);
            QCOMPARE(budget.inUse(), 2);
        }
        QCOMPARE(budget.inUse(), 0);
    }

    void aCallAloneUsesItsThreads() {
        BudgetScope scope(3);
        Occupancy occupancy;
        const std::vector<int> counts = visit(occupancy, 4, 64);
        QVERIFY(std::all_of(counts.begin(), counts.end(), [](int c) { return c == 1; }));
        QCOMPARE(occupancy.peak.load(), 4);  // the caller and three workers
        QCOMPARE(qs::ThreadBudget::process().inUse(), 0);  // all given back
    }

    void overlappingCallsShareTheBudget() {
        BudgetScope scope(2);
        Occupancy occupancy;
        std::vector<int> a, b;
        // Each asks for 8 threads; together they may start at most 2 workers.
        std::thread first([&] { a = visit(occupancy, 8, 256); });
        std::thread second([&] { b = visit(occupancy, 8, 256); });
        first.join();
        second.join();
        for (const auto* counts : {&a, &b}) {
            QCOMPARE(counts->size(), size_t{256});
            QVERIFY(std::all_of(counts->begin(), counts->end(), [](int c) { return c == 1; }));
        }
        QVERIFY2(occupancy.peakWorkers.load() <= 2, qPrintable(QString::number(occupancy.peakWorkers.load())));
        QVERIFY(occupancy.peak.load() <= 2 + 2);  // the workers plus the two callers
        QCOMPARE(qs::ThreadBudget::process().inUse(), 0);
    }

    void aBudgetOfOneThreadStillCompletes() {
        BudgetScope scope(0);  // no workers: every call runs on its caller
        Occupancy occupancy;
        const std::vector<int> counts = visit(occupancy, 8, 100);
        QVERIFY(std::all_of(counts.begin(), counts.end(), [](int c) { return c == 1; }));
        QCOMPARE(occupancy.peakWorkers.load(), 0);
        QCOMPARE(occupancy.peak.load(), 1);
    }

    void theWorkSizeBoundsTheThreads() {
        BudgetScope scope(7);
        Occupancy occupancy;
        std::vector<std::atomic<int>> seen(100);
        // 100 items at least 40 per thread: two threads at most.
        qs::parallelFor(qs::Exec{8}, 100, 40, [&](int64_t b, int64_t e) {
            occupancy.enter(false);
            for (int64_t i = b; i < e; ++i) ++seen[static_cast<size_t>(i)];
            std::this_thread::sleep_for(std::chrono::milliseconds(20));
            occupancy.leave(false);
        });
        QVERIFY(occupancy.peak.load() <= 2);
        QVERIFY(std::all_of(seen.begin(), seen.end(), [](const std::atomic<int>& c) { return c.load() == 1; }));
    }

    // Whatever the budget leaves a call, the numbers are the same bits.
    void resultsDoNotDependOnTheBudget() {
        const int64_t n = int64_t{1} << 20;
        auto run = [n](int workers) {
            BudgetScope scope(workers);
            const qs::Exec exec{8};
            qs::data::Dataset d = qs::data::normal(n, 11, 0.0, 1.0, exec);
            qs::QuantSpec spec;
            spec.op = qs::QuantOp::QuantizeAndDequantizeV2;
            spec.num_bits = 5;
            spec.round_mode = qs::RoundMode::HalfToEven;
            std::vector<float> y(d.values.size());
            auto r = qs::applySpec(spec, d.ref(), y, {}, exec);
            if (!r) qFatal("%s", r.error().message.c_str());
            std::vector<float> all = d.values;
            all.insert(all.end(), y.begin(), y.end());
            return all;
        };
        const std::vector<float> alone = run(0), shared = run(7), some = run(2);
        QVERIFY(std::memcmp(alone.data(), shared.data(), alone.size() * sizeof(float)) == 0);
        QVERIFY(std::memcmp(alone.data(), some.data(), alone.size() * sizeof(float)) == 0);
    }
};

QTEST_APPLESS_MAIN(TstThreadBudget)
#include "tst_thread_budget.moc"
