// The benchmark programs' command lines: `--name N` options taking an integer (positive unless
// said otherwise, with an upper bound), `--name` flags, and --help/-h. One parser for every program; and minMs, their
// one way of timing.
#pragma once

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <initializer_list>
#include <limits>
#include <string>

namespace qs::bench {

struct IntOption {
    const char* name;                   // "--rows"
    std::function<void(int64_t)> set;   // called with the value, min <= value <= max
    int64_t max = std::numeric_limits<int64_t>::max();
    int64_t min = 1;
};

struct FlagOption {
    const char* name;
    std::function<void()> set;
};

// Prints usage() and exits 0 on --help; returns false (after one line on stderr naming
// `program` and the argument) on anything unknown, missing or out of range.
inline bool parseArgs(int argc, char** argv, const char* program, void (*usage)(),
                      std::initializer_list<IntOption> options,
                      std::initializer_list<FlagOption> flags = {}) {
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--help" || a == "-h") {
            usage();
            std::exit(0);
        }
        bool ok = false;
        for (const FlagOption& f : flags)
            if (a == f.name) {
                f.set();
                ok = true;
            }
        for (const IntOption& o : options) {
            if (ok || a != o.name || i + 1 >= argc) continue;
            char* end = nullptr;
            const long long v = std::strtoll(argv[++i], &end, 10);
            if (end && *end == '\0' && v >= o.min && v <= o.max) {
                o.set(v);
                ok = true;
            }
        }
        if (!ok) {
            std::fprintf(stderr, "%s: bad argument '%s' (see --help)\n", program, a.c_str());
            return false;
        }
    }
    return true;
}

// The fastest of `runs` calls of fn, in milliseconds (the machine is shared: the minimum is
// the figure least disturbed by others).
inline double minMs(int runs, const std::function<void()>& fn) {
    double best = 1e300;
    for (int i = 0; i < runs; ++i) {
        const auto a = std::chrono::steady_clock::now();
        fn();
        const auto b = std::chrono::steady_clock::now();
        best = std::min(best, std::chrono::duration<double, std::milli>(b - a).count());
    }
    return best;
}

}  // namespace qs::bench
