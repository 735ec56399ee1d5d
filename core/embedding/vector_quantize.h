// simulatedBucketF32 (core/tpu/simulated_quantization.h) on eight floats with GCC vector
// extensions, for the vector kernels of range_evaluation.cpp and pair_stats.cpp. Inlined
// into each of their target clones; the same IEEE operations in every clone.
#pragma once

#include <cstdint>

#include "core/numeric/simd.h"
#include "core/tpu/simulated_quantization.h"

namespace qs::embedding::vec {

using simd::f32x8, simd::i32x8;

struct Quantizer8 {
    f32x8 lower, upper, quantum;
    explicit Quantizer8(const tpu::SimQuantF32& k)
        : lower(f32x8{} + k.lower), upper(f32x8{} + k.upper), quantum(f32x8{} + k.quantum) {}

    // bucket = floor((clamp(v) - lower) / quantum + 0.5) and level = bucket * quantum +
    // lower (simulateQuantizationF32's output). The argument of floor is >= 0.5 (or NaN), so
    // below 2^23 floor is the truncation to an integer, and from 2^23 on every float is an
    // integer. NaN stays NaN, as std::max/std::min keep it. (Vectors by reference: by value
    // they would change the ABI of the baseline clone.)
    [[gnu::always_inline]] void apply(const f32x8& v, f32x8& bucket, f32x8& level) const {
        f32x8 cv = v < lower ? lower : v;
        cv = upper < cv ? upper : cv;
        const f32x8 t = (cv - lower) / quantum + 0.5f;
        const i32x8 small = t < 0x1p23f;
        bucket = small ? __builtin_convertvector(__builtin_convertvector(small ? t : f32x8{}, i32x8), f32x8) : t;
        level = bucket * quantum + lower;
    }
};

}  // namespace qs::embedding::vec
