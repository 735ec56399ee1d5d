// Synthetic data sets for the explorer, bit-identical on every platform, run and thread count.
//
// Why not <random>: std::normal_distribution & co. are implementation-defined, so libstdc++
// and libc++ give different samples for the same seed. Here every sample is a pure function
// of (seed, stream, index), computed in double and stored as float32:
//   key(seed, stream) = mix(mix(seed) ^ (stream * 0xD1B54A32D192ED03))
//   bits(i)           = mix(key + (i + 1) * 0x9E3779B97F4A7C15)   (SplitMix64, i-th output)
//   u(i)              = ((bits(i) >> 12) + 0.5) * 2^-52            (open interval (0, 1), exact)
// where mix is SplitMix64's finaliser. Being counter-based, any chunk of the output can be
// computed independently, so parallel generation cannot depend on the thread count.
// log, sin and cos are our own polynomials (generators.cpp) built from +, *, / and sqrt,
// which IEEE 754 rounds correctly, so no libm enters the samples: the same bits come out of
// every compiler and CPU (checked: SSE and AVX2 builds, -O0/-O3). tst_data pins a few.
#pragma once

#include <bit>
#include <cstdint>
#include <string>

#include "core/data/dataset.h"
#include "core/tensor.h"

namespace qs::data {

// The counter-based stream above, for other deterministic samplers of the core (embedding
// tables, id batches): value i of (seed, stream) needs no state, so any chunk can be drawn
// on any thread.
class CounterStream {
public:
    CounterStream(uint64_t seed, uint64_t stream)
        : key_(mix(mix(seed) ^ (stream * 0xD1B54A32D192ED03ull))) {}
    uint64_t bits(uint64_t i) const { return mix(key_ + (i + 1) * 0x9E3779B97F4A7C15ull); }
    // (k + 0.5) * 2^-52 for 52 random bits k: strictly inside (0, 1) and exact. Built as
    // (1 + k 2^-52) - (1 - 2^-53), which is exact and avoids a u64->double conversion.
    double open01(uint64_t i) const {
        return std::bit_cast<double>(0x3FF0000000000000ull | (bits(i) >> 12)) - (1.0 - 0x1p-53);
    }
    // 53 random bits in [0, 1).
    double closedOpen01(uint64_t i) const { return static_cast<double>(bits(i) >> 11) * 0x1p-53; }

private:
    static constexpr uint64_t mix(uint64_t z) {  // SplitMix64's finaliser
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        return z ^ (z >> 31);
    }
    uint64_t key_;
};

// Preconditions (checked by generate() in generator_spec.h, not here): n >= 0, finite
// parameters, low < high, std/scale > 0, 0 <= outlier_fraction <= 1.

// low + (high - low) * u with a 53-bit u in [0, 1). Rounding to float32 may give exactly high.
Dataset uniform(int64_t n, uint64_t seed, double low = -1, double high = 1, const Exec& exec = {});

// Box-Muller on pairs: for pair j = i / 2, with u1 = u(2j), u2 = u(2j + 1) of stream 0,
// r = sqrt(-2 ln u1); x[2j] = mean + std * r cos(2 pi u2), x[2j+1] = mean + std * r sin(2 pi u2).
Dataset normal(int64_t n, uint64_t seed, double mean = 0, double std = 1, const Exec& exec = {});

// Inverse CDF: v = u(i) - 0.5; x = loc - scale * sign(v) * ln(1 - 2|v|).
Dataset laplace(int64_t n, uint64_t seed, double loc = 0, double scale = 1, const Exec& exec = {});

// x_i = amplitude * sin(2 pi * ((i * k) mod n) / n): k full periods sampled at n points. k is
// the largest of the primes 97, 89, 83, 79, 73 that does not divide n, so gcd(k, n) = 1 and
// the n samples hit n distinct phases (the histogram of a fine continuous sine) while the
// plot shows many periods; for n < 4 * 97 (too few points per period), k = 1.
// (If n is divisible by all five primes, k = 1 too.)
Dataset sine(int64_t n, double amplitude = 1, const Exec& exec = {});
int64_t sinePeriods(int64_t n);  // the k above

// normal(0, std) where sample i is an outlier when u(i) of stream 1 is < outlier_fraction;
// an outlier is drawn from normal(0, std * outlier_scale) instead (the same standard normal
// sample z(i) of normal(), scaled by std * outlier_scale).
Dataset mixture(int64_t n, uint64_t seed, double std = 1, double outlier_fraction = 0.01,
                double outlier_scale = 20, const Exec& exec = {});

// Shortest decimal that reads back as the same double; integral values below 1e15 without
// exponent ("1000000", not "1e+06"). Used in labels and canonical spec strings.
std::string formatNumber(double v);

}  // namespace qs::data
