#include "app/cli/analysis_report.h"

#include <cmath>

#include "core/analysis/op_attributes.h"

namespace qs::cli {

namespace {

std::string num(double v) { return data::csvNumber(v); }  // the same number text as the views' CSVs

const std::vector<std::string> kStatsColumns{"mse",      "rmse",           "max_abs_error",
                                             "mean_error", "sqnr_db",      "cosine",
                                             "fraction_clipped", "distinct_levels", "count",
                                             "nan_pairs"};

void appendStatsCells(std::vector<std::string>& row, const analysis::ErrorStats& s) {
    for (double v : {s.mse, s.rmse, s.max_abs_error, s.mean_error, s.sqnr_db, s.cosine,
                     s.fraction_clipped, static_cast<double>(s.distinct_levels),
                     static_cast<double>(s.count), static_cast<double>(s.nan_pairs)})
        row.push_back(num(v));
}

std::vector<std::string> withStatsColumns(std::vector<std::string> leading) {
    leading.insert(leading.end(), kStatsColumns.begin(), kStatsColumns.end());
    return leading;
}

JsonOut dataJson(const DataSummary& data) {
    return JsonOut::Object{{"label", data.label}, {"values", data.values}};
}

// The fields every document starts with.
JsonOut header(const char* analysis, const AnalysisSource& source, const DataSummary& data) {
    return JsonOut::Object{{"analysis", analysis},
                           {"case", source.case_path},
                           {"spec", specJson(source.spec)},
                           {"data", dataJson(data)}};
}

std::string_view dataKindName(analysis::DataKind kind) {
    switch (kind) {
        case analysis::DataKind::Uniform: return "uniform";
        case analysis::DataKind::Sine: return "sine";
        case analysis::DataKind::Other: break;
    }
    return "measured";
}

// Stable keys for files (calibrationMethodName is the views' label, "KL divergence").
std::string methodKey(analysis::CalibrationMethod m) {
    switch (m) {
        case analysis::CalibrationMethod::MinMax: return "min-max";
        case analysis::CalibrationMethod::Percentile: return "percentile";
        case analysis::CalibrationMethod::MseOptimal: return "mse-optimal";
        case analysis::CalibrationMethod::KlDivergence: break;
    }
    return "kl-divergence";
}

}  // namespace

JsonOut specJson(const QuantSpec& s) {
    JsonOut j;
    j.set("op", std::string(quantOpKey(s.op)));
    // Every TF attribute the op has, fixed ones too (V3 always rounds HALF_TO_EVEN), in
    // the table's order, then the range inputs as the vectors name them.
    for (const OpAttribute& a : opAttributes()) {
        if (!a.tf || a.use(s.op) == AttrUse::None) continue;
        const AttrValue v = a.get(s);
        const std::string name(a.name);
        switch (a.kind) {
            case AttrKind::Bool: j.set(name, std::get<bool>(v)); break;
            case AttrKind::Int: j.set(name, std::get<int64_t>(v)); break;
            case AttrKind::Float: j.set(name, static_cast<float>(std::get<double>(v))); break;
            case AttrKind::Enum: j.set(name, std::string(a.choiceName(std::get<int64_t>(v)))); break;
        }
    }
    const RangeInputNames range = rangeInputNames(s.op);
    j.set(std::string(range.case_min), s.min_range);
    j.set(std::string(range.case_max), s.max_range);
    return j;
}

JsonOut statsJson(const analysis::ErrorStats& s) {
    return JsonOut::Object{{"mse", s.mse},
                           {"rmse", s.rmse},
                           {"max_abs_error", s.max_abs_error},
                           {"mean_error", s.mean_error},
                           {"sqnr_db", s.sqnr_db},
                           {"cosine", s.cosine},
                           {"fraction_clipped", s.fraction_clipped},
                           {"distinct_levels", s.distinct_levels},
                           {"count", s.count},
                           {"nan_pairs", s.nan_pairs}};
}

JsonOut bitSweepJson(const AnalysisSource& source, const DataSummary& data,
                     const analysis::BitSweep& sweep) {
    JsonOut j = header("sweep-bits", source, data);
    j.set("theory_kind", std::string(dataKindName(sweep.kind)));
    j.set("theory", sweep.theory);
    j.set("signal_power", sweep.signal_power);
    j.set("note", sweep.note);
    j.set("gap_note", sweep.gap_note);  // why the measured curve falls short of the theory
    JsonOut::Array rows;
    for (const analysis::BitSweepRow& r : sweep.rows)
        rows.emplace_back(JsonOut::Object{{"bits", r.bits},
                                          {"mse", r.mse},
                                          {"sqnr_db", r.sqnr_db},
                                          {"theory_sqnr_db", r.theory_sqnr_db},
                                          {"levels", r.levels},
                                          {"levels_in_range", r.levels_in_range},
                                          {"levels_used", r.levels_used},
                                          {"step", r.step},
                                          {"wrapped", r.wrapped}});
    j.set("rows", std::move(rows));
    return j;
}

data::TextTable bitSweepTable(const analysis::BitSweep& sweep) {
    data::TextTable t{{"bits", "mse", "sqnr_db", "theory_sqnr_db", "levels", "levels_in_range",
                 "levels_used", "step"},
                {}};
    for (const analysis::BitSweepRow& r : sweep.rows)
        t.rows.push_back({std::to_string(r.bits), num(r.mse), num(r.sqnr_db),
                          num(r.theory_sqnr_db), std::to_string(r.levels),
                          std::to_string(r.levels_in_range), std::to_string(r.levels_used),
                          num(r.step)});
    return t;
}

JsonOut clipSweepJson(const AnalysisSource& source, const DataSummary& data,
                      const analysis::ClipSweep& sweep,
                      const std::vector<analysis::OptimalClipRow>& optimal) {
    JsonOut j = header("sweep-clip", source, data);
    j.set("grid", JsonOut::Object{{"step", sweep.grid.step},
                                  {"upper", sweep.grid.upper},
                                  {"lower", sweep.grid.lower}});
    j.set("max_abs", sweep.max_abs);
    j.set("sigma", sweep.sigma);
    j.set("laplace_b", sweep.laplace_b);
    j.set("samples_used", sweep.samples_used);  // the MSE curve's values (<= 1e6, see clip_sweep.h)
    j.set("optimum", JsonOut::Object{{"alpha", sweep.best_alpha},
                                     {"mse", sweep.best_mse},
                                     {"gaussian_alpha", sweep.gaussian_alpha},
                                     {"laplace_alpha", sweep.laplace_alpha}});
    JsonOut::Array points;
    for (const analysis::ClipPoint& p : sweep.points)
        points.emplace_back(JsonOut::Object{{"alpha", p.alpha},
                                            {"mse", p.mse},
                                            {"gaussian_mse", p.gaussian_mse},
                                            {"laplace_mse", p.laplace_mse}});
    j.set("points", std::move(points));
    JsonOut::Array table;
    for (const analysis::OptimalClipRow& r : optimal)
        table.emplace_back(JsonOut::Object{{"bits", r.bits},
                                           {"textbook_gaussian", r.textbook_gaussian},
                                           {"textbook_laplace", r.textbook_laplace},
                                           {"op_gaussian", r.op_gaussian},
                                           {"op_laplace", r.op_laplace}});
    j.set("optimal_alpha", std::move(table));
    return j;
}

data::TextTable clipSweepTable(const analysis::ClipSweep& sweep) {
    data::TextTable t{{"alpha", "mse", "gaussian_mse", "laplace_mse"}, {}};
    for (const analysis::ClipPoint& p : sweep.points)
        t.rows.push_back({num(p.alpha), num(p.mse), num(p.gaussian_mse), num(p.laplace_mse)});
    return t;
}

JsonOut calibrationJson(const AnalysisSource& source, const DataSummary& data,
                        const analysis::CalibrationOptions& options,
                        const std::vector<analysis::Calibration>& methods) {
    JsonOut j = header("calibrate", source, data);
    j.set("percentile", options.percentile);
    j.set("bins", options.bins);
    j.set("symmetric", options.symmetric);
    JsonOut::Array list;
    for (const analysis::Calibration& c : methods)
        list.emplace_back(JsonOut::Object{
            {"method", methodKey(c.method)},
            {"label", std::string(analysis::calibrationMethodName(c.method))},
            {"min", c.min},
            {"max", c.max},
            {"note", c.note},
            {"stats", statsJson(c.stats)}});
    j.set("methods", std::move(list));
    return j;
}

data::TextTable calibrationTable(const std::vector<analysis::Calibration>& methods) {
    data::TextTable t{withStatsColumns({"method", "min", "max"}), {}};
    for (const analysis::Calibration& c : methods) {
        std::vector<std::string> row{methodKey(c.method),
                                     num(c.min), num(c.max)};
        appendStatsCells(row, c.stats);
        t.rows.push_back(std::move(row));
    }
    return t;
}

JsonOut comparisonJson(const DataSummary& data, const std::vector<Configuration>& configs) {
    JsonOut j = JsonOut::Object{{"analysis", "compare"}, {"data", dataJson(data)}};
    JsonOut::Array list;
    for (const Configuration& c : configs) {
        const analysis::ComparisonEntry& r = c.result;
        list.emplace_back(JsonOut::Object{{"case", c.source.case_path},
                                          {"spec", specJson(c.source.spec)},
                                          {"slices", r.slices},
                                          {"output_min", r.slice.output_min},
                                          {"output_max", r.slice.output_max},
                                          {"step", r.slice.step},
                                          {"stats", statsJson(r.stats)}});
    }
    j.set("configurations", std::move(list));
    return j;
}

data::TextTable comparisonTable(const std::vector<Configuration>& configs) {
    data::TextTable t{withStatsColumns({"case", "op", "output_min", "output_max", "step"}), {}};
    for (const Configuration& c : configs) {
        std::vector<std::string> row{c.source.case_path, std::string(quantOpKey(c.source.spec.op)),
                                     num(c.result.slice.output_min), num(c.result.slice.output_max),
                                     num(c.result.slice.step)};
        appendStatsCells(row, c.result.stats);
        t.rows.push_back(std::move(row));
    }
    return t;
}

}  // namespace qs::cli
