// The fuzz targets feed the product's real entry points, which read files by path (and
// memory-map them). FuzzInputFile puts one input into a file of the right suffix, reused
// for every input of the process: in a tmpfs when there is one, so a run costs a write,
// not a disk round trip.
#pragma once

#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace qs::fuzz {

class FuzzInputFile {
public:
    // `suffix` picks the reader (".npy", ".csv", ...), as the file dialogs do.
    FuzzInputFile(const uint8_t* data, size_t size, const std::string& suffix)
        : path_(directory() + "/qs-fuzz-" + std::to_string(::getpid()) + suffix) {
        std::FILE* f = std::fopen(path_.c_str(), "wb");
        if (!f || std::fwrite(data, 1, size, f) != size || std::fclose(f) != 0) {
            std::perror(path_.c_str());
            std::abort();  // the harness itself is broken: not a finding in the product
        }
    }
    ~FuzzInputFile() { std::remove(path_.c_str()); }
    FuzzInputFile(const FuzzInputFile&) = delete;
    FuzzInputFile& operator=(const FuzzInputFile&) = delete;

    const std::string& path() const { return path_; }

private:
    static std::string directory() {
        if (const char* dir = std::getenv("QS_FUZZ_TMPDIR")) return dir;
        if (::access("/dev/shm", W_OK) == 0) return "/dev/shm";
        if (const char* dir = std::getenv("TMPDIR")) return dir;
        return "/tmp";
    }
    std::string path_;
};

// A finding of a property check (not a crash): print what broke and abort, so libFuzzer
// and the corpus replay both stop at the input that shows it.
// Control bytes are printed as \xNN so the message survives NULs in the input.
[[noreturn]] inline void propertyFailed(const std::string& what) {
    std::string shown;
    for (const char c : what) {
        const auto u = static_cast<unsigned char>(c);
        if ((u < 0x20 && c != '\n') || u == 0x7f) {
            char hex[5];
            std::snprintf(hex, sizeof hex, "\\x%02x", u);
            shown += hex;
        } else {
            shown += c;
        }
    }
    std::fprintf(stderr, "fuzz property violated: %s\n", shown.c_str());
    std::abort();
}

}  // namespace qs::fuzz
