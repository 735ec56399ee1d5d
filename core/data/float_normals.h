// Standard normal samples computed in float32, for samplers whose output is float32 anyway
// (the embedding table's initializers: TensorFlow's own initializers draw float32
// Box-Muller pairs too). Several times faster than the double-precision normals of
// generators.h: one SplitMix64 draw per pair instead of two, and 8 float lanes per AVX2
// instruction.
#pragma once

#include <cstdint>

#include "core/data/generators.h"  // CounterStream

namespace qs::data {

// z[k] = float32 standard normal sample b + k of `s`, for e - b <= kFloatNormalBatch.
// Box-Muller: pair j = i / 2 takes draw j of `s` (CounterStream::bits(j)) = h; the radius
// comes from u1 = (a + 1/2) 2^-23 with a = h >> 41 (so |z| < 5.8), the angle from
// u2 = b 2^-24 with b = bits 16..39 of h; sample 2j is r cos(2 pi u2), 2j + 1 r sin(2 pi u2). Only +, *, /, sqrt and floor (all exact or correctly rounded)
// are used, so the bits are the same on every machine, thread count and code path.
inline constexpr int64_t kFloatNormalBatch = 128;
void standardNormalsF(const CounterStream& s, int64_t b, int64_t e, float* z);
// The same samples at scattered indices (z[k] = sample index[k] of `s`, any count).
void standardNormalsAtF(const CounterStream& s, const int64_t* index, int64_t count, float* z);

}  // namespace qs::data
