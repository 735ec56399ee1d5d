#include "core/data/float_normals.h"

#include <algorithm>
#include <bit>
#include <cmath>

#include "core/ops/kernel_util.h"  // QS_VECTOR_CLONES

namespace qs::data {
namespace {

constexpr int64_t kPairs = kFloatNormalBatch / 2 + 1;

// ln(x) for normal floats x > 0: x = m 2^e, m in [sqrt(1/2), sqrt(2)), ln m = 2 atanh(s),
// s = (m - 1) / (m + 1), |s| <= 0.1716; the odd series to s^9 (next term < 3e-9).
inline float logPositiveF(float x) {
    const uint32_t bits = std::bit_cast<uint32_t>(x);
    float m = std::bit_cast<float>((bits & 0x007FFFFFu) | 0x3F800000u);
    float e = static_cast<float>(static_cast<int32_t>(bits >> 23) - 127);
    const bool high = m > 1.41421356f;
    m = high ? m * 0.5f : m;
    e = high ? e + 1.0f : e;
    const float s = (m - 1.0f) / (m + 1.0f), s2 = s * s;
    float p = 1.0f / 9;
    p = p * s2 + 1.0f / 7;
    p = p * s2 + 1.0f / 5;
    p = p * s2 + 1.0f / 3;
    p = p * s2 + 1.0f;
    return e * 0.693147180559945f + 2.0f * s * p;
}

// cos and sin of 2 pi t, t in [0, 1): quadrant and fraction of 4t are exact, then Taylor
// polynomials of x in [0, pi/2): sin to x^11, cos to x^12 (remainders < 6e-8).
inline void cosSin2PiF(float t, float& c, float& s) {
    const float t4 = 4.0f * t;
    const float qd = std::floor(t4);
    const float x = (t4 - qd) * 1.57079632679f, x2 = x * x;
    float sp = -1.0f / 39916800;
    sp = sp * x2 + 1.0f / 362880;
    sp = sp * x2 - 1.0f / 5040;
    sp = sp * x2 + 1.0f / 120;
    sp = sp * x2 - 1.0f / 6;
    sp = sp * x2 + 1.0f;
    float cp = 1.0f / 479001600;
    cp = cp * x2 - 1.0f / 3628800;
    cp = cp * x2 + 1.0f / 40320;
    cp = cp * x2 - 1.0f / 720;
    cp = cp * x2 + 1.0f / 24;
    cp = cp * x2 - 0.5f;
    cp = cp * x2 + 1.0f;
    const float sx = x * sp, cx = cp;
    const bool odd = qd == 1.0f || qd == 3.0f, negate = qd >= 2.0f;  // qd in {0, 1, 2, 3}
    const float c0 = odd ? -sx : cx, s0 = odd ? cx : sx;
    c = negate ? -c0 : c0;
    s = negate ? -s0 : s0;
}

// The uniforms of pair j from one 64-bit draw, as int32 (converts in SIMD). u1 takes 23
// bits so that a + 1/2 is exact in float32 (with 24 it would round, to 1 at the top).
inline void pairUniforms(const CounterStream& s, uint64_t j, float& u1, float& u2) {
    const uint64_t h = s.bits(j);
    u1 = (static_cast<float>(static_cast<int32_t>(h >> 41)) + 0.5f) * 0x1p-23f;
    u2 = static_cast<float>(static_cast<int32_t>((h >> 16) & 0xFFFFFFu)) * 0x1p-24f;
}

// r[k] = sqrt(-2 ln u1[k]), c/sn = cos/sin(2 pi u2[k]) for k < n.
inline void boxMuller(const float* u1, const float* u2, int64_t n, float* r, float* c, float* sn) {
    // std::sqrt is correctly rounded in every lane and the tail alike, and vectorises as this
    // file is built without errno (core/CMakeLists.txt). Not Eigen's float sqrt: with its
    // default EIGEN_FAST_MATH it is an approximation in packets and exact in the tail, so a
    // value would depend on where a thread's range starts.
    for (int64_t k = 0; k < n; ++k) r[k] = std::sqrt(-2.0f * logPositiveF(u1[k]));
    for (int64_t k = 0; k < n; ++k) cosSin2PiF(u2[k], c[k], sn[k]);
}

}  // namespace

QS_VECTOR_CLONES void standardNormalsF(const CounterStream& s, int64_t b, int64_t e, float* z) {
    const int64_t j0 = b / 2, pairs = (e + 1) / 2 - j0;
    // u1 and u2 zeroed only because GCC cannot see that the loop fills what boxMuller reads.
    float u1[kPairs] = {}, u2[kPairs] = {}, r[kPairs], c[kPairs], sn[kPairs];
    for (int64_t k = 0; k < pairs; ++k) pairUniforms(s, static_cast<uint64_t>(j0 + k), u1[k], u2[k]);
    boxMuller(u1, u2, pairs, r, c, sn);
    if (b % 2 == 0 && e % 2 == 0) {  // whole pairs (every batch but a range's ends): interleave
        for (int64_t k = 0; k < pairs; ++k) {
            z[2 * k] = r[k] * c[k];
            z[2 * k + 1] = r[k] * sn[k];
        }
        return;
    }
    for (int64_t i = b; i < e; ++i) {
        const int64_t k = i / 2 - j0;
        z[i - b] = r[k] * ((i & 1) ? sn[k] : c[k]);
    }
}

QS_VECTOR_CLONES void standardNormalsAtF(const CounterStream& s, const int64_t* index, int64_t count, float* z) {
    for (int64_t b = 0; b < count; b += kFloatNormalBatch) {
        const int64_t n = std::min(kFloatNormalBatch, count - b);
        float u1[kFloatNormalBatch] = {}, u2[kFloatNormalBatch] = {}, r[kFloatNormalBatch], c[kFloatNormalBatch],
            sn[kFloatNormalBatch];
        for (int64_t k = 0; k < n; ++k) pairUniforms(s, static_cast<uint64_t>(index[b + k] / 2), u1[k], u2[k]);
        boxMuller(u1, u2, n, r, c, sn);
        for (int64_t k = 0; k < n; ++k) z[b + k] = r[k] * ((index[b + k] & 1) ? sn[k] : c[k]);
    }
}

}  // namespace qs::data
