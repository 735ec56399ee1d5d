#include "core/data/generators.h"

#include "core/ops/kernel_util.h"  // QS_VECTOR_CLONES

#include <Eigen/Core>

#include <algorithm>
#include <array>
#include <bit>
#include <charconv>
#include <cmath>
#include <numbers>

namespace qs::data {
namespace {

using Stream = CounterStream;

// Our own log and sin/cos, built from +, *, / and sqrt only (all correctly rounded by IEEE
// 754, and the core is built with -ffp-contract=off): the samples are then bit-identical
// whatever the libm, and the branch-free polynomials vectorise when applied to a batch
// (faster than glibc's scalar log/sin/cos, which do not).
// Accuracy is ~1e-15 relative, far below the float32 rounding of the results.

// Taylor coefficients (-1)^k / (2k+1)! and (-1)^k / (2k)!, folded at compile time.
constexpr auto kSinCoef = [] {
    std::array<double, 12> c{};
    double f = 1;
    for (int k = 0; k < 12; ++k) { c[k] = f; f /= -(2.0 * k + 2) * (2.0 * k + 3); }
    return c;
}();
constexpr auto kCosCoef = [] {
    std::array<double, 12> c{};
    double f = 1;
    for (int k = 0; k < 12; ++k) { c[k] = f; f /= -(2.0 * k + 1) * (2.0 * k + 2); }
    return c;
}();
// 1 / (2k+1) for the atanh series of logPositive.
constexpr auto kLogCoef = [] {
    std::array<double, 12> c{};
    for (int k = 0; k < 12; ++k) c[k] = 1.0 / (2 * k + 1);
    return c;
}();

// ln(x) for normal doubles x > 0: x = m * 2^e with m in [sqrt(1/2), sqrt(2)),
// ln m = 2 atanh(s), s = (m - 1) / (m + 1), |s| <= 0.1716, as an odd series (12 terms:
// the next one is < 1e-19).
inline double logPositive(double x) {
    const uint64_t bits = std::bit_cast<uint64_t>(x);
    const uint64_t expField = bits >> 52;  // sign is 0
    double m = std::bit_cast<double>((bits & 0x000FFFFFFFFFFFFFull) | 0x3FF0000000000000ull);
    // The exponent as a double without int->double conversion (vectorises on SSE4):
    // 2^52 + expField is exact in the mantissa bits.
    double e = std::bit_cast<double>(0x4330000000000000ull | expField) - (0x1p52 + 1023.0);
    const bool high = m > std::numbers::sqrt2;
    m = high ? m * 0.5 : m;
    e = high ? e + 1.0 : e;
    const double s = (m - 1.0) / (m + 1.0), s2 = s * s;
    double p = 0;
    for (int k = 11; k >= 0; --k) p = p * s2 + kLogCoef[k];
    return e * std::numbers::ln2 + 2.0 * s * p;
}

// cos and sin of 2 pi t for t in [0, 1]: the quadrant q and the fraction f of 4t are exact,
// so multiples of pi/2 give exact 0 and +-1; then Taylor polynomials of x = f pi/2 in
// [0, pi/2): sin to x^23, cos to x^22 (remainders < 2e-18). All in double (quadrant
// selects included) so a loop over a batch vectorises.
inline void cosSin2Pi(double t, double& c, double& s) {
    const double t4 = 4.0 * t;
    const double qd = std::floor(t4);
    const double x = (t4 - qd) * (std::numbers::pi / 2), x2 = x * x;
    double sp = 0, cp = 0;
    for (int k = 11; k >= 0; --k) sp = sp * x2 + kSinCoef[k];
    for (int k = 11; k >= 0; --k) cp = cp * x2 + kCosCoef[k];
    const double sx = x * sp, cx = cp;
    // Rotate (cos x, sin x) by q quarter turns; q = 4 (t = 1 only) acts as q = 0.
    const double q = qd - 4.0 * std::floor(qd * 0.25);  // 0, 1, 2 or 3
    const bool odd = q == 1.0 || q == 3.0, negate = q >= 2.0;
    const double c0 = odd ? -sx : cx, s0 = odd ? cx : sx;
    c = negate ? -c0 : c0;
    s = negate ? -s0 : s0;
}

// r = sqrt(r), r >= 0: Eigen's packet sqrt (sqrtpd, correctly rounded like std::sqrt, which
// stays scalar because of errno and cost a fifth of the normal samples' time).
inline void sqrtInPlace(double* r, int64_t n) {
    Eigen::Map<Eigen::ArrayXd> a(r, n);
    a = a.sqrt();
}

// Wider clones for the normal samples: with AVX-512 the 64-bit multiplies of SplitMix64
// vectorise too (vpmullq). Same operations, same bits: -ffp-contract=off, no FMA.
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && !defined(QS_NO_CLONES)
#define QS_NORMAL_CLONES __attribute__((target_clones("arch=x86-64-v4", "arch=x86-64-v3", "default")))
#else
#define QS_NORMAL_CLONES
#endif

// Work is done in batches: the SplitMix64 draws (64-bit multiplies) are scalar, the
// transforms run as separate loops over the batch, which GCC vectorises.
constexpr int64_t kBatch = 64;

// z[k] = the standard normal sample b + k of `s`, for b + k in [b, e), e - b <= kBatch.
// Box-Muller: pair j gives samples 2j (cos) and 2j + 1 (sin).
QS_NORMAL_CLONES void standardNormals(const Stream& s, int64_t b, int64_t e, double* z) {
    const int64_t j0 = b / 2, pairs = (e + 1) / 2 - j0;
    double u1[kBatch / 2 + 1], u2[kBatch / 2 + 1], r[kBatch / 2 + 1], c[kBatch / 2 + 1],
        sn[kBatch / 2 + 1];
    for (int64_t k = 0; k < pairs; ++k) {
        u1[k] = s.open01(static_cast<uint64_t>(2 * (j0 + k)));
        u2[k] = s.open01(static_cast<uint64_t>(2 * (j0 + k) + 1));
    }
    for (int64_t k = 0; k < pairs; ++k) r[k] = -2.0 * logPositive(u1[k]);
    sqrtInPlace(r, pairs);
    for (int64_t k = 0; k < pairs; ++k) cosSin2Pi(u2[k], c[k], sn[k]);
    for (int64_t i = b; i < e; ++i) {
        const int64_t k = i / 2 - j0;
        z[i - b] = r[k] * ((i & 1) ? sn[k] : c[k]);
    }
}

// out[i] for i in [b, e), e - b <= kBatch: inverse CDF v = u - 0.5 (exact);
// x = loc -+ scale * ln(1 - 2|v|) with 1 - 2|v| >= 2^-52 > 0, so the log is finite.
QS_VECTOR_CLONES void laplaceBatch(const Stream& s, int64_t b, int64_t e, double loc, double scale,
                                   float* out) {
    double v[kBatch];
    for (int64_t i = b; i < e; ++i) v[i - b] = s.open01(static_cast<uint64_t>(i)) - 0.5;
    for (int64_t k = 0; k < e - b; ++k) {
        const double mag = -scale * logPositive(1.0 - 2.0 * std::fabs(v[k]));
        out[b + k] = static_cast<float>(v[k] < 0 ? loc - mag : loc + mag);
    }
}

// out[i] = amplitude * sin(2 pi ((i * k) mod n) / n) for i in [b, e), e - b <= kBatch. The
// phase index is exact in integers (one modulo per batch, then steps of k), so large i lose
// no precision.
QS_VECTOR_CLONES void sineBatch(int64_t b, int64_t e, int64_t k, int64_t n, double amplitude,
                                float* out) {
    double t[kBatch], c[kBatch], sn[kBatch];
    int64_t m = (b * k) % n;  // no overflow: b * k < 2^63 for any n that fits in memory
    for (int64_t i = b; i < e; ++i) {
        t[i - b] = static_cast<double>(m);
        m += k;
        if (m >= n) m -= n;  // k < n whenever k > 1
    }
    const double dn = static_cast<double>(n);
    for (int64_t j = 0; j < e - b; ++j) cosSin2Pi(t[j] / dn, c[j], sn[j]);
    for (int64_t j = 0; j < e - b; ++j) out[b + j] = static_cast<float>(amplitude * sn[j]);
}

// Runs fn(b, e) over [0, n) in parallel, cut into batches aligned to multiples of kBatch
// (so pairs are never split except at a thread's first batch, which standardNormals handles).
template <typename Fn>
void forBatches(const Exec& exec, int64_t n, Fn&& fn) {
    parallelFor(exec, n, [&](int64_t b, int64_t e) {
        for (int64_t i = b; i < e;) {
            const int64_t next = std::min(e, (i / kBatch + 1) * kBatch);
            fn(i, next);
            i = next;
        }
    });
}

std::string label(const char* kind, int64_t n, std::initializer_list<std::pair<const char*, double>> params,
                  const uint64_t* seed) {
    std::string s = kind;
    s += "(n=";
    s += std::to_string(n);
    for (const auto& [k, v] : params) {
        s += ", ";
        s += k;
        s += '=';
        s += formatNumber(v);
    }
    if (seed) {
        s += ", seed=";
        s += std::to_string(*seed);
    }
    s += ')';
    return s;
}

Dataset make(int64_t n, std::string lbl) {
    Dataset d;
    n = std::max<int64_t>(n, 0);
    d.values.resize(static_cast<size_t>(n));
    d.shape = {n};
    d.label = std::move(lbl);
    return d;
}

}  // namespace

Dataset uniform(int64_t n, uint64_t seed, double low, double high, const Exec& exec) {
    Dataset d = make(n, label("uniform", n, {{"low", low}, {"high", high}}, &seed));
    const Stream s(seed, 0);
    const double width = high - low;
    float* out = d.values.data();
    parallelFor(exec, static_cast<int64_t>(d.values.size()), [&](int64_t b, int64_t e) {
        for (int64_t i = b; i < e; ++i)
            out[i] = static_cast<float>(low + width * s.closedOpen01(static_cast<uint64_t>(i)));
    });
    return d;
}

Dataset normal(int64_t n, uint64_t seed, double mean, double std, const Exec& exec) {
    Dataset d = make(n, label("normal", n, {{"mean", mean}, {"std", std}}, &seed));
    const Stream s(seed, 0);
    float* out = d.values.data();
    forBatches(exec, static_cast<int64_t>(d.values.size()), [&](int64_t b, int64_t e) {
        double z[kBatch];
        standardNormals(s, b, e, z);
        for (int64_t i = b; i < e; ++i) out[i] = static_cast<float>(mean + std * z[i - b]);
    });
    return d;
}

Dataset laplace(int64_t n, uint64_t seed, double loc, double scale, const Exec& exec) {
    Dataset d = make(n, label("laplace", n, {{"loc", loc}, {"scale", scale}}, &seed));
    const Stream s(seed, 0);
    float* out = d.values.data();
    forBatches(exec, static_cast<int64_t>(d.values.size()),
               [&](int64_t b, int64_t e) { laplaceBatch(s, b, e, loc, scale, out); });
    return d;
}

int64_t sinePeriods(int64_t n) {
    if (n < 4 * 97) return 1;
    for (int64_t k : {97, 89, 83, 79, 73})
        if (n % k != 0) return k;
    return 1;
}

Dataset sine(int64_t n, double amplitude, const Exec& exec) {
    Dataset d = make(n, label("sine", n, {{"amplitude", amplitude}}, nullptr));
    const int64_t k = sinePeriods(n);
    float* out = d.values.data();
    forBatches(exec, static_cast<int64_t>(d.values.size()),
               [&](int64_t b, int64_t e) { sineBatch(b, e, k, n, amplitude, out); });
    return d;
}

Dataset mixture(int64_t n, uint64_t seed, double std, double outlier_fraction, double outlier_scale,
                const Exec& exec) {
    Dataset d = make(n, label("mixture", n,
                              {{"std", std}, {"outlier_fraction", outlier_fraction},
                               {"outlier_scale", outlier_scale}},
                              &seed));
    const Stream normals(seed, 0), picks(seed, 1);
    const double wide = std * outlier_scale;
    float* out = d.values.data();
    forBatches(exec, static_cast<int64_t>(d.values.size()), [&](int64_t b, int64_t e) {
        double z[kBatch];
        standardNormals(normals, b, e, z);
        for (int64_t i = b; i < e; ++i) {
            const bool outlier = picks.open01(static_cast<uint64_t>(i)) < outlier_fraction;
            out[i] = static_cast<float>((outlier ? wide : std) * z[i - b]);
        }
    });
    return d;
}

std::string formatNumber(double v) {
    std::array<char, 64> buf;
    if (std::isfinite(v) && v == std::trunc(v) && std::fabs(v) < 1e15)
        return std::to_string(static_cast<int64_t>(v));  // -0 prints as "0"
    const auto r = std::to_chars(buf.data(), buf.data() + buf.size(), v);
    return std::string(buf.data(), r.ptr);
}

}  // namespace qs::data
