#include "core/analysis/explorer.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <mutex>
#include <tuple>

#include "core/analysis/explorer_pass.h"
#include "core/analysis/sweep_util.h"
#include "core/numeric/distinct_counter.h"

namespace qs::analysis {

namespace {

bool cancelled(const ExplorerOptions& o) {
    return o.cancel && o.cancel->load(std::memory_order_relaxed);
}

Error cancelledError() { return cancellation("the computation was superseded"); }

// A histogram window holding both the data and the quantizer's range, with a small margin
// so the clip lines are not drawn on the frame.
void histogramWindow(float a, float b, double& lo, double& hi) {
    lo = a;
    hi = b;
    if (!std::isfinite(lo) || !std::isfinite(hi)) {
        lo = std::isfinite(lo) ? lo : -1.0;
        hi = std::isfinite(hi) ? hi : 1.0;
    }
    double width = hi - lo;
    if (!(width > 0)) width = std::max(1.0, std::abs(lo));
    lo -= 0.02 * width;
    hi += 0.02 * width;
}

// Expected counts per bin when `inside` errors are uniform on [-step/2, step/2].
std::vector<double> uniformCounts(const Histogram& h, double step, int64_t inside) {
    std::vector<double> out(static_cast<size_t>(h.bins()), 0.0);
    if (!(step > 0) || !std::isfinite(step)) return out;
    const double a = -step / 2, b = step / 2;
    for (int i = 0; i < h.bins(); ++i) {
        const double overlap = std::max(0.0, std::min(b, h.edge(i + 1)) - std::max(a, h.edge(i)));
        out[static_cast<size_t>(i)] = static_cast<double>(inside) * overlap / step;
    }
    return out;
}

// Everything the fused pass needs that is known before it starts: the slices, the data's
// range (for the data histogram's window) and the error histogram's span.
// `finite`: the finite values' extent when the data's min/max are infinite (else unused).
Result<PassSetup> setUp(ExplorerResult& r, const ExplorerOptions& options, float data_min,
                        float data_max, const FiniteExtent* finite = nullptr) {
    if (options.histogram_bins < 1 || options.error_bins < 1)
        return invalidArgument("histograms need at least 1 bin");
    r.data_min = data_min;
    r.data_max = data_max;
    r.finite_min = data_min;
    r.finite_max = data_max;
    if (finite && !(std::isfinite(data_min) && std::isfinite(data_max))) {
        r.finite_count = finite->count;
        r.finite_min = finite->min;
        r.finite_max = finite->max;
    }
    const SliceQuant& q0 = r.run.slices.front();
    r.clip_lo = q0.output_min;
    r.clip_hi = q0.output_max;
    PassSetup s;
    s.layout = r.run.layout;
    s.slices = &r.run.slices;
    // The window from the finite values (±inf would leave it without bounds: it fell back
    // to [−1, 1] for data spanning [−2, 2]).
    // The quantizer's ends count when finite (QDQ taking its range from data with ±inf
    // has infinite ones).
    float lo = std::numeric_limits<float>::infinity(), hi = -lo;
    const auto widen = [&](float v) {
        if (!std::isfinite(v)) return;
        lo = std::min(lo, v);
        hi = std::max(hi, v);
    };
    if (r.finite_count != 0) widen(r.finite_min), widen(r.finite_max);
    for (float v : {q0.output_min, q0.requested_min, q0.output_max, q0.requested_max}) widen(v);
    histogramWindow(lo, hi, s.data_lo, s.data_hi);
    s.data_bins = options.histogram_bins;
    const auto& known = options.data_histogram;
    s.count_data = !(known && known->lo == s.data_lo && known->hi == s.data_hi &&
                     known->bins() == s.data_bins);
    if (!s.count_data) r.data_hist = *known;
    // Error histogram over ±Δ (the largest step of any slice), uniform model on ±Δ/2.
    r.step = q0.step;
    double span = 0;
    for (const SliceQuant& q : r.run.slices) span = std::max(span, std::abs(q.step));
    if (!(span > 0) || !std::isfinite(span)) span = 1.0;
    r.error_span = span;
    s.error_span = span;
    s.error_bins = options.error_bins;
    return s;
}

// The result's numbers from the pass's totals: statistics, histograms, clip counts.
void finish(ExplorerResult& r, const PassSetup& s, const PassTotals& t, int64_t n) {
    r.stats = statsFromSums(t.sums);
    r.stats.distinct_levels = t.distinct_levels;
    if (s.count_data) r.data_hist = t.share.data.histogram();
    r.clipped_hist = t.share.clipped_data.histogram();
    // No pair without NaN: no finite value either (all NaN), unless ±inf were counted.
    if (r.stats.count == 0) r.finite_count = 0;
    r.error_hist = t.share.err.histogram();
    r.clipped_below = t.share.below;
    r.clipped_above = t.share.above;
    // Of the values compared (NaN pairs skipped), as errorStats and every other view count it.
    r.stats.fraction_clipped = r.stats.count > 0 ? static_cast<double>(r.clipped_below + r.clipped_above) /
                                                       static_cast<double>(r.stats.count)
                                                 : statsFromSums({}).fraction_clipped;
    const int64_t inside = n - r.clipped_below - r.clipped_above - r.stats.nan_pairs;
    r.error_uniform_counts = uniformCounts(r.error_hist, std::abs(r.step), inside);
}

Status attachCurve(ExplorerResult& r, const QuantSpec& spec, const ExplorerOptions& options) {
    r.curve_channel = std::clamp<int64_t>(options.channel, 0, r.run.layout.depth - 1);
    const SliceQuant& qc = r.run.slices[static_cast<size_t>(r.curve_channel)];
    auto curve = sampleTransferCurve(sliceSpec(spec, qc), options.curve_samples);
    if (!curve) return curve.error();
    r.curve = std::move(*curve);
    return okStatus();
}

// Hands the curve to options.on_curve ahead of the statistics (a copy of what it needs).
void announceCurve(const ExplorerResult& r, const ExplorerOptions& options) {
    if (!options.on_curve) return;
    ExplorerResult partial;
    partial.spec = r.spec;
    partial.run = r.run;
    partial.curve = r.curve;
    partial.curve_channel = r.curve_channel;
    options.on_curve(std::move(partial));
}

}  // namespace

std::pair<float, float> dataRange(std::span<const float> values, const Exec& exec) {
    std::mutex m;
    std::vector<std::pair<int64_t, std::pair<float, float>>> parts;
    parallelFor(exec, static_cast<int64_t>(values.size()), [&](int64_t b, int64_t e) {
        float lo = std::numeric_limits<float>::infinity(), hi = -lo;
        for (int64_t i = b; i < e; ++i) {
            const float v = values[static_cast<size_t>(i)];
            lo = v < lo ? v : lo;
            hi = v > hi ? v : hi;
        }
        const std::lock_guard lock(m);
        parts.push_back({b, {lo, hi}});
    });
    std::sort(parts.begin(), parts.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    float lo = std::numeric_limits<float>::infinity(), hi = -lo;
    for (const auto& [b, p] : parts) {  // in index order: the first of equal extremes stays
        lo = p.first < lo ? p.first : lo;
        hi = p.second > hi ? p.second : hi;
    }
    if (lo > hi) lo = hi = 0.0f;  // no finite data
    return {lo, hi};
}

Result<ExplorerResult> computeExplorer(const QuantSpec& spec, const TensorRef<float>& data,
                                       const ExplorerOptions& options) {
    ExplorerResult r;
    r.spec = spec;
    const size_t n = data.data.size();
    if (cancelled(options)) return cancelledError();
    // The op's output: kept in the result, or in a buffer this thread reuses edit after edit.
    thread_local std::vector<float> scratch;
    std::vector<float>& out = options.keep_output ? r.output : scratch;
    if (out.size() < n || (!options.keep_output && out.size() > 4 * n + (size_t{1} << 20)))
        out.assign(n, 0.0f);  // a reused buffer shrinks when the data does
    auto run = applySpec(spec, data, std::span<float>(out.data(), n), {}, options.exec, /*tellLevels=*/true);
    if (!run) return run.error();
    r.run = std::move(*run);
    if (r.run.slices.empty() || r.run.layout.depth < 1)  // applySpec refuses empty data
        return invalidArgument("the data has no values");
    if (cancelled(options)) return cancelledError();
    if (Status s = attachCurve(r, spec, options); !s) return s.error();
    announceCurve(r, options);

    const auto [lo, hi] = options.data_range ? *options.data_range : dataRange(data.data, options.exec);
    // Infinite ends: one more scan for the finite values' extent (such data is rare).
    const FiniteExtent finite = std::isfinite(lo) && std::isfinite(hi) ? FiniteExtent{} : finiteExtent(data.data);
    auto setup = setUp(r, options, lo, hi, &finite);
    if (!setup) return setup.error();
    // The op's codes may have told the levels used already (QuantizeV2 per tensor).
    setup.value().count_levels = !r.run.output_levels;
    const std::span<const float> x = data.data;
    const std::span<const float> y(out.data(), n);
    auto totals = fusedPass(*setup, x, y, options.exec, options.cancel);
    if (!totals) return totals.error();
    if (r.run.output_levels) totals.value().distinct_levels = static_cast<int64_t>(r.run.output_levels->size());
    finish(r, *setup, *totals, static_cast<int64_t>(n));
    if (cancelled(options)) return cancelledError();

    if (r.run.layout.depth > 1) {
        auto channels = channelSummaries(*setup, x, y, options.exec, options.cancel);
        if (!channels) return channels.error();
        r.channels = std::move(*channels);
    }
    if (cancelled(options)) return cancelledError();
    return r;
}

Result<ExplorerResult> computeExplorerStream(const QuantSpec& spec, const data::FloatStream& data,
                                             const Shape& shape, const ExplorerOptions& options) {
    const int64_t n = data.size();
    if (numElements(shape) != n)
        return invalidArgument("the shape " + shapeString(shape) + " does not hold the " +
                               std::to_string(n) + " values of " + data.name());
    if (n == 0) return invalidArgument("the data has no values (shape " + shapeString(shape) + ")");
    auto keepGoing = [&options](double fraction) {
        if (cancelled(options)) return false;
        return !options.progress || options.progress(fraction);
    };
    const SliceLayout layout = sliceLayoutOf(spec, shape);

    // Scan 1: the data's range, and each slice's when the quantizer takes it from the data.
    // Skipped when the caller knows the range (it depends on the data alone) and the slices
    // do not need theirs.
    const bool scanFirst = rangesFromData(spec) || !options.data_range ||
                           !(std::isfinite(options.data_range->first) && std::isfinite(options.data_range->second));
    const double secondFrom = scanFirst ? 0.5 : 0.0;
    StreamRanges ranges;
    if (scanFirst) {
        auto scanned = scanRanges(data, layout, rangesFromData(spec), options.stream_chunk,
                                  [&](double f) { return keepGoing(0.5 * f); });
        if (!scanned) return scanned.error().cancelled ? cancelledError() : scanned.error();
        ranges = std::move(*scanned);
    } else {
        std::tie(ranges.lo, ranges.hi) = *options.data_range;
    }
    auto prepared = prepareRun(spec, shape, ranges.slice_mins, ranges.slice_maxs);
    if (!prepared) return prepared.error();

    ExplorerResult r;
    r.spec = spec;
    r.run = prepared->run;
    auto setup = setUp(r, options, ranges.lo, ranges.hi, &ranges.finite);
    if (!setup) return setup.error();
    if (Status s = attachCurve(r, spec, options); !s) return s.error();
    announceCurve(r, options);
    // Scan 2: Q(x) chunk by chunk, through the fused pass. Per tensor with a given range the
    // op itself runs on each chunk (elementwise once its range is fixed, and vectorised).
    // (As its one slice's per-tensor spec: a chunk is flat, and a size-1 axis quantizes as
    // per tensor.)
    const bool opOnChunks = layout.depth == 1 && !rangesFromData(spec);
    const QuantSpec chunkSpec = sliceSpec(spec, r.run.slices.front());
    auto totals = fusedStreamPass(*setup, data, prepared->quantizers, opOnChunks ? &chunkSpec : nullptr,
                                  options.stream_chunk, options.exec, options.cancel,
                                  [&](double f) { return keepGoing(secondFrom + (1 - secondFrom) * f); });
    if (!totals) return totals.error().cancelled ? cancelledError() : totals.error();
    finish(r, *setup, totals->totals, n);
    r.channels = std::move(totals->channels);
    return r;
}

}  // namespace qs::analysis
