#include "core/analysis/explorer.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <thread>

#include "core/thread_budget.h"

namespace qs::analysis {

namespace {

bool cancelled(const ExplorerOptions& o) {
    return o.cancel && o.cancel->load(std::memory_order_relaxed);
}

Error cancelledError() { return {"Cancelled", "the computation was superseded"}; }

// Min/max of the non-NaN values (0, 0 when there are none).
void finiteRange(std::span<const float> v, float& lo, float& hi) {
    lo = std::numeric_limits<float>::infinity();
    hi = -lo;
    for (float x : v) {
        lo = x < lo ? x : lo;
        hi = x > hi ? x : hi;
    }
    if (lo > hi) lo = hi = 0.0f;
}

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

}  // namespace

Result<ExplorerResult> computeExplorer(const QuantSpec& spec, const TensorRef<float>& data,
                                       const ExplorerOptions& options) {
    ExplorerResult r;
    r.spec = spec;
    const size_t n = data.data.size();
    r.output.resize(n);
    if (cancelled(options)) return cancelledError();
    auto run = applySpec(spec, data, r.output, {}, options.exec);
    if (!run) return run.error();
    r.run = std::move(*run);
    if (r.run.slices.empty() || r.run.layout.depth < 1)  // applySpec refuses empty data
        return invalidArgument("the data has no values");
    if (cancelled(options)) return cancelledError();

    const SliceLayout& l = r.run.layout;
    const std::span<const float> x = data.data;
    const std::span<const float> y(r.output);

    // Two independent halves run side by side (2 cores make the 1M-sample budget): the error
    // statistics, and one pass for range/clipping/error values followed by the histograms.
    Result<ErrorStats> stats = ErrorStats{};
    std::vector<float> err(n);
    // It may run on a second thread, where an escaping exception would end the program:
    // it becomes the result's error instead (the caller's job reports it).
    auto statsPart = [&] {
        try {
            stats = errorStats(x, y);
        } catch (const std::exception& e) {
            stats = Result<ErrorStats>(Error{"ResourceExhausted", e.what()});
        }
    };
    auto histogramPart = [&]() -> Status {
        float lo = std::numeric_limits<float>::infinity(), hi = -lo;
        for (int64_t b = 0; b < l.blocks(); ++b) {
            const SliceQuant& q = r.run.slices[static_cast<size_t>(b % l.depth)];
            int64_t below = 0, above = 0;
            for (int64_t i = b * l.post; i < (b + 1) * l.post; ++i) {
                const auto k = static_cast<size_t>(i);
                const float v = x[k];
                lo = v < lo ? v : lo;
                hi = v > hi ? v : hi;
                below += v < q.output_min;
                above += v > q.output_max;
                err[k] = v - y[k];
            }
            r.clipped_below += below;
            r.clipped_above += above;
        }
        if (lo > hi) lo = hi = 0.0f;  // no finite data
        r.data_min = lo;
        r.data_max = hi;

        // Data histogram with the (slice 0) quantizer's range.
        const SliceQuant& q0 = r.run.slices.front();
        r.clip_lo = q0.output_min;
        r.clip_hi = q0.output_max;
        double hlo = 0, hhi = 0;
        histogramWindow(std::min({r.data_min, q0.output_min, q0.requested_min}),
                        std::max({r.data_max, q0.output_max, q0.requested_max}), hlo, hhi);
        auto dh = histogram(x, hlo, hhi, options.histogram_bins);
        if (!dh) return dh.error();
        r.data_hist = std::move(*dh);

        // Error histogram over ±Δ (the largest step of any slice), uniform model on ±Δ/2.
        r.step = q0.step;
        double span = 0;
        for (const SliceQuant& q : r.run.slices) span = std::max(span, std::abs(q.step));
        if (!(span > 0) || !std::isfinite(span)) span = 1.0;
        r.error_span = span;
        auto eh = histogram(err, -span, span, options.error_bins);
        if (!eh) return eh.error();
        r.error_hist = std::move(*eh);
        return okStatus();
    };
    Status histOk = okStatus();
    {
        // The second thread is one of the process's workers, when one is free.
        const BudgetLease second(ThreadBudget::process(), options.exec.threads > 1 ? 1 : 0);
        if (second.workers() > 0) {
            // A jthread joins even when histogramPart throws (a bare std::thread would end
            // the program), before the lease is given back.
            const std::jthread other(statsPart);
            histOk = histogramPart();
        } else {
            statsPart();
            histOk = histogramPart();
        }
    }
    if (!stats) return stats.error();
    if (!histOk) return histOk.error();
    r.stats = *stats;
    if (r.stats.count > 0)
        r.stats.fraction_clipped =
            static_cast<double>(r.clipped_below + r.clipped_above) / static_cast<double>(n);
    const int64_t inside =
        static_cast<int64_t>(n) - r.clipped_below - r.clipped_above - r.stats.nan_pairs;
    r.error_uniform_counts = uniformCounts(r.error_hist, std::abs(r.step), inside);
    if (cancelled(options)) return cancelledError();

    // Per-channel summary.
    if (l.depth > 1) {
        std::vector<float> xs, ys;
        for (int64_t d = 0; d < l.depth; ++d) {
            xs.clear();
            ys.clear();
            for (int64_t b = d; b < l.blocks(); b += l.depth)
                for (int64_t i = b * l.post; i < (b + 1) * l.post; ++i) {
                    xs.push_back(x[static_cast<size_t>(i)]);
                    ys.push_back(y[static_cast<size_t>(i)]);
                }
            ChannelSummary c;
            c.quant = r.run.slices[static_cast<size_t>(d)];
            finiteRange(xs, c.data_min, c.data_max);
            for (float v : xs) c.clipped += (v < c.quant.output_min) || (v > c.quant.output_max);
            auto cs = errorStats(xs, ys);
            if (!cs) return cs.error();
            c.stats = *cs;
            c.stats.fraction_clipped =
                xs.empty() ? 0.0 : static_cast<double>(c.clipped) / static_cast<double>(xs.size());
            r.channels.push_back(c);
            if (cancelled(options)) return cancelledError();
        }
    }

    // The transfer curve of the chosen slice, for the range that slice was fed.
    r.curve_channel = std::clamp<int64_t>(options.channel, 0, l.depth - 1);
    const SliceQuant& qc = r.run.slices[static_cast<size_t>(r.curve_channel)];
    auto curve = sampleTransferCurve(sliceSpec(spec, qc), options.curve_samples);
    if (!curve) return curve.error();
    r.curve = std::move(*curve);
    return r;
}

}  // namespace qs::analysis
