// simulatedBucketF32 (core/tpu/simulated_quantization.h) on eight floats with GCC vector
// extensions, for the vector kernels of range_evaluation.cpp and pair_stats.cpp. Inlined
// into each of their target clones; the same IEEE operations in every clone.
#pragma once

#include <cstdint>

#include "core/tpu/simulated_quantization.h"

namespace qs::embedding::vec {

typedef float f8 __attribute__((vector_size(32)));
typedef int32_t i8 __attribute__((vector_size(32)));

struct Quantizer8 {
    f8 lower, upper, quantum;
    explicit Quantizer8(const tpu::SimQuantF32& k)
        : lower(f8{} + k.lower), upper(f8{} + k.upper), quantum(f8{} + k.quantum) {}

    // bucket = floor((clamp(v) - lower) / quantum + 0.5) and level = bucket * quantum +
    // lower (simulateQuantizationF32's output). The argument of floor is >= 0.5 (or NaN), so
    // below 2^23 floor is the truncation to an integer, and from 2^23 on every float is an
    // integer. NaN stays NaN, as std::max/std::min keep it. (Vectors by reference: by value
    // they would change the ABI of the baseline clone.)
    [[gnu::always_inline]] void apply(const f8& v, f8& bucket, f8& level) const {
        f8 cv = v < lower ? lower : v;
        cv = upper < cv ? upper : cv;
        const f8 t = (cv - lower) / quantum + 0.5f;
        const i8 small = t < 0x1p23f;
        bucket = small ? __builtin_convertvector(__builtin_convertvector(small ? t : f8{}, i8), f8) : t;
        level = bucket * quantum + lower;
    }
};

}  // namespace qs::embedding::vec
