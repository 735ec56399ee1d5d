#include "core/analysis/decimate.h"

#include <algorithm>
#include <cmath>

namespace qs::analysis {

namespace {

// One value series in one pixel column: where its smallest, largest and first NaN value are.
struct ColumnExtremes {
    static constexpr size_t kNone = static_cast<size_t>(-1);
    size_t min = kNone, max = kNone, nan = kNone;

    void add(std::span<const double> values, size_t i) {
        const double v = values[i];
        if (std::isnan(v)) {
            if (nan == kNone) nan = i;
            return;
        }
        if (min == kNone || v < values[min]) min = i;
        if (max == kNone || v > values[max]) max = i;
    }
};

}  // namespace

std::vector<size_t> decimationIndices(std::span<const double> keys,
                                      std::initializer_list<std::span<const double>> values,
                                      const PixelWindow& window, const DecimationOptions& options) {
    const size_t n = keys.size();
    std::vector<size_t> kept;
    const bool usable = window.columns > 0 && std::isfinite(window.lo) && std::isfinite(window.hi) &&
                        window.hi > window.lo;
    if (!usable) {
        kept.resize(n);
        for (size_t i = 0; i < n; ++i) kept[i] = i;
        return kept;
    }
    const auto columns = static_cast<size_t>(window.columns);
    const size_t exact_up_to = options.exact_up_to > 0 ? options.exact_up_to : 2 * columns;
    const size_t first = static_cast<size_t>(std::lower_bound(keys.begin(), keys.end(), window.lo) - keys.begin());
    const size_t end = static_cast<size_t>(std::upper_bound(keys.begin(), keys.end(), window.hi) - keys.begin());
    if (first > 0) kept.push_back(first - 1);  // the line into the view
    if (end - first <= exact_up_to) {
        for (size_t i = first; i < end; ++i) kept.push_back(i);
    } else {
        kept.reserve(kept.size() + columns * (2 + 3 * values.size()) + 1);
        const double perKey = static_cast<double>(columns) / (window.hi - window.lo);
        auto columnOf = [&](size_t i) {
            const double c = std::floor((keys[i] - window.lo) * perKey);
            return static_cast<size_t>(std::clamp(c, 0.0, static_cast<double>(columns - 1)));
        };
        std::vector<ColumnExtremes> extremes(values.size());
        std::vector<size_t> column;  // the indices one column keeps, before sorting
        size_t i = first;
        while (i < end) {
            const size_t c = columnOf(i);
            size_t j = i;
            std::fill(extremes.begin(), extremes.end(), ColumnExtremes{});
            for (; j < end && columnOf(j) == c; ++j) {
                size_t s = 0;
                for (std::span<const double> v : values) extremes[s++].add(v, j);
            }
            column.clear();
            if (options.keep_ends) column.assign({i, j - 1});
            for (const ColumnExtremes& e : extremes)
                for (size_t k : {e.min, e.max, e.nan})
                    if (k != ColumnExtremes::kNone) column.push_back(k);
            std::sort(column.begin(), column.end());
            column.erase(std::unique(column.begin(), column.end()), column.end());
            kept.insert(kept.end(), column.begin(), column.end());
            i = j;
        }
    }
    if (end < n) kept.push_back(end);  // the line out of the view
    return kept;
}

}  // namespace qs::analysis
