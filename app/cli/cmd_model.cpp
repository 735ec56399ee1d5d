// quantscope-cli model: a model file's stored tensors without a window. Lists them (a table,
// or the JSON the contract below fixes), writes one as .npy (float32 as the explorer sees
// it, or its stored codes with --raw), or hands over to the whole-model report.
//
// The contract (checks outside the project rely on it; keep option names, keys and exit
// codes exactly):
//   model FILE --list [--json OUT|-]
//       {"format": "onnx|tflite|...", "tensors": [{"name", "shape", "dtype",
//        "quantization": null | {"scale": [..], "zero_point": [..], "axis": k}}]}
//   model FILE --tensor NAME --npy OUT.npy [--raw]
//   model FILE --report OUT.json [--csv OUT.csv] [--png OUT.png] --case CASE.json
//   exit 0 done, 2 unreadable file or usage (an unknown tensor lists the near names).
#include <algorithm>
#include <array>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include "app/cli/cmd_common.h"
#include "app/cli/json_out.h"
#include "app/cli/model_listing.h"
#include "app/cli/model_report_cmd.h"
#include "core/data/npy_writer.h"
#include "core/modelfile/model_file.h"
#include "core/modelfile/model_formats.h"
#include "core/modelfile/tensor_values.h"

namespace qs::cli {

namespace {

constexpr const char* kCommand = "model";

constexpr std::array kOptions{
    flagOption("--list"), valueOption("--json"), valueOption("--tensor"), valueOption("--npy"),
    flagOption("--raw"), valueOption("--report"), valueOption("--csv"), pictureOption("--png"),
    valueOption("--case")};

// --- --list --------------------------------------------------------------------------

JsonOut quantizationJson(const modelfile::TensorInfo& t) {
    if (!t.quantization) return nullptr;
    JsonOut q = JsonOut::Object{};
    q.set("scale", JsonOut::list(t.quantization->scale));
    q.set("zero_point", JsonOut::list(t.quantization->zero_point));
    q.set("axis", t.quantization->axis);
    return q;
}

JsonOut listingJson(const modelfile::ModelFile& model) {
    JsonOut::Array tensors;
    tensors.reserve(model.tensors().size());
    for (const modelfile::TensorInfo& t : model.tensors()) {
        JsonOut o = JsonOut::Object{};
        o.set("name", t.name);
        o.set("shape", JsonOut::list(t.shape));
        o.set("dtype", t.dtype_name);
        o.set("quantization", quantizationJson(t));
        tensors.push_back(std::move(o));
    }
    JsonOut out = JsonOut::Object{};
    out.set("format", std::string(model.format()));
    out.set("tensors", std::move(tensors));
    return out;
}

int list(const modelfile::ModelFile& model, const ParsedArgs& args) {
    const std::string text = args.has("--json") ? listingJson(model).dump(2) + "\n" : listingTable(model);
    if (Status s = writeOutput(args.value("--json"), text); !s)
        return reportInputError(kCommand, s.error().message);
    return kExitOk;
}

// --- --tensor NAME --npy OUT [--raw] ------------------------------------------------------

// The NumPy element type of a stored dtype; bfloat16 has none and is written as its uint16
// bit patterns (what ml_dtypes' bfloat16 views).
std::optional<data::NpyElement> npyElementOf(modelfile::DType t) {
    using modelfile::DType;
    using data::NpyElement;
    switch (t) {
    case DType::Float32: return NpyElement::Float32;
    case DType::Float16: return NpyElement::Float16;
    case DType::BFloat16: return NpyElement::UInt16;
    case DType::Float64: return NpyElement::Float64;
    case DType::Int8: return NpyElement::Int8;
    case DType::UInt8: return NpyElement::UInt8;
    case DType::Int16: return NpyElement::Int16;
    case DType::UInt16: return NpyElement::UInt16;
    case DType::Int32: return NpyElement::Int32;
    case DType::UInt32: return NpyElement::UInt32;
    case DType::Int64: return NpyElement::Int64;
    case DType::UInt64: return NpyElement::UInt64;
    case DType::Bool: return NpyElement::Bool;
    case DType::Other: return std::nullopt;
    }
    return std::nullopt;
}

int writeTensor(const modelfile::ModelFile& model, const ParsedArgs& args) {
    const std::string& name = args.values.at("--tensor");
    const int64_t index = model.find(name);
    if (index < 0) return reportInputError(kCommand, unknownTensorMessage(model, name));
    auto tensor = model.load(static_cast<size_t>(index));
    if (!tensor) return reportInputError(kCommand, tensor.error().message);
    const std::string& out = args.values.at("--npy");
    Status written = okStatus();
    if (args.has("--raw")) {
        const auto element = npyElementOf(tensor->info.dtype);
        if (!element)  // load() refuses DType::Other first; kept for a reader that does not
            return reportInputError(kCommand, model.label() + ": tensor '" + name + "': dtype " +
                                                  tensor->info.dtype_name + " has no NumPy type");
        if (tensor->info.dtype == modelfile::DType::BFloat16)
            std::fprintf(stderr, "quantscope-cli model: tensor '%s' is bfloat16, which NumPy lacks: "
                                 "written as its uint16 bit patterns\n", name.c_str());
        written = data::writeNpyBytes(out, *element, tensor->bytes, tensor->info.shape);
    } else {
        auto values = modelfile::toFloat32(*tensor);
        if (!values) return reportInputError(kCommand, model.label() + ": " + values.error().message);
        written = data::writeNpy(out, std::span<const float>(*values), tensor->info.shape);
    }
    if (!written) return reportInputError(kCommand, written.error().message);
    return kExitOk;
}

// --- --report -------------------------------------------------------------------------

// The whole-model report: app/cli/model_report_cmd.* reads --case and writes --report,
// --csv and --png.
int report(const modelfile::ModelFile& model, const ParsedArgs& args, const PictureOutputs* pictures) {
    return runModelReport(model, args, pictures);
}

// --- dispatch ---------------------------------------------------------------------------

std::string usageProblem(const ParsedArgs& args) {
    if (args.positional.size() != 1) return "give exactly one model file (see --help)";
    const int actions = int{args.has("--list")} + int{args.has("--tensor")} + int{args.has("--report")};
    if (actions != 1) return "give one of --list, --tensor NAME --npy OUT.npy, --report OUT.json";
    if (args.has("--json") && !args.has("--list")) return "--json goes with --list";
    if (args.has("--tensor") && !args.has("--npy")) return "--tensor NAME needs --npy OUT.npy";
    if ((args.has("--npy") || args.has("--raw")) && !args.has("--tensor"))
        return "--npy and --raw go with --tensor NAME";
    for (const char* o : {"--csv", "--png", "--case"})
        if (args.has(o) && !args.has("--report")) return std::string(o) + " goes with --report";
    if (args.has("--report") && !args.has("--case")) return "--report needs --case CASE.json";
    return {};
}

int run(const std::vector<std::string>& argv, const PictureOutputs* pictures) {
    auto parsed = parseArgs(argv, kOptions);
    if (!parsed) return reportInputError(kCommand, parsed.error().message);
    const ParsedArgs& args = *parsed;
    if (const std::string problem = usageProblem(args); !problem.empty())
        return reportInputError(kCommand, problem);
    auto model = modelfile::openModel(args.positional.front());
    if (!model) return reportInputError(kCommand, model.error().message);
    if (args.has("--list")) return list(**model, args);
    if (args.has("--tensor")) return writeTensor(**model, args);
    return report(**model, args, pictures);
}

// --- help ----------------------------------------------------------------------------

// `text` in lines of at most `width` characters, broken at spaces.
std::string wrapped(std::string_view text, size_t width) {
    std::string out;
    size_t lineStart = 0;
    size_t pos = 0;
    while (pos < text.size()) {
        size_t end = text.find(' ', pos);
        if (end == std::string_view::npos) end = text.size();
        if (out.size() > lineStart && out.size() - lineStart + 1 + (end - pos) > width) {
            out += '\n';
            lineStart = out.size();
        } else if (out.size() > lineStart) {
            out += ' ';
        }
        out.append(text.substr(pos, end - pos));
        pos = end + 1;
    }
    return out + '\n';
}

// What FILE may be and how its tensors are named, from the table of formats.
std::string fileParagraph() {
    const auto& formats = modelfile::modelFormats();
    std::string text = "FILE is a model file: ";
    for (size_t i = 0; i < formats.size(); ++i) {
        if (i > 0) text += i + 1 == formats.size() ? " or " : ", ";
        text += formats[i].helpText;
    }
    text += ". Tensors are named as the file names them (";
    bool first = true;
    for (const modelfile::ModelFormat& format : formats) {
        if (format.tensorNames.empty()) continue;
        if (!first) text += ", ";
        text += format.tensorNames;
        first = false;
    }
    return wrapped(text + ").", 90);
}

// "onnx|tflite|…": the values of the listing's "format".
std::string formatKeys() {
    std::string keys;
    for (const modelfile::ModelFormat& format : modelfile::modelFormats()) {
        if (!keys.empty()) keys += '|';
        keys += format.key;
    }
    return keys;
}

// A function's static: the table of formats is one too, made before this on first use.
const std::string& usage() {
    static const std::string text =
        std::string("Usage: quantscope-cli model FILE --list [--json OUT|-]\n"
        "       quantscope-cli model FILE --tensor NAME --npy OUT.npy [--raw]\n"
        "       quantscope-cli model FILE --report OUT.json [--csv OUT.csv] [--png OUT.png]\n"
        "                                 --case CASE.json\n"
        "\n") +
        fileParagraph() +
        "\n"
        "  --list               every tensor that holds data: name, shape, dtype, elements (the\n"
        "                       count, 8,640), bytes (its size, 8.4 KiB) and stored quantization\n"
        "                       as a table\n"
        "  --json OUT|-         with --list: the listing as JSON instead ('-' for stdout):\n"
        "                       {\"format\": \"" + formatKeys() + "\",\n"
        "                        \"tensors\": [{\"name\", \"shape\", \"dtype\", \"quantization\": null |\n"
        "                        {\"scale\": [..], \"zero_point\": [..], \"axis\": k}}]}\n"
        "  --tensor NAME        the tensor to write\n"
        "  --npy OUT.npy        with --tensor: the tensor as float32 in its stored shape (codes with\n"
        "                       stored quantization dequantized as (code - zero_point) * scale per\n"
        "                       channel; float16/bfloat16/float64 to the nearest float32)\n"
        "  --raw                with --npy: the stored values in their own dtype (bfloat16, which\n"
        "                       NumPy lacks, as uint16 bit patterns)\n"
        "  --report OUT.json    the whole-model report: every float (or dequantized) weight tensor\n"
        "                       with at least 2 elements quantized by the op CASE.json describes,\n"
        "                       each with the range of its own data (the case's range is not used);\n"
        "                       per channel along each tensor's channel axis when the case sets an\n"
        "                       axis >= 0. Rows worst SQNR first: elements, min, max, mse, sqnr_db,\n"
        "                       clipped_fraction, levels_used of levels_available, the best\n"
        "                       calibration (min-max, percentile, MSE-optimal, KL) and its SQNR.\n"
        "                       Tensors left out are listed under \"skipped\" with the reason.\n"
        "  --csv OUT.csv        with --report: the rows as CSV: tensor,channel,shape,dtype,axis,\n"
        "                       elements,min,max,mse,sqnr_db,clipped_fraction,levels_used,\n"
        "                       levels_available,best_calibration,best_calibration_sqnr_db (channel\n"
        "                       empty on a tensor's own line)\n"
        "  --png OUT.png        with --report: a bar chart of SQNR per tensor (1600 x 1000)\n"
        "  --case CASE.json     with --report: one case in the test vectors' schema (see\n"
        "                       'export --help')\n"
        "\n"
        "Outputs are replaced atomically: a failed write keeps the previous file.\n"
        "Exit: 0 done, 2 unreadable or malformed file, unknown tensor (the message lists the\n"
        "names nearest to it) or usage error.\n";
    return text;
}

}  // namespace

extern const Command modelCommand{
    "model",
    "list a model file's tensors, write one as .npy, or report every weight tensor",
    usage(),
    run,
    kOptions,
};

}  // namespace qs::cli
