// The open functions of the readers, one per format (each in its own <format>_reader.cpp).
// They take the file's bytes rather than a path so that tests and fuzz targets need no
// files; `label` is the name messages use. The table of formats (model_formats.h) holds each
// as its row's opener, and openModel() picks among them.
#pragma once

#include <string>

#include "core/modelfile/model_file.h"

namespace qs::modelfile {

// ONNX ModelProto: initializers and Constant-node values, in subgraphs too; external data
// through `sidecars`.
Result<ModelPtr> openOnnx(const std::string& label, SharedBytes bytes, Sidecars sidecars);
// TFLite flatbuffer: every tensor of every subgraph with a non-empty buffer.
Result<ModelPtr> openTflite(const std::string& label, SharedBytes bytes);
Result<ModelPtr> openSafetensors(const std::string& label, SharedBytes bytes);
// A TensorBundle checkpoint: `indexBytes` is PREFIX.index; shards are read through
// `sidecars` as "PREFIX.data-NNNNN-of-NNNNN" (`prefix` is the index's file name without
// ".index", e.g. "variables").
Result<ModelPtr> openCheckpoint(const std::string& label, SharedBytes indexBytes, Sidecars sidecars,
                                const std::string& prefix);
// HDF5 (Keras .h5 weights or full models): every numeric dataset.
Result<ModelPtr> openHdf5(const std::string& label, SharedBytes bytes);
// .keras: a zip holding model.weights.h5, read as openHdf5 does, with format "keras".
Result<ModelPtr> openKeras(const std::string& label, SharedBytes bytes);
// NumPy .npz (zip of .npy members, stored or deflated) and a single .npy.
Result<ModelPtr> openNpz(const std::string& label, SharedBytes bytes);
Result<ModelPtr> openNpy(const std::string& label, SharedBytes bytes);

}  // namespace qs::modelfile
