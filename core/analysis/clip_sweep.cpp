#include "core/analysis/clip_sweep.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <string>

#include "core/analysis/bit_sweep.h"
#include "core/analysis/sweep_util.h"

namespace qs::analysis {

namespace {

constexpr int kMaxPoints = 100000;  // each point runs the op over all the data

// argmin of f over (0, 100]: a 0.02 grid, then golden-section between the best point's
// neighbours (the closed forms are unimodal; the grid makes sure the bracket is right).
template <typename F>
double minimizeClosedForm(F&& f) {
    constexpr double kStep = 0.02, kEnd = 100.0;
    double bestX = kStep, bestF = f(kStep);
    for (double x = 2 * kStep; x <= kEnd; x += kStep)
        if (const double v = f(x); v < bestF) {
            bestF = v;
            bestX = x;
        }
    return goldenSectionMin(f, std::fmax(bestX - kStep, 1e-9), bestX + kStep, 1e-10);
}

struct DataFit {
    double sigma = 0, b = 0;
};

DataFit fitZeroMean(std::span<const float> data) {
    double sumSq = 0, sumAbs = 0;
    int64_t n = 0;
    for (float v : data) {
        if (!std::isfinite(v)) continue;
        sumSq += static_cast<double>(v) * v;
        sumAbs += std::fabs(static_cast<double>(v));
        ++n;
    }
    if (n == 0) return {};
    return {std::sqrt(sumSq / static_cast<double>(n)), sumAbs / static_cast<double>(n)};
}

}  // namespace

ClipGrid textbookGrid(int bits) { return {2.0 / std::ldexp(1.0, bits), 1.0, 1.0}; }

Result<ClipGrid> clipGridOf(const QuantSpec& spec) {
    const QuantSpec unit = withRange(spec, -1.0f, 1.0f);
    auto q = SliceQuantizer::make(unit, -1.0f, 1.0f);
    if (!q) return q.error();
    const SliceQuant& info = q->info();
    return ClipGrid{info.step, info.output_max, -static_cast<double>(info.output_min)};
}

double gaussianTailMse(double c, double sigma) {
    const double z = c / sigma;
    return 0.5 * ((sigma * sigma + c * c) * std::erfc(z / std::numbers::sqrt2) -
                  c * sigma * std::sqrt(2.0 / std::numbers::pi) * std::exp(-z * z / 2.0));
}

double laplaceTailMse(double c, double b) {
    if (c >= 0) return b * b * std::exp(-c / b);
    return 2 * b * b + c * c - b * b * std::exp(c / b);  // all of E[(X−c)²] but the left tail
}

double gaussianClipMse(double alpha, double sigma, const ClipGrid& g) {
    const double d = g.step * alpha;
    return d * d / 12.0 + gaussianTailMse(g.upper * alpha, sigma) +
           gaussianTailMse(g.lower * alpha, sigma);
}

double laplaceClipMse(double alpha, double b, const ClipGrid& g) {
    const double d = g.step * alpha;
    return d * d / 12.0 + laplaceTailMse(g.upper * alpha, b) + laplaceTailMse(g.lower * alpha, b);
}

double optimalAlphaGaussian(const ClipGrid& grid) {
    return minimizeClosedForm([&](double a) { return gaussianClipMse(a, 1.0, grid); });
}

double optimalAlphaLaplace(const ClipGrid& grid) {
    return minimizeClosedForm([&](double a) { return laplaceClipMse(a, 1.0, grid); });
}

Result<std::vector<OptimalClipRow>> optimalClipTable(const QuantSpec& base, int min_bits,
                                                     int max_bits) {
    if (!(1 <= min_bits && min_bits <= max_bits && max_bits <= 32))
        return invalidArgument("optimal clip table: need 1 <= min_bits <= max_bits <= 32, got "
                               "min_bits=" + std::to_string(min_bits) +
                               " max_bits=" + std::to_string(max_bits));
    std::vector<OptimalClipRow> rows;
    const double nan = std::numeric_limits<double>::quiet_NaN();
    for (int b = min_bits; b <= max_bits; ++b) {
        OptimalClipRow row;
        row.bits = b;
        row.textbook_gaussian = optimalAlphaGaussian(textbookGrid(b));
        row.textbook_laplace = optimalAlphaLaplace(textbookGrid(b));
        row.op_gaussian = row.op_laplace = nan;
        if (auto spec = specWithBits(base, b)) {
            auto grid = clipGridOf(*spec);
            if (!grid) return grid.error();
            row.op_gaussian = optimalAlphaGaussian(*grid);
            row.op_laplace = optimalAlphaLaplace(*grid);
        }
        rows.push_back(row);
    }
    return rows;
}

Result<ClipSweep> sweepClip(std::span<const float> data, const QuantSpec& base,
                            const ClipSweepOptions& options, const Exec& exec,
                            const ProgressCallback& progress) {
    if (Status s = checkData(data, "clip sweep"); !s) return s.error();
    if (options.points < 3 || options.points > kMaxPoints)
        return invalidArgument("clip sweep: need 3.." + std::to_string(kMaxPoints) +
                               " points, got " + std::to_string(options.points));
    ClipSweep sweep;
    sweep.spec = withRange(base, -1.0f, 1.0f);
    sweep.max_abs = finiteExtent(data).max_abs;
    if (!(sweep.max_abs > 0))
        return invalidArgument("clip sweep: every finite value is 0, there is no range to clip");
    auto grid = clipGridOf(base);
    if (!grid) return grid.error();
    sweep.grid = *grid;
    const DataFit fit = fitZeroMean(data);
    sweep.sigma = fit.sigma;
    sweep.laplace_b = fit.b;

    std::vector<float> sampleStorage;
    const std::span<const float> all = data;
    data = searchSample(all, options.max_samples, sampleStorage);
    sweep.samples_used = static_cast<int64_t>(data.size());
    std::vector<float> out;
    Status failure = okStatus();
    // Every α costs one run of the op: the grid's points, the refinement's evaluations and
    // its last one are the units of progress. The refinement brackets two grid steps.
    const int n = options.points;
    const double gridStep = sweep.max_abs / n;
    const int evaluations = n + goldenSectionEvaluations(0.0, 2.0 * gridStep, options.refine_tol * sweep.max_abs) + 1;
    int evaluated = 0;
    const ProgressPart reporter(&progress);
    auto measured = [&](double alpha) {
        if (!failure) return std::numeric_limits<double>::infinity();  // failed or cancelled: skip
        const float a = static_cast<float>(alpha);
        auto run = runFlat(withRange(base, -a, a), data, out, exec);
        if (!run) {
            failure = run.error();
            return std::numeric_limits<double>::infinity();
        }
        const double mse = meanSquaredError(data, out);
        if (!reporter.step(++evaluated, evaluations)) failure = analysisCancelled("the clipping sweep");
        return mse;
    };

    size_t best = 0;
    for (int i = 1; i <= n; ++i) {
        ClipPoint p;
        p.alpha = sweep.max_abs * i / n;
        p.mse = measured(p.alpha);
        if (!failure) return failure.error();
        p.gaussian_mse = gaussianClipMse(p.alpha, fit.sigma, sweep.grid);
        p.laplace_mse = laplaceClipMse(p.alpha, fit.b, sweep.grid);
        sweep.points.push_back(p);
        if (p.mse < sweep.points[best].mse) best = sweep.points.size() - 1;
    }
    // Refine between the best grid point's neighbours; keep the grid point if it is better.
    const double lo = sweep.points[best > 0 ? best - 1 : 0].alpha;
    const double hi = sweep.points[std::min(best + 1, sweep.points.size() - 1)].alpha;
    const double refined = goldenSectionMin(measured, lo, hi, options.refine_tol * sweep.max_abs);
    if (!failure) return failure.error();
    const double refinedMse = measured(refined);
    if (!failure) return failure.error();
    if (!reporter.step(evaluations, evaluations)) return analysisCancelled("the clipping sweep");
    sweep.best_alpha = sweep.points[best].alpha;
    sweep.best_mse = sweep.points[best].mse;
    if (refinedMse < sweep.best_mse) {
        sweep.best_alpha = refined;
        sweep.best_mse = refinedMse;
    }
    sweep.gaussian_alpha = optimalAlphaGaussian(sweep.grid) * fit.sigma;
    sweep.laplace_alpha = optimalAlphaLaplace(sweep.grid) * fit.b;
    return sweep;
}

Result<CurrentSettings> currentSettings(const TensorRef<float>& data, const QuantSpec& spec, const Exec& exec) {
    auto m = measureLikeExplorer(spec, data, exec);
    if (!m) return m.error();
    CurrentSettings c;
    const bool oneGivenRange = m->run.slices.size() == 1 && !rangesFromData(spec);
    c.alpha = oneGivenRange ? std::fmax(std::fabs(static_cast<double>(spec.min_range)),
                                        std::fabs(static_cast<double>(spec.max_range)))
                            : std::numeric_limits<double>::quiet_NaN();
    c.mse = m->stats.mse;
    c.sqnr_db = m->stats.sqnr_db;
    c.clipped = m->clipped_below + m->clipped_above;
    c.count = m->stats.count;
    return c;
}

Result<ClipAnalysis> computeClipAnalysis(const TensorRef<float>& data, const QuantSpec& spec,
                                         const Exec& exec, const ProgressCallback& progress) {
    auto sweep = sweepClip(data.data, spec, {}, exec, progress);
    if (!sweep) return sweep.error();
    auto table = optimalClipTable(spec, 2, 8);
    if (!table) return table.error();
    auto current = currentSettings(data, spec, exec);
    if (!current) return current.error();
    return ClipAnalysis{std::move(sweep).value(), std::move(table).value(), *current};
}

Result<ClipAnalysis> computeClipAnalysis(std::span<const float> data, const QuantSpec& spec,
                                         const Exec& exec, const ProgressCallback& progress) {
    QuantSpec flat = spec;
    flat.axis = -1;
    return computeClipAnalysis(TensorRef<float>{data, Shape{static_cast<int64_t>(data.size())}}, flat, exec,
                               progress);
}

}  // namespace qs::analysis
