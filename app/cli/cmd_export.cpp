// quantscope-cli export: one explorer view of one (spec, data) pair as CSV / PNG / SVG / PDF,
// computed by qs::analysis::computeExplorer. The CSV is the view's table
// (core/analysis/explorer_tables.h); the pictures are drawn by the GUI's own view classes
// (PictureOutputs::writeExplorerPictures, in quantscope-cli-pictures), so the files are what
// the window shows. Everything that can fail on the input (arguments, the case or session,
// the data, the op's own errors) is checked before Qt's GUI starts; the views then render
// offscreen.
#include <array>
#include <memory>
#include <optional>
#include <string_view>

#include "app/cli/case_spec.h"
#include "app/cli/cmd_common.h"
#include "app/cli/picture_outputs.h"
#include "app/cli/session_input.h"
#include "core/analysis/explorer.h"
#include "core/analysis/explorer_tables.h"
#include "core/data/load_file.h"
#include "session/explorer/explorer_on_dataset.h"
#include "session/explorer/session.h"

namespace qs::cli {

namespace {

constexpr const char* kCommand = "export";

constexpr std::array kOptions{
    valueOption("--case"), valueOption("--session"), valueOption("--data"), valueOption("--generate"),
    valueOption("--view"), valueOption("--csv"), pictureOption("--png"), pictureOption("--svg"),
    pictureOption("--pdf"), valueOption("--width"), valueOption("--height"), valueOption("--dpi")};

bool parseView(const std::string& s, ExplorerView& v) {
    if (s == "transfer") v = ExplorerView::Transfer;
    else if (s == "histogram") v = ExplorerView::Histogram;
    else if (s == "error-histogram") v = ExplorerView::ErrorHistogram;
    else if (s == "per-channel") v = ExplorerView::PerChannel;
    else return false;
    return true;
}

int usageError(const std::string& message) {
    return reportInputError(kCommand, message + " (see 'quantscope-cli export --help')");
}

bool parsePixels(const std::string& text, int& out) {
    return parseInteger(text, out) && out >= 1 && out <= 20000;
}

// The view's table, as its "Export CSV" writes it.
data::NumberColumns viewTable(ExplorerView view, const analysis::ExplorerResult& result) {
    switch (view) {
        case ExplorerView::Transfer: return analysis::transferColumns(&result);
        case ExplorerView::Histogram: return analysis::histogramColumns(&result);
        case ExplorerView::ErrorHistogram: return analysis::errorHistogramColumns(&result);
        case ExplorerView::PerChannel: break;
    }
    return analysis::channelColumns(&result);
}

int runExport(const std::vector<std::string>& args, const PictureOutputs* pictures) {
    const Result<ParsedArgs> parsed = parseArgs(args, kOptions);
    if (!parsed) return usageError(parsed.error().message);
    const ParsedArgs& a = *parsed;
    if (!a.positional.empty()) return usageError("unexpected argument '" + a.positional.front() + "'");
    if (a.has("--case") == a.has("--session"))
        return usageError(a.has("--case") ? "give --case or --session, not both"
                                          : "no parameters: give --case CASE.json or --session FILE.qscope");
    if (a.has("--data") && a.has("--generate"))
        return usageError("give --data or --generate, not both");
    if (!a.has("--view"))
        return usageError("no view: give --view transfer|histogram|error-histogram|per-channel");
    ExplorerPictureRequest out;
    if (!parseView(a.value("--view"), out.view))
        return usageError("unknown view '" + a.value("--view") +
                          "' (views: transfer, histogram, error-histogram, per-channel)");
    const std::string csv = a.value("--csv");
    out.png = a.value("--png");
    out.svg = a.value("--svg");
    out.pdf = a.value("--pdf");
    for (const char* key : {"--csv", "--png", "--svg", "--pdf"})
        if (a.has(key) && a.value(key).empty()) return usageError(std::string("empty file name for ") + key);
    if (csv.empty() && out.png.empty() && out.svg.empty() && out.pdf.empty())
        return usageError("nothing to write: give --csv, --png, --svg and/or --pdf");
    if (a.has("--width") && !parsePixels(a.value("--width"), out.width))
        return usageError("--width must be an integer in 1..20000, is '" + a.value("--width") + "'");
    if (a.has("--height") && !parsePixels(a.value("--height"), out.height))
        return usageError("--height must be an integer in 1..20000, is '" + a.value("--height") + "'");
    if (a.has("--dpi") &&
        (!parseNumber(a.value("--dpi"), out.dpi) || !(out.dpi >= 1) || !(out.dpi <= 10000)))
        return usageError("--dpi must be a number in 1..10000, is '" + a.value("--dpi") + "'");

    // The parameters.
    QuantSpec spec;
    std::optional<ui::Session> session;
    if (a.has("--case")) {
        Result<QuantSpec> s = readCaseSpec(a.value("--case"));
        if (!s) return reportInputError(kCommand, s.error().message);
        spec = *s;
    } else {
        Result<ui::Session> s = readSessionFile(a.value("--session"));
        if (!s) return reportInputError(kCommand, s.error().message);
        session = std::move(s).value();
        spec = session->spec;
    }

    // The data.
    DataChoice choice;
    if (a.has("--data")) choice.file = a.value("--data");
    if (a.has("--generate")) choice.generator = a.value("--generate");
    const Result<data::Dataset> dataset = loadInputData(choice, session ? &*session : nullptr);
    if (!dataset) return reportInputError(kCommand, dataset.error().message);

    // The computation: the window's, so that both draw and write the same files for the same view.
    const analysis::ExplorerOptions options = ui::viewExplorerOptions(session ? session->view.channel : 0);
    Result<analysis::ExplorerResult> result = analysis::computeExplorer(spec, dataset->ref(), options);
    if (!result) {
        reportInputError(kCommand, result.error().kind + ": " + result.error().message);
        return kExitFailed;
    }
    if (!csv.empty())  // '-' is standard output
        if (const Status s = writeOutput(csv, data::csvText(viewTable(out.view, *result))); !s)
            return reportInputError(kCommand, s.error().message);
    if (out.png.empty() && out.svg.empty() && out.pdf.empty()) return kExitOk;
    if (!pictures) return reportInputError(kCommand, "--png, --svg, --pdf: this program was built without picture outputs");
    out.result = std::make_shared<const analysis::ExplorerResult>(std::move(result).value());
    if (session) {
        out.dark = session->view.dark;
        out.error_log_scale = session->view.errorLogScale;
    }
    return pictures->writeExplorerPictures(out);
}

}  // namespace

extern const Command exportCommand;
const Command exportCommand{
    "export",
    "Write one explorer view (transfer, histograms, per channel) as CSV/PNG/SVG/PDF",
    R"(Usage: quantscope-cli export (--case CASE.json | --session FILE.qscope)
                           [--data FILE | --generate KIND:key=value,...]
                           --view transfer|histogram|error-histogram|per-channel
                           [--csv F] [--png F] [--svg F] [--pdf F]
                           [--width W --height H --dpi D]

Computes what the explorer shows for one op and one data set (the same code as the
window) and writes the chosen view: its table as CSV and/or its plot as an image.

Parameters (one of):
  --case CASE.json       one case in the test vectors' schema ({"op", "attrs",
                         "input_min", "input_max", "num_bits"}), the object itself or
                         {"cases": [one case]}. Ops: QuantizeV2 (attrs T, mode, round_mode,
                         narrow_range, axis, ensure_minimum_range), QuantizeAndDequantizeV2/V4
                         (signed_input, num_bits, range_given [false], round_mode,
                         narrow_range, axis), QuantizeAndDequantizeV3 (num_bits top-level
                         or in attrs; range_given [true]), TPUSimulatedQuantization (attrs
                         num_buckets, lower, upper). Absent attributes take TF's defaults.
                         Ready one-case files for the common ops come with QuantScope in
                         share/quantscope/cases (resources/cases in the sources).
  --session FILE.qscope  a session saved by the window (parameters, data source, the
                         curve's channel, theme, error log scale)

Data (default: the session's data source; with --case normal:n=100000,seed=1):
  --data FILE            .npy, .csv/.tsv/.txt or .vec
  --generate SPEC        uniform:n=,seed=,low=,high=   normal:n=,seed=,mean=,std=
                         laplace:n=,seed=,loc=,scale=  sine:n=,amplitude=
                         mixture:n=,seed=,std=,outlier_fraction=,outlier_scale=
                         (every key optional; n defaults to 100000, seed to 1)
                         any kind takes shape=AxBx...: the samples in that shape
                         (e.g. normal:shape=64x1024 for per-channel views on axis 0;
                         n is then the product, given or left out)

Views and their CSV columns:
  transfer               input,code,output,error: at least 4096 inputs evenly spread
                         over the range widened by 25 % of its width on each side, plus
                         the exact float32 where each step begins; output is what TF
                         returns (QuantizeV2: Dequantize of the code with the returned
                         output_min/output_max, same mode), code the integer level
  histogram              bin_lo,bin_hi,count,clipped (the data's histogram)
  error-histogram        bin_lo,bin_hi,count,uniform_count (x - Q(x) over +-one step)
  per-channel            channel,data_min,data_max,output_min,output_max,scale,step,
                         zero_point,rmse,max_abs_error,sqnr_db,clipped (header only
                         without an axis; the picture then shows a note)

Output (at least one; each written atomically):
  --csv F                the view's table ('-' for standard output)
  --png F                an image (.png, .jpg or .bmp by suffix) of W x H pixels
  --svg F, --pdf F       vector pictures laid out like the image (W x H at D dpi is a
                         W*96/D x H*96/D point page)
  --width W, --height H  pixels (default 1200 x 800)
  --dpi D                how large text and lines are in those pixels (default 96)
  -h, --help             show this help

Rendering needs no display (Qt's offscreen platform unless QT_QPA_PLATFORM is set).
Exit codes: 0 written; 1 the op rejected the parameters (TensorFlow's error, printed as
"quantscope-cli export: <kind>: <message>"); 2 bad usage, a malformed case or session,
unreadable data, an unwritable output.
)",
    &runExport,
    kOptions,
};

}  // namespace qs::cli
