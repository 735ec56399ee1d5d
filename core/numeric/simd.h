// The core's SIMD vocabulary: GCC vector types, one name per lane type and count
// (f32x8 = eight floats), and the run-time dispatch of hot loops. Kernels write their loops
// on these types and GCC lowers them to SSE or AVX2; a loop that needs a wider machine than
// the baseline carries QS_VECTOR_CLONES.
#pragma once

#include <cstdint>

// Run-time dispatch for the hot loops: GCC compiles the function once for the portable
// baseline (x86-64-v2) and once for AVX2 (x86-64-v3), and picks at load time. Results are
// identical (no FMA contraction: -ffp-contract=off); only the vector width changes.
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && !defined(QS_NO_CLONES)
#define QS_VECTOR_CLONES __attribute__((target_clones("arch=x86-64-v3", "default")))
#else
#define QS_VECTOR_CLONES
#endif

namespace qs::simd {

using f32x4 = float __attribute__((vector_size(16)));
using f32x8 = float __attribute__((vector_size(32)));
using f64x4 = double __attribute__((vector_size(32)));
using f64x8 = double __attribute__((vector_size(64)));
using i32x8 = int32_t __attribute__((vector_size(32)));
using i64x4 = int64_t __attribute__((vector_size(32)));
using u32x8 = uint32_t __attribute__((vector_size(32)));
using u64x4 = uint64_t __attribute__((vector_size(32)));

}  // namespace qs::simd
