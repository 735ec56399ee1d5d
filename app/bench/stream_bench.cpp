// quantscope-stream-bench: a .npy larger than the memory budget, read the way the explorer
// reads it (NpyFileStream + forEachChunk: pread into two reusable 16 MB buffers, the next
// chunk read while the current one is used), against a plain read() of the same file and a
// memcpy of the same bytes measured in the same run. A program that prints figures, never a
// test.
//
//   quantscope-stream-bench [--mb N] [--runs R]
//
// Writes an N MB float32 .npy (default 2048) to $TMPDIR (removed at the end), then prints
// {"file_mb": N, "peak_rss_mb_streamed", "results": [{"name", "ms", "gb_per_s", "vs_read"}]}
// (peak resident memory after the streamed rows, before the in-memory row) with ms the minimum of
// R runs (default 3). The file is in the page cache after it is written (this machine has
// the RAM for it): the warm figures are the readers' costs, the cold ones the disk's.
//   read          read() of the whole file into one 16 MB buffer: the baseline
//   memcpy        the same bytes copied buffer to buffer (in cache), for scale
//   stream_walk   forEachChunk over the stream, nothing done with the values: the reader's
//                 own cost, under any analysis that walks a streamed data set
//   explorer_stream     computeExplorerStream over the stream (QuantizeV2 qint8 on [-1, 1],
//                       all cores, no per-element output): the explorer's views on a
//                       streamed data set
//   explorer_in_memory  computeExplorer on the same values read into memory first (untimed)
//   cold_*        the same after the file's pages are dropped from the page cache
//                 (POSIX_FADV_DONTNEED): the disk's speed, one run each
//   sample        sampleStream: the analyses' 4M-value uniform sample (4,096 reads)
#include <fcntl.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "app/bench/bench_args.h"
#include "core/analysis/explorer.h"
#include "core/data/npy_stream.h"
#include "core/data/stream_sample.h"

namespace {

using qs::bench::minMs;

void usage() {
    std::puts("usage: quantscope-stream-bench [--mb N] [--runs R]\n"
              "Writes an N MB float32 .npy (default 2048) to $TMPDIR, reads it through the explorer's\n"
              "stream and with a plain read(), and prints JSON (minimum of R runs, default 3).");
}

volatile double sink = 0;  // keeps the loops' results alive

}  // namespace

int main(int argc, char** argv) {
    int64_t mb = 2048;
    int runs = 3;
    if (!qs::bench::parseArgs(argc, argv, "quantscope-stream-bench", usage,
                              {{"--mb", [&](int64_t v) { mb = v; }, 1 << 16},
                               {"--runs", [&](int64_t v) { runs = static_cast<int>(v); }, 100}}))
        return 2;
    const char* tmp = std::getenv("TMPDIR");
    const std::string path = std::string(tmp ? tmp : "/tmp") + "/quantscope-stream-bench-" +
                             std::to_string(::getpid()) + ".npy";
    const int64_t n = mb * (int64_t{1} << 18);  // floats in mb MB
    {
        // A version 1.0 header, then the values in 4 MB pieces (a sine, not a constant).
        std::vector<float> piece(int64_t{1} << 20);
        for (size_t i = 0; i < piece.size(); ++i) piece[i] = static_cast<float>(std::sin(0.001 * static_cast<double>(i)));
        std::FILE* f = std::fopen(path.c_str(), "wb");
        if (!f) return 1;
        std::string dict = "{'descr': '<f4', 'fortran_order': False, 'shape': (" + std::to_string(n) + ",), }";
        while ((10 + dict.size() + 1) % 64 != 0) dict += ' ';
        dict += '\n';
        const char magic[] = "\x93NUMPY\x01\x00";
        std::fwrite(magic, 1, 8, f);
        const unsigned char len[2] = {static_cast<unsigned char>(dict.size() & 0xff), static_cast<unsigned char>(dict.size() >> 8)};
        std::fwrite(len, 1, 2, f);
        std::fwrite(dict.data(), 1, dict.size(), f);
        for (int64_t done = 0; done < n; done += static_cast<int64_t>(piece.size())) {
            const size_t k = static_cast<size_t>(std::min<int64_t>(n - done, static_cast<int64_t>(piece.size())));
            if (std::fwrite(piece.data(), sizeof(float), k, f) != k) {
                std::fclose(f);
                std::remove(path.c_str());
                std::fprintf(stderr, "quantscope-stream-bench: cannot write %s\n", path.c_str());
                return 1;
            }
        }
        std::fclose(f);
    }
    auto opened = qs::data::NpyFileStream::open(path);
    if (!opened) {
        std::fprintf(stderr, "%s\n", opened.error().message.c_str());
        std::remove(path.c_str());
        return 1;
    }
    const qs::data::NpyFileStream& stream = **opened;
    const double bytes = static_cast<double>(n) * 4;
    std::vector<char> buffer(size_t{16} << 20), other(buffer.size());

    struct Row {
        const char* name;
        double ms;
    };
    std::vector<Row> rows;
    rows.push_back({"read", minMs(runs, [&] {
                        const int fd = ::open(path.c_str(), O_RDONLY);
                        while (::read(fd, buffer.data(), buffer.size()) > 0) sink = sink + buffer[0];
                        ::close(fd);
                    })});
    rows.push_back({"memcpy", minMs(runs, [&] {
                        for (double done = 0; done < bytes; done += static_cast<double>(buffer.size())) {
                            std::memcpy(other.data(), buffer.data(), buffer.size());
                            sink = sink + other[static_cast<size_t>(done) % other.size()];
                        }
                    })});
    rows.push_back({"stream_walk", minMs(runs, [&] {
                        (void)qs::data::forEachChunk(stream, [](int64_t, std::span<const float> v) {
                            sink = sink + v.front();
                            return qs::okStatus();
                        });
                    })});
    // The explorer's result (QuantizeV2 qint8 MIN_COMBINED on [-1, 1], no per-element output)
    // over the stream, and over the same values in memory for comparison.
    qs::analysis::ExplorerOptions explorerOptions;
    explorerOptions.keep_output = false;
    rows.push_back({"explorer_stream", minMs(runs, [&] {
                        auto r = qs::analysis::computeExplorerStream(qs::QuantSpec{}, stream, stream.shape(),
                                                                     explorerOptions);
                        sink = sink + (r ? r->stats.mse : -1);
                    })});
    // Peak resident memory so far: the streamed rows only (the in-memory row allocates the
    // whole array next).
    rusage usage{};
    ::getrusage(RUSAGE_SELF, &usage);
    const double streamedPeakMb = static_cast<double>(usage.ru_maxrss) / 1024.0;
    {
        std::vector<float> values(static_cast<size_t>(n));
        if (stream.read(0, values)) {
            rows.push_back({"explorer_in_memory", minMs(runs, [&] {
                                auto r = qs::analysis::computeExplorer(qs::QuantSpec{},
                                                                       qs::TensorRef<float>{values, stream.shape()},
                                                                       explorerOptions);
                                sink = sink + (r ? r->stats.mse : -1);
                            })});
        }
    }
    // Cold: the file's pages dropped from the page cache first (POSIX_FADV_DONTNEED needs no
    // privilege for clean pages), so the disk is read: one run each.
    auto dropCache = [&] {
        const int fd = ::open(path.c_str(), O_RDONLY);
        ::posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
        ::close(fd);
    };
    dropCache();
    rows.push_back({"cold_read", minMs(1, [&] {
                        const int fd = ::open(path.c_str(), O_RDONLY);
                        while (::read(fd, buffer.data(), buffer.size()) > 0) sink = sink + buffer[0];
                        ::close(fd);
                    })});
    dropCache();
    rows.push_back({"cold_stream_walk", minMs(1, [&] {
                        (void)qs::data::forEachChunk(stream, [](int64_t, std::span<const float> v) {
                            sink = sink + v.front();
                            return qs::okStatus();
                        });
                    })});
    dropCache();
    const double coldSampleMs = minMs(1, [&] {
        auto sample = qs::data::sampleStream(stream);
        sink = sink + (sample ? static_cast<double>(sample->size()) : 0);
    });
    double sampleMs = minMs(runs, [&] {
        auto sample = qs::data::sampleStream(stream);
        sink = sink + (sample ? static_cast<double>(sample->size()) : 0);
    });
    std::remove(path.c_str());

    // Each row against the read() of the same temperature (warm rows: read; cold: cold_read).
    auto msOf = [&](const std::string& name) {
        for (const Row& r : rows)
            if (name == r.name) return r.ms;
        return 0.0;
    };
    auto readMs = [&](const std::string& name) { return msOf(name.rfind("cold_", 0) == 0 ? "cold_read" : "read"); };
    std::printf("{\"file_mb\": %lld, \"values\": %lld, \"runs\": %d, \"peak_rss_mb_streamed\": %.0f, \"results\": [",
                static_cast<long long>(mb), static_cast<long long>(n), runs, streamedPeakMb);
    for (size_t i = 0; i < rows.size(); ++i)
        std::printf("%s\n  {\"name\": \"%s\", \"ms\": %.1f, \"gb_per_s\": %.2f, \"vs_read\": %.2f}", i ? "," : "",
                    rows[i].name, rows[i].ms, bytes / rows[i].ms / 1e6, rows[i].ms / readMs(rows[i].name));
    std::printf(",\n  {\"name\": \"sample\", \"ms\": %.1f, \"values\": %lld}", sampleMs,
                static_cast<long long>(qs::data::sampleCount(n)));
    std::printf(",\n  {\"name\": \"cold_sample\", \"ms\": %.1f, \"values\": %lld}\n]}\n", coldSampleMs,
                static_cast<long long>(qs::data::sampleCount(n)));
    return 0;
}
