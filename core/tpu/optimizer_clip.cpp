#include "core/tpu/optimizer_clip.h"

#include <array>
#include <utility>

#include "core/tpu/simulated_quantization.h"  // pyFloatRepr

namespace qs::tpu {

namespace {

constexpr std::array<std::pair<OptimizerKind, std::string_view>, 5> kNames{{
    {OptimizerKind::SGD, "SGD"},
    {OptimizerKind::Adagrad, "Adagrad"},
    {OptimizerKind::AdagradMomentum, "AdagradMomentum"},
    {OptimizerKind::Adam, "Adam"},
    {OptimizerKind::FTRL, "FTRL"},
}};

std::string pyStr(const PyNumber& n) {
    if (n.is_int) return std::to_string(static_cast<long long>(n.value));
    return pyFloatRepr(n.value);
}

std::string pyStr(const std::optional<PyNumber>& n) { return n ? pyStr(*n) : "None"; }

}  // namespace

std::optional<OptimizerKind> optimizerKindFromName(std::string_view name) {
    for (const auto& [kind, n] : kNames)
        if (n == name) return kind;
    return std::nullopt;
}

std::string_view optimizerName(OptimizerKind kind) {
    for (const auto& [k, n] : kNames)
        if (k == kind) return n;
    return "";
}

std::string pyStr(const ClipValue& clip) {
    switch (clip.kind) {
        case ClipValue::Kind::None: return "None";
        case ClipValue::Kind::Scalar: return pyStr(clip.scalar);
        case ClipValue::Kind::Tuple: break;
    }
    std::string s = "(";
    for (size_t i = 0; i < clip.tuple.size(); ++i) {
        if (i) s += ", ";
        s += pyStr(clip.tuple[i]);
    }
    if (clip.tuple.size() == 1) s += ",";  // Python's one-element tuple
    return s + ")";
}

Result<GradientClipLimits> gradientClipLimits(OptimizerKind /*kind: same base class*/,
                                              bool use_gradient_accumulation,
                                              const ClipValue& clipvalue) {
    // Same order as _Optimizer.__init__: the accumulation check comes first and prints
    // the value as given.
    if (!use_gradient_accumulation && clipvalue.kind != ClipValue::Kind::None)
        return valueError(
            "When `use_gradient_accumulation` is False, gradient clipping cannot be used and "
            "`clipvalue` should be left as None. Received value " +
            pyStr(clipvalue) + " for argument `clipvalue`.",
            "clipvalue");
    switch (clipvalue.kind) {
        case ClipValue::Kind::None: return GradientClipLimits{};
        case ClipValue::Kind::Scalar:
            // `-1.0 * clipvalue`: c = 0 gives min = -0.0, as in Python.
            return GradientClipLimits{-1.0 * clipvalue.scalar.value, clipvalue.scalar.value};
        case ClipValue::Kind::Tuple: break;
    }
    // `self.clip_gradient_min, self.clip_gradient_max = clipvalue` (tuple unpacking).
    const size_t n = clipvalue.tuple.size();
    if (n > 2) return valueError("too many values to unpack (expected 2)", "clipvalue");
    if (n < 2)
        return valueError("not enough values to unpack (expected 2, got " + std::to_string(n) + ")",
                          "clipvalue");
    GradientClipLimits limits;
    if (clipvalue.tuple[0]) limits.min = clipvalue.tuple[0]->value;
    if (clipvalue.tuple[1]) limits.max = clipvalue.tuple[1]->value;
    return limits;
}

}  // namespace qs::tpu
