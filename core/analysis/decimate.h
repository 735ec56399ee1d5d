// Drawing what the pixels can show: a series of many points reduced to the few a plot of a
// given width needs to look the same, so the cost of a redraw does not grow with the data.
// In every pixel column of the visible key window the first and last point and, for each
// value series, the points with its smallest and largest value are kept, so the envelope
// (the min … max a column shows) is exactly the full data's and lines enter and leave each
// column where they did. When few points are in view (a zoomed-in transfer curve, whose
// stair steps must stay crisp) every one of them is kept. Pure C++ (no Qt), tested headless.
#pragma once

#include <cstddef>
#include <initializer_list>
#include <span>
#include <vector>

namespace qs::analysis {

// The key interval a plot shows and its width in pixel columns.
struct PixelWindow {
    double lo = 0, hi = 0;
    int columns = 0;
};

struct DecimationOptions {
    // Lines need each column's first and last point (where the line enters and leaves it);
    // markers and bars, drawn each on its own, only the extremes.
    bool keep_ends = true;
    // Every point in view is kept when there are at most this many (0: two per column).
    size_t exact_up_to = 0;
};

// The indices (ascending) of the points to draw. `keys` ascending (equal keys allowed: a
// vertical drop is two points at one key); every span in `values` as long as `keys`.
// Beyond the window, the nearest point on each side is kept too, so a line that leaves the
// view is drawn towards it. A value that is NaN keeps its point (a gap in the line); the
// smallest and largest are over the other values. Every index is kept when the window holds
// few points (options.exact_up_to) or `window` is empty or not finite.
std::vector<size_t> decimationIndices(std::span<const double> keys,
                                      std::initializer_list<std::span<const double>> values,
                                      const PixelWindow& window, const DecimationOptions& options = {});

}  // namespace qs::analysis
