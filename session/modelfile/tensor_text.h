// How the Model dock, the status bar and the tests spell a stored tensor: its shape, its
// size in human units, its stored quantization, and the layer path its name is grouped
// under. Text only (QtCore); no widget.
#pragma once

#include <QString>
#include <QStringList>
#include <cstdint>

#include "core/modelfile/model_file.h"
#include "core/tensor.h"

namespace qs::ui {

// "[1, 3, 3, 8]"; "[]" for a scalar.
QString shapeText(const qs::Shape& shape);
// "1 tensor", "42 tensors".
QString tensorCountText(size_t count);
// "1.5 KiB", "12.0 MiB" (IEC units); "?" for an unknown size (-1).
QString byteSizeText(int64_t bytes);
// "" (not stored quantized), "per-tensor int8", "per-channel on axis 3 (int8, 16 scales)".
QString storedQuantizationText(const qs::modelfile::TensorInfo& info);
// The groups a tensor name sits under and its own last part: split on '/' (TFLite, ONNX,
// checkpoints, HDF5 paths), or on '.' for names without '/' (PyTorch's "layer1.0.weight").
// Empty parts are dropped; a name without separators is one part.
QStringList tensorPathParts(const std::string& name);
// Whether a tensor is a table the TPU embedding workbench can open: rank 2 of a float
// dtype, or integers stored quantized (their dequantized values are floats).
bool isTableTensor(const qs::modelfile::TensorInfo& info);
// Whether `path` is for the model reader: a folder (a SavedModel; openModel says if it is
// not one) or a name ending in one of modelfile::modelSuffixes().
bool isModelFilePath(const QString& path);
// The open dialog's filter: "Model files (*.onnx *.tflite …);;All files (*)", every suffix
// of modelfile::modelSuffixes().
QString modelFileFilter();

}  // namespace qs::ui
