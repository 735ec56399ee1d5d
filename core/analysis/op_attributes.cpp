#include "core/analysis/op_attributes.h"

#include <initializer_list>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace qs {

namespace {

// --- where a row lives in QuantSpec ----------------------------------------------------------

template <auto Member>
AttrValue getField(const QuantSpec& s) {
    using T = std::remove_cvref_t<decltype(s.*Member)>;
    if constexpr (std::is_same_v<T, bool>) return s.*Member;
    else if constexpr (std::is_enum_v<T> || std::is_integral_v<T>) return static_cast<int64_t>(s.*Member);
    else return static_cast<double>(s.*Member);
}

// Any alternative converts (a caller passing 8 for a Float row means 8.0).
template <auto Member>
void setField(QuantSpec& s, const AttrValue& v) {
    using T = std::remove_cvref_t<decltype(s.*Member)>;
    s.*Member = std::visit(
        [](auto x) -> T {
            if constexpr (std::is_enum_v<T>) return static_cast<T>(static_cast<int64_t>(x));
            else return static_cast<T>(x);
        },
        v);
}

// --- which ops take a row: its column in the op's descriptor -----------------------------------

template <AttrUse OpAttrUses::*Column>
AttrUse useOf(QuantOp op) {
    return opDescriptor(op).uses.*Column;
}

// --- TF's defaults (from the core's attribute structs, so they are spelled once) -------------

std::optional<AttrValue> noDefault(QuantOp) { return std::nullopt; }
std::optional<AttrValue> modeDefault(QuantOp) { return enumValue(QuantizeV2Attrs{}.mode); }
std::optional<AttrValue> roundModeDefault(QuantOp op) { return enumValue(defaultRoundMode(op)); }
std::optional<AttrValue> narrowRangeDefault(QuantOp) { return QuantizeV2Attrs{}.narrow_range; }
std::optional<AttrValue> axisDefault(QuantOp) { return QuantizeV2Attrs{}.axis; }
std::optional<AttrValue> ensureMinimumRangeDefault(QuantOp) {
    return static_cast<double>(QuantizeV2Attrs{}.ensure_minimum_range);
}
std::optional<AttrValue> signedInputDefault(QuantOp) { return QdqAttrs{}.signed_input; }
std::optional<AttrValue> numBitsDefault(QuantOp op) {
    if (opDescriptor(op).uses.num_bits == AttrUse::Input) return std::nullopt;
    return QdqAttrs{}.num_bits;
}
// V2/V4 default to false, V3 to true (TF's op definitions).
std::optional<AttrValue> rangeGivenDefault(QuantOp op) { return opDescriptor(op).tf_range_given; }
std::optional<AttrValue> rangeSourceDefault(QuantOp) { return enumValue(QuantSpec{}.range_source); }

// --- enum values -------------------------------------------------------------------------------

// The values of an enum as files name them, in the order given.
template <typename Enum, typename NameOf>
std::vector<AttrChoice> choicesOf(std::initializer_list<Enum> values, NameOf nameOf) {
    std::vector<AttrChoice> v;
    for (Enum e : values) v.push_back({nameOf(e), static_cast<int64_t>(e), {}});
    return v;
}

std::span<const AttrChoice> typeChoices() {
    static const auto list = choicesOf({QType::QInt8, QType::QUInt8, QType::QInt16, QType::QUInt16, QType::QInt32},
                                       [](QType t) { return qtypeInfo(t).name; });
    return list;
}

std::span<const AttrChoice> modeChoices() {
    static const auto list =
        choicesOf({QuantizeMode::MinCombined, QuantizeMode::MinFirst, QuantizeMode::Scaled}, modeName);
    return list;
}

std::span<const AttrChoice> roundModeChoices() {
    static const auto list =
        choicesOf({RoundMode::HalfAwayFromZero, RoundMode::HalfToEven, RoundMode::HalfUp}, roundModeName);
    return list;
}

constexpr AttrChoice kRangeSources[] = {
    {"given", static_cast<int64_t>(RangeSource::Given), "the range below, for every channel"},
    {"from_data", static_cast<int64_t>(RangeSource::FromData), "each channel's own min/max"}};
std::span<const AttrChoice> rangeSourceChoices() { return kRangeSources; }

template <typename Enum>
Result<int64_t> asValue(Result<Enum> r) {
    if (!r) return r.error();
    return static_cast<int64_t>(*r);
}

Result<int64_t> parseType(std::string_view text, QuantOp) {
    if (auto t = parseQType(text)) return static_cast<int64_t>(*t);
    // TF's own wording and order.
    return invalidArgument("Value for attr 'T' of " + std::string(text) +
                           " is not in the list of allowed values: qint8, quint8, qint32, "
                           "qint16, quint16");
}
Result<int64_t> parseMode(std::string_view text, QuantOp) { return asValue(parseQuantizeMode(text)); }
Result<int64_t> parseRoundMode(std::string_view text, QuantOp op) {
    const OpDescriptor& d = opDescriptor(op);
    if (!d.parse_round_mode)  // V3 always rounds half to even; TPU has no rounding attribute
        return invalidArgument(std::string(d.key) + " takes no round_mode");
    return asValue(d.parse_round_mode(text));
}
Result<int64_t> parseRangeSource(std::string_view text, QuantOp) {
    for (const AttrChoice& c : kRangeSources)
        if (c.name == text) return c.value;
    std::string message(1, '\'');
    message.append(text).append("' is not one of given, from_data");
    return invalidArgument(std::move(message));
}

bool perChannel(const QuantSpec& s) { return s.axis >= 0; }

// --- the table --------------------------------------------------------------------------------

// The getter and setter of a QuantSpec field.
#define QS_FIELD(member) .get = getField<&QuantSpec::member>, .set = setField<&QuantSpec::member>

const OpAttribute kAttributes[] = {
    {.name = "T", .kind = AttrKind::Enum, .use = useOf<&OpAttrUses::T>, .tf_default = noDefault,
     .choices = typeChoices, .parse = parseType, .id = "type",
     .tooltip = "<p><b>T</b>: the quantized type, and so the number of codes "
                "(qint8: −128…127, quint16: 0…65535, …).</p>",
     QS_FIELD(T)},
    {.name = "mode", .kind = AttrKind::Enum, .use = useOf<&OpAttrUses::mode>, .tf_default = modeDefault,
     .choices = modeChoices, .parse = parseMode,
     .tooltip = "<p><b>mode</b>: <b>MIN_COMBINED</b> maps [min, max] affinely onto the codes (signed "
                "types shifted by half the range); <b>MIN_FIRST</b> rounds min·scale first so the "
                "offset is an integer; <b>SCALED</b> is scale-only: 0.0 is code 0 and TF recomputes "
                "the bound on the looser side. Every mode first widens the range to include 0.</p>",
     QS_FIELD(mode)},
    {.name = "signed_input", .kind = AttrKind::Bool, .use = useOf<&OpAttrUses::signed_input>,
     .tf_default = signedInputDefault,
     .tooltip = "<p><b>signed_input</b>: codes −2^(b−1)…2^(b−1)−1 when true, 0…2^b−1 when false. "
                "Unsigned does not clamp negatives unless the range is given.</p>",
     QS_FIELD(signed_input)},
    {.name = "num_bits", .kind = AttrKind::Int, .use = useOf<&OpAttrUses::num_bits>,
     .tf_default = numBitsDefault, .min = 0,
     .max = 64,
     .tooltip = "<p><b>num_bits</b>: the bit width of the fake quantizer; TF "
                "accepts 1…61 (signed) or 1…62 (unsigned).</p>",
     QS_FIELD(num_bits)},
    {.name = "range_given", .kind = AttrKind::Bool, .use = useOf<&OpAttrUses::range_given>,
     .tf_default = rangeGivenDefault,
     .tooltip = "<p><b>range_given</b>: use input_min/input_max (and clamp to them); when false, TF "
                "takes the min and max of the data (per channel with an axis) and does not clamp.</p>",
     QS_FIELD(range_given)},
    {.name = "round_mode", .kind = AttrKind::Enum, .use = useOf<&OpAttrUses::round_mode>,
     .tf_default = roundModeDefault,
     .choices = roundModeChoices, .parse = parseRoundMode,
     .tooltip = "<p><b>round_mode</b>: how ties (x.5) round. QuantizeV2: HALF_AWAY_FROM_ZERO "
                "(default) or HALF_TO_EVEN, which TF allows in SCALED mode only. QDQ V2/V4: "
                "HALF_TO_EVEN (default) or HALF_UP (floor(x + 0.5)).</p>",
     QS_FIELD(round_mode)},
    {.name = "narrow_range", .kind = AttrKind::Bool, .use = useOf<&OpAttrUses::narrow_range>,
     .tf_default = narrowRangeDefault,
     .tooltip = "<p><b>narrow_range</b>: drop the lowest code so the signed range is symmetric "
                "(qint8: −127…127). QuantizeV2 honours it in SCALED mode only; for quint8 it makes "
                "1 the smallest code, so 0.0 quantizes to 1.</p>",
     QS_FIELD(narrow_range)},
    {.name = "axis", .kind = AttrKind::Int, .use = useOf<&OpAttrUses::axis>, .tf_default = axisDefault, .min = -1,
     .max = 7, .min_text = "−1 (per tensor)",
     .tooltip = "<p><b>axis</b>: quantize each slice along this dimension with its own range "
                "(per-channel). −1 quantizes the whole tensor with one range.</p>",
     QS_FIELD(axis)},
    // Not TF's: where QuantizeV2's per-channel ranges come from (the explorer's choice).
    {.name = "range_source", .kind = AttrKind::Enum, .tf = false, .use = useOf<&OpAttrUses::range_source>,
     .tf_default = rangeSourceDefault, .choices = rangeSourceChoices, .parse = parseRangeSource,
     .label = "Channel ranges",
     .tooltip = "<p>With an axis, QuantizeV2 takes one min_range/max_range per channel: either the "
                "range below repeated, or each channel's min and max (per-channel calibration).</p>",
     .shown = perChannel, QS_FIELD(range_source)},
    {.name = "ensure_minimum_range", .kind = AttrKind::Float, .use = useOf<&OpAttrUses::ensure_minimum_range>,
     .tf_default = ensureMinimumRangeDefault, .min = 0, .max = 10, .step = 0.01, .decimals = 4,
     .tooltip = "<p><b>ensure_minimum_range</b> (default 0.01): the range is widened to at least this "
                "fraction of max(1, |min|, |max|). TF suggests 0 for new uses.</p>",
     QS_FIELD(ensure_minimum_range)},
    {.name = "num_buckets", .kind = AttrKind::Int, .use = useOf<&OpAttrUses::num_buckets>,
     .tf_default = noDefault, .min = 0,
     .max = 2147483647.0,
     .tooltip = "<p><b>num_buckets</b>: the number of levels between lower and upper (inclusive). "
                "TF raises ValueError below 2.</p>",
     QS_FIELD(num_buckets)},
};

#undef QS_FIELD

}  // namespace

std::string_view OpAttribute::choiceName(int64_t value) const {
    for (const AttrChoice& c : values())
        if (c.value == value) return c.name;
    return {};
}

std::span<const OpAttribute> opAttributes() { return kAttributes; }

const OpAttribute* findOpAttribute(std::string_view name) {
    for (const OpAttribute& a : kAttributes)
        if (a.name == name) return &a;
    return nullptr;
}

QuantSpec defaultSpecFor(QuantOp op) {
    QuantSpec s;
    s.op = op;
    s.round_mode = defaultRoundMode(op);
    return s;
}

RangeInputNames rangeInputNames(QuantOp op) { return opDescriptor(op).range; }

}  // namespace qs
