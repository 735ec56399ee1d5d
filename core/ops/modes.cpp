#include "core/ops/modes.h"

#include <array>
#include <optional>

namespace qs {

namespace {

// Each mode once, with its attribute string as TF spells it.
struct ModeRow {
    QuantizeMode mode;
    std::string_view name;
};
constexpr std::array<ModeRow, 3> kModes{{
    {QuantizeMode::MinCombined, "MIN_COMBINED"},
    {QuantizeMode::MinFirst, "MIN_FIRST"},
    {QuantizeMode::Scaled, "SCALED"},
}};

struct RoundModeRow {
    RoundMode mode;
    std::string_view name;
};
constexpr std::array<RoundModeRow, 3> kRoundModes{{
    {RoundMode::HalfAwayFromZero, "HALF_AWAY_FROM_ZERO"},
    {RoundMode::HalfToEven, "HALF_TO_EVEN"},
    {RoundMode::HalfUp, "HALF_UP"},
}};

template <class Row, size_t N, class Enum>
const Row* rowOf(const std::array<Row, N>& rows, Enum value) {
    for (const Row& r : rows)
        if (r.mode == value) return &r;
    return nullptr;
}

template <class Row, size_t N>
const Row* rowNamed(const std::array<Row, N>& rows, std::string_view name) {
    for (const Row& r : rows)
        if (r.name == name) return &r;
    return nullptr;
}

}  // namespace

std::string_view modeName(QuantizeMode m) {
    const ModeRow* r = rowOf(kModes, m);
    return r ? r->name : "?";
}

std::string_view roundModeName(RoundMode r) {
    const RoundModeRow* row = rowOf(kRoundModes, r);
    return row ? row->name : "?";
}

Result<QuantizeMode> parseQuantizeMode(std::string_view s) {
    if (const ModeRow* r = rowNamed(kModes, s)) return r->mode;
    return invalidArgument("Mode string must be 'MIN_COMBINED', 'MIN_FIRST', or 'SCALED', is '" +
                           std::string(s) + "'");
}

// Each op accepts two of the three rounding modes, and names those two in its error.
Result<RoundMode> parseQuantizeRoundMode(std::string_view s) {
    const RoundModeRow* r = rowNamed(kRoundModes, s);
    if (r && r->mode != RoundMode::HalfUp) return r->mode;
    return invalidArgument(
        "Round mode string must be 'HALF_AWAY_FROM_ZERO' or 'HALF_TO_EVEN', is '" +
        std::string(s) + "'");
}

Result<RoundMode> parseQdqRoundMode(std::string_view s) {
    const RoundModeRow* r = rowNamed(kRoundModes, s);
    if (r && r->mode != RoundMode::HalfAwayFromZero) return r->mode;
    return invalidArgument("Round mode string must be 'HALF_UP' or 'HALF_TO_EVEN', is '" +
                           std::string(s) + "'");
}

}  // namespace qs
