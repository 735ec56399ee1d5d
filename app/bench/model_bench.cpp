// quantscope-model-bench: how fast model files list and how fast the whole-model report runs,
// beside a 256 MB memcpy in the same run. A program that prints figures, never a test.
//
//   quantscope-model-bench [--megabytes MB] [--tensor-megabytes MB] [--runs R]
//                          [--no-channels] [--no-calibration]
//
//  1. Lists every model file under the source tree's tests/data/models: the
//     best of R openModel() calls per file (headers only).
//  2. Writes a safetensors file of MB megabytes of float32 (default 2048: 32 tensors of 64 MB,
//     normal values with a per-tensor scale and outlier) to $TMPDIR (/tmp), lists it, and
//     runs computeModelReport over it with 8-bit QuantizeAndDequantizeV2: per tensor without
//     calibration, per channel without calibration, per tensor with calibration. Reports
//     GB/s of float32 weights processed per wall second and per CPU second (all threads:
//     the cost whatever else shares the cores) and the process's memory: peak anonymous RSS
//     (sampled after every stage of every tensor; what the report allocates) and peak RSS
//     (getrusage, which also counts the file's mapped pages the kernel may drop at will).
//     The file is removed at the end.
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "app/bench/bench_args.h"
#include "core/analysis/op_attributes.h"
#include "core/model_analysis/model_report.h"
#include "core/modelfile/model_file.h"
#include "core/modelfile/model_formats.h"

namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

struct Options {
    std::string models = QS_MODELS_DIR;
    int64_t megabytes = 2048;
    int64_t tensorMegabytes = 64;
    int runs = 5;
    bool channels = true, calibration = true;
};

double seconds(Clock::time_point a, Clock::time_point b) { return std::chrono::duration<double>(b - a).count(); }

// A field of /proc/self/status in kB ("RssAnon"), or -1.
long statusKb(const char* field) {
    std::ifstream in("/proc/self/status");
    std::string line;
    const std::string key = std::string(field) + ":";
    while (std::getline(in, line))
        if (line.rfind(key, 0) == 0) return std::strtol(line.c_str() + key.size(), nullptr, 10);
    return -1;
}

long peakRssKb() {
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return u.ru_maxrss;
}

// memcpy of `bytes` (median of `runs`) in GB/s, counting the bytes read once.
double memcpyGbPerSecond(size_t bytes, int runs) {
    std::vector<char> a(bytes, 1), b(bytes, 0);
    std::vector<double> t;
    for (int i = 0; i <= runs; ++i) {
        const auto s = Clock::now();
        std::memcpy(b.data(), a.data(), bytes);
        const auto e = Clock::now();
        if (i > 0) t.push_back(seconds(s, e));  // the first touches the pages
    }
    std::sort(t.begin(), t.end());
    return static_cast<double>(bytes) / t[t.size() / 2] / 1e9;
}

// Files (and SavedModel folders) openModel is meant for, under `root`.
std::vector<std::string> modelPaths(const std::string& root) {
    std::vector<std::string> out;
    std::error_code ec;
    if (!fs::is_directory(root, ec)) return out;
    for (auto it = fs::recursive_directory_iterator(root, ec); it != fs::recursive_directory_iterator(); it.increment(ec)) {
        if (ec) break;
        const fs::path p = it->path();
        if (it->is_directory() && fs::exists(p / "variables" / "variables.index")) {
            out.push_back(p.string());
            it.disable_recursion_pending();
            continue;
        }
        if (!it->is_regular_file()) continue;
        if (qs::modelfile::modelFormatForPath(p.string()) && p.string().find("/variables/") == std::string::npos)
            out.push_back(p.string());
    }
    std::sort(out.begin(), out.end());
    return out;
}

// The safetensors file: `tensors` float32 tensors of [rows, 256], each normal with its own
// scale and one outlier, written from one buffer of values.
bool writeSafetensors(const std::string& path, int64_t tensors, int64_t bytesPerTensor) {
    const int64_t cols = 256, rows = bytesPerTensor / 4 / cols;
    std::vector<float> base(static_cast<size_t>(rows * cols));
    std::mt19937 gen(1);
    std::normal_distribution<float> d(0.0f, 1.0f);
    for (float& v : base) v = d(gen);
    std::string header = "{";
    const int64_t size = rows * cols * 4;
    for (int64_t t = 0; t < tensors; ++t) {
        header += (t ? "," : "") + std::string("\"layer") + std::to_string(t) + ".weight\":{\"dtype\":\"F32\",\"shape\":[" +
                  std::to_string(rows) + "," + std::to_string(cols) + "],\"data_offsets\":[" + std::to_string(t * size) +
                  "," + std::to_string((t + 1) * size) + "]}";
    }
    header += "}";
    while (header.size() % 8) header += ' ';  // data 8-byte aligned, as the format's writers do
    std::FILE* f = std::fopen(path.c_str(), "wb");
    if (!f) return false;
    const uint64_t n = header.size();
    bool ok = std::fwrite(&n, 8, 1, f) == 1 && std::fwrite(header.data(), 1, header.size(), f) == header.size();
    std::vector<float> scaled(base.size());
    for (int64_t t = 0; ok && t < tensors; ++t) {
        const float scale = 0.02f * static_cast<float>(1 + t % 7);
        for (size_t i = 0; i < base.size(); ++i) scaled[i] = base[i] * scale;
        scaled[static_cast<size_t>(t * 7919) % scaled.size()] = scale * static_cast<float>(4 + 4 * (t % 5));
        ok = std::fwrite(scaled.data(), 4, scaled.size(), f) == scaled.size();
    }
    return std::fclose(f) == 0 && ok;
}

// User + system CPU seconds of the process so far.
double cpuSeconds() {
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return static_cast<double>(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
           static_cast<double>(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6;
}

struct ReportRun {
    double seconds = 0;
    double cpu = 0;  // CPU seconds (all threads): the cost whatever else loads the machine
    int64_t bytes = 0;
    long peakAnonKb = 0;
    size_t rows = 0;
};

ReportRun timeReport(const qs::modelfile::ModelFile& model, const qs::QuantSpec& spec, bool calibrate) {
    ReportRun r;
    qs::analysis::ModelReportOptions o;
    o.calibrate = calibrate;
    o.progress = [&](double) {
        r.peakAnonKb = std::max(r.peakAnonKb, statusKb("RssAnon"));
        return true;
    };
    const auto a = Clock::now();
    const double cpu = cpuSeconds();
    auto report = qs::analysis::computeModelReport(model, spec, o);
    r.seconds = seconds(a, Clock::now());
    r.cpu = cpuSeconds() - cpu;
    if (!report) {
        std::fprintf(stderr, "report failed: %s\n", report.error().message.c_str());
        return r;
    }
    r.bytes = report->bytes_float32;
    r.rows = report->rows.size();
    return r;
}

void usage() {
    std::puts("usage: quantscope-model-bench [--megabytes MB] [--tensor-megabytes MB] [--runs R]\n"
              "                              [--no-channels] [--no-calibration]\n"
              "Times listing every model file under tests/data/models and the whole-model report\n"
              "over a generated safetensors file of MB megabytes (default 2048) in $TMPDIR or /tmp,\n"
              "against memcpy, and prints JSON. The generated file is removed at the end.");
}

}  // namespace

int main(int argc, char** argv) {
    Options opt;
    if (!qs::bench::parseArgs(argc, argv, "quantscope-model-bench", usage,
                              {{"--megabytes", [&](int64_t v) { opt.megabytes = v; }, 1 << 20},
                               {"--tensor-megabytes", [&](int64_t v) { opt.tensorMegabytes = v; }, 4096},
                               {"--runs", [&](int64_t v) { opt.runs = static_cast<int>(v); }, 1000}},
                              {{"--no-channels", [&] { opt.channels = false; }},
                               {"--no-calibration", [&] { opt.calibration = false; }}}))
        return 2;
    const double memcpyGb = memcpyGbPerSecond(size_t{256} << 20, opt.runs);
    std::printf("{\"memcpy_256MB_gb_per_s\": %.2f,\n \"listing\": [\n", memcpyGb);

    const auto paths = modelPaths(opt.models);
    for (size_t i = 0; i < paths.size(); ++i) {
        double best = 1e9;
        std::string error;
        size_t tensors = 0;
        for (int k = 0; k < opt.runs; ++k) {
            const auto a = Clock::now();
            auto m = qs::modelfile::openModel(paths[i]);
            best = std::min(best, seconds(a, Clock::now()));
            if (!m) error = m.error().message;
            else tensors = (*m)->tensors().size();
        }
        std::printf("  {\"file\": \"%s\", \"tensors\": %zu, \"best_ms\": %.3f%s}%s\n",
                    fs::relative(paths[i], opt.models).string().c_str(), tensors, best * 1e3,
                    error.empty() ? "" : ", \"error\": \"cannot open\"", i + 1 < paths.size() ? "," : "");
    }
    std::printf(" ],\n");

    const char* tmp = std::getenv("TMPDIR");
    const std::string path = std::string(tmp && *tmp ? tmp : "/tmp") + "/quantscope-model-bench-" +
                             std::to_string(::getpid()) + ".safetensors";
    const int64_t tensorBytes = opt.tensorMegabytes << 20;
    const int64_t tensors = std::max<int64_t>(1, (opt.megabytes << 20) / tensorBytes);
    auto a = Clock::now();
    if (!writeSafetensors(path, tensors, tensorBytes)) {
        std::fprintf(stderr, "cannot write %s\n", path.c_str());
        std::remove(path.c_str());
        return 1;
    }
    const double writeS = seconds(a, Clock::now());
    a = Clock::now();
    auto model = qs::modelfile::openModel(path);
    const double listS = seconds(a, Clock::now());
    if (!model) {
        std::fprintf(stderr, "%s\n", model.error().message.c_str());
        std::remove(path.c_str());
        return 1;
    }
    qs::QuantSpec spec = qs::defaultSpecFor(qs::QuantOp::QuantizeAndDequantizeV2);
    spec.num_bits = 8;
    const long anonBefore = statusKb("RssAnon");
    const ReportRun plain = timeReport(**model, spec, false);
    qs::QuantSpec perChannel = spec;
    perChannel.axis = 0;
    const ReportRun channels = opt.channels ? timeReport(**model, perChannel, false) : ReportRun{};
    const ReportRun calibrated = opt.calibration ? timeReport(**model, spec, true) : ReportRun{};
    std::remove(path.c_str());

    auto row = [&](const char* name, const ReportRun& r, bool last) {
        std::printf("   {\"name\": \"%s\", \"tensors\": %zu, \"seconds\": %.3f, \"cpu_seconds\": %.3f, "
                    "\"gb_per_s\": %.2f, \"gb_per_cpu_s\": %.2f, \"vs_memcpy\": %.2f, \"peak_anon_rss_mb\": %.0f}%s\n",
                    name, r.rows, r.seconds, r.cpu, static_cast<double>(r.bytes) / r.seconds / 1e9,
                    static_cast<double>(r.bytes) / r.cpu / 1e9,
                    static_cast<double>(r.bytes) / r.seconds / 1e9 / memcpyGb, static_cast<double>(r.peakAnonKb) / 1024,
                    last ? "" : ",");
    };
    std::printf(" \"safetensors\": {\"megabytes\": %lld, \"tensors\": %lld, \"write_s\": %.2f, \"list_ms\": %.3f,\n"
                "  \"anon_rss_before_mb\": %.0f, \"peak_rss_mb\": %.0f,\n  \"report\": [\n",
                static_cast<long long>(tensors * tensorBytes >> 20), static_cast<long long>(tensors), writeS, listS * 1e3,
                static_cast<double>(anonBefore) / 1024, static_cast<double>(peakRssKb()) / 1024);
    row("QuantizeAndDequantizeV2 8-bit, per tensor", plain, !opt.channels && !opt.calibration);
    if (opt.channels) row("QuantizeAndDequantizeV2 8-bit, per channel", channels, !opt.calibration);
    if (opt.calibration) row("QuantizeAndDequantizeV2 8-bit, per tensor, with calibration", calibrated, true);
    std::printf("  ]}\n}\n");
    return 0;
}
