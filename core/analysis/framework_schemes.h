// The affine quantization schemes people meet outside TensorFlow, element by element, next
// to TF's own ops (through applySpec), so the explorer can show where they disagree and why.
// Formulas and sources are in docs/frameworks.md; in short (all float32):
//   PyTorch fake_quantize_per_tensor_affine (ATen fake_quantize_tensor_cachemask_kernel):
//       inv = 1.0f / scale; q = clamp(nearbyint(x * inv) + zp, qmin, qmax); y = (q - zp) * scale
//   ONNX QuantizeLinear / DequantizeLinear (reference implementation):
//       q = saturate(round_half_to_even(x / scale) + zp); y = (q - zp) * scale
//   TFLite int8 (reference AffineQuantize / Dequantize):
//       q = clamp(TfLiteRound(x / scale) + zp, qmin, qmax)  (TfLiteRound = std::round: ties away)
//       y = (q - zp) * scale
// How each turns a range [min, max] into (scale, zero_point) is the framework's own recipe
// (PyTorch MinMaxObserver, ONNX DynamicQuantizeLinear, TFLite's nudged zero point); see the
// *Params functions below.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "core/analysis/progress.h"
#include "core/analysis/quant_spec.h"
#include "core/analysis/scaled_r14.h"
#include "core/ops/modes.h"
#include "core/status.h"

namespace qs::analysis {

// scale / zero point / code bounds: real = (q - zero_point) * scale.
struct AffineParams {
    float scale = 1.0f;
    int32_t zero_point = 0;
    int32_t qmin = -128, qmax = 127;
    bool operator==(const AffineParams&) const = default;
};

// Everything that decides one affine code: the parameters plus the two arithmetic choices
// the frameworks differ in.
struct AffineRecipe {
    AffineParams params;
    bool divide = true;                            // x / scale (ONNX, TFLite) or x * (1/scale) (PyTorch)
    RoundMode tie = RoundMode::HalfToEven;         // HalfToEven (PyTorch, ONNX), HalfAwayFromZero (TFLite)
    bool operator==(const AffineRecipe&) const = default;
};

// The code and the value it stands for, each step in float32 as the framework computes it.
int32_t affineCode(float x, const AffineRecipe& r);
float affineValue(int32_t code, const AffineParams& p);  // (q - zp) * scale

// Range -> parameters. `bits` in 2..16; signed gives [-2^(b-1), 2^(b-1)-1], else [0, 2^b-1].
// PyTorch MinMaxObserver (per_tensor_affine): range extended to include 0,
//   scale = max((max - min) / (qmax - qmin), FLT_EPSILON), zp = qmin - round_even(min / scale), clamped.
AffineParams pytorchParams(float min, float max, int bits, bool is_signed);
// ONNX DynamicQuantizeLinear's recipe (the op itself is uint8 only; generalised to int8):
//   range extended to include 0, scale = (max - min) / (qmax - qmin),
//   zp = round_even(saturate(qmin - min / scale)).
AffineParams onnxParams(float min, float max, int bits, bool is_signed);
// TFLite's asymmetric (activation) parameters, zero point nudged as TF's FakeQuant Nudge and
// TFLite's GetAsymmetricQuantizationParams do: range extended to include 0,
//   scale = (max - min) / (qmax - qmin), zp_from_min = qmin - min / scale,
//   zp = qmin if zp_from_min < qmin, qmax if > qmax, else std::round(zp_from_min).
AffineParams tfliteParams(float min, float max, int bits, bool is_signed);
// TFLite's symmetric weight parameters: zp = 0, codes [-(2^(b-1)-1), 2^(b-1)-1],
// scale = max(|min|, |max|) / (2^(b-1)-1) (one per output channel when per-axis).
AffineParams tfliteSymmetricParams(float min, float max, int bits);

// The schemes the comparison offers.
enum class SchemeKind {
    Tf,              // a TF op through applySpec (Scheme::tf, range and bits overwritten)
    PyTorch,         // fake_quantize_per_tensor_affine with MinMaxObserver parameters
    Onnx,            // QuantizeLinear -> DequantizeLinear with DynamicQuantizeLinear parameters
    TfliteInt8,      // asymmetric activation scheme, nudged zero point
    TfliteSymmetric, // symmetric weight scheme (zp = 0, narrow codes)
    ScaledR14        // "SCALED as documented in r1.4" (scaled_r14.h) for Scheme::tf.T; a
                     // labelled variant to show documentation vs kernel, never a default
};

struct Scheme {
    SchemeKind kind = SchemeKind::PyTorch;
    bool is_signed = true;  // signed (intN) vs unsigned (uintN) codes for the affine schemes
    QuantSpec tf;           // SchemeKind::Tf only: op and attributes. compareSchemes sets
                            // min/max_range to the compared range, range_given = true,
                            // num_bits = bits (QDQ), axis = -1.
    bool operator==(const Scheme&) const = default;
};

// The scheme's name with its codes at `bits`: "PyTorch fake_quantize_per_tensor_affine (int4)",
// "TFLite symmetric weights (int16, zp 0)", "TF QuantizeAndDequantizeV4 (uint8)", "TF
// QuantizeV2 → Dequantize MIN_COMBINED qint8" (QuantizeV2 and r1.4 name their T, whose width
// they use whatever `bits` says), "TF TpuSimulatedQuantization (16 buckets)".
std::string schemeLabel(const Scheme& s, int bits);
// "int4", "uint16": the integer type of `bits`-bit codes.
std::string codeTypeName(int bits, bool is_signed);

// A scheme bound to a range: the recipe (affine kinds) or the TF slice quantizer.
class PreparedScheme {
public:
    static Result<PreparedScheme> make(const Scheme& s, float min, float max, int bits);
    const Scheme& scheme() const { return scheme_; }
    int bits() const { return bits_; }
    std::string label() const { return schemeLabel(scheme_, bits_); }
    bool isAffine() const { return !tf_ && !r14_; }
    const AffineRecipe& recipe() const { return recipe_; }  // affine kinds only
    // Output step Δ, the value 0.0 comes back as, and the representable output range.
    double step() const;
    float zeroOutput() const { return zero_; }
    float lowest() const { return lowest_; }
    float highest() const { return highest_; }
    float operator()(float x) const;  // the dequantized value
    // The integer code the scheme stores for x (TF ops: the op's code, QDQ: its level).
    int64_t code(float x) const;

private:
    Scheme scheme_;
    int bits_ = 8;
    AffineRecipe recipe_;
    std::optional<SliceQuantizer> tf_;     // kind == Tf only
    std::optional<ScaledR14Params> r14_;   // kind == ScaledR14 only
    float zero_ = 0, lowest_ = 0, highest_ = 0;
};

enum class DiffReason { None, TieRule, DivideVsReciprocal, ZeroPointNudge, RangeAdjustment, Clamp, Other };
constexpr int kDiffReasonCount = 7;
std::string_view diffReasonName(DiffReason r);  // "tie rule", "divide vs reciprocal", ...

struct Explanation {
    DiffReason reason = DiffReason::None;
    float a = 0, b = 0;  // the two outputs
    std::string text;    // one sentence with the numbers
};

// Why a and b give different outputs for x, found by recomputing: the first single
// ingredient of b (tie rule, divide/reciprocal, code bounds, zero point, scale) that, put
// into a, makes a's output equal b's. With a TF op or the r1.4 variant on either side (no
// affine recipe), that quantizer's step, zero output and range are compared with the other side's instead.
// None when both outputs are equal; Other when no single ingredient explains it.
Explanation explainDifference(float x, const PreparedScheme& a, const PreparedScheme& b);
// The same decision without the text (what compareSchemes counts).
DiffReason diffReason(float x, const PreparedScheme& a, const PreparedScheme& b);

struct SchemeOutput {
    std::string label;
    std::vector<float> output;
    double step = 0;
    float zero_output = 0;
};

struct PairDiff {
    int a = 0, b = 0;                  // indices into the scheme list
    int64_t differing = 0;             // elements whose outputs differ
    double max_abs_diff = 0;
    int64_t first_index = -1;          // first differing element (-1: none)
    std::array<int64_t, kDiffReasonCount> by_reason{};  // differing elements per DiffReason
};

struct SchemeComparison {
    std::vector<SchemeOutput> outputs;  // one per scheme, in order
    std::vector<PairDiff> diffs;        // every pair (i < j)
};

// Runs every scheme over `data` with the same range and bit width and explains every
// differing element of every pair. Errors: empty data or scheme list, bits outside 2..16,
// min > max or non-finite range, and the TF op's own errors; "Cancelled" when progress
// (after each scheme's run and each pair's count) returns false.
Result<SchemeComparison> compareSchemes(std::span<const float> data, float min, float max,
                                        int bits, std::span<const Scheme> schemes,
                                        const Exec& exec = {}, const ProgressCallback& progress = {});

// TFLite per-axis weights: symmetric (int8 at 8 bits) with zp = 0, one scale per slice along `axis`
// (scale_c = max|w_c| / (2^(b-1)-1)). Writes the dequantized values to `output`; returns the
// per-slice parameters.
Result<std::vector<AffineParams>> tflitePerAxis(const TensorRef<float>& input, int64_t axis,
                                                int bits, std::span<float> output);

}  // namespace qs::analysis
