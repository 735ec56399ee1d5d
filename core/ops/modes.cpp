#include "core/ops/modes.h"

#include <array>

namespace qs {

namespace {

// Each mode once, with its attribute string as TF spells it.
template <class Enum>
struct Named {
    Enum mode;
    std::string_view name;
};
constexpr std::array<Named<QuantizeMode>, 3> kModes{{
    {QuantizeMode::MinCombined, "MIN_COMBINED"}, {QuantizeMode::MinFirst, "MIN_FIRST"},
    {QuantizeMode::Scaled, "SCALED"}}};
constexpr std::array<Named<RoundMode>, 3> kRoundModes{{
    {RoundMode::HalfAwayFromZero, "HALF_AWAY_FROM_ZERO"}, {RoundMode::HalfToEven, "HALF_TO_EVEN"},
    {RoundMode::HalfUp, "HALF_UP"}}};

template <class Enum, size_t N>
const Named<Enum>* rowOf(const std::array<Named<Enum>, N>& rows, Enum value) {
    for (const Named<Enum>& r : rows)
        if (r.mode == value) return &r;
    return nullptr;
}

template <class Enum, size_t N>
const Named<Enum>* rowNamed(const std::array<Named<Enum>, N>& rows, std::string_view name) {
    for (const Named<Enum>& r : rows)
        if (r.name == name) return &r;
    return nullptr;
}

}  // namespace

std::string_view modeName(QuantizeMode m) {
    const auto* r = rowOf(kModes, m);
    return r ? r->name : "?";
}

std::string_view roundModeName(RoundMode r) {
    const auto* row = rowOf(kRoundModes, r);
    return row ? row->name : "?";
}

Result<QuantizeMode> parseQuantizeMode(std::string_view s) {
    if (const auto* r = rowNamed(kModes, s)) return r->mode;
    return invalidArgument("Mode string must be 'MIN_COMBINED', 'MIN_FIRST', or 'SCALED', is '" +
                           std::string(s) + "'");
}

// Each op accepts two of the three rounding modes, and names those two in its error.
Result<RoundMode> parseQuantizeRoundMode(std::string_view s) {
    const auto* r = rowNamed(kRoundModes, s);
    if (r && r->mode != RoundMode::HalfUp) return r->mode;
    return invalidArgument(
        "Round mode string must be 'HALF_AWAY_FROM_ZERO' or 'HALF_TO_EVEN', is '" +
        std::string(s) + "'");
}

Result<RoundMode> parseQdqRoundMode(std::string_view s) {
    const auto* r = rowNamed(kRoundModes, s);
    if (r && r->mode != RoundMode::HalfAwayFromZero) return r->mode;
    return invalidArgument("Round mode string must be 'HALF_UP' or 'HALF_TO_EVEN', is '" +
                           std::string(s) + "'");
}

}  // namespace qs
