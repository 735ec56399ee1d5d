#include "core/thread_budget.h"

#include <algorithm>
#include <thread>

namespace qs {

ThreadBudget& ThreadBudget::process() {
    static ThreadBudget budget(std::max(1, static_cast<int>(std::thread::hardware_concurrency())) - 1);
    return budget;
}

int ThreadBudget::acquire(int wanted) {
    if (wanted <= 0) return 0;
    int free = free_.load();
    int take = 0;
    do {
        take = std::clamp(free, 0, wanted);
        if (take == 0) return 0;
    } while (!free_.compare_exchange_weak(free, free - take));
    return take;
}

void ThreadBudget::release(int workers) {
    if (workers > 0) free_.fetch_add(workers);
}

void ThreadBudget::setCapacity(int workers) {
    workers = std::max(0, workers);
    const int old = capacity_.exchange(workers);
    free_.fetch_add(workers - old);  // may go below 0 until holders release
}

}  // namespace qs
