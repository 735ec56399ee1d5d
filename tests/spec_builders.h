// Specs that several tests build: a signed QDQ rounding half to even and a QuantizeV2 of one
// mode, each with the range [-1, 1] unless given (used when the range is given). Header-only.
#pragma once

#include <cstdint>

#include "core/analysis/quant_spec.h"

namespace qs::testing {

inline QuantSpec qdqSpec(QuantOp op, int bits, bool rangeGiven, int64_t axis = -1, float lo = -1.0f,
                         float hi = 1.0f) {
    QuantSpec s;
    s.op = op;
    s.round_mode = RoundMode::HalfToEven;
    s.signed_input = true;
    s.num_bits = bits;
    s.range_given = rangeGiven;
    s.axis = axis;
    s.min_range = lo;
    s.max_range = hi;
    return s;
}

// SCALED rounds half to even as TF's tests of it do; the other modes keep the op's default.
inline QuantSpec quantizeV2Spec(QType t, QuantizeMode mode, int64_t axis, RangeSource source) {
    QuantSpec s;
    s.op = QuantOp::QuantizeV2;
    s.T = t;
    s.mode = mode;
    s.round_mode = mode == QuantizeMode::Scaled ? RoundMode::HalfToEven : RoundMode::HalfAwayFromZero;
    s.axis = axis;
    s.range_source = source;
    s.min_range = -1.0f;
    s.max_range = 1.0f;
    return s;
}

}  // namespace qs::testing
