#include "core/analysis/sweep_util.h"

#include <string>

namespace qs::analysis {

QuantSpec withRange(const QuantSpec& base, float lo, float hi) {
    QuantSpec s = base;
    s.axis = -1;
    s.range_source = RangeSource::Given;
    s.range_given = true;
    s.min_range = lo;
    s.max_range = hi;
    return s;
}

Result<QuantRun> runFlat(const QuantSpec& spec, std::span<const float> data,
                         std::vector<float>& out, const Exec& exec) {
    out.resize(data.size());
    QuantSpec flat = spec;
    flat.axis = -1;
    const TensorRef<float> ref{data, Shape{static_cast<int64_t>(data.size())}};
    return applySpec(flat, ref, out, {}, exec);
}

Result<ExplorerResult> measureLikeExplorer(const QuantSpec& spec, const TensorRef<float>& data, const Exec& exec) {
    ExplorerOptions options;
    options.histogram_bins = 1;
    options.error_bins = 1;
    options.curve_samples = 3;
    options.keep_output = false;
    options.exec = exec;
    return computeExplorer(spec, data, options);
}

FiniteExtent finiteExtent(std::span<const float> data) {
    FiniteExtent e;
    for (float v : data) {
        if (!std::isfinite(v)) continue;
        if (e.count == 0) e.min = e.max = v;
        e.min = v < e.min ? v : e.min;
        e.max = v > e.max ? v : e.max;
        ++e.count;
    }
    e.max_abs = std::fmax(std::fabs(static_cast<double>(e.min)), std::fabs(static_cast<double>(e.max)));
    return e;
}

Status checkData(std::span<const float> data, std::string_view who) {
    if (data.empty()) return invalidArgument(std::string(who) + ": the data has no values");
    if (finiteExtent(data).count == 0)
        return invalidArgument(std::string(who) + ": the data has no finite values");
    return okStatus();
}

std::span<const float> searchSample(std::span<const float> data, int64_t max, std::vector<float>& storage) {
    const auto n = static_cast<int64_t>(data.size());
    if (max <= 0 || n <= max) return data;
    storage.resize(static_cast<size_t>(max));
    for (int64_t i = 0; i < max; ++i) {
        const int64_t begin = i * n / max, end = (i + 1) * n / max;  // end > begin as n > max
        uint64_t h = static_cast<uint64_t>(i) + 0x9E3779B97F4A7C15ull;  // SplitMix64 finaliser
        h = (h ^ (h >> 30)) * 0xBF58476D1CE4E5B9ull;
        h = (h ^ (h >> 27)) * 0x94D049BB133111EBull;
        h ^= h >> 31;
        storage[static_cast<size_t>(i)] = data[static_cast<size_t>(begin + static_cast<int64_t>(h % static_cast<uint64_t>(end - begin)))];
    }
    return storage;
}

double meanSquaredError(std::span<const float> x, std::span<const float> y) {
    double sum = 0;
    int64_t n = 0;
    for (size_t i = 0; i < x.size(); ++i) {
        if (std::isnan(x[i]) || std::isnan(y[i])) continue;
        const double e = static_cast<double>(x[i]) - static_cast<double>(y[i]);
        sum += e * e;
        ++n;
    }
    return n > 0 ? sum / static_cast<double>(n) : std::nan("");
}

}  // namespace qs::analysis
