#include "core/page_prefault.h"

#include <algorithm>
#include <cstdint>

#include <sys/mman.h>

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23  // Linux 5.14; older glibc headers lack the name
#endif

namespace qs {

void prefaultPages(void* data, size_t bytes, const Exec& exec) {
    constexpr uintptr_t kPage = 4096, kHugePage = uintptr_t{2} << 20;
    if (data == nullptr || bytes < (size_t{32} << 20)) return;
    // Only whole pages inside the allocation: its first and last pages may be shared.
    const uintptr_t begin = (reinterpret_cast<uintptr_t>(data) + kPage - 1) & ~(kPage - 1);
    const uintptr_t end = (reinterpret_cast<uintptr_t>(data) + bytes) & ~(kPage - 1);
    if (end <= begin) return;
    madvise(reinterpret_cast<void*>(begin), end - begin, MADV_HUGEPAGE);
    // Threads take whole huge pages, so no two fault the same one.
    const auto hugePages = static_cast<int64_t>((end - begin + kHugePage - 1) / kHugePage);
    parallelFor(exec, hugePages, 16, [&](int64_t lo, int64_t hi) {
        const uintptr_t b = begin + static_cast<uintptr_t>(lo) * kHugePage;
        const uintptr_t e = std::min(end, begin + static_cast<uintptr_t>(hi) * kHugePage);
        if (b < e) madvise(reinterpret_cast<void*>(b), e - b, MADV_POPULATE_WRITE);
    });
}

}  // namespace qs
