#include "core/modelfile/model_formats.h"

#include <sys/stat.h>

#include <algorithm>
#include <cctype>

#include "core/data/dataset.h"
#include "core/modelfile/readers.h"

namespace qs::modelfile {
namespace {

std::string lower(std::string s) {
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
    return s;
}

bool endsWith(const std::string& s, std::string_view suffix) {
    return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

std::string fileNameOf(const std::string& path) {
    const size_t slash = path.find_last_of('/');
    return slash == std::string::npos ? path : path.substr(slash + 1);
}

// The readers take bytes; these give them what they read beside the file.
Result<ModelPtr> openOnnxFile(const std::string& path, SharedBytes bytes) {
    return openOnnx(path, std::move(bytes), sidecarsBeside(path));
}

// PREFIX.index: the shards beside it are PREFIX.data-NNNNN-of-NNNNN.
Result<ModelPtr> openCheckpointFile(const std::string& path, SharedBytes bytes) {
    std::string prefix = fileNameOf(path);
    if (endsWith(lower(prefix), ".index")) prefix.resize(prefix.size() - std::string_view(".index").size());
    return openCheckpoint(path, std::move(bytes), sidecarsBeside(path), prefix);
}

// A SavedModel folder, or its variables folder.
Result<ModelPtr> openSavedModelFolder(const std::string& path) {
    for (const char* candidate : {"/variables/variables.index", "/variables.index"}) {
        struct stat st {};
        if (::stat((path + candidate).c_str(), &st) != 0) continue;
        auto bytes = mapFile(path + candidate);
        if (!bytes) return bytes.error();
        return openCheckpointFile(path + candidate, std::move(bytes).value());
    }
    return data::dataError(path + ": a folder, but no SavedModel variables in it (variables/variables.index)");
}

}  // namespace

// The order of help texts: `model --help` lists the formats and the JSON keys in this order.
// (A function's static: other files' static texts are built from it.)
const std::vector<ModelFormat>& modelFormats() {
    static const std::vector<ModelFormat> formats = {
        {.key = "onnx",
         .name = "ONNX",
         .suffixes = {".onnx"},
         .helpText = "ONNX (.onnx)",
         .tensorNames = "ONNX initializer or Constant output",
         .channels = ChannelLayout::First,
         .open = openOnnxFile},
        {.key = "tflite",
         .name = "TFLite",
         .suffixes = {".tflite"},
         .helpText = "TFLite (.tflite)",
         .tensorNames = "TFLite tensor",
         .channels = ChannelLayout::TfliteKernels,
         .open = openTflite},
        {.key = "safetensors",
         .name = "safetensors",
         .suffixes = {".safetensors"},
         .helpText = "safetensors (.safetensors)",
         .tensorNames = "safetensors key",
         .channels = ChannelLayout::First,
         .open = openSafetensors},
        {.key = "tf-checkpoint",
         .name = "TF checkpoints",
         .suffixes = {".index"},
         .helpText = "a TF checkpoint (its .index, or a SavedModel folder)",
         .tensorNames = "checkpoint key",
         .channels = ChannelLayout::Last,
         .open = openCheckpointFile,
         .folder = "a SavedModel folder",
         .openFolder = openSavedModelFolder},
        {.key = "hdf5",
         .name = "Keras",
         .suffixes = {".h5", ".hdf5"},
         .helpText = "Keras HDF5 (.h5, .hdf5)",
         .tensorNames = "HDF5 dataset path without the leading '/'",
         .channels = ChannelLayout::Last,
         .open = openHdf5},
        {.key = "keras",
         .name = "Keras",
         .suffixes = {".keras"},
         .helpText = ".keras",
         .tensorNames = "",  // as HDF5's
         .channels = ChannelLayout::Last,
         .open = openKeras},
        {.key = "npz",
         .name = "NumPy",
         .suffixes = {".npz"},
         .helpText = "NumPy .npz",
         .tensorNames = ".npz member without '.npy'",
         .channels = ChannelLayout::Last,
         .open = openNpz},
        {.key = "npy",
         .name = "NumPy",
         .suffixes = {".npy"},
         .helpText = ".npy",
         .tensorNames = "",  // one tensor, named after the file
         .channels = ChannelLayout::Last,
         .open = openNpy},
    };
    return formats;
}

const ModelFormat* modelFormatByKey(std::string_view key) {
    for (const ModelFormat& format : modelFormats())
        if (format.key == key) return &format;
    return nullptr;
}

const ModelFormat* modelFormatForPath(const std::string& path) {
    const std::string name = lower(fileNameOf(path));
    for (const ModelFormat& format : modelFormats())
        for (std::string_view suffix : format.suffixes)
            if (endsWith(name, suffix)) return &format;
    return nullptr;
}

const ModelFormat* folderModelFormat() {
    for (const ModelFormat& format : modelFormats())
        if (format.openFolder) return &format;
    return nullptr;
}

const std::vector<std::string>& modelSuffixes() {
    // The suffixes of the formats that also open from a folder come last, beside the folder
    // in modelSuffixList(): "…, .npy, .index, or a SavedModel folder".
    static const std::vector<std::string> suffixes = [] {
        std::vector<std::string> out;
        for (const bool folders : {false, true})
            for (const ModelFormat& format : modelFormats())
                if ((format.openFolder != nullptr) == folders)
                    out.insert(out.end(), format.suffixes.begin(), format.suffixes.end());
        return out;
    }();
    return suffixes;
}

std::string modelSuffixList() {
    std::string list;
    for (const std::string& suffix : modelSuffixes()) {
        if (!list.empty()) list += ", ";
        list += suffix;
    }
    for (const ModelFormat& format : modelFormats())
        if (!format.folder.empty()) (list += ", or ") += format.folder;
    return list;
}

std::string modelFormatNames() {
    std::vector<std::string_view> names;
    for (const ModelFormat& format : modelFormats())
        if (std::find(names.begin(), names.end(), format.name) == names.end()) names.push_back(format.name);
    std::string list;
    for (std::string_view name : names) {
        if (!list.empty()) list += ", ";
        list += name;
    }
    return list;
}

}  // namespace qs::modelfile
