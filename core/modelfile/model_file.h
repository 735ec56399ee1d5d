// Model files as lists of stored tensors. Opening a file reads its headers only (listing a
// file of any size is quick); a tensor's bytes are reached on demand, as a view into the
// memory-mapped file where the format stores them raw, or decoded into memory where it
// does not (typed ONNX fields, zip members, compressed chunks).
//
// Every reader is a ModelFile subclass made by an open function that takes the file's bytes
// (so the fuzz targets and tests need no files) plus a Sidecars callback for the files
// beside it (ONNX external data, checkpoint shards). openModel() picks the reader from the
// table of formats (model_formats.h).
//
// Errors are DataErrors whose message names the file and, where there is one, the tensor:
//   "model.onnx: tensor 'conv1.weight': raw_data holds 10 bytes, shape [8,3] needs 96".
// A header never decides an allocation unchecked: listed sizes are checked against the
// bytes the file has before anything of that size is made.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/modelfile/bytes.h"
#include "core/modelfile/dtype.h"
#include "core/status.h"
#include "core/tensor.h"

namespace qs::modelfile {

// How a tensor was stored quantized: real = (code - zero_point) * scale, with one scale and
// zero point per tensor (one entry each) or per slice along `axis`. `axis` is what the file
// says (TFLite's quantized_dimension, the ONNX axis; 0 when a per-tensor file says nothing).
struct StoredQuantization {
    std::vector<float> scale;
    std::vector<int64_t> zero_point;
    int axis = 0;
    bool perChannel() const { return scale.size() > 1; }
    bool operator==(const StoredQuantization&) const = default;
};

struct TensorInfo {
    std::string name;   // as the file has it (see each reader)
    Shape shape;
    DType dtype = DType::Float32;
    std::string dtype_name;  // dtypeName(dtype), or the file's own name for DType::Other
    std::optional<StoredQuantization> quantization;
    // Where it sits, for people: "initializer", "Constant node 'x'", "subgraph 1",
    // "shard 0" ... (may be empty).
    std::string origin;
    // The dimension holding output channels when the reader knows it from how the tensor is
    // used (an ONNX Conv weight: 0, a MatMul weight: 1); channelAxis() falls back to the
    // format's convention otherwise.
    std::optional<int> channel_axis;
    // The element count times the element size; -1 when the shape is invalid or the size is
    // unknown (DType::Other).
    int64_t byteSize() const;
};

// A loaded tensor: its stored bytes, little-endian and row-major, exactly
// numElements(shape) * dtypeSize(dtype) of them (ModelFile::load checks), kept alive by
// `owner` (the mapped file or a decoded buffer).
struct TensorData {
    TensorInfo info;
    std::string_view bytes;
    std::shared_ptr<const void> owner;
};

// The files beside a model: `name` as the model refers to it ("weights.bin",
// "variables.data-00000-of-00001"). Readers call it only for names without '/' or "..".
using Sidecars = std::function<Result<SharedBytes>(const std::string& name)>;
Sidecars sidecarsBeside(const std::string& modelPath);  // maps files in the model's folder
Sidecars noSidecars();                                  // every request fails (fuzzing)

class ModelFile {
public:
    virtual ~ModelFile() = default;
    // Its row's key in modelFormats() (model_formats.h): "onnx", "tf-checkpoint", …
    virtual std::string_view format() const = 0;
    // The file's name as messages show it (the path given to openModel).
    const std::string& label() const { return label_; }
    const std::vector<TensorInfo>& tensors() const { return tensors_; }
    // The index of the tensor called `name`, or -1.
    int64_t find(std::string_view name) const;
    // Loads tensor `index` (thread-safe: several tensors may load at once). Fails for
    // DType::Other, for bytes that do not match the shape and dtype, and with the reader's
    // own errors; every message names the file and the tensor.
    Result<TensorData> load(size_t index) const;

protected:
    explicit ModelFile(std::string label) : label_(std::move(label)) {}
    // The reader's part of load(): the stored bytes of tensor `index` (load() has checked
    // the index and checks the size afterwards).
    virtual Result<TensorData> loadStored(size_t index) const = 0;
    // "LABEL: tensor 'NAME': what" / "LABEL: what".
    Error tensorError(size_t index, const std::string& what) const;
    Error fileError(const std::string& what) const;

    std::vector<TensorInfo> tensors_;

private:
    std::string label_;
};

using ModelPtr = std::shared_ptr<const ModelFile>;

// Opens `path` with the reader of the format its name's suffix calls for (modelFormats() in
// model_formats.h: .onnx, .tflite, …), or a folder with the format that opens folders (a
// SavedModel: its variables/variables.index). DataError for unknown kinds, listing the
// supported ones.
Result<ModelPtr> openModel(const std::string& path);

}  // namespace qs::modelfile
