// What the explorer quantizes with: one op and every TF attribute of it, plus its range
// inputs. One struct for all ops so the GUI model, sessions, the CLI and the curves share it;
// applySpec runs the real core op it describes over a tensor.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <variant>
#include <vector>

#include "core/analysis/op_descriptor.h"
#include "core/ops/dequantize.h"
#include "core/ops/modes.h"
#include "core/ops/qtype.h"
#include "core/ops/quantize_and_dequantize.h"
#include "core/ops/quantize_v2.h"
#include "core/tpu/simulated_quantization.h"
#include "core/status.h"
#include "core/tensor.h"

namespace qs {

// Each op's facts are its row in op_descriptor.h; these read it.
std::string_view quantOpName(QuantOp op);  // "QuantizeV2 → Dequantize", ...
std::string_view quantOpKey(QuantOp op);   // stable id for files: "QuantizeV2", ...
bool parseQuantOpKey(std::string_view key, QuantOp& op);

// The round modes the op's attribute accepts and its default (QuantizeV2:
// HALF_AWAY_FROM_ZERO, HALF_TO_EVEN; QDQ V2/V4: HALF_TO_EVEN, HALF_UP; V3 and TPU: none).
// Accepted is not the same as valid: QuantizeV2 rejects HALF_TO_EVEN unless mode is SCALED,
// and that error comes from the op itself.
std::span<const RoundMode> roundModesFor(QuantOp op);
RoundMode defaultRoundMode(QuantOp op);
bool usesMode(QuantOp op);         // QuantizeV2's mode / T / ensure_minimum_range
bool isQdq(QuantOp op);            // signed_input / num_bits / range_given
bool usesNarrowRange(QuantOp op);  // QuantizeV2 and QDQ
bool usesAxis(QuantOp op);         // per-channel: QuantizeV2 and QDQ

// Where per-channel ranges come from when an axis is set (QuantizeV2 needs one per slice).
enum class RangeSource {
    Given,     // the one [min_range, max_range] for every slice
    FromData,  // each slice's own min/max (what a per-channel calibration would feed)
};

struct QuantSpec {
    QuantOp op = QuantOp::QuantizeV2;
    // QuantizeV2 / Dequantize attributes (TF's names and defaults; op_attributes.h lists
    // every attribute with the ops that take it).
    QType T = QType::QInt8;
    QuantizeMode mode = QuantizeV2Attrs{}.mode;
    RoundMode round_mode = QuantizeV2Attrs{}.round_mode;
    bool narrow_range = QuantizeV2Attrs{}.narrow_range;
    int64_t axis = QuantizeV2Attrs{}.axis;
    float ensure_minimum_range = QuantizeV2Attrs{}.ensure_minimum_range;
    // QuantizeAndDequantize attributes.
    bool signed_input = QdqAttrs{}.signed_input;
    int64_t num_bits = QdqAttrs{}.num_bits;
    bool range_given = true;  // TF's default is false (V2/V4) / true (V3); the explorer
                              // starts from a given range so the handles mean something
    // TPU QuantizationConfig.
    int64_t num_buckets = 256;
    // The range inputs: min_range/max_range (QuantizeV2), input_min/input_max (QDQ),
    // lower/upper (TPU).
    float min_range = -1.0f, max_range = 1.0f;
    RangeSource range_source = RangeSource::Given;

    bool operator==(const QuantSpec&) const = default;
};

// What one slice was quantized with, in TF's numbers.
struct SliceQuant {
    float requested_min = 0, requested_max = 0;  // the range fed to the op (or the data's)
    float output_min = 0, output_max = 0;  // QuantizeV2: returned; QDQ: effective; TPU: lower/upper
    float scale = 0;                       // code ≈ x · scale (+ offset)
    double step = 0;                       // Δ: output change per code
    int64_t code_lowest = 0, code_highest = 0;  // the codes the op can produce
    int64_t zero_code = 0;                 // the code of x = 0.0 ("zero point")
    float zero_output = 0;                 // what 0.0 comes back as (not always 0)
    // The range the quantizer actually clamps to, as clipping is counted everywhere (one
    // definition: a value is clipped iff it lies outside [clip_min, clip_max]): the op's
    // effective range, except that an end the op recomputed from the end it was given and
    // that landed a few float32 steps inside it counts as the given end (see clipEnd), and
    // QDQ without a given range, which never clamps, clips nothing (±inf).
    float clip_min = 0, clip_max = 0;
    int64_t levels() const { return code_highest - code_lowest + 1; }
    bool clips(float x) const { return x < clip_min || x > clip_max; }
};

// One end of the clipping range from the op's end `output` and the end it was fed
// `requested`. QDQ recomputes its kept end as q_max / (q_max / max) and QuantizeV2 SCALED
// recomputes both, in float32: the result may land one or two float steps inside the end it
// was given (a channel's own max, 2.4e-7 below it). A value between the two comes back with
// the very code it would get unclamped, so it is not clipped: within 4 float steps the
// given end counts. An end the op really moved (unsigned QDQ fed a negative min, moved to
// 0) stays the op's.
float clipEnd(float output, float requested, bool lower);

struct QuantRun {
    std::vector<SliceQuant> slices;  // one per slice; one when per tensor
    SliceLayout layout;
    // The distinct outputs Q(x) over the x that are not NaN, each once (-0 as +0, ascending),
    // when asked for (applySpec's tellLevels) and the op's codes told them on the way
    // (QuantizeV2 per tensor on 16 bits or fewer, no codes asked for); unset otherwise.
    std::optional<std::vector<float>> output_levels;
};

// Runs the op over `input` (its shape decides the axis layout): `output` gets Q(x) (the
// dequantized value, as TF returns it), `codes` (if not empty) the integer level of each
// element. Errors are the op's own, with TF's text. `tellLevels`: fill QuantRun::output_levels
// where the codes can tell them (a mark per value; only the explorer uses them).
Result<QuantRun> applySpec(const QuantSpec& spec, const TensorRef<float>& input,
                           std::span<float> output, std::span<int32_t> codes = {},
                           const Exec& exec = {}, bool tellLevels = false);

// How applySpec cuts a tensor of this shape into slices (per tensor unless an axis is set).
SliceLayout sliceLayoutOf(const QuantSpec& spec, const Shape& shape);
// Whether the slices' ranges are the data's own (per-channel FromData, QDQ without a given
// range): then prepareRun needs each slice's data min/max.
bool rangesFromData(const QuantSpec& spec);

// The core ops' attributes a spec stands for (V3's num_bits is the value of its input).
QuantizeV2Attrs quantizeV2Attrs(const QuantSpec& spec);
DequantizeAttrs dequantizeAttrs(const QuantSpec& spec);
QdqAttrs qdqAttrs(const QuantSpec& spec);

// The per-tensor spec that quantizes like one slice of a run: no axis, and the range that
// slice was fed (for QDQ without a given range, the data's). Curves and read-outs use it.
QuantSpec sliceSpec(const QuantSpec& spec, const SliceQuant& slice);

// One value through one slice's quantizer: (code, output). The same loops as applySpec.
struct ValuePoint {
    double code;
    double output;
};
class SliceQuantizer {
public:
    // Validates like the op (on a one-element tensor) and prepares the slice with the range
    // (min, max) — for QDQ without a given range, pass the data's min/max.
    static Result<SliceQuantizer> make(const QuantSpec& spec, float min, float max);
    ValuePoint operator()(float x) const;
    // Just Q(x), as the op outputs it (bit for bit what applySpec writes for this slice).
    float value(float x) const;
    const SliceQuant& info() const { return info_; }

private:
    struct V2 {
        QuantizeV2Attrs attrs;
        QuantizeV2SliceParams params;
        DequantizeAttrs dequant;
    };
    struct Qdq {
        QdqSliceParams params;
        RoundMode round;
    };
    SliceQuant info_;
    std::variant<V2, Qdq, tpu::SimQuantF32> impl_;
};

// Each slice's quantizer for data of this shape without running the op over the data
// (chunked passes over data too large to hold): `data_mins`/`data_maxs` are the slices'
// data min/max (as applySpec's scan finds them; 0 for an all-NaN slice), needed only when
// rangesFromData. Errors: the op's own for each slice's per-tensor form.
struct PreparedRun {
    QuantRun run;
    std::vector<SliceQuantizer> quantizers;  // one per slice
};
Result<PreparedRun> prepareRun(const QuantSpec& spec, const Shape& shape,
                               std::span<const float> data_mins, std::span<const float> data_maxs);

}  // namespace qs
