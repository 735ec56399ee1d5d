// The explorer's op attributes in one table: for each attribute of a QuantSpec its name (TF's
// spelling, which is also the key in sessions, lessons, cases and reports), its kind, which
// ops take it and how, TF's default, the values it may hold, its tooltip and where it lives
// in QuantSpec. The parameter panel builds its form from these rows, the model edits through
// them, and the session codec, the CLI's case reader, the evaluator and the report's spec
// JSON read and write them, so adding an attribute is one row here plus its use in the op.
// Qt-free: text is UTF-8 (tooltips are HTML for the panel).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <type_traits>
#include <variant>

#include "core/analysis/quant_spec.h"
#include "core/status.h"

namespace qs {

enum class AttrKind { Bool, Int, Float, Enum };

// How an op takes an attribute: AttrUse, in op_descriptor.h (each op's row holds its column).

// A value of any kind: Bool, Int (int64_t), Float (held as double; QuantSpec keeps float32,
// so the round trip is exact), Enum (the enum's value as int64_t).
using AttrValue = std::variant<bool, int64_t, double>;

template <typename Enum>
    requires std::is_enum_v<Enum>
AttrValue enumValue(Enum e) {
    return static_cast<int64_t>(e);
}

struct AttrChoice {
    std::string_view name;   // as files spell it ("SCALED")
    int64_t value;           // the enum's value
    std::string_view label;  // what the form shows; empty: the name
};

// One row. Rows are written with designated initializers; what a kind does not use stays
// at its default.
struct OpAttribute {
    std::string_view name = {};  // TF's spelling; the key in sessions, lessons, cases and reports
    AttrKind kind = AttrKind::Bool;
    bool tf = true;  // a TF attribute (false: an explorer choice, in sessions only)
    AttrUse (*use)(QuantOp op) = nullptr;
    // TF's default for `op`; nullopt when TF has none (the case must give it).
    std::optional<AttrValue> (*tf_default)(QuantOp op) = nullptr;
    // Enum: every value in file order; the form offers those parse() accepts for the op.
    std::span<const AttrChoice> (*choices)() = nullptr;
    // Enum: the value a case names, with TF's error text when the op rejects it.
    Result<int64_t> (*parse)(std::string_view text, QuantOp op) = nullptr;
    // Int/Float: the values the explorer's controls hold (sessions outside are refused).
    // Wider than TF accepts where TF's own error is worth showing (num_bits 0 or 64).
    double min = 0, max = 1;
    double step = 1;            // Float: the spin box's step
    int decimals = 0;           // Float: decimals shown
    std::string_view min_text = {};  // shown instead of the minimum ("−1 (per tensor)"), or empty
    std::string_view label = {};     // the form's label when not the name
    std::string_view id = {};        // camelCase for widget names when not derived from the name
    std::string_view tooltip = {};   // HTML
    // Further condition on the whole spec for the form to show the row (null: always).
    bool (*shown)(const QuantSpec& spec) = nullptr;
    AttrValue (*get)(const QuantSpec& spec) = nullptr;
    void (*set)(QuantSpec& spec, const AttrValue& value) = nullptr;

    // Enum: its values (empty for other kinds) and the name of one (empty if none matches).
    std::span<const AttrChoice> values() const { return choices ? choices() : std::span<const AttrChoice>{}; }
    std::string_view choiceName(int64_t value) const;
};

// Every row, in TF's op-definition order (QuantizeV2: T, mode, round_mode, narrow_range,
// axis, ensure_minimum_range; QDQ: signed_input, num_bits, range_given, round_mode,
// narrow_range, axis), which is the order of forms and reports.
std::span<const OpAttribute> opAttributes();
const OpAttribute* findOpAttribute(std::string_view name);

// What a reader starts from for `op`: the explorer's defaults (QuantSpec{}) with the op's
// own round mode.
QuantSpec defaultSpecFor(QuantOp op);

// The range inputs' names: TF's (the form's labels) and the test vectors' (cases, reports);
// the op's row in op_descriptor.h.
RangeInputNames rangeInputNames(QuantOp op);

}  // namespace qs
