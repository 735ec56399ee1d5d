// The model-file formats QuantScope reads, in one table: what each is called, the suffixes
// that pick it, how help texts describe it, where its weights keep their output channels,
// and the function that opens it. Everything that names the formats reads this table:
// openModel()'s dispatch, modelSuffixes() (the open dialog's filter, the GUI command line's
// detection), the CLI's and the GUI's help and error texts, the Model dock's and the welcome
// page's lists, channelAxis(), and, written at build time by packaging's qs_model_formats,
// the bash completion, the AppStream metadata and the quantscope(1) man page.
//
// Adding a format: a row in modelFormats()'s table (model_formats.cpp), its
// <format>_reader.cpp with the open function declared in readers.h, and its fuzz target
// (docs/model-files.md, "Adding a format").
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/modelfile/model_file.h"

namespace qs::modelfile {

// Where a weight's output channels sit when neither its stored quantization nor its use in
// the graph says: the convention of the framework that writes the format.
enum class ChannelLayout {
    First,          // PyTorch's and ONNX's layouts: Linear [out, in], Conv [out, in, kH, kW]
    Last,           // TF/Keras and NumPy: Dense [in, out], Conv [kH, kW, in, out]
    TfliteKernels,  // first, except depthwise kernels [1, H, W, C·multiplier]: last
};

struct ModelFormat {
    // ModelFile::format() and the listing's JSON "format": "tf-checkpoint".
    std::string_view key;
    // What people call it in short lists ("ONNX, TFLite, …"); rows of one family share it
    // (.h5 and .keras are both "Keras") and the lists name a family once.
    std::string_view name;
    // Lower case, with the dot; a file whose name ends in one (in any case) is this format.
    std::vector<std::string_view> suffixes;
    // The format in `quantscope-cli model --help`'s list of what FILE may be: "ONNX (.onnx)".
    std::string_view helpText;
    // What its tensors are named after, for the same help ("ONNX initializer or Constant
    // output"); empty where another row's words already say it (.keras: as HDF5).
    std::string_view tensorNames;
    ChannelLayout channels = ChannelLayout::Last;
    // Opens the file at `path` (the label its messages use), mapped as `bytes`.
    Result<ModelPtr> (*open)(const std::string& path, SharedBytes bytes) = nullptr;
    // A folder this format also opens from, as lists name it ("a SavedModel folder"), and the
    // function that opens one; empty and null for the formats that are one file.
    std::string_view folder = {};
    Result<ModelPtr> (*openFolder)(const std::string& path) = nullptr;
};

// Every format, in the order help texts list them.
const std::vector<ModelFormat>& modelFormats();
// The row whose key is `key`, or null.
const ModelFormat* modelFormatByKey(std::string_view key);
// The row whose suffix ends `path` (in any case), or null.
const ModelFormat* modelFormatForPath(const std::string& path);
// The first row that opens folders, or null.
const ModelFormat* folderModelFormat();

// Every suffix (".onnx", …, ".index"), those of the formats that open folders last: the
// open dialog's filter, and what the GUI takes as a model file.
const std::vector<std::string>& modelSuffixes();
// ".onnx, .tflite, …, .index, or a SavedModel folder": every suffix, then the folders.
std::string modelSuffixList();
// "ONNX, TFLite, safetensors, TF checkpoints, Keras, NumPy": each name once.
std::string modelFormatNames();

}  // namespace qs::modelfile
