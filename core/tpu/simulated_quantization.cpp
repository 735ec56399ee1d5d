#include "core/tpu/simulated_quantization.h"

#include <Eigen/Core>
#include <charconv>
#include <cstdlib>

namespace qs::tpu {

Result<QuantizationConfig> makeQuantizationConfig(int64_t num_buckets, double lower,
                                                  double upper) {
    if (num_buckets < 2)
        return valueError("num_buckets is " + std::to_string(num_buckets) +
                              ", must be at least 2 for simulated quantization.",
                          "num_buckets");
    return QuantizationConfig{num_buckets, lower, upper};
}

std::string pyFloatRepr(double v) {
    if (std::isnan(v)) return "nan";
    if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
    // Shortest round-trip digits in scientific form, "d.ddde±XX"; then laid out the way
    // CPython's float_repr does (format code 'r': exponent form iff decpt <= -4 or > 16).
    char buf[64];
    const auto res = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::scientific);
    const std::string sci(buf, res.ptr);
    std::string out;
    size_t pos = 0;
    if (sci[0] == '-') {
        out += '-';
        pos = 1;
    }
    const size_t ePos = sci.find('e');
    std::string digits;
    for (size_t i = pos; i < ePos; ++i)
        if (sci[i] != '.') digits += sci[i];
    const int exp10 = std::atoi(sci.c_str() + ePos + 1);  // value = d.ddd x 10^exp10

    if (exp10 < -4 || exp10 >= 16) {
        out += digits[0];
        if (digits.size() > 1) {
            out += '.';
            out.append(digits, 1);
        }
        const int a = std::abs(exp10);
        out += exp10 < 0 ? "e-" : "e+";
        if (a < 10) out += '0';
        out += std::to_string(a);
        return out;
    }
    if (exp10 >= 0) {
        const size_t intLen = static_cast<size_t>(exp10) + 1;
        if (digits.size() <= intLen) {
            out += digits;
            out.append(intLen - digits.size(), '0');
            out += ".0";
        } else {
            out.append(digits, 0, intLen);
            out += '.';
            out.append(digits, intLen);
        }
        return out;
    }
    out += "0.";
    out.append(static_cast<size_t>(-exp10 - 1), '0');
    out += digits;
    return out;
}

std::string repr(const QuantizationConfig& c) {
    return "QuantizationConfig(num_buckets=" + std::to_string(c.num_buckets) +
           ", lower=" + pyFloatRepr(c.lower) + ", upper=" + pyFloatRepr(c.upper) + ")";
}

SimQuantF32 prepareF32(const QuantizationConfig& c) {
    SimQuantF32 k;
    k.lower = static_cast<float>(c.lower);
    k.upper = static_cast<float>(c.upper);
    // Both operands and the divide are float32, as in "quantum computed in float".
    k.quantum = (k.upper - k.lower) / static_cast<float>(c.num_buckets - 1);
    return k;
}

double simulateQuantizationExact(double x, const QuantizationConfig& c) {
    const double quantum = (c.upper - c.lower) / static_cast<double>(c.num_buckets - 1);
    double v = x < c.lower ? c.lower : x;
    v = c.upper < v ? c.upper : v;
    const double q = std::floor((v - c.lower) / quantum + 0.5);
    return q * quantum + c.lower;
}

namespace {
Status sizeMismatch(size_t in, size_t out) {
    return invalidArgument("simulated quantization: input has " + std::to_string(in) +
                           " elements but output has " + std::to_string(out));
}
}  // namespace

Status simulateQuantization(std::span<const float> in, std::span<float> out,
                            const QuantizationConfig& config, const Exec& exec) {
    if (in.size() != out.size()) return sizeMismatch(in.size(), out.size());
    const SimQuantF32 k = prepareF32(config);
    const float* src = in.data();
    float* dst = out.data();
    // An Eigen array expression rather than a plain loop: GCC refuses to vectorise
    // std::floor under the default -ftrapping-math, while Eigen emits maxps/minps/subps/
    // divps/addps/roundps/mulps/addps — the formula's steps in order, one rounding each.
    // Eigen's max/min keep a NaN first argument like std::max/std::min (spec 0.3), so the
    // packet path and the scalar tail agree with simulateQuantizationF32 bit for bit.
    parallelFor(exec, static_cast<int64_t>(in.size()), [=](int64_t b, int64_t e) {
        Eigen::Map<const Eigen::ArrayXf> x(src + b, e - b);
        Eigen::Map<Eigen::ArrayXf> y(dst + b, e - b);
        y = ((x.max(k.lower).min(k.upper) - k.lower) / k.quantum + 0.5f).floor() * k.quantum +
            k.lower;
    });
    return okStatus();
}

Status simulateQuantizationExact(std::span<const float> in, std::span<double> out,
                                 const QuantizationConfig& config, const Exec& exec) {
    if (in.size() != out.size()) return sizeMismatch(in.size(), out.size());
    const double lo = config.lower, hi = config.upper;
    const double quantum = (hi - lo) / static_cast<double>(config.num_buckets - 1);
    const float* src = in.data();
    double* dst = out.data();
    parallelFor(exec, static_cast<int64_t>(in.size()), [=](int64_t b, int64_t e) {
        Eigen::Map<const Eigen::ArrayXf> x(src + b, e - b);
        Eigen::Map<Eigen::ArrayXd> y(dst + b, e - b);
        y = ((x.cast<double>().max(lo).min(hi) - lo) / quantum + 0.5).floor() * quantum + lo;
    });
    return okStatus();
}

}  // namespace qs::tpu
