#include "core/embedding/occupancy.h"

#include <Eigen/Core>
#include <algorithm>
#include <cmath>
#include <mutex>
#include <string>

#include "core/data/generators.h"

namespace qs::embedding {

namespace {

constexpr int64_t kMaxBuckets = int64_t{1} << 24;
constexpr int64_t kBlock = 4096;  // bucket indices computed a block at a time (stays in L1)

// Histograms of up to this many slots are kept four times over (lanes), consecutive
// values counted into different copies: a run of equal buckets (most values of a table sit
// in a few central buckets) then does not serialise on one counter's load-add-store.
constexpr int64_t kMaxLanedSlots = int64_t{1} << 16;

struct Counts {
    int64_t slots = 0;             // num_buckets + 1: the last slot counts NaN
    int64_t lanes = 1;             // 4 for small histograms, else 1
    std::vector<int64_t> buckets;  // lanes * slots
    int64_t below = 0, above = 0;

    explicit Counts(int64_t s)
        : slots(s), lanes(s <= kMaxLanedSlots ? 4 : 1), buckets(static_cast<size_t>(lanes * s), 0) {}
    int64_t slot(int64_t q) const {  // the sum over the lanes
        int64_t sum = 0;
        for (int64_t l = 0; l < lanes; ++l) sum += buckets[static_cast<size_t>(l * slots + q)];
        return sum;
    }
};

// Counts values[b, e) into c. The bucket index q is computed with the lookup's float32
// formula by an Eigen expression (vectorised divide, floor and compares, like
// simulateQuantization) and converted to int32 (vectorised unless the block holds a NaN),
// then scattered into the histogram. A NaN input gets the extra slot num_buckets (counted as
// `nan`, in no bucket).
void countRange(const float* values, int64_t b, int64_t e, const tpu::SimQuantF32& k,
                Counts& c) {
    const int64_t nb = c.slots - 1;  // last slot: NaN
    const float lastBucket = static_cast<float>(nb - 1);
    alignas(64) float qf[kBlock];
    alignas(64) int32_t q[kBlock];
    int64_t* h0 = c.buckets.data();
    const int64_t lane = c.lanes > 1 ? c.slots : 0;
    int64_t *h1 = h0 + lane, *h2 = h1 + lane, *h3 = h2 + lane;
    for (int64_t s = b; s < e; s += kBlock) {
        const int64_t n = std::min(kBlock, e - s);
        Eigen::Map<const Eigen::ArrayXf> x(values + s, n);
        Eigen::Map<Eigen::ArrayXf> qs(qf, n);
        // q lies in [0, num_buckets - 1] up to float rounding of (upper - lower) / quantum
        // (possible only near 2^24 buckets); the min keeps a rounding from indexing past the
        // histogram.
        qs = ((x.max(k.lower).min(k.upper) - k.lower) / k.quantum + 0.5f).floor().min(lastBucket);
        // A plain loop with int32 sums: GCC vectorises it (compare, subtract), while
        // Eigen's count() of a comparison costs more than the formula itself.
        const float* v = values + s;
        int32_t below = 0, above = 0, nan = 0;
        for (int64_t i = 0; i < n; ++i) {
            below += v[i] < k.lower;
            above += v[i] > k.upper;
            nan += v[i] != v[i];
        }
        c.below += below;
        c.above += above;
        if (nan > 0) {  // rare: a block with NaN takes the checked path
            for (int64_t i = 0; i < n; ++i)
                q[i] = qf[i] != qf[i] ? static_cast<int32_t>(nb) : static_cast<int32_t>(qf[i]);
        } else {
            Eigen::Map<Eigen::Array<int32_t, Eigen::Dynamic, 1>>(q, n) = qs.cast<int32_t>();
        }
        int64_t i = 0;
        for (; i + 4 <= n; i += 4) {
            ++h0[q[i]];
            ++h1[q[i + 1]];
            ++h2[q[i + 2]];
            ++h3[q[i + 3]];
        }
        for (; i < n; ++i) ++h0[q[i]];
    }
}

}  // namespace

Status checkOccupancyConfig(const tpu::QuantizationConfig& config) {
    if (config.num_buckets < 2)
        return invalidArgument("num_buckets must be >= 2 for an occupancy histogram, got " +
                               std::to_string(config.num_buckets));
    if (config.num_buckets > kMaxBuckets)
        return invalidArgument("num_buckets " + std::to_string(config.num_buckets) +
                               " is too large for an occupancy histogram (at most 2^24)");
    if (!std::isfinite(config.lower) || !std::isfinite(config.upper))
        return invalidArgument("lower and upper must be finite for an occupancy histogram");
    const tpu::SimQuantF32 k = tpu::prepareF32(config);
    // Compared in float32, as the formula sees them: distinct doubles may round together.
    if (!(k.lower < k.upper))
        return invalidArgument("lower must be < upper for an occupancy histogram");
    // The formula's float32 constants must be usable too: a bound beyond FLT_MAX rounds to
    // inf, (upper - lower) may overflow, and a tiny range may give quantum 0; the bucket
    // index would then be NaN, and casting NaN to an index writes out of the histogram.
    if (!std::isfinite(k.lower) || !std::isfinite(k.upper) || !std::isfinite(k.quantum) ||
        !(k.quantum > 0))
        return invalidArgument("lower=" + data::formatNumber(config.lower) + ", upper=" +
                               data::formatNumber(config.upper) + " with " +
                               std::to_string(config.num_buckets) +
                               " buckets: the float32 quantum (upper - lower) / (num_buckets - 1) "
                               "must be finite and > 0 for an occupancy histogram");
    return okStatus();
}

BucketOccupancy occupancyFromCounts(const tpu::QuantizationConfig& config, std::vector<int64_t> counts,
                                    int64_t below, int64_t above, int64_t total) {
    const tpu::SimQuantF32 k = tpu::prepareF32(config);
    const size_t nb = static_cast<size_t>(config.num_buckets);
    BucketOccupancy occ;
    occ.config = config;
    occ.nan = counts.back();
    counts.pop_back();
    occ.counts = std::move(counts);
    occ.below = below;
    occ.above = above;
    occ.total = total;
    const double counted = static_cast<double>(occ.total - occ.nan);
    occ.centers.resize(nb);
    for (size_t q = 0; q < nb; ++q) {
        const int64_t c = occ.counts[q];
        occ.empty_buckets += c == 0;
        if (c > 0) {
            const double p = static_cast<double>(c) / counted;
            occ.entropy_bits -= p * std::log2(p);
        }
        occ.centers[q] = static_cast<float>(q) * k.quantum + k.lower;
    }
    if (occ.entropy_bits == 0) occ.entropy_bits = 0;  // -0 for a single full bucket
    return occ;
}

Result<BucketOccupancy> bucketOccupancy(std::span<const float> values,
                                        const tpu::QuantizationConfig& config, const Exec& exec) {
    if (Status s = checkOccupancyConfig(config); !s) return s.error();
    const tpu::SimQuantF32 k = tpu::prepareF32(config);
    const size_t nb = static_cast<size_t>(config.num_buckets);
    std::vector<int64_t> counts(nb + 1, 0);  // + NaN
    int64_t below = 0, above = 0;
    std::mutex merge;
    // Each chunk counts into its own histogram and adds it in at the end: integer sums, so
    // the result is the same whatever the chunking.
    parallelFor(exec, static_cast<int64_t>(values.size()), [&](int64_t b, int64_t e) {
        Counts local(static_cast<int64_t>(nb) + 1);
        countRange(values.data(), b, e, k, local);
        std::lock_guard lock(merge);
        for (size_t i = 0; i <= nb; ++i) counts[i] += local.slot(static_cast<int64_t>(i));
        below += local.below;
        above += local.above;
    });

    return occupancyFromCounts(config, std::move(counts), below, above,
                               static_cast<int64_t>(values.size()));
}

}  // namespace qs::embedding
