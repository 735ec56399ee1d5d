// The live "check" of a guided lesson: one number measured on the lesson's data with the
// explorer's QuantSpec, compared with what the theory says. The check is plain data (a
// kind, named parameters, a tolerance) so lessons stay JSON files (resources/lessons, read
// by session/lessons/lesson_file); the core has no JSON parser, hence the struct.
//
// Kinds (parameters in brackets, defaults after '='):
//   step                   average step of the output levels vs (max_range − min_range)/(levels − 1)
//                          [levels = 2^bits]
//   mse_vs_delta2_over_12  MSE vs Δ²/12 with the op's own Δ (data inside the range)
//   sqnr_slope_per_bit     least-squares slope of SQNR(bits) vs 20·log10(2) = 6.02 dB
//                          [bits_from = 4, bits_to = 12] (QDQ: num_bits; TPU: num_buckets = 2^b)
//   optimal_clip           argmin over α of the measured MSE with range [−α, α] vs the argmin of
//                          the closed form for the quantizer shown (its real step and clip points)
//                          [alpha_from, alpha_to, alpha_step = 0.01, sigma = 1, laplace = 0 (1:
//                          Laplace with scale b = sigma)]
//   round_trip_drift       max|x_N − x_1| over N round trips vs (N − 1)·steps_per_trip·Δ
//                          [iterations = 10, steps_per_trip = 0]
//   scaled_max             the op's output_max vs [expected]
//   narrow_range_levels    distinct output levels vs 2^bits − (narrow_range ? 1 : 0)
//   tie_bias               mean (x − y)/Δ on exact half-steps above 0 vs 0 (half to even) or
//                          −0.5 (every other tie rule) [ties = all codes above zero, made even]
//   per_channel_gain       SQNR per channel (the spec's axis) − SQNR per tensor (global range)
//                          vs [expected] (usually compared "at_least")
//   tpu_combiner_order     RMS(mean of quantized rows − mean of rows)/Δ vs 1/sqrt(12·bag)
//                          [bag = 4]: the combiner averages quantized rows, which is not the
//                          quantized mean
//   stored_codes_match     codes the spec's op gives the data that differ from the codes a
//                          model file stores for the same tensor (LessonCheck::stored_model /
//                          stored_tensor, e.g. the int8 half of a safetensors pair) vs
//                          [expected = 0] (usually compared "at_most")
#pragma once

#include <map>
#include <span>
#include <string>
#include <vector>

#include "core/analysis/quant_spec.h"
#include "core/status.h"
#include "core/tensor.h"

namespace qs::analysis {

enum class CheckComparison {
    Near,     // |measured − expected| <= tolerance
    AtLeast,  // measured >= expected − tolerance
    AtMost,   // measured <= expected + tolerance
};

struct LessonCheck {
    std::string kind;
    std::map<std::string, double> params;
    double tolerance = 0;
    bool relative = false;  // tolerance is a fraction of |expected|
    CheckComparison comparison = CheckComparison::Near;
    // stored_codes_match: the model file (a path as given, resolved by the caller) and the
    // name of the tensor whose stored integer codes the op should reproduce.
    std::string stored_model, stored_tensor;
};

struct LessonCheckResult {
    double measured = 0, expected = 0;
    double tolerance = 0;  // absolute, as applied
    bool passed = false;
    std::string text;      // "MSE 5.12e-06 vs Δ²/12 = 5.13e-06"
};

const std::vector<std::string>& lessonCheckKinds();

// InvalidArgument for an unknown kind (listing the valid ones), missing parameters, data the
// kind cannot use (e.g. per_channel_gain without an axis); the op's own errors pass through.
Result<LessonCheckResult> runLessonCheck(const LessonCheck& check, std::span<const float> data,
                                         const Shape& shape, const QuantSpec& spec,
                                         const Exec& exec = {});

}  // namespace qs::analysis
