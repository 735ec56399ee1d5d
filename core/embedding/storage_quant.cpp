#include "core/embedding/storage_quant.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>
#include <mutex>
#include <new>
#include <vector>

#include "core/data/dataset.h"
#include "core/data/generators.h"  // formatNumber
#include "core/data/npy_writer.h"
#include "core/data/output_file.h"
#include "core/numeric/block_reduce.h"

namespace qs::embedding {
namespace {

constexpr int64_t kParameterBytes = 12;  // lower_f32, quantum_f32, num_buckets as uint32
constexpr int64_t kChunk = int64_t{1} << 22;  // elements per progress step
constexpr int64_t kFusedMaxBuckets = int64_t{1} << 24;

// The table's codes (as the narrowest unsigned type) and its reconstruction.
struct Quantized {
    StorageQuantization numbers;
    std::vector<uint8_t> codes8;
    std::vector<uint16_t> codes16;
    std::vector<uint32_t> codes32;
};

}  // namespace

Result<StorageQuantization> describeStorageQuantization(int64_t rows, int64_t dim, int64_t values,
                                                        const tpu::QuantizationConfig& config) {
    const std::string what = "storage quantization: ";
    auto checked = tpu::makeQuantizationConfig(config.num_buckets, config.lower, config.upper);
    if (!checked) return checked.error();
    if (config.num_buckets > (int64_t{1} << 32))
        return invalidArgument(what + "num_buckets is " + std::to_string(config.num_buckets) +
                               ", more than 2^32 (no code type holds it)");
    // Unlike simulated quantization (which accepts them and yields NaN or a constant),
    // codes need an increasing range: bucket indices would be meaningless otherwise.
    if (!std::isfinite(config.lower) || !std::isfinite(config.upper) || !(config.lower < config.upper))
        return invalidArgument(what + "needs finite lower < upper, got lower=" + data::formatNumber(config.lower) +
                               ", upper=" + data::formatNumber(config.upper));
    if (rows < 1 || dim < 1 || values / dim != rows || values % dim != 0)
        return invalidArgument(what + "the table must be rows x dim with rows, dim >= 1 and rows * dim values, got " +
                               std::to_string(rows) + " x " + std::to_string(dim) + " with " +
                               std::to_string(values) + " values");
    StorageQuantization s;
    s.config = config;
    const auto maxCode = static_cast<uint64_t>(config.num_buckets - 1);
    s.code_bits = maxCode <= 0xFF ? 8 : maxCode <= 0xFFFF ? 16 : 32;
    s.information_bits = std::bit_width(maxCode);  // ceil(log2(num_buckets))
    s.rows = rows;
    s.dim = dim;
    const int64_t n = rows * dim;
    s.bytes_float32 = n * 4;
    s.bytes_codes = n * (s.code_bits / 8) + kParameterBytes;
    s.bytes_packed = (n / 8) * s.information_bits + ((n % 8) * s.information_bits + 7) / 8 + kParameterBytes;
    s.saved_fraction = 1.0 - static_cast<double>(s.bytes_codes) / static_cast<double>(s.bytes_float32);
    return s;
}

namespace {

// A bucket index q in [0, float32(num_buckets - 1)] as a code. For 2^32 buckets the last
// index, 2^32 - 1, has no float32: it rounds up to 2^32, one past uint32_t, whose conversion
// is undefined (x86 gave 0, the first bucket, so `upper` read back as `lower`). That value
// stands for the last bucket, which float32(code) maps back to the same 2^32. Every other q
// converts as before; 8- and 16-bit codes, whose largest value is a float32, keep the plain
// conversion in their hot loops.
template <typename Code>
Code bucketCode(float q) {
    constexpr Code kLast = std::numeric_limits<Code>::max();
    if constexpr (static_cast<uint64_t>(static_cast<float>(kLast)) == kLast) return static_cast<Code>(q);
    else return q >= static_cast<float>(kLast) ? kLast : static_cast<Code>(q);
}

// Codes and the reconstruction error. The code is the simulated formula's bucket index;
// reconstructing float32(code) * quantum + lower then repeats the formula's last two float
// ops, so it equals simulateQuantizationF32(x) bit for bit. A NaN element has no bucket: its
// code is 0 (the pair is skipped by errorStats as the table side is NaN). Buckets beyond
// num_buckets - 1 can only come from float32 rounding when num_buckets > 2^24; they are
// clamped and the statistics then show the (honest) difference.
template <typename Code>
Status quantize(const tpu::RowMatrix& table, const tpu::SimQuantF32& k, int64_t maxCode, std::vector<Code>* codes,
                std::vector<float>& reconstruction, const Exec& exec, const std::function<bool(double)>& progress) {
    const int64_t n = static_cast<int64_t>(table.values.size());
    const float* x = table.values.data();
    float* y = reconstruction.data();
    Code* c = codes ? codes->data() : nullptr;
    const auto top = static_cast<float>(maxCode);
    for (int64_t b = 0; b < n; b += kChunk) {
        if (progress && !progress(static_cast<double>(b) / static_cast<double>(n)))
            return data::cancelledError("storage quantization cancelled");
        parallelFor(exec, std::min(kChunk, n - b), [&](int64_t lo, int64_t hi) {
            for (int64_t i = b + lo; i < b + hi; ++i) {
                float q = tpu::simulatedBucketF32(x[i], k);
                q = std::isnan(q) || q < 0.0f ? 0.0f : std::min(q, top);
                const Code code = bucketCode<Code>(q);
                if (c) c[i] = code;
                y[i] = std::isnan(x[i]) ? x[i] : static_cast<float>(code) * k.quantum + k.lower;
            }
        });
    }
    if (progress && !progress(1.0)) return data::cancelledError("storage quantization cancelled");
    return okStatus();
}

// Codes (when wanted) and the reconstruction statistics in one parallel pass, without
// materialising the reconstructed table (0.5 GB for 1M x 128): what the workbench reruns on
// every change of lower/upper. The statistics are errorStats' (error_stats.h) over
// (x, reconstruction): NaN pairs skipped, distinct levels = distinct reconstructed values
// (-0 == +0), counted from the set of codes used. Each block's ErrorSums are taken in index
// order and the blocks combined in block order (block_reduce.h), so the numbers do not
// depend on the threads. For num_buckets <= 2^24.
template <typename Code>
Result<analysis::ErrorStats> quantizeAndMeasure(const tpu::RowMatrix& table, const tpu::QuantizationConfig& config,
                                                std::vector<Code>* codes, const Exec& exec,
                                                const std::function<bool(double)>& progress) {
    const tpu::SimQuantF32 k = tpu::prepareF32(config);
    const int64_t n = static_cast<int64_t>(table.values.size());
    const int64_t buckets = config.num_buckets;
    const auto top = static_cast<float>(buckets - 1);
    const float* x = table.values.data();
    Code* c = codes ? codes->data() : nullptr;
    std::vector<analysis::ErrorSums> partials;
    // Codes used, per thread chunk then merged (a byte per bucket: <= 16 MB).
    std::vector<uint8_t> used(static_cast<size_t>(buckets), 0);
    std::mutex usedMutex;
    for (int64_t b = 0; b < n; b += kChunk) {
        if (progress && !progress(static_cast<double>(b) / static_cast<double>(n)))
            return data::cancelledError("storage quantization cancelled");
        const int64_t len = std::min(kChunk, n - b);
        auto chunkPartials = blockPartials<analysis::ErrorSums>(exec, len, [&](int64_t lo, int64_t hi) {
            analysis::ErrorSums p;
            std::vector<uint8_t> seen;  // lazily: most blocks hit few distinct codes
            for (int64_t i = b + lo; i < b + hi; ++i) {
                float q = tpu::simulatedBucketF32(x[i], k);
                q = std::isnan(q) || q < 0.0f ? 0.0f : std::min(q, top);
                const Code code = bucketCode<Code>(q);
                if (c) c[i] = code;
                const double xi = x[i];
                if (std::isnan(xi)) {
                    ++p.nan_pairs;
                    continue;
                }
                p.add(xi, static_cast<float>(code) * k.quantum + k.lower);
                if (xi < config.lower || xi > config.upper) ++p.clipped;
                if (seen.empty()) seen.assign(static_cast<size_t>(buckets), 0);
                seen[static_cast<size_t>(code)] = 1;
            }
            if (!seen.empty()) {
                const std::lock_guard lock(usedMutex);
                for (size_t j = 0; j < seen.size(); ++j) used[j] |= seen[j];
            }
            return p;
        });
        partials.insert(partials.end(), chunkPartials.begin(), chunkPartials.end());
    }
    if (progress && !progress(1.0)) return data::cancelledError("storage quantization cancelled");

    analysis::ErrorSums t;
    for (const analysis::ErrorSums& p : partials) t.merge(p);
    analysis::ErrorStats s = analysis::statsFromSums(t);
    if (s.count == 0) return s;
    std::vector<float> levels;
    for (int64_t j = 0; j < buckets; ++j)
        if (used[static_cast<size_t>(j)]) levels.push_back(static_cast<float>(static_cast<Code>(j)) * k.quantum + k.lower);
    s.distinct_levels = analysis::distinctValues(levels);
    return s;
}

Result<Quantized> run(const tpu::RowMatrix& table, const tpu::QuantizationConfig& config, bool keepCodes,
                      const Exec& exec, const std::function<bool(double)>& progress) {
    auto numbers = describeStorageQuantization(table.rows, table.cols,
                                               static_cast<int64_t>(table.values.size()), config);
    if (!numbers) return numbers.error();
    Quantized out{*numbers, {}, {}, {}};
    const tpu::SimQuantF32 k = tpu::prepareF32(config);
    const int64_t maxCode = config.num_buckets - 1;
    if (config.num_buckets <= kFusedMaxBuckets) {
        Result<analysis::ErrorStats> stats = invalidArgument("");
        try {
            const size_t n = keepCodes ? table.values.size() : 0;
            switch (out.numbers.code_bits) {
            case 8:
                out.codes8.resize(n);
                stats = quantizeAndMeasure<uint8_t>(table, config, keepCodes ? &out.codes8 : nullptr, exec, progress);
                break;
            case 16:
                out.codes16.resize(n);
                stats = quantizeAndMeasure<uint16_t>(table, config, keepCodes ? &out.codes16 : nullptr, exec, progress);
                break;
            default:
                out.codes32.resize(n);
                stats = quantizeAndMeasure<uint32_t>(table, config, keepCodes ? &out.codes32 : nullptr, exec, progress);
            }
        } catch (const std::bad_alloc&) {
            return invalidArgument("storage quantization: out of memory for " + std::to_string(table.values.size()) +
                                   " codes");
        }
        if (!stats) return stats.error();
        out.numbers.reconstruction = *stats;
        return out;
    }
    // More buckets than a code bitmap should hold: materialise the reconstruction and let
    // errorStats count its levels.
    std::vector<float> reconstruction;
    Status status = okStatus();
    try {
        reconstruction.resize(table.values.size());
        const size_t n = keepCodes ? table.values.size() : 0;
        switch (out.numbers.code_bits) {
        case 8:
            out.codes8.resize(n);
            status = quantize<uint8_t>(table, k, maxCode, keepCodes ? &out.codes8 : nullptr, reconstruction, exec, progress);
            break;
        case 16:
            out.codes16.resize(n);
            status = quantize<uint16_t>(table, k, maxCode, keepCodes ? &out.codes16 : nullptr, reconstruction, exec, progress);
            break;
        default:
            out.codes32.resize(n);
            status = quantize<uint32_t>(table, k, maxCode, keepCodes ? &out.codes32 : nullptr, reconstruction, exec, progress);
        }
    } catch (const std::bad_alloc&) {
        return invalidArgument("storage quantization: out of memory for " + std::to_string(table.values.size()) +
                               " codes");
    }
    if (!status) return status.error();
    auto stats = analysis::errorStats(table.values, reconstruction,
                                      analysis::ClipRange{config.lower, config.upper});
    if (!stats) return stats.error();
    out.numbers.reconstruction = *stats;
    return out;
}

// JSON numbers: shortest round-trip doubles; JSON has no NaN/inf, so those become null.
std::string jsonNumber(double v) { return std::isfinite(v) ? data::formatNumber(v) : "null"; }

std::string paramsJson(const StorageQuantization& s) {
    const tpu::SimQuantF32 k = tpu::prepareF32(s.config);
    const char* dtype = s.code_bits == 8 ? "uint8" : s.code_bits == 16 ? "uint16" : "uint32";
    std::string j = "{\n";
    j += "  \"format\": \"quantscope-storage-quantization\",\n";
    j += "  \"version\": 1,\n";
    j += "  \"num_buckets\": " + std::to_string(s.config.num_buckets) + ",\n";
    j += "  \"lower\": " + jsonNumber(s.config.lower) + ",\n";
    j += "  \"upper\": " + jsonNumber(s.config.upper) + ",\n";
    j += "  \"lower_f32\": " + jsonNumber(k.lower) + ",\n";
    j += "  \"quantum_f32\": " + jsonNumber(k.quantum) + ",\n";
    j += std::string("  \"dtype\": \"") + dtype + "\",\n";
    j += "  \"shape\": [" + std::to_string(s.rows) + ", " + std::to_string(s.dim) + "],\n";
    j += "  \"reconstruction\": \"value = float32(code) * quantum_f32 + lower_f32\",\n";
    j += "  \"mse\": " + jsonNumber(s.reconstruction.mse) + ",\n";
    j += "  \"max_abs_error\": " + jsonNumber(s.reconstruction.max_abs_error) + ",\n";
    j += "  \"bytes_float32\": " + std::to_string(s.bytes_float32) + ",\n";
    j += "  \"bytes_codes\": " + std::to_string(s.bytes_codes) + "\n";
    j += "}\n";
    return j;
}

}  // namespace

Result<StorageQuantization> analyzeStorageQuantization(const tpu::RowMatrix& table,
                                                       const tpu::QuantizationConfig& config, const Exec& exec,
                                                       const std::function<bool(double)>& progress) {
    auto q = run(table, config, false, exec, progress);
    if (!q) return q.error();
    return q->numbers;
}

Result<StorageQuantization> exportStorageQuantization(const tpu::RowMatrix& table,
                                                      const tpu::QuantizationConfig& config,
                                                      const std::string& codes_npy, const std::string& params_json,
                                                      const Exec& exec,
                                                      const std::function<bool(double)>& progress) {
    auto q = run(table, config, true, exec, progress);
    if (!q) return q.error();
    const Shape shape{q->numbers.rows, q->numbers.dim};
    const Status written = q->numbers.code_bits == 8    ? data::writeNpy(codes_npy, std::span<const uint8_t>(q->codes8), shape)
                           : q->numbers.code_bits == 16 ? data::writeNpy(codes_npy, std::span<const uint16_t>(q->codes16), shape)
                                                        : data::writeNpy(codes_npy, std::span<const uint32_t>(q->codes32), shape);
    if (!written) return written.error();
    if (Status s = data::writeOutputFile(params_json, paramsJson(q->numbers)); !s) return s.error();
    return q->numbers;
}

}  // namespace qs::embedding
