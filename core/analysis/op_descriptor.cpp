#include "core/analysis/op_descriptor.h"

#include <algorithm>
#include <cmath>

#include "core/analysis/quant_spec.h"

namespace qs {

namespace {

constexpr RoundMode kQuantizeV2RoundModes[] = {RoundMode::HalfAwayFromZero, RoundMode::HalfToEven};
constexpr RoundMode kQdqRoundModes[] = {RoundMode::HalfToEven, RoundMode::HalfUp};

// TF's element-wise ops: one code per value, the range per tensor or per channel (axis).
constexpr OpStorage kPerTensorOrChannel{
    .layout = "one code per value; the range per tensor, or per channel with an axis"};

// The attributes every QuantizeAndDequantize version takes as attributes.
constexpr OpAttrUses qdqUses(AttrUse numBits, AttrUse roundMode) {
    return {.signed_input = AttrUse::Attr, .num_bits = numBits, .range_given = AttrUse::Attr,
            .round_mode = roundMode, .narrow_range = AttrUse::Attr, .axis = AttrUse::Attr};
}

constexpr OpDescriptor qdqRow(QuantOp op, std::string_view key, std::string_view shortName,
                              std::string_view formula, QdqVersion version) {
    // V3: num_bits an input, rounding fixed, range given by default, per-channel ranges taken.
    const bool v3 = version == QdqVersion::V3;
    return {.op = op, .family = OpFamily::Qdq, .key = key, .name = key, .short_name = shortName,
            .formula = formula,
            .range = {.tf_min = "input_min", .tf_max = "input_max", .case_min = "input_min",
                      .case_max = "input_max", .used_min = "effective min", .used_max = "effective max",
                      .given_range_scalar_only = !v3},
            .uses = qdqUses(v3 ? AttrUse::Input : AttrUse::Attr, v3 ? AttrUse::Fixed : AttrUse::Attr),
            .round_modes = v3 ? std::span<const RoundMode>{} : std::span<const RoundMode>{kQdqRoundModes},
            .default_round_mode = QdqAttrs{}.round_mode,
            .parse_round_mode = v3 ? nullptr : parseQdqRoundMode,
            .tf_range_given = v3 ? true : QdqAttrs{}.range_given, .qdq_version = version,
            .bit_width = BitWidthSource::NumBits, .storage = kPerTensorOrChannel};
}

// The table: one row per QuantOp, in enum order.
constexpr OpDescriptor kOps[] = {
    {.op = QuantOp::QuantizeV2, .family = OpFamily::QuantizeV2, .key = "QuantizeV2",
     .name = "QuantizeV2 → Dequantize", .short_name = "QuantizeV2", .formula = "Dequantize(QuantizeV2(x))",
     .range = {.tf_min = "min_range", .tf_max = "max_range", .case_min = "input_min", .case_max = "input_max",
               .used_min = "output_min", .used_max = "output_max", .used_is_returned = true},
     .uses = {.T = AttrUse::Attr, .mode = AttrUse::Attr, .round_mode = AttrUse::Attr,
              .narrow_range = AttrUse::Attr, .axis = AttrUse::Attr, .range_source = AttrUse::Attr,
              .ensure_minimum_range = AttrUse::Attr},
     .round_modes = kQuantizeV2RoundModes, .default_round_mode = QuantizeV2Attrs{}.round_mode,
     .parse_round_mode = parseQuantizeRoundMode, .bit_width = BitWidthSource::TypeT,
     .storage = kPerTensorOrChannel},
    qdqRow(QuantOp::QuantizeAndDequantizeV2, "QuantizeAndDequantizeV2", "QDQ V2", "QuantizeAndDequantizeV2(x)",
           QdqVersion::V2),
    qdqRow(QuantOp::QuantizeAndDequantizeV3, "QuantizeAndDequantizeV3", "QDQ V3", "QuantizeAndDequantizeV3(x)",
           QdqVersion::V3),
    qdqRow(QuantOp::QuantizeAndDequantizeV4, "QuantizeAndDequantizeV4", "QDQ V4", "QuantizeAndDequantizeV4(x)",
           QdqVersion::V4),
    {.op = QuantOp::TpuSimulatedQuantization, .family = OpFamily::TpuSimulated, .key = "TPUSimulatedQuantization",
     .name = "TPU simulated quantization", .short_name = "TPU", .formula = "TPU simulated quantization(x)",
     .range = {.tf_min = "lower", .tf_max = "upper", .case_min = "lower", .case_max = "upper",
               .case_in_attrs = true, .used_min = "lower", .used_max = "upper"},
     .uses = {.num_buckets = AttrUse::Attr}, .default_round_mode = QdqAttrs{}.round_mode,
     .bit_width = BitWidthSource::NumBuckets,
     .storage = {.layout = "one bucket index per value; lower and upper per tensor"}},
};

// The tripwire: an op added to the enum without its row, or a row out of place, stops the build.
constexpr bool everyOpHasItsRow() {
    if (std::size(kOps) != kQuantOpCount) return false;
    for (std::size_t i = 0; i < std::size(kOps); ++i)
        if (kOps[i].op != static_cast<QuantOp>(i) || kOps[i].key.empty() || kOps[i].name.empty()) return false;
    return true;
}
static_assert(everyOpHasItsRow(), "QuantOp and kOps disagree: every op needs exactly one row, in enum order");

// A row's round modes and its use of round_mode tell one story. (Whether it has a parser is
// checked by tst_op_descriptor: a function's address compared with null is not a constant
// expression under -fsanitize=undefined.)
constexpr bool roundModesAgree() {
    for (const OpDescriptor& d : kOps)
        if (d.round_modes.empty() != (d.uses.round_mode != AttrUse::Attr)) return false;
    return true;
}
static_assert(roundModesAgree(), "a row's round_modes and uses.round_mode disagree");

// What quantOpName and friends have always answered for a value outside the enum.
constexpr OpDescriptor kUnknownOp{.key = "?", .name = "?", .short_name = "?", .formula = "Q(x)"};

}  // namespace

std::span<const OpDescriptor> opDescriptors() { return kOps; }

const OpDescriptor& opDescriptor(QuantOp op) {
    const auto i = static_cast<std::size_t>(op);
    return i < std::size(kOps) ? kOps[i] : kUnknownOp;
}

double specBitWidth(const QuantSpec& s) {
    const OpDescriptor& d = opDescriptor(s.op);
    switch (d.bit_width) {
        case BitWidthSource::TypeT: return static_cast<double>(qtypeInfo(s.T).bits);
        case BitWidthSource::NumBits: return static_cast<double>(s.num_bits);
        case BitWidthSource::NumBuckets: return std::log2(static_cast<double>(s.num_buckets));
        case BitWidthSource::Fixed: return static_cast<double>(d.fixed_bits);
    }
    return 0;
}

int wholeBitWidth(const QuantSpec& s) {
    if (opDescriptor(s.op).bit_width == BitWidthSource::NumBuckets)
        return static_cast<int>(std::lround(std::log2(std::max<double>(2, static_cast<double>(s.num_buckets)))));
    return static_cast<int>(specBitWidth(s));
}

double bitsPerWeight(const QuantSpec& s) {
    const OpStorage& storage = opDescriptor(s.op).storage;
    if (storage.block_size <= 0) return specBitWidth(s);
    return specBitWidth(s) + static_cast<double>(storage.scale_bits_per_block) / static_cast<double>(storage.block_size);
}

}  // namespace qs
