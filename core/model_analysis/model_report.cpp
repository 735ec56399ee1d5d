#include "core/model_analysis/model_report.h"

#include <algorithm>
#include <bit>
#include <cstdint>
#include <cmath>
#include <cstring>
#include <limits>

#include "core/analysis/error_stats.h"
#include "core/analysis/sweep_util.h"
#include "core/model_analysis/report_row_stats.h"
#include "core/modelfile/tensor_values.h"
#include "core/numeric/block_reduce.h"

namespace qs::analysis {
namespace {

using modelfile::DType;
using report_detail::accumulate;
using report_detail::CodeIndex;
using report_detail::Partial;
using report_detail::statsOf;


// Min and max of the non-NaN values, thread-count independent (min and max are exact). 16
// independent lanes let GCC keep them in vector registers (one running min is a loop-carried
// dependency it will not vectorise without -ffast-math); NaN compares false and is left out.
void dataRange(std::span<const float> x, const Exec& exec, float& lo, float& hi) {
    struct MinMax {
        float lo = std::numeric_limits<float>::infinity(), hi = -std::numeric_limits<float>::infinity();
    };
    const float* p = x.data();
    const auto parts = blockPartials<MinMax>(exec, static_cast<int64_t>(x.size()), [p](int64_t b, int64_t e) {
        constexpr int kLanes = 16;
        float l[kLanes], h[kLanes];
        for (int j = 0; j < kLanes; ++j) {
            l[j] = std::numeric_limits<float>::infinity();
            h[j] = -std::numeric_limits<float>::infinity();
        }
        int64_t i = b;
        for (; i + kLanes <= e; i += kLanes)
            for (int j = 0; j < kLanes; ++j) {
                l[j] = p[i + j] < l[j] ? p[i + j] : l[j];
                h[j] = p[i + j] > h[j] ? p[i + j] : h[j];
            }
        MinMax m;
        for (; i < e; ++i) {
            m.lo = p[i] < m.lo ? p[i] : m.lo;
            m.hi = p[i] > m.hi ? p[i] : m.hi;
        }
        for (int j = 0; j < kLanes; ++j) {
            m.lo = l[j] < m.lo ? l[j] : m.lo;
            m.hi = h[j] > m.hi ? h[j] : m.hi;
        }
        return m;
    });
    MinMax all;
    for (const MinMax& m : parts) {
        all.lo = std::min(all.lo, m.lo);
        all.hi = std::max(all.hi, m.hi);
    }
    lo = all.lo <= all.hi ? all.lo : 0.0f;
    hi = all.lo <= all.hi ? all.hi : 0.0f;
}

// Why a tensor is not in the report (empty: it is).
std::string skipReason(const modelfile::TensorInfo& info) {
    if (info.dtype == DType::Other) return "dtype " + info.dtype_name + " holds no numbers";
    if (info.dtype == DType::Bool) return "bool values are not weights";
    if (modelfile::isInteger(info.dtype) && !info.quantization)
        return info.dtype_name + " without stored quantization (indices or shapes, not weights)";
    const auto n = checkedNumElements(info.shape);
    if (!n) return "invalid shape " + shapeString(info.shape);
    if (*n < 2) return std::to_string(*n) + (*n == 1 ? " element" : " elements") + ": nothing to quantize across";
    return {};
}

// The tensor's values as float32: the mapped bytes themselves for aligned float32, else
// converted into `storage`.
Result<std::span<const float>> valuesOf(const modelfile::TensorData& t, std::vector<float>& storage) {
    const auto count = static_cast<size_t>(numElements(t.info.shape));
    if (t.info.dtype == DType::Float32 && reinterpret_cast<uintptr_t>(t.bytes.data()) % alignof(float) == 0)
        return std::span<const float>(reinterpret_cast<const float*>(t.bytes.data()), count);
    auto converted = modelfile::toFloat32(t);
    if (!converted) return converted.error();
    storage = std::move(converted).value();
    return std::span<const float>(storage);
}

Error cancelledError() { return cancellation("the report was cancelled"); }

// NaN last, then ascending, ties by `tie`.
template <typename Row, typename Tie>
void sortWorstFirst(std::vector<Row>& rows, Tie tie) {
    std::stable_sort(rows.begin(), rows.end(), [&](const Row& a, const Row& b) {
        const double x = a.stats.sqnr_db, y = b.stats.sqnr_db;
        if (std::isnan(x) != std::isnan(y)) return std::isnan(y);
        if (!std::isnan(x) && x != y) return x < y;
        return tie(a, b);
    });
}

// x laid out [pre, depth, post] rewritten as [depth, pre, post] into `out`, in tiles so that
// both sides stay in cache.
void channelsFirst(std::span<const float> x, const SliceLayout& l, std::vector<float>& out) {
    out.resize(x.size());
    constexpr int64_t kTile = 64;
    const int64_t rest = l.pre * l.post;
    for (int64_t p0 = 0; p0 < l.pre; p0 += kTile)
        for (int64_t c0 = 0; c0 < l.depth; c0 += kTile) {
            const int64_t p1 = std::min(l.pre, p0 + kTile), c1 = std::min(l.depth, c0 + kTile);
            for (int64_t c = c0; c < c1; ++c)
                for (int64_t p = p0; p < p1; ++p)
                    for (int64_t i = 0; i < l.post; ++i)
                        out[static_cast<size_t>(c * rest + p * l.post + i)] =
                            x[static_cast<size_t>((p * l.depth + c) * l.post + i)];
        }
}

// Whether a report spec takes the tensor's min/max as its given range: QuantizeV2 and the
// TPU op per tensor, and per-tensor QDQ (see tensorRow); per-channel QuantizeV2 ranges
// come from each slice (FromData) and per-channel QDQ finds its own.
bool needsDataRange(const QuantSpec& spec) { return !isQdq(spec.op) || spec.axis < 0; }

QuantSpec withReportRange(QuantSpec spec, float lo, float hi) {
    if (needsDataRange(spec)) {
        spec.min_range = lo;
        spec.max_range = hi;
    }
    if (isQdq(spec.op) && spec.axis < 0) spec.range_given = true;
    return spec;
}

class ReportRun {
public:
    ReportRun(const modelfile::ModelFile& model, const QuantSpec& spec, const ModelReportOptions& options)
        : model_(model), spec_(spec), options_(options) {}

    Result<ModelReport> run() {
        ModelReport report;
        report.file = model_.label();
        report.format = std::string(model_.format());
        report.spec = spec_;
        report.per_channel = usesAxis(spec_.op) && spec_.axis >= 0;
        const auto& infos = model_.tensors();
        for (const auto& info : infos)
            if (skipReason(info).empty()) total_ += static_cast<double>(numElements(info.shape));
        if (!progress(0)) return cancelledError();
        for (size_t i = 0; i < infos.size(); ++i) {
            if (std::string why = skipReason(infos[i]); !why.empty()) {
                report.skipped.push_back({infos[i].name, why});
                continue;
            }
            const auto n = static_cast<double>(numElements(infos[i].shape));
            auto row = tensorRow(i, n);
            if (!row && row.error().cancelled) return row.error();
            if (!row) {
                report.skipped.push_back({infos[i].name, row.error().message});
            } else {
                report.elements += row->stats.elements;
                report.rows.push_back(std::move(row).value());
            }
            done_ += n;
            if (!progress(0)) return cancelledError();
        }
        report.bytes_float32 = report.elements * static_cast<int64_t>(sizeof(float));
        sortWorstFirst(report.rows, [](const TensorReportRow& a, const TensorReportRow& b) { return a.name < b.name; });
        std::stable_partition(report.rows.begin(), report.rows.end(),
                              [](const TensorReportRow& r) { return !r.int32_codes; });
        return report;
    }

private:
    // Reports done_ plus `partOfCurrent` elements of the tensor in progress.
    bool progress(double partOfCurrent) const {
        if (!options_.progress) return true;
        return options_.progress(total_ > 0 ? std::min(1.0, (done_ + partOfCurrent) / total_) : 1.0);
    }

    Result<TensorReportRow> tensorRow(size_t index, double n) {
        auto tensor = model_.load(index);
        if (!tensor) return tensor.error();
        const modelfile::TensorInfo& info = tensor->info;
        auto values = valuesOf(*tensor, converted_);
        if (!values) return Error{"DataError", model_.label() + ": " + values.error().message};
        const std::span<const float> x = *values;

        TensorReportRow row;
        row.name = info.name;
        row.shape = info.shape;
        row.dtype = info.dtype_name;
        row.dequantized = modelfile::isInteger(info.dtype) && info.quantization.has_value();
        row.int32_codes = row.dequantized && (info.dtype == DType::Int32 || info.dtype == DType::UInt32);
        QuantSpec spec = reportSpecFor(spec_, info.shape, modelfile::channelAxis(model_.format(), info));
        row.axis = static_cast<int>(spec.axis);
        // QuantizeV2 per tensor (and per channel over a size-1 axis) and the TPU op take the
        // tensor's range as given; per-channel QuantizeV2 takes each slice's (FromData) and
        // per-channel QDQ its own (range_given false). Per-tensor QDQ is given the tensor's
        // min/max: the same outputs as range_given false (the op's scale is the smaller of
        // q_min/min and q_max/max, so its range covers [min, max] and clamps nothing), without
        // the two single-threaded min/max passes applySpec and the op would make.
        float lo = 0, hi = 0;
        if (needsDataRange(spec)) dataRange(x, options_.exec, lo, hi);
        spec = withReportRange(spec, lo, hi);
        if (!progress(0.1 * n)) return cancelledError();

        // Channels last (or nearly): the op and the statistics see the tensor as [channels,
        // rest] instead, each channel's values in their original order. Every value keeps
        // its channel's quantizer, so outputs and per-channel sums are the same, while the
        // per-slice loops get long runs instead of one value per slice.
        std::span<const float> xs = x;
        TensorRef<float> ref{x, info.shape};
        QuantSpec opSpec = spec;
        if (spec.axis >= 0) {
            const SliceLayout l = SliceLayout::along(info.shape, static_cast<int>(spec.axis));
            if (l.post < 16 && l.pre > 1) {
                channelsFirst(x, l, transposed_);
                xs = transposed_;
                ref = TensorRef<float>{xs, {l.depth, l.pre * l.post}};
                opSpec.axis = 0;
            }
        }
        output_.resize(x.size());
        auto run = applySpec(opSpec, ref, output_, {}, options_.exec);
        if (!run) return Error{run.error().kind, "the op refuses it: " + run.error().message};
        if (!progress((options_.calibrate ? 0.4 : 0.6) * n)) return cancelledError();

        statistics(xs, *run, row);
        if (!progress((options_.calibrate ? 0.7 : 1.0) * n)) return cancelledError();
        if (options_.calibrate) calibrateRow(x, spec, row);
        return row;
    }

    void statistics(std::span<const float> x, const QuantRun& run, TensorReportRow& row) {
        const SliceLayout& l = run.layout;
        const int64_t n = static_cast<int64_t>(x.size());
        const int64_t levels = run.slices.front().levels();
        const float* xp = x.data();
        const float* yp = output_.data();
        if (l.depth <= 1) {
            const SliceQuant& q = run.slices.front();
            const CodeIndex index = CodeIndex::of(q);
            const auto parts = blockPartials<Partial>(options_.exec, n, [&](int64_t b, int64_t e) {
                Partial p;
                accumulate(xp + b, yp + b, e - b, q.clip_min, q.clip_max, index, p);
                return p;
            });
            Partial all;
            for (const Partial& p : parts) all.merge(p);
            row.stats = statsOf(all, n, levels);
            return;
        }
        // Per channel: threads take ranges of channels; each channel's elements are summed
        // in index order whatever the split.
        std::vector<Partial> channels(static_cast<size_t>(l.depth));
        std::vector<CodeIndex> indices;
        for (const SliceQuant& q : run.slices) indices.push_back(CodeIndex::of(q));
        const int64_t perChannel = l.pre * l.post;
        parallelFor(options_.exec, l.depth, std::max<int64_t>(1, (int64_t{1} << 16) / std::max<int64_t>(1, perChannel)),
                    [&](int64_t c0, int64_t c1) {
                        for (int64_t p = 0; p < l.pre; ++p)
                            for (int64_t c = c0; c < c1; ++c) {
                                const int64_t base = (p * l.depth + c) * l.post;
                                const SliceQuant& q = run.slices[static_cast<size_t>(c)];
                                accumulate(xp + base, yp + base, l.post, q.clip_min, q.clip_max,
                                           indices[static_cast<size_t>(c)], channels[static_cast<size_t>(c)]);
                            }
                    });
        Partial all;
        double levelSum = 0;
        bool counted = true;
        for (int64_t c = 0; c < l.depth; ++c) {
            const Partial& p = channels[static_cast<size_t>(c)];
            ChannelRow ch{c, statsOf(p, perChannel, levels)};
            counted = counted && ch.stats.levels_used >= 0;
            levelSum += ch.stats.levels_used;
            if (options_.channel_rows) row.channels.push_back(ch);
            all.sums.merge(p.sums);
            all.lo = std::min(all.lo, p.lo);
            all.hi = std::max(all.hi, p.hi);
        }
        row.stats = statsOf(all, n, levels);
        row.stats.levels_used = counted ? levelSum / static_cast<double>(l.depth) : -1.0;
        sortWorstFirst(row.channels, [](const ChannelRow& a, const ChannelRow& b) { return a.channel < b.channel; });
    }

    // calibrate() finds each method's range on a sample; min-max takes the tensor's own
    // extremes (the sample may miss an outlier). Every range is then measured over the whole
    // tensor, and the best is the one of highest SQNR there (a sample over-weights or
    // misses rare outliers, so choosing on it would be biased).
    void calibrateRow(std::span<const float> x, const QuantSpec& spec, TensorReportRow& row) {
        const std::span<const float> sample =
            searchSample(x, std::max<int64_t>(2, options_.calibration_samples), sample_);
        CalibrationOptions calibration = options_.calibration;
        calibration.max_search_samples = 0;  // the sample is the search set already
        QuantSpec base = spec;
        base.axis = -1;
        auto methods = calibrate(sample, base, calibration, options_.exec);
        if (!methods) {
            row.calibration_note = methods.error().message;
            return;
        }
        // Min-max is the row's own quantizer (per channel: each channel's own range), whose
        // SQNR the row has already; the searched ranges are measured over the whole tensor.
        std::vector<Calibration> candidates = *methods;
        std::vector<QuantSpec> toMeasure;
        for (Calibration& c : candidates) {
            if (c.method == CalibrationMethod::MinMax) {
                c.min = row.stats.min;
                c.max = row.stats.max;
                c.spec = withRange(base, c.min, c.max);
            } else {
                toMeasure.push_back(c.spec);
            }
        }
        // Without NaNs every candidate is measured in one fused pass (candidateSqnrs).
        std::optional<std::vector<double>> fused;
        if (row.stats.nan_pairs == 0 && !toMeasure.empty()) {
            auto all = candidateSqnrs(x, toMeasure);
            if (!all) {
                row.calibration_note = all.error().message;
                return;
            }
            fused = std::move(all).value();
        }
        size_t measured = 0;
        for (const Calibration& c : candidates) {
            const bool known = c.method == CalibrationMethod::MinMax;
            auto sqnr = known ? Result<double>(row.stats.sqnr_db)
                        : fused ? Result<double>((*fused)[measured++])
                                : wholeTensorSqnr(x, c.spec);
            if (!sqnr) {
                row.calibration_note = sqnr.error().message;
                return;
            }
            if (std::isnan(*sqnr) || (row.calibration && !(*sqnr > row.calibration->sqnr_db))) continue;
            row.calibration = BestCalibration{c.method, c.min, c.max, *sqnr, static_cast<int64_t>(sample.size()),
                                              known && spec.axis >= 0};
        }
        if (!row.calibration) row.calibration_note = "no method gave a finite comparison";
    }

    // The SQNR of each of `specs` (per-tensor ranges, given) over all of x, which holds no
    // NaN, in one pass instead of one op run plus one statistics pass per spec: each block of
    // x is quantized by every spec into a block-sized buffer that stays in cache, and only
    // Σx² and Σ(x−y)² — all an SQNR needs — are summed, in four interleaved lanes (the sums'
    // dependency chains, not memory, bound the plain loop). With a given range every output
    // depends on its own input only, so block-wise runs give the whole-tensor outputs; the
    // sums are fixed per block and merged in block order, whatever the thread count.
    Result<std::vector<double>> candidateSqnrs(std::span<const float> x, const std::vector<QuantSpec>& specs) {
        struct Sums {
            double x2 = 0;
            std::vector<double> err2;
            std::optional<Error> error;
        };
        const auto lanes = [](const float* a, const float* b, int64_t n) {
            double l0 = 0, l1 = 0, l2 = 0, l3 = 0;
            int64_t i = 0;
            for (; i + 4 <= n; i += 4) {
                const double d0 = static_cast<double>(a[i]) - (b ? static_cast<double>(b[i]) : 0.0);
                const double d1 = static_cast<double>(a[i + 1]) - (b ? static_cast<double>(b[i + 1]) : 0.0);
                const double d2 = static_cast<double>(a[i + 2]) - (b ? static_cast<double>(b[i + 2]) : 0.0);
                const double d3 = static_cast<double>(a[i + 3]) - (b ? static_cast<double>(b[i + 3]) : 0.0);
                l0 += d0 * d0;
                l1 += d1 * d1;
                l2 += d2 * d2;
                l3 += d3 * d3;
            }
            for (; i < n; ++i) {
                const double d = static_cast<double>(a[i]) - (b ? static_cast<double>(b[i]) : 0.0);
                l0 += d * d;
            }
            return (l0 + l1) + (l2 + l3);
        };
        const auto parts = blockPartials<Sums>(options_.exec, static_cast<int64_t>(x.size()),
                                                          [&](int64_t b, int64_t e) {
            thread_local std::vector<float> y;
            y.resize(static_cast<size_t>(e - b));
            const std::span<const float> block = x.subspan(static_cast<size_t>(b), static_cast<size_t>(e - b));
            Sums sums;
            sums.x2 = lanes(block.data(), nullptr, e - b);
            for (const QuantSpec& spec : specs) {
                auto run = applySpec(spec, TensorRef<float>{block, {e - b}}, y, {}, Exec{});
                if (!run) {
                    sums.error = run.error();
                    return sums;
                }
                sums.err2.push_back(lanes(block.data(), y.data(), e - b));
            }
            return sums;
        });
        double x2 = 0;
        std::vector<double> err2(specs.size(), 0.0);
        for (const Sums& p : parts) {
            if (p.error) return *p.error;
            x2 += p.x2;
            for (size_t k = 0; k < specs.size(); ++k) err2[k] += p.err2[k];
        }
        std::vector<double> sqnr;
        for (double e : err2)  // as statsFromSums: a lossless output is +inf
            sqnr.push_back(e == 0 ? std::numeric_limits<double>::infinity() : 10.0 * std::log10(x2 / e));
        return sqnr;
    }

    // The SQNR of `spec` (a given per-tensor range) over all of x.
    Result<double> wholeTensorSqnr(std::span<const float> x, const QuantSpec& spec) {
        auto run = applySpec(spec, TensorRef<float>{x, {static_cast<int64_t>(x.size())}}, output_, {}, options_.exec);
        if (!run) return run.error();
        const float* xp = x.data();
        const float* yp = output_.data();
        const auto parts = blockPartials<ErrorSums>(options_.exec, static_cast<int64_t>(x.size()),
                                                               [&](int64_t b, int64_t e) {
                                                                   ErrorSums sums;
                                                                   for (int64_t i = b; i < e; ++i)
                                                                       if (!std::isnan(xp[i]) && !std::isnan(yp[i]))
                                                                           sums.add(xp[i], yp[i]);
                                                                   return sums;
                                                               });
        ErrorSums all;
        for (const ErrorSums& p : parts) all.merge(p);
        return statsFromSums(all).sqnr_db;
    }

    const modelfile::ModelFile& model_;
    QuantSpec spec_;
    const ModelReportOptions& options_;
    double total_ = 0, done_ = 0;
    // Reused from tensor to tensor: memory stays at the largest tensor's size.
    std::vector<float> converted_, output_, sample_, transposed_;
};

}  // namespace

QuantSpec reportSpecFor(const QuantSpec& spec, const Shape& shape, int channelAxis) {
    QuantSpec s = spec;
    bool perChannel = usesAxis(spec.op) && spec.axis >= 0 && channelAxis >= 0 &&
                      channelAxis < static_cast<int>(shape.size());
    if (perChannel) {  // a channel of one value, or a million channels, is no weight layout
        const int64_t channels = shape[static_cast<size_t>(channelAxis)];
        const int64_t n = numElements(shape);
        perChannel = channels >= 1 && channels <= kMaxReportChannels && n / channels >= 2;
    }
    s.axis = perChannel ? channelAxis : -1;
    s.range_source = perChannel ? RangeSource::FromData : RangeSource::Given;
    if (isQdq(spec.op)) s.range_given = false;
    return s;
}

QuantSpec reportRowSpec(const QuantSpec& reportSpec, const TensorReportRow& row) {
    return withReportRange(reportSpecFor(reportSpec, row.shape, row.axis), row.stats.min, row.stats.max);
}

std::string bestCalibrationName(const BestCalibration& best) {
    return best.per_channel ? "min-max per channel" : std::string(calibrationMethodName(best.method));
}

Result<ModelReport> computeModelReport(const modelfile::ModelFile& model, const QuantSpec& spec,
                                       const ModelReportOptions& options) {
    return ReportRun(model, spec, options).run();
}

}  // namespace qs::analysis
