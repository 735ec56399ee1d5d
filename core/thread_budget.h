// One budget of worker threads for the whole process. parallelFor used to start
// exec.threads - 1 workers per call, so two jobs overlapping (the explorer recomputing while
// an analysis runs, two workbench lanes) ran twice as many threads as there are cores. Now
// every call takes its workers from this budget and gives them back when it returns: a call
// gets what is free (never more than it asked for), and with nothing free it runs on its
// calling thread alone, so it never waits and nested or concurrent calls cannot deadlock.
//
// The budget counts the workers parallelFor starts, not the callers (which are running
// already): hardware_concurrency - 1, so one call alone still uses every core, as before.
// Which chunks run on which thread never changes a result: every kernel's output is the same
// for any thread count (see block_reduce.h and the merges in the kernels).
#pragma once

#include <atomic>

namespace qs {

class ThreadBudget {
public:
    explicit ThreadBudget(int workers) : capacity_(workers), free_(workers) {}
    ThreadBudget(const ThreadBudget&) = delete;
    ThreadBudget& operator=(const ThreadBudget&) = delete;

    // The process's budget (hardware_concurrency - 1 workers).
    static ThreadBudget& process();

    // Takes up to `wanted` workers (0 or more, never more than are free).
    int acquire(int wanted);
    void release(int workers);

    int capacity() const { return capacity_.load(); }
    int inUse() const { return capacity_.load() - free_.load(); }
    // Tests and tools: a different size (callers holding workers give them back as usual).
    void setCapacity(int workers);

private:
    std::atomic<int> capacity_;
    std::atomic<int> free_;
};

// Workers taken from a budget for one scope.
class BudgetLease {
public:
    BudgetLease(ThreadBudget& budget, int wanted) : budget_(budget), workers_(budget.acquire(wanted)) {}
    ~BudgetLease() { budget_.release(workers_); }
    BudgetLease(const BudgetLease&) = delete;
    BudgetLease& operator=(const BudgetLease&) = delete;
    int workers() const { return workers_; }

private:
    ThreadBudget& budget_;
    int workers_;
};

}  // namespace qs
