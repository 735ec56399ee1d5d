#include "core/analysis/comparison.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/analysis/explorer.h"

namespace qs::analysis {

namespace {

constexpr int kErrorBins = 121;
constexpr int kCurveSamples = 2001;

}  // namespace

Result<ComparisonAnalysis> computeComparison(const TensorRef<float>& data, const std::vector<QuantSpec>& specs,
                                             const Exec& exec, const ProgressCallback& progress) {
    if (data.data.empty()) return Error{"InvalidArgument", "comparison: there is no data"};
    ComparisonAnalysis out;
    out.entries.resize(specs.size());
    std::vector<std::vector<float>> errors(specs.size());
    double first = std::numeric_limits<double>::infinity(), last = -first;
    ExplorerOptions options;
    options.exec = exec;
    options.curve_samples = kCurveSamples;
    // The outputs give each configuration's errors for the error histogram (its span, the
    // largest step of all, is known only after every configuration ran).
    options.keep_output = true;
    options.data_range = dataRange(data.data, exec);  // the same data for every scheme
    // One unit per configuration, and one for resampling the curves and histograms.
    const ProgressPart reporter(&progress);
    const auto units = static_cast<double>(specs.size() + 1);
    for (size_t i = 0; i < specs.size(); ++i) {
        if (!reporter.step(static_cast<double>(i), units)) return analysisCancelled("the comparison");
        ComparisonEntry& e = out.entries[i];
        e.spec = specs[i];
        auto run = computeExplorer(specs[i], data, options);
        if (!run) {
            e.failure = run.error();
            continue;
        }
        e.slice = run->run.slices.front();
        e.slices = static_cast<int64_t>(run->run.slices.size());
        e.stats = run->stats;
        // The explorer's curve is slice 0's over its own range: it gives the shared window.
        first = std::min(first, run->curve.x_first);
        last = std::max(last, run->curve.x_last);
        out.error_span = std::max(out.error_span, std::abs(e.slice.step));
        const std::vector<float>& y = run->output;
        if (y.size() != data.data.size()) return Error{"Internal", "comparison: the op's output has another size"};
        errors[i].resize(y.size());
        for (size_t k = 0; k < y.size(); ++k) errors[i][k] = data.data[k] - y[k];
    }
    if (!reporter.step(units - 1, units)) return analysisCancelled("the comparison");
    if (!(out.error_span > 0) || !std::isfinite(out.error_span)) out.error_span = 1.0;
    out.window_first = std::isfinite(first) ? first : -1.0;
    out.window_last = std::isfinite(last) ? last : 1.0;
    // Every curve over the same window, so the overlay compares like with like.
    for (size_t i = 0; i < specs.size(); ++i) {
        ComparisonEntry& e = out.entries[i];
        if (e.failed()) continue;
        auto curve = sampleTransferCurve(sliceSpec(specs[i], e.slice), TransferWindow{out.window_first, out.window_last},
                                         kCurveSamples);
        if (curve) e.curve = std::move(curve).value();
        auto hist = histogram(errors[i], -out.error_span, out.error_span, kErrorBins);
        if (hist) e.error_hist = std::move(hist).value();
    }
    if (!reporter.step(units, units)) return analysisCancelled("the comparison");
    return out;
}

}  // namespace qs::analysis
