#include "core/analysis/calibration.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/analysis/sweep_util.h"

namespace qs::analysis {

namespace {

constexpr int kMaxBins = 1 << 16;
constexpr int kMseGrid = 100;

std::vector<double> finiteValues(std::span<const float> data, bool absolute) {
    std::vector<double> v;
    v.reserve(data.size());
    for (float x : data)
        if (std::isfinite(x)) v.push_back(absolute ? std::fabs(static_cast<double>(x)) : x);
    return v;
}

// numpy's linear percentile of `v` (reordered in place), v not empty, p in [0, 100].
double linearPercentile(std::vector<double>& v, double p) {
    const double rank = p / 100.0 * static_cast<double>(v.size() - 1);
    const auto lo = static_cast<size_t>(std::floor(rank));
    std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(lo), v.end());
    const double a = v[lo];
    if (lo + 1 >= v.size()) return a;
    // The next order statistic is the least of the elements above position lo.
    const double b = *std::min_element(v.begin() + static_cast<std::ptrdiff_t>(lo) + 1, v.end());
    return a + (rank - static_cast<double>(lo)) * (b - a);
}

// MXNet's _smooth_distribution: zero bins get eps, the others give up eps·zeros/nonzeros.
// False when nothing is left positive (the candidate is then skipped).
bool smooth(std::vector<double>& d) {
    constexpr double kEps = 1e-4;
    const auto zeros = static_cast<double>(std::count(d.begin(), d.end(), 0.0));
    const double nonzeros = static_cast<double>(d.size()) - zeros;
    if (nonzeros == 0) return false;
    const double take = kEps * zeros / nonzeros;
    for (double& x : d) {
        x = x == 0 ? kEps : x - take;
        if (!(x > 0)) return false;
    }
    return true;
}

// KL(P||Q) of the two (normalised here) distributions, both positive everywhere.
double klDivergence(const std::vector<double>& p, const std::vector<double>& q) {
    double sp = 0, sq = 0;
    for (size_t k = 0; k < p.size(); ++k) {
        sp += p[k];
        sq += q[k];
    }
    double kl = 0;
    for (size_t k = 0; k < p.size(); ++k) {
        const double pk = p[k] / sp, qk = q[k] / sq;
        kl += pk * std::log(pk / qk);
    }
    return kl;
}

// KL of candidate i (the first i bins of `hist`, T quantized bins).
double candidateKl(const std::vector<double>& hist, size_t i, size_t target) {
    std::vector<double> p(hist.begin(), hist.begin() + static_cast<std::ptrdiff_t>(i));
    for (size_t k = i; k < hist.size(); ++k) p[i - 1] += hist[k];  // outliers into the last bin
    std::vector<double> q(i, 0.0);
    const size_t merged = i / target;
    for (size_t j = 0; j < target; ++j) {
        const size_t start = j * merged, stop = j + 1 == target ? i : start + merged;
        double count = 0, nonzero = 0;
        for (size_t k = start; k < stop; ++k) {
            count += hist[k];
            nonzero += p[k] != 0;
        }
        if (nonzero == 0) continue;
        for (size_t k = start; k < stop; ++k) q[k] = p[k] != 0 ? count / nonzero : 0.0;
    }
    if (!smooth(p) || !smooth(q)) return std::numeric_limits<double>::infinity();
    return klDivergence(p, q);
}

Calibration withStats(CalibrationMethod method, float lo, float hi, const QuantSpec& base,
                      std::span<const float> data, std::vector<float>& out, const Exec& exec,
                      Status& failure) {
    Calibration c;
    c.method = method;
    c.min = lo;
    c.max = hi;
    c.spec = withRange(base, lo, hi);
    auto run = runFlat(c.spec, data, out, exec);
    if (!run) {
        failure = run.error();
        return c;
    }
    // Clipped as the explorer counts it: outside the range the op actually clamped to.
    const SliceQuant& q = run->slices.front();
    auto stats = errorStats(data, out, ClipRange{q.clip_min, q.clip_max});
    if (!stats) failure = stats.error();
    else c.stats = *stats;
    return c;
}

// The least-MSE member of the range family t·[lo, hi], t in (0, 1], or [lo, hi] itself,
// searched on `sample`; its statistics are over `data`.
Result<Calibration> mseOptimal(std::span<const float> sample, std::span<const float> data,
                               const QuantSpec& base, float lo, float hi, std::vector<float>& out,
                               const Exec& exec, const ProgressPart& reporter) {
    Status failure = okStatus();
    // Progress: one unit per run of the op on the sample (the grid, the refinement between
    // two grid steps and its last run).
    const int evaluations = kMseGrid + goldenSectionEvaluations(0.0, 2.0 / kMseGrid, 1e-5) + 1;
    int evaluated = 0;
    auto mseAt = [&](double t) {
        if (!failure) return std::numeric_limits<double>::infinity();  // failed or cancelled: skip
        if (!reporter.step(evaluated++, evaluations)) {
            failure = analysisCancelled("the calibration");
            return std::numeric_limits<double>::infinity();
        }
        const float a = static_cast<float>(t * lo), b = static_cast<float>(t * hi);
        auto run = runFlat(withRange(base, a, b), sample, out, exec);
        if (!run) {
            failure = run.error();
            return std::numeric_limits<double>::infinity();
        }
        const double mse = meanSquaredError(sample, out);
        return std::isnan(mse) ? std::numeric_limits<double>::infinity() : mse;
    };
    int best = kMseGrid;
    double bestMse = mseAt(1.0);
    for (int i = 1; i < kMseGrid; ++i)
        if (const double m = mseAt(static_cast<double>(i) / kMseGrid); m < bestMse) {
            bestMse = m;
            best = i;
        }
    if (!failure) return failure.error();
    double t = static_cast<double>(best) / kMseGrid;
    const double refined = goldenSectionMin(mseAt, static_cast<double>(std::max(best - 1, 1)) / kMseGrid,
                                            static_cast<double>(std::min(best + 1, kMseGrid)) / kMseGrid,
                                            1e-5);
    if (!failure) return failure.error();
    if (mseAt(refined) < bestMse) t = refined;
    if (!failure) return failure.error();
    if (!reporter.step(evaluations, evaluations)) return analysisCancelled("the calibration");
    Calibration c = withStats(CalibrationMethod::MseOptimal, static_cast<float>(t * lo),
                              static_cast<float>(t * hi), base, data, out, exec, failure);
    if (!failure) return failure.error();
    return c;
}

}  // namespace

std::string_view calibrationMethodName(CalibrationMethod m) {
    switch (m) {
        case CalibrationMethod::MinMax: return "min-max";
        case CalibrationMethod::Percentile: return "percentile";
        case CalibrationMethod::MseOptimal: return "MSE-optimal";
        case CalibrationMethod::KlDivergence: return "KL divergence";
    }
    return "?";
}

Result<double> percentileOf(std::span<const float> data, double p) {
    if (!(p >= 0 && p <= 100))
        return invalidArgument("percentile must be in [0, 100], got " + std::to_string(p));
    std::vector<double> v = finiteValues(data, false);
    if (v.empty()) return invalidArgument("percentile: the data has no finite values");
    return linearPercentile(v, p);
}

namespace {

Result<double> klThresholdIn(std::span<const float> data, int bins, int target_bins, const ProgressPart& reporter) {
    if (target_bins < 2)
        return invalidArgument("KL calibration: need at least 2 quantized bins, got " +
                               std::to_string(target_bins));
    if (bins < 2 || bins > kMaxBins)
        return invalidArgument("KL calibration: histogram bins must be in 2.." +
                               std::to_string(kMaxBins) + ", got " + std::to_string(bins));
    const std::vector<double> mags = finiteValues(data, true);
    if (mags.empty()) return invalidArgument("KL calibration: the data has no finite values");
    const double top = *std::max_element(mags.begin(), mags.end());
    if (bins <= target_bins || top == 0) return top;
    std::vector<double> hist(static_cast<size_t>(bins), 0.0);
    for (double m : mags)
        ++hist[std::min(static_cast<size_t>(m / top * bins), hist.size() - 1)];
    size_t bestI = static_cast<size_t>(bins);
    double bestKl = std::numeric_limits<double>::infinity();
    const auto first = static_cast<size_t>(target_bins);
    for (size_t i = first; i < hist.size(); ++i) {
        // Reported every 32 candidates: one candidate is O(bins), a report is an event.
        if ((i - first) % 32 == 0 && !reporter.step(static_cast<double>(i - first), static_cast<double>(hist.size() - first)))
            return analysisCancelled("the KL calibration");
        if (const double kl = candidateKl(hist, i, static_cast<size_t>(target_bins)); kl < bestKl) {
            bestKl = kl;
            bestI = i;
        }
    }
    if (!reporter.step(1, 1)) return analysisCancelled("the KL calibration");
    if (bestI == hist.size()) return top;  // every candidate degenerate
    return (static_cast<double>(bestI) + 0.5) * (top / bins);
}

}  // namespace

Result<double> klThreshold(std::span<const float> data, int bins, int target_bins, const ProgressCallback& progress) {
    return klThresholdIn(data, bins, target_bins, ProgressPart(&progress));
}

Result<std::vector<Calibration>> calibrate(std::span<const float> data, const QuantSpec& base,
                                           const CalibrationOptions& options, const Exec& exec,
                                           const ProgressCallback& progress) {
    if (Status s = checkData(data, "calibration"); !s) return s.error();
    if (!(options.percentile > 0 && options.percentile <= 100))
        return invalidArgument("calibration: percentile must be in (0, 100], got " +
                               std::to_string(options.percentile));
    if (options.bins < 2 || options.bins > kMaxBins)
        return invalidArgument("calibration: histogram bins must be in 2.." +
                               std::to_string(kMaxBins) + ", got " + std::to_string(options.bins));
    const FiniteExtent ext = finiteExtent(data);
    const auto maxAbs = static_cast<float>(ext.max_abs);
    std::vector<float> out;
    Status failure = okStatus();
    std::vector<Calibration> result;
    // The methods' shares of the progress, roughly their costs: a run of the op over all the
    // data each for min-max, percentile and KL's statistics, a sort for the percentile, about
    // 120 runs over the search sample for MSE-optimal, O(bins²) for the KL search.
    const ProgressPart reporter(&progress);
    const ProgressPart minMaxPart = reporter.part(0.0, 0.1), percentilePart = reporter.part(0.1, 0.2),
                       msePart = reporter.part(0.2, 0.75), klPart = reporter.part(0.75, 0.95),
                       klStatsPart = reporter.part(0.95, 1.0);
    if (!minMaxPart.step(0, 1)) return analysisCancelled("the calibration");

    result.push_back(withStats(CalibrationMethod::MinMax, ext.min, ext.max, base, data, out, exec,
                               failure));
    if (!failure) return failure.error();
    if (!percentilePart.step(0, 1)) return analysisCancelled("the calibration");

    float pLo, pHi;
    if (options.symmetric) {
        std::vector<double> mags = finiteValues(data, true);
        pHi = static_cast<float>(linearPercentile(mags, options.percentile));
        pLo = -pHi;
    } else {
        std::vector<double> v = finiteValues(data, false);
        pLo = static_cast<float>(linearPercentile(v, 100.0 - options.percentile));
        pHi = static_cast<float>(linearPercentile(v, options.percentile));
    }
    result.push_back(withStats(CalibrationMethod::Percentile, pLo, pHi, base, data, out, exec,
                               failure));
    if (!failure) return failure.error();
    if (!msePart.step(0, 1)) return analysisCancelled("the calibration");

    std::vector<float> sampleStorage;
    const std::span<const float> sample = searchSample(data, options.max_search_samples, sampleStorage);
    auto mse = options.symmetric ? mseOptimal(sample, data, base, -maxAbs, maxAbs, out, exec, msePart)
                                 : mseOptimal(sample, data, base, ext.min, ext.max, out, exec, msePart);
    if (!mse) return mse.error();
    // Never worse than min-max (the symmetric family need not contain it).
    if (mse->stats.mse <= result[0].stats.mse || std::isnan(result[0].stats.mse)) {
        result.push_back(*mse);
    } else {
        result.push_back(result[0]);
        result.back().method = CalibrationMethod::MseOptimal;
        result.back().note = "no range of the searched family beats min-max";
    }

    auto unit = SliceQuantizer::make(withRange(base, -1.0f, 1.0f), -1.0f, 1.0f);
    if (!unit) return unit.error();
    // T = half the op's levels (128 for 8 bits), clamped to what klThreshold accepts; with
    // T >= bins there is no candidate and klThreshold returns max|x|.
    const int64_t levels = unit->info().levels();
    const int targetBins = static_cast<int>(std::clamp<int64_t>(levels / 2, 2, kMaxBins));
    auto threshold = klThresholdIn(data, options.bins, targetBins, klPart);
    if (!threshold) return threshold.error();
    const auto t = static_cast<float>(*threshold);
    result.push_back(withStats(CalibrationMethod::KlDivergence, -t, t, base, data, out, exec,
                               failure));
    if (!failure) return failure.error();
    if (!klStatsPart.step(1, 1)) return analysisCancelled("the calibration");
    if (targetBins >= options.bins)
        result.back().note = "the op has " + std::to_string(levels) +
                             " levels, too many for a " + std::to_string(options.bins) +
                             "-bin histogram: the range is ±max|x|";
    return result;
}

Result<CalibrationAnalysis> computeCalibration(std::span<const float> data, const QuantSpec& spec,
                                               const CalibrationOptions& options, const Exec& exec,
                                               const ProgressCallback& progress) {
    QuantSpec flat = spec;
    flat.axis = -1;
    return computeCalibration(TensorRef<float>{data, Shape{static_cast<int64_t>(data.size())}}, flat, options, exec,
                              progress);
}

Result<CalibrationAnalysis> computeCalibration(const TensorRef<float>& tensor, const QuantSpec& spec,
                                               const CalibrationOptions& options, const Exec& exec,
                                               const ProgressCallback& progress) {
    constexpr int kHistogramBins = 200;
    const std::span<const float> data = tensor.data;
    auto methods = calibrate(data, spec, options, exec, progress);
    if (!methods) return methods.error();
    double lo = std::numeric_limits<double>::infinity(), hi = -lo;
    for (float v : data)
        if (std::isfinite(v)) {
            lo = std::min(lo, double(v));
            hi = std::max(hi, double(v));
        }
    for (const auto& m : *methods) {
        lo = std::min(lo, double(m.min));
        hi = std::max(hi, double(m.max));
    }
    if (!(hi > lo)) {  // constant data: a unit window around it
        lo -= 0.5;
        hi += 0.5;
    }
    const double pad = 0.02 * (hi - lo);
    auto hist = histogram(data, lo - pad, hi + pad, kHistogramBins);
    if (!hist) return hist.error();
    auto current = measureLikeExplorer(spec, tensor, exec);
    if (!current) return current.error();
    CalibrationAnalysis a{std::move(methods).value(), std::move(hist).value(), current->stats,
                          current->clipped_below + current->clipped_above};
    const SliceQuant& q0 = current->run.slices.front();
    a.current_min = q0.requested_min;
    a.current_max = q0.requested_max;
    a.current_per_slice = current->run.slices.size() > 1 || rangesFromData(spec);
    return a;
}

}  // namespace qs::analysis
