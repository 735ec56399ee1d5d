// A file-size limit (RLIMIT_FSIZE, as `ulimit -f` sets) for one scope of a test, with SIGXFSZ
// ignored so a write past it fails with EFBIG ("File too large") instead of killing the test:
// a full disk without filling one. The previous limit and signal action come back at the end.
#pragma once

#include <sys/resource.h>

#include <csignal>

namespace qs::testing {

class FileSizeLimit {
public:
    explicit FileSizeLimit(rlim_t bytes) {
        ::getrlimit(RLIMIT_FSIZE, &previous_);
        struct sigaction ignore{};
        ignore.sa_handler = SIG_IGN;
        ::sigaction(SIGXFSZ, &ignore, &previousAction_);
        rlimit limited = previous_;
        limited.rlim_cur = bytes;
        ok_ = ::setrlimit(RLIMIT_FSIZE, &limited) == 0;
    }
    ~FileSizeLimit() {
        ::setrlimit(RLIMIT_FSIZE, &previous_);
        ::sigaction(SIGXFSZ, &previousAction_, nullptr);
    }
    FileSizeLimit(const FileSizeLimit&) = delete;
    FileSizeLimit& operator=(const FileSizeLimit&) = delete;
    bool ok() const { return ok_; }

private:
    rlimit previous_{};
    struct sigaction previousAction_{};
    bool ok_ = false;
};

}  // namespace qs::testing
