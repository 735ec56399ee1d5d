// quantscope-cli analyze: the numbers of the analysis views without the window. One
// subcommand per view (sweep-bits, sweep-clip, calibrate, compare) reads the case(s) and the
// data like `export`, runs the core analysis (core/analysis/bit_sweep.h, clip_sweep.h,
// calibration.h, explorer.h) and writes the result as JSON and/or CSV (analysis_report.h).
// Every failure, the op's own included, is one line on stderr and exit code 2.
#include <array>
#include <optional>
#include <span>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "app/cli/analysis_report.h"
#include "app/cli/case_spec.h"
#include "app/cli/cmd_common.h"
#include "app/cli/picture_outputs.h"
#include "app/cli/session_input.h"

namespace qs::cli {

namespace {

constexpr const char* kCommand = "analyze";
constexpr size_t kMaxCompared = 4;

constexpr std::array kOptions{
    pictureOption("--png"), valueOption("--case"), valueOption("--session"), valueOption("--data"),
    valueOption("--generate"), valueOption("--json"), valueOption("--csv"), valueOption("--min-bits"),
    valueOption("--max-bits"), valueOption("--theory"), valueOption("--points"),
    valueOption("--percentile"), valueOption("--bins"), flagOption("--asymmetric")};

enum class Analysis { SweepBits, SweepClip, Calibrate, Compare };

PngRequest::Kind pngKind(Analysis a) {
    switch (a) {
        case Analysis::SweepBits: return PngRequest::Kind::SweepBits;
        case Analysis::SweepClip: return PngRequest::Kind::SweepClip;
        case Analysis::Calibrate: return PngRequest::Kind::Calibrate;
        case Analysis::Compare: break;
    }
    return PngRequest::Kind::Compare;
}

struct AnalysisName {
    std::string_view name;
    Analysis analysis;
};
constexpr AnalysisName kAnalyses[] = {{"sweep-bits", Analysis::SweepBits},
                                      {"sweep-clip", Analysis::SweepClip},
                                      {"calibrate", Analysis::Calibrate},
                                      {"compare", Analysis::Compare}};

int usageError(const std::string& message) {
    return reportInputError(kCommand, message + " (see 'quantscope-cli analyze --help')");
}

bool takesValue(const std::string& longName) {
    for (const OptionSpec& o : kOptions)
        if (o.longName == longName) return o.takesValue;
    return false;
}

// parseArgs keeps the last value of a repeated option, but compare takes --case up to four
// times: the --case values are taken out first (the other options' values and everything
// after "--" are left alone). A trailing "--case" without a value stays for parseArgs to
// report.
std::vector<std::string> takeCases(const std::vector<std::string>& args,
                                   std::vector<std::string>& rest) {
    std::vector<std::string> cases;
    for (size_t i = 0; i < args.size(); ++i) {
        const std::string& a = args[i];
        if (a == "--") {
            rest.insert(rest.end(), args.begin() + static_cast<std::ptrdiff_t>(i), args.end());
            break;
        }
        if (a == "--case" && i + 1 < args.size()) {
            cases.push_back(args[++i]);
        } else if (a.starts_with("--case=")) {
            cases.push_back(a.substr(7));
        } else {
            rest.push_back(a);
            if (a.find('=') == std::string::npos && takesValue(a) && i + 1 < args.size())
                rest.push_back(args[++i]);
        }
    }
    return cases;
}

// What the options of one analysis came to.
struct Settings {
    int min_bits = 0, max_bits = 0;
    bool widths_given = false;  // --min-bits or --max-bits; else sweep-bits takes the op's widths
    analysis::DataKind theory = analysis::DataKind::Other;
    analysis::ClipSweepOptions clip;
    analysis::CalibrationOptions calibration;
};

// The options that belong to one analysis only, and their checks. `s` comes in with the
// session's choices (or the defaults); the options given override them.
std::optional<std::string> readSettings(Analysis which, const ParsedArgs& a, Settings& s) {
    auto only = [&a](std::string_view key, bool allowed, const char* analyses)
        -> std::optional<std::string> {
        if (a.has(key) && !allowed)
            return std::string(key) + " applies to " + analyses + " only";
        return std::nullopt;
    };
    const bool bits = which == Analysis::SweepBits || which == Analysis::SweepClip;
    for (const auto& [key, allowed, analyses] :
         {std::tuple{"--min-bits", bits, "sweep-bits and sweep-clip"},
          std::tuple{"--max-bits", bits, "sweep-bits and sweep-clip"},
          std::tuple{"--theory", which == Analysis::SweepBits, "sweep-bits"},
          std::tuple{"--points", which == Analysis::SweepClip, "sweep-clip"},
          std::tuple{"--percentile", which == Analysis::Calibrate, "calibrate"},
          std::tuple{"--bins", which == Analysis::Calibrate, "calibrate"},
          std::tuple{"--asymmetric", which == Analysis::Calibrate, "calibrate"}})
        if (auto e = only(key, allowed, analyses)) return e;

    // Bit widths: the sweep's rows (2..16) or the optimal-α table (2..8).
    s.min_bits = 2;
    s.max_bits = which == Analysis::SweepClip ? 8 : 16;
    for (const auto& [key, target] : {std::pair{"--min-bits", &s.min_bits},
                                      std::pair{"--max-bits", &s.max_bits}})
        if (a.has(key) && (!parseInteger(a.value(key), *target) || *target < 1 || *target > 32))
            return std::string(key) + " must be an integer in 1..32, is '" + a.value(key) + "'";
    s.widths_given = a.has("--min-bits") || a.has("--max-bits");
    if (s.min_bits > s.max_bits)
        return "--min-bits " + std::to_string(s.min_bits) + " exceeds --max-bits " +
               std::to_string(s.max_bits);
    if (a.has("--theory")) {
        const std::string t = a.value("--theory");
        if (t == "measured") s.theory = analysis::DataKind::Other;
        else if (t == "uniform") s.theory = analysis::DataKind::Uniform;
        else if (t == "sine") s.theory = analysis::DataKind::Sine;
        else return "unknown theory '" + t + "' (theories: measured, uniform, sine)";
    }
    if (a.has("--points") && (!parseInteger(a.value("--points"), s.clip.points) ||
                              s.clip.points < 3 || s.clip.points > 100000))
        return "--points must be an integer in 3..100000, is '" + a.value("--points") + "'";
    if (a.has("--percentile") &&
        (!parseNumber(a.value("--percentile"), s.calibration.percentile) ||
         !(s.calibration.percentile > 0) || !(s.calibration.percentile <= 100)))
        return "--percentile must be a number in (0, 100], is '" + a.value("--percentile") + "'";
    if (a.has("--bins") && (!parseInteger(a.value("--bins"), s.calibration.bins) ||
                            s.calibration.bins < 2 || s.calibration.bins > 65536))
        return "--bins must be an integer in 2..65536, is '" + a.value("--bins") + "'";
    if (a.has("--asymmetric")) s.calibration.symmetric = false;
    return std::nullopt;
}

// A session's configurations: the explorer's parameters, or for compare the configurations
// of the window's Compare tab (the explorer's parameters when it holds none).
std::vector<AnalysisSource> sessionSources(Analysis which, const std::string& path, const ui::Session& session) {
    const std::vector<QuantSpec>& compared = session.analysis.compared;
    if (which != Analysis::Compare || compared.empty()) return {{path, session.spec}};
    std::vector<AnalysisSource> sources;
    for (size_t i = 0; i < compared.size(); ++i)
        sources.push_back({path + ": configuration " + std::to_string(i + 1), compared[i]});
    return sources;
}

// The theory line the window's Bit sweep draws for the session's own data: a uniform or sine
// generator's, else the measured power.
analysis::DataKind sessionTheory(const ui::Session& session) {
    if (session.data.isFile()) return analysis::DataKind::Other;
    const QString kind = session.data.generator.section(QLatin1Char(':'), 0, 0).trimmed();
    if (kind == QLatin1String("uniform")) return analysis::DataKind::Uniform;
    if (kind == QLatin1String("sine")) return analysis::DataKind::Sine;
    return analysis::DataKind::Other;
}

// "CASE: Kind: message" for a failure of the analysis on that case's spec.
int analysisError(const std::string& casePath, const Error& e) {
    return reportInputError(kCommand, casePath + ": " + e.kind + ": " + e.message);
}

int runAnalyze(const std::vector<std::string>& args, const PictureOutputs* pictures) {
    std::vector<std::string> rest;
    const std::vector<std::string> cases = takeCases(args, rest);
    const Result<ParsedArgs> parsed = parseArgs(rest, kOptions);
    if (!parsed) return usageError(parsed.error().message);
    const ParsedArgs& a = *parsed;

    if (a.positional.empty())
        return usageError("no analysis: give sweep-bits, sweep-clip, calibrate or compare");
    if (a.positional.size() > 1)
        return usageError("unexpected argument '" + a.positional[1] + "'");
    const AnalysisName* which = nullptr;
    for (const AnalysisName& n : kAnalyses)
        if (n.name == a.positional.front()) which = &n;
    if (!which)
        return usageError("unknown analysis '" + a.positional.front() +
                          "' (analyses: sweep-bits, sweep-clip, calibrate, compare)");
    const std::string name(which->name);
    if (!cases.empty() && a.has("--session")) return usageError("give --case or --session, not both");
    if (cases.empty() && !a.has("--session"))
        return usageError(name + ": no parameters: give --case CASE.json or --session FILE.qscope");
    if (which->analysis == Analysis::Compare ? cases.size() > kMaxCompared : cases.size() > 1)
        return usageError(which->analysis == Analysis::Compare
                              ? "compare takes at most 4 --case options, got " +
                                    std::to_string(cases.size())
                              : name + " takes one --case, got " + std::to_string(cases.size()) +
                                    " (several are for compare)");
    if (a.has("--data") && a.has("--generate"))
        return usageError("give --data or --generate, not both");
    for (const char* key : {"--json", "--csv", "--png", "--data", "--generate", "--session"})
        if (a.has(key) && a.value(key).empty())
            return usageError(std::string("empty value for ") + key);
    if (a.value("--json") == "-" && a.value("--csv") == "-")
        return usageError("--json - and --csv - would both write to standard output");
    Settings settings;
    if (auto e = readSettings(which->analysis, a, settings)) return usageError(*e);

    // The parameters, then the data: a bad case is reported before a large file is read.
    std::vector<AnalysisSource> sources;
    std::optional<ui::Session> session;
    for (const std::string& path : cases) {
        Result<QuantSpec> spec = readCaseSpec(path);
        if (!spec) return reportInputError(kCommand, spec.error().message);
        sources.push_back({path, *spec});
    }
    if (a.has("--session")) {
        Result<ui::Session> read = readSessionFile(a.value("--session"));
        if (!read) return reportInputError(kCommand, read.error().message);
        session = std::move(read).value();
        sources = sessionSources(which->analysis, a.value("--session"), *session);
        settings.calibration = session->analysis.calibration;
        if (!a.has("--data") && !a.has("--generate")) settings.theory = sessionTheory(*session);
        readSettings(which->analysis, a, settings);  // the options given win over the session's
    }
    DataChoice choice;
    if (a.has("--data")) choice.file = a.value("--data");
    if (a.has("--generate")) choice.generator = a.value("--generate");
    const Result<data::Dataset> dataset = loadInputData(choice, session ? &*session : nullptr);
    if (!dataset) return reportInputError(kCommand, dataset.error().message);
    const DataSummary summary{dataset->label, static_cast<int64_t>(dataset->values.size())};
    const std::span<const float> values(dataset->values);
    const Exec exec = Exec::allCores();
    const AnalysisSource& first = sources.front();

    JsonOut document;
    data::TextTable table;
    PngRequest png;
    png.path = a.value("--png");
    png.kind = pngKind(which->analysis);
    std::optional<analysis::BitSweep> bitsKept;
    std::optional<analysis::ClipSweep> clipKept;
    std::vector<analysis::OptimalClipRow> clipTableKept;
    std::optional<analysis::ComparisonAnalysis> comparisonKept;
    switch (which->analysis) {
        case Analysis::SweepBits: {
            // Without --min-bits/--max-bits, every width the op has: the window's Bit sweep.
            const auto [lo, hi] = settings.widths_given
                                      ? std::pair{settings.min_bits, settings.max_bits}
                                      : analysis::sweepBitRange(first.spec);
            auto sweep = analysis::sweepBits(dataset->ref(), first.spec, lo, hi, settings.theory, exec);
            if (!sweep) return analysisError(first.case_path, sweep.error());
            document = bitSweepJson(first, summary, *sweep);
            bitsKept = *sweep;
            table = bitSweepTable(*sweep);
            break;
        }
        case Analysis::SweepClip: {
            auto sweep = analysis::sweepClip(values, first.spec, settings.clip, exec);
            if (!sweep) return analysisError(first.case_path, sweep.error());
            auto optimal =
                analysis::optimalClipTable(first.spec, settings.min_bits, settings.max_bits);
            if (!optimal) return analysisError(first.case_path, optimal.error());
            document = clipSweepJson(first, summary, *sweep, *optimal);
            clipKept = *sweep;
            clipTableKept = *optimal;
            table = clipSweepTable(*sweep);
            break;
        }
        case Analysis::Calibrate: {
            auto methods = analysis::calibrate(values, first.spec, settings.calibration, exec);
            if (!methods) return analysisError(first.case_path, methods.error());
            document = calibrationJson(first, summary, settings.calibration, *methods);
            table = calibrationTable(*methods);
            break;
        }
        case Analysis::Compare: {
            // The comparison tab's own computation; the first case the op rejects is reported.
            std::vector<QuantSpec> specs;
            for (const AnalysisSource& source : sources) specs.push_back(source.spec);
            auto compared = analysis::computeComparison(dataset->ref(), specs, exec);
            if (!compared) return analysisError(first.case_path, compared.error());
            std::vector<Configuration> configs;
            for (size_t i = 0; i < sources.size(); ++i) {
                const analysis::ComparisonEntry& entry = compared->entries[i];
                if (entry.failed()) return analysisError(sources[i].case_path, entry.failure);
                configs.push_back({sources[i], entry});
            }
            document = comparisonJson(summary, configs);
            table = comparisonTable(configs);
            comparisonKept = std::move(compared).value();
            break;
        }
    }

    if (a.has("--png")) {
        png.bits = bitsKept ? &*bitsKept : nullptr;
        png.clip = clipKept ? &*clipKept : nullptr;
        png.clip_table = &clipTableKept;
        png.comparison = comparisonKept ? &*comparisonKept : nullptr;
        png.calibration = &settings.calibration;
        for (const AnalysisSource& s : sources) png.specs.push_back(s.spec);
        if (!pictures) return reportInputError(kCommand, "--png: this program was built without picture outputs");
        const Result<QByteArray> picture = pictures->analysisImage(png, dataset->ref());
        if (!picture) return reportInputError(kCommand, a.value("--png") + ": " + picture.error().message);
        if (Status s = writeFileOutput(png.path, *picture); !s) return reportInputError(kCommand, s.error().message);
    }
    // Without --json, --csv or --png the JSON goes to standard output.
    const bool toStdout = !a.has("--json") && !a.has("--csv") && !a.has("--png");
    if (a.has("--json") || toStdout)
        if (Status s = writeOutput(a.value("--json"), document.dump(2) + "\n"); !s)
            return reportInputError(kCommand, s.error().message);
    if (a.has("--csv"))
        if (Status s = writeOutput(a.value("--csv"), data::csvText(table)); !s)
            return reportInputError(kCommand, s.error().message);
    return kExitOk;
}

}  // namespace

extern const Command analyzeCommand;
const Command analyzeCommand{
    "analyze",
    "Bit-width and clipping sweeps, calibration, comparisons as JSON/CSV",
    R"(Usage: quantscope-cli analyze sweep-bits|sweep-clip|calibrate
                            (--case CASE.json | --session FILE.qscope)
                            [--data FILE | --generate KIND:key=value,...]
                            [--json F] [--csv F] [--png F] [analysis options]
       quantscope-cli analyze compare (--case A.json [--case B.json ... up to 4] |
                            --session FILE.qscope)
                            [--data FILE | --generate ...] [--json F] [--csv F] [--png F]

Runs the analysis views' computations on one data set and writes their numbers. Without
--json or --csv the JSON goes to standard output.

Analyses, their CSV columns and what the JSON adds:
  sweep-bits   the op at every bit width (QDQ: num_bits; TPU: num_buckets = 2^b;
               QuantizeV2: only 8, 16, 32 exist, other widths are skipped with a note).
               CSV: bits,mse,sqnr_db,theory_sqnr_db,levels,levels_in_range,levels_used,step
               (sqnr_db = 10*log10(sum x^2 / sum (x-Q(x))^2); theory_sqnr_db for the op's
               actual step D: 10*log10(P / (D^2/12))). JSON: the rows (each with
               wrapped: values whose qint32 code passed 2^31 - 1 and wrapped to -2^31,
               as TF's cast does), signal_power, the theory in words, a note and
               gap_note (why the measured curve falls short of the theory).
  sweep-clip   MSE against the clipping bound a, the op fed [-a, a], a = max|x|*i/points.
               CSV: alpha,mse,gaussian_mse,laplace_mse (measured, then the closed forms
               for the fitted sigma and Laplace b). JSON: the points, optimum {alpha, mse
               (the measured minimum, refined), gaussian_alpha, laplace_alpha}, the op's
               grid per unit a, sigma, laplace_b, and optimal_alpha: a*/sigma and a*/b per bit
               width for the textbook 2^b-level grid and for the op.
  calibrate    ranges from the data by min-max, percentile, MSE-optimal and KL divergence
               (TensorRT's 2048-bin entropy calibration), each with the op's error
               statistics over the data with that range.
               CSV: method,min,max,mse,rmse,max_abs_error,mean_error,sqnr_db,cosine,
               fraction_clipped,distinct_levels,count,nan_pairs; method is min-max,
               percentile, mse-optimal or kl-divergence. JSON: also each label and note.
  compare      one to four cases (any op, mode, bits, range) on the same data, as the
               explorer computes them. CSV: case,op,output_min,output_max,step,mse,rmse,
               max_abs_error,mean_error,sqnr_db,cosine,fraction_clipped,distinct_levels,
               count,nan_pairs (output range and step of the first slice). JSON: each
               configuration's spec, slices, range, step and stats.

Parameters and data (as for 'quantscope-cli export'):
  --case CASE.json       one case in the test vectors' schema (see 'export --help');
                         compare takes it up to four times
  --session FILE.qscope  a session saved by the window, instead of --case: its parameters
                         (per-channel ranges from each channel's data included), its data
                         unless --data or --generate is given, its Calibration settings
                         (the options below win), for compare the configurations of its
                         Compare tab (its parameters when it has none), for sweep-bits the
                         theory its generator gives in the window (uniform, sine)
  --data FILE            .npy, .csv/.tsv/.txt or .vec
  --generate SPEC        uniform:n=,seed=,low=,high=   normal:n=,seed=,mean=,std=
                         laplace:n=,seed=,loc=,scale=  sine:n=,amplitude=
                         mixture:n=,seed=,std=,outlier_fraction=,outlier_scale=
                         shape=AxBx... with any kind: the samples in that shape
                         (e.g. normal:shape=64x1024; n is the product or left out)
                         (default: the session's data; with --case normal:n=100000,seed=1)

Analysis options:
  --min-bits B, --max-bits B  sweep-bits: the widths swept (default: every width the op
                         has, as the window's Bit sweep: 2..16, QuantizeV2 8..32 or 8..16);
                         sweep-clip: the widths of the optimal-alpha table (default 2..8)
  --theory T             sweep-bits: the signal power P of the theory: measured (mean x^2
                         of the data, default), uniform (uniform over the op's range),
                         sine (a full-scale sine over the op's range)
  --points N             sweep-clip: grid points (default 200, 3..100000)
  --percentile P         calibrate: the percentile method's p (default 99.99)
  --bins N               calibrate: KL histogram bins (default 2048)
  --asymmetric           calibrate: percentile and MSE-optimal ranges asymmetric
                         (default symmetric about 0)

Output (each file written atomically; '-' for standard output):
  --json F               the whole result
  --csv F                the table above
  --png F                the analysis tab as drawn in the window (1600 x 1000 PNG)
  -h, --help             show this help

Numbers print as the shortest text that reads back exactly (float32 values as float32),
non-finite values as nan, inf, -inf (in JSON as strings).
Exit codes: 0 written; 2 bad usage, a malformed case, unreadable data, the op or the
analysis rejecting the case or the data ("quantscope-cli analyze: CASE: <kind>: <message>"),
an unwritable output.
)",
    &runAnalyze,
    kOptions,
};

}  // namespace qs::cli
