// Implementation of qs::parallelFor (header-only so lambdas inline into the kernels).
#pragma once

#include <algorithm>
#include <atomic>
#include <thread>
#include <vector>

#include "core/thread_budget.h"

namespace qs {

template <typename Fn>
void parallelFor(const Exec& exec, int64_t n, int64_t minPerThread, Fn&& fn) {
    minPerThread = std::max<int64_t>(1, minPerThread);
    const int64_t wanted = std::min<int64_t>(exec.threads, n / minPerThread);
    if (wanted <= 1) {
        if (n > 0) fn(int64_t{0}, n);
        return;
    }
    // The caller runs one chunk; the others run on workers the process can spare now.
    const BudgetLease lease(ThreadBudget::process(), static_cast<int>(wanted - 1));
    const int64_t threads = 1 + lease.workers();
    if (threads <= 1) {
        fn(int64_t{0}, n);
        return;
    }
    // Element loops get chunk edges on multiples of 16 (aligned vectors); coarse items
    // (blocks, segments: minPerThread < 16) are split evenly.
    const int64_t align = minPerThread >= 16 ? 16 : 1;
    const int64_t chunk = ((n + threads - 1) / threads + align - 1) / align * align;
    std::vector<std::jthread> workers;
    workers.reserve(static_cast<size_t>(threads - 1));
    for (int64_t t = 1; t < threads; ++t) {
        const int64_t b = std::min(n, t * chunk), e = std::min(n, b + chunk);
        if (b < e) workers.emplace_back([&fn, b, e] { fn(b, e); });
    }
    fn(int64_t{0}, std::min(n, chunk));
}

template <typename Fn>
void parallelFor(const Exec& exec, int64_t n, Fn&& fn) {
    parallelFor(exec, n, kParallelMinPerThread, std::forward<Fn>(fn));
}

template <typename Body>
void parallelClaim(const Exec& exec, int64_t n, int64_t minPerThread, Body&& body) {
    std::atomic<int64_t> next{0};
    auto claim = [&next, n](int64_t& k) {
        k = next.fetch_add(1, std::memory_order_relaxed);
        return k < n;
    };
    // One call per thread: its range only sets how many threads run.
    parallelFor(exec, n, minPerThread, [&](int64_t, int64_t) { body(claim); });
}

}  // namespace qs
