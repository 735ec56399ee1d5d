// One descriptor per op: what the code base knows about a QuantOp apart from its kernel — its
// names, the names of its range inputs, how it takes each attribute, its round modes, where its
// bit width comes from and how it stores a tensor — as one row of one table
// (op_descriptor.cpp). The attribute table (op_attributes.h) reads its `use` column from here;
// quant_spec.h's predicates (isQdq, usesMode, ...) and names are one-line reads of a row; views
// word their text from the row or switch on its family (-Wswitch names a new family there).
//
// Adding an op or a scheme is an enumerator in QuantOp, its row, and its kernel: a
// static_assert in op_descriptor.cpp fails until every enumerator has exactly one row, in
// enum order. docs/architecture.md, "Adding an op or scheme", walks through it. Qt-free.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

#include "core/ops/modes.h"
#include "core/ops/quantize_and_dequantize.h"
#include "core/status.h"

namespace qs {

struct QuantSpec;

// The op (or op chain) being explored.
enum class QuantOp {
    QuantizeV2,               // Dequantize(QuantizeV2(x)), fed QuantizeV2's output_min/max
    QuantizeAndDequantizeV2,
    QuantizeAndDequantizeV3,  // num_bits is an input tensor; rounding fixed to HALF_TO_EVEN
    QuantizeAndDequantizeV4,  // V2's kernel (differs only in its gradient)
    TpuSimulatedQuantization, // QuantizationConfig(num_buckets, lower, upper), spec 5.2
    Count,                    // not an op: how many there are (the table's compile-time check)
};
inline constexpr std::size_t kQuantOpCount = static_cast<std::size_t>(QuantOp::Count);

// Every op, in enum order (the order of the op menu and of error texts listing them).
inline constexpr std::array<QuantOp, kQuantOpCount> kAllQuantOps = [] {
    std::array<QuantOp, kQuantOpCount> ops{};
    for (std::size_t i = 0; i < ops.size(); ++i) ops[i] = static_cast<QuantOp>(i);
    return ops;
}();

// The kernel family that runs an op, and so which QuantSpec fields shape its codes. Code that
// words or computes something per family switches on it (no default), so a new family is
// named by the compiler wherever it needs words; a new member of a family needs none.
enum class OpFamily {
    QuantizeV2,    // QuantizeV2 → Dequantize: codes of type T, mode, ensure_minimum_range
    Qdq,           // QuantizeAndDequantize V2/V3/V4: num_bits, signed_input, range_given
    TpuSimulated,  // TPU QuantizationConfig: num_buckets levels from lower to upper
};

// How an op takes an attribute.
enum class AttrUse {
    None,   // the op has no such attribute
    Attr,   // an attribute; TF's default applies when a case leaves it out
    Fixed,  // the op always behaves as if it held its default (V3's round_mode: HALF_TO_EVEN)
    Input,  // an input tensor rather than an attribute (V3's num_bits): required
};

// How the op takes each attribute of QuantSpec (one column per row of op_attributes.cpp's
// table; a column a row leaves out is None).
struct OpAttrUses {
    AttrUse T = AttrUse::None;
    AttrUse mode = AttrUse::None;
    AttrUse signed_input = AttrUse::None;
    AttrUse num_bits = AttrUse::None;
    AttrUse range_given = AttrUse::None;
    AttrUse round_mode = AttrUse::None;
    AttrUse narrow_range = AttrUse::None;
    AttrUse axis = AttrUse::None;
    AttrUse range_source = AttrUse::None;  // the explorer's, not TF's
    AttrUse ensure_minimum_range = AttrUse::None;
    AttrUse num_buckets = AttrUse::None;
};

// The names of the range an op is fed and of the range it used.
struct RangeInputNames {
    std::string_view tf_min, tf_max;      // TF's inputs (the form's labels): min_range | input_min | lower
    std::string_view case_min, case_max;  // the test vectors' (cases, reports): input_min | input_min | lower
    bool case_in_attrs = false;           // TPU: lower/upper are attributes of the config
    std::string_view used_min, used_max;  // what the op used: output_min | effective min | lower
    bool used_is_returned = false;        // the op returns the range it used (QuantizeV2's outputs)
    // With range_given the op takes one scalar min and max even with an axis (QDQ V2/V4): per
    // channel, each channel's range has to come from its data (range_given off).
    bool given_range_scalar_only = false;
};

// Where a spec's bit width comes from.
enum class BitWidthSource {
    TypeT,       // the width of T (qint8: 8)
    NumBits,     // num_bits
    NumBuckets,  // log2(num_buckets)
    Fixed,       // the row's fixed_bits (a block type's code width, FP8's 8)
};

// How a scheme lays a tensor out in storage: what the coming families (ggml blocks, MX, NVFP4,
// NF4, group-wise integers) differ in. TF's ops keep one code per value and their range per
// tensor or per channel, so they have no blocks and no per-block scales.
struct OpStorage {
    int64_t block_size = 0;        // values sharing one scale; 0: one range per tensor or channel
    int scale_bits_per_block = 0;  // bits of the scales (and mins) each block stores
    std::string_view layout = {};  // the layout in words
};

// One row. Rows are written with designated initializers.
struct OpDescriptor {
    QuantOp op = QuantOp::Count;
    OpFamily family = OpFamily::QuantizeV2;
    std::string_view key = {};         // stable id in sessions, cases, reports: "QuantizeV2"
    std::string_view name = {};        // the op menu's: "QuantizeV2 → Dequantize"
    std::string_view short_name = {};  // legends: "QuantizeV2", "QDQ V2", "TPU"
    std::string_view formula = {};     // what the curve is: "Dequantize(QuantizeV2(x))"
    RangeInputNames range = {};
    OpAttrUses uses = {};
    // The round modes its round_mode attribute accepts (empty: none, or fixed), TF's default
    // (what the explorer sets when switching to the op) and TF's parser with its error text.
    std::span<const RoundMode> round_modes = {};
    RoundMode default_round_mode = RoundMode::HalfToEven;
    Result<RoundMode> (*parse_round_mode)(std::string_view text) = nullptr;
    bool tf_range_given = false;               // TF's default for range_given (V3: true)
    QdqVersion qdq_version = QdqVersion::V2;   // Qdq family: which version's checks and kernel
    BitWidthSource bit_width = BitWidthSource::TypeT;
    int fixed_bits = 0;                        // BitWidthSource::Fixed: the width
    OpStorage storage = {};
};

// Every op's row, in enum order; the row of `op` (a value outside the enum gets a row named
// "?" that takes nothing).
std::span<const OpDescriptor> opDescriptors();
const OpDescriptor& opDescriptor(QuantOp op);

// The bit width a spec quantizes to, from its op's bit_width: T's width, num_bits, or
// log2(num_buckets) (a whole number only for a power of two).
double specBitWidth(const QuantSpec& spec);
// The same as a whole number of bits (num_buckets rounded in log2, below 2 counted as 2).
int wholeBitWidth(const QuantSpec& spec);
// What a value costs in storage, in bits: its code plus its share of its block's scales.
double bitsPerWeight(const QuantSpec& spec);

}  // namespace qs
