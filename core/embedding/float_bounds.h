// Float bounds that decide a double comparison: for a float x and a finite double v,
//   double(x) < v  <=>  x < floatAtLeast(v)   and   double(x) > v  <=>  x > floatAtMost(v),
// so a vector loop can count values outside a double range with float compares.
#pragma once

#include <cmath>
#include <limits>

namespace qs::embedding {

// The smallest float >= v.
inline float floatAtLeast(double v) {
    float f = static_cast<float>(v);
    if (static_cast<double>(f) < v) f = std::nextafter(f, std::numeric_limits<float>::infinity());
    return f;
}
// The largest float <= v.
inline float floatAtMost(double v) {
    float f = static_cast<float>(v);
    if (static_cast<double>(f) > v) f = std::nextafter(f, -std::numeric_limits<float>::infinity());
    return f;
}

}  // namespace qs::embedding
