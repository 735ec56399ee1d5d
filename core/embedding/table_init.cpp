#include "core/embedding/table_init.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <new>

#include <unistd.h>

#include "core/data/float_normals.h"
#include "core/data/generators.h"
#include "core/embedding/vector_quantize.h"
#include "core/ops/kernel_util.h"  // QS_VECTOR_CLONES
#include "core/page_prefault.h"
#include "core/tpu/simulated_quantization.h"  // pyFloatRepr

namespace qs::embedding {
namespace {

constexpr int64_t kMaxElements = int64_t{1} << 34;  // 64 GiB of float32
// Elements per progress step: big enough that the threads of parallelFor have work
// (it gives each at least 64K), small enough that progress moves and cancel is quick.
constexpr int64_t kChunk = int64_t{1} << 22;
// A truncated-normal sample outside +-2 stddev is redrawn at most this often; the chance of
// needing more is 0.0455^64 (never), the cap only bounds the loop.
constexpr int kMaxRedraws = 64;

// Truncated standard normal for elements [b, e) (e - b <= kTruncBatch), in float32 like
// TensorFlow's own initializers: z of stream 0; redraw k of element i is z(i) of stream
// k + 1. The redraws (4.6 % of the elements, then 4.6 % of those, ...) are drawn together,
// a stream at a time, so they vectorise like the first draws; each element's value is the
// same as drawing it alone.
constexpr int64_t kTruncBatch = 4096;

using simd::f32x8, simd::i32x8;

// Writes first + k for each z[k] (k < n) with |z[k]| > 2 to `outside`; returns how many.
// Eight at a time: most groups (0.954^8 = 69 %) have none and cost one test; the others
// append without a branch (a branch per value mispredicted often enough to cost as much
// as drawing the normals).
QS_VECTOR_CLONES int64_t outsideTwo(const float* z, int64_t n, int64_t first, int64_t* outside) {
    const f32x8 two = f32x8{} + 2.0f, minusTwo = f32x8{} - 2.0f;
    int64_t count = 0, k = 0;
    for (; k + 8 <= n; k += 8) {
        f32x8 v;
        std::memcpy(&v, z + k, sizeof v);
        const i32x8 out = (v > two) | (v < minusTwo);
        uint64_t any[4];
        std::memcpy(any, &out, sizeof any);
        if ((any[0] | any[1] | any[2] | any[3]) == 0) continue;
        for (int l = 0; l < 8; ++l) {
            outside[count] = first + k + l;
            count += out[l] != 0;
        }
    }
    for (; k < n; ++k) {
        outside[count] = first + k;
        count += std::fabs(z[k]) > 2.0f;
    }
    return count;
}

// out[k] = float(mean + stddev * z[k]), k < n (double arithmetic: mean and stddev are doubles).
QS_VECTOR_CLONES void scaleNormals(const float* z, int64_t n, double mean, double stddev, float* out) {
    for (int64_t k = 0; k < n; ++k) out[k] = static_cast<float>(mean + stddev * static_cast<double>(z[k]));
}

void truncatedNormals(uint64_t seed, int64_t b, int64_t e, float* z) {
    for (int64_t i = b; i < e; i += data::kFloatNormalBatch)
        data::standardNormalsF(data::CounterStream(seed, 0), i, std::min(e, i + data::kFloatNormalBatch),
                               z + (i - b));
    int64_t redraw[kTruncBatch];
    float again[kTruncBatch];
    int64_t count = outsideTwo(z, e - b, b, redraw);
    for (int k = 0; count > 0; ++k) {
        if (k == kMaxRedraws) {
            for (int64_t j = 0; j < count; ++j) z[redraw[j] - b] = 0.0f;
            break;
        }
        data::standardNormalsAtF(data::CounterStream(seed, static_cast<uint64_t>(k) + 1), redraw, count, again);
        int64_t left = 0;
        for (int64_t j = 0; j < count; ++j) {
            z[redraw[j] - b] = again[j];
            if (std::fabs(again[j]) > 2.0f) redraw[left++] = redraw[j];
        }
        count = left;
    }
}

// Fills out[b, e) (absolute element indices) with the initializer's values.
void fill(const InitializerSpec& spec, double stddev, int64_t b, int64_t e, float* out) {
    switch (spec.kind) {
    case InitializerKind::Zeros:
        std::fill(out + b, out + e, 0.0f);
        return;
    case InitializerKind::Constant:
        std::fill(out + b, out + e, static_cast<float>(spec.value));
        return;
    case InitializerKind::Uniform: {
        const data::CounterStream s(spec.seed, 0);
        const double width = spec.maxval - spec.minval;
        const float lo = static_cast<float>(spec.minval), hi = static_cast<float>(spec.maxval);
        const float belowHi = lo < hi ? std::nextafter(hi, lo) : lo;
        for (int64_t i = b; i < e; ++i) {
            // float32 rounding may reach maxval itself; keep the half-open range.
            const float v = static_cast<float>(spec.minval + width * s.closedOpen01(static_cast<uint64_t>(i)));
            out[i] = v < hi ? v : belowHi;
        }
        return;
    }
    case InitializerKind::TruncatedNormal:
        for (int64_t i = b; i < e;) {
            // Batches aligned to kFloatNormalBatch (Box-Muller pairs are never split but at b).
            const int64_t next = std::min(e, (i / data::kFloatNormalBatch + kTruncBatch / data::kFloatNormalBatch) *
                                                 data::kFloatNormalBatch);
            float z[kTruncBatch];
            truncatedNormals(spec.seed, i, next, z);
            scaleNormals(z, next - i, spec.mean, stddev, out + i);
            i = next;
        }
        return;
    }
}

std::string gib(int64_t bytes) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f", static_cast<double>(bytes) / (1024.0 * 1024.0 * 1024.0));
    return buf;
}

}  // namespace

int64_t physicalMemoryBytes() {
    const long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGE_SIZE);
    if (pages <= 0 || size <= 0) return kMaxElements * 8;  // unknown: only the fixed cap applies
    return static_cast<int64_t>(pages) * static_cast<int64_t>(size);
}

int64_t maxTableElements() { return std::min(kMaxElements, physicalMemoryBytes() / 2 / 4); }

std::string initializerName(InitializerKind kind) {
    switch (kind) {
    case InitializerKind::TruncatedNormal: return "truncated_normal";
    case InitializerKind::Uniform: return "uniform";
    case InitializerKind::Zeros: return "zeros";
    case InitializerKind::Constant: return "constant";
    }
    return "truncated_normal";
}

Result<InitializerKind> initializerFromName(const std::string& name) {
    for (InitializerKind k : {InitializerKind::TruncatedNormal, InitializerKind::Uniform,
                              InitializerKind::Zeros, InitializerKind::Constant})
        if (initializerName(k) == name) return k;
    return data::dataError("unknown initializer '" + name +
                           "' (valid: truncated_normal, uniform, zeros, constant)");
}

double effectiveStddev(const InitializerSpec& spec, int64_t dim) {
    if (spec.stddev > 0) return spec.stddev;
    return 1.0 / std::sqrt(static_cast<double>(std::max<int64_t>(dim, 1)));
}

std::string initializerPython(const InitializerSpec& spec, int64_t dim) {
    const std::string seed = ", seed=" + std::to_string(spec.seed) + ")";
    switch (spec.kind) {
    case InitializerKind::TruncatedNormal:
        return "tf.initializers.TruncatedNormal(mean=" + tpu::pyFloatRepr(spec.mean) +
               ", stddev=" + tpu::pyFloatRepr(effectiveStddev(spec, dim)) + seed;
    case InitializerKind::Uniform:
        return "tf.initializers.RandomUniform(minval=" + tpu::pyFloatRepr(spec.minval) +
               ", maxval=" + tpu::pyFloatRepr(spec.maxval) + seed;
    case InitializerKind::Zeros: return "tf.initializers.Zeros()";
    case InitializerKind::Constant:
        return "tf.initializers.Constant(value=" + tpu::pyFloatRepr(spec.value) + ")";
    }
    return "";
}

Result<tpu::RowMatrix> initializeTable(int64_t rows, int64_t dim, const InitializerSpec& spec,
                                       const Exec& exec, const std::function<bool(double)>& progress) {
    const std::string what = "embedding table initializer: ";
    if (rows < 1 || dim < 1)
        return invalidArgument(what + "the table needs rows >= 1 and dim >= 1, got " +
                               std::to_string(rows) + " x " + std::to_string(dim));
    if (rows > kMaxElements / dim)
        return invalidArgument(what + std::to_string(rows) + " x " + std::to_string(dim) +
                               " is more than 2^34 elements (64 GiB of float32)");
    if (rows > maxTableElements() / dim)
        return invalidArgument(what + std::to_string(rows) + " x " + std::to_string(dim) +
                               " float32 values need " + gib(rows * dim * 4) + " GiB, more than half of this "
                               "machine's " + gib(physicalMemoryBytes()) +
                               " GiB of memory (the table analysis holds a second copy)");
    const double stddev = effectiveStddev(spec, dim);
    switch (spec.kind) {
    case InitializerKind::TruncatedNormal:
        if (!std::isfinite(spec.mean) || !std::isfinite(spec.stddev) || !std::isfinite(stddev) ||
            !std::isfinite(spec.mean + 2 * stddev) || !std::isfinite(spec.mean - 2 * stddev))
            return invalidArgument(what + "mean and stddev must be finite, got mean=" +
                                   data::formatNumber(spec.mean) + ", stddev=" + data::formatNumber(spec.stddev));
        break;
    case InitializerKind::Uniform:
        if (!std::isfinite(spec.minval) || !std::isfinite(spec.maxval) ||
            !std::isfinite(spec.maxval - spec.minval))
            return invalidArgument(what + "minval and maxval must be finite, got minval=" +
                                   data::formatNumber(spec.minval) + ", maxval=" + data::formatNumber(spec.maxval));
        if (!(spec.minval < spec.maxval))
            return invalidArgument(what + "minval must be < maxval, got minval=" +
                                   data::formatNumber(spec.minval) + ", maxval=" + data::formatNumber(spec.maxval));
        break;
    case InitializerKind::Constant:
        if (!std::isfinite(spec.value))
            return invalidArgument(what + "value must be finite, got " + data::formatNumber(spec.value));
        break;
    case InitializerKind::Zeros: break;
    }

    tpu::RowMatrix table;
    table.rows = rows;
    table.cols = dim;
    const int64_t n = rows * dim;
    try {
        // Reserve first (untouched pages), fault them in on every thread, then zero-fill.
        table.values.reserve(static_cast<size_t>(n));
        prefaultPages(table.values.data(), static_cast<size_t>(n) * sizeof(float), exec);
        table.values.resize(static_cast<size_t>(n));
    } catch (const std::bad_alloc&) {
        return invalidArgument(what + "out of memory for " + std::to_string(rows) + " x " +
                               std::to_string(dim) + " float32 values");
    }
    float* out = table.values.data();
    for (int64_t b = 0; b < n; b += kChunk) {
        if (progress && !progress(static_cast<double>(b) / static_cast<double>(n)))
            return data::cancelledError("embedding table initialization cancelled");
        const int64_t e = std::min(n, b + kChunk);
        parallelFor(exec, e - b, [&](int64_t lo, int64_t hi) { fill(spec, stddev, b + lo, b + hi, out); });
    }
    if (progress && !progress(1.0)) return data::cancelledError("embedding table initialization cancelled");
    return table;
}

Result<tpu::RowMatrix> tableFromDataset(data::Dataset&& dataset) {
    if (dataset.shape.size() != 2)
        return data::dataError(dataset.label + ": an embedding table needs 2-D data [rows, dim], got shape " +
                               shapeString(dataset.shape));
    tpu::RowMatrix table;
    table.rows = dataset.shape[0];
    table.cols = dataset.shape[1];
    if (table.rows < 1 || table.cols < 1)
        return data::dataError(dataset.label + ": an embedding table needs at least one row and column, got shape " +
                               shapeString(dataset.shape));
    table.values = std::move(dataset.values);
    return table;
}

}  // namespace qs::embedding
