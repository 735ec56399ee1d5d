#include "core/data/memory_budget.h"

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <limits>

namespace qs::data {

int64_t physicalMemoryBytes() {
    const long pages = ::sysconf(_SC_PHYS_PAGES), size = ::sysconf(_SC_PAGESIZE);
    if (pages <= 0 || size <= 0) return 0;
    return static_cast<int64_t>(pages) * static_cast<int64_t>(size);
}

std::optional<int64_t> parseByteSize(std::string_view text) {
    if (text.empty()) return std::nullopt;
    int64_t value = 0;
    size_t i = 0;
    for (; i < text.size() && text[i] >= '0' && text[i] <= '9'; ++i) {
        if (value > (std::numeric_limits<int64_t>::max() - 9) / 10) return std::nullopt;
        value = value * 10 + (text[i] - '0');
    }
    if (i == 0) return std::nullopt;
    int shift = 0;
    if (i < text.size()) {
        switch (text[i] | 0x20) {  // lower case
            case 'k': shift = 10; break;
            case 'm': shift = 20; break;
            case 'g': shift = 30; break;
            case 't': shift = 40; break;
            default: return std::nullopt;
        }
        ++i;
        if (i < text.size() && (text[i] | 0x20) == 'b') ++i;  // "512MB"
    }
    if (i != text.size() || value > (std::numeric_limits<int64_t>::max() >> shift)) return std::nullopt;
    return value << shift;
}

namespace {

// The process's mapped address space now (Linux: /proc/self/statm's first field), 0 if unknown.
int64_t addressSpaceInUse() {
    std::FILE* f = std::fopen("/proc/self/statm", "r");
    if (!f) return 0;
    long long pages = 0;
    const bool ok = std::fscanf(f, "%lld", &pages) == 1;
    std::fclose(f);
    return ok ? pages * static_cast<int64_t>(::sysconf(_SC_PAGESIZE)) : 0;
}

}  // namespace

int64_t defaultMemoryBudget() {
    if (const char* env = std::getenv("QS_MEMORY_BUDGET"))
        if (auto bytes = parseByteSize(env)) return *bytes;
    int64_t memory = physicalMemoryBytes();
    rlimit limit{};
    if (::getrlimit(RLIMIT_AS, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY) {
        // What is left of the address space, not the limit itself: libraries and thread
        // stacks already take hundreds of MB of it.
        const int64_t left = std::max<int64_t>(0, static_cast<int64_t>(limit.rlim_cur) - addressSpaceInUse());
        memory = memory > 0 ? std::min(memory, left) : left;
    }
    if (memory <= 0) memory = int64_t{4} << 30;  // the system does not say: assume a small machine
    return std::max<int64_t>(memory / 2, int64_t{1} << 20);
}

}  // namespace qs::data
