// What an ONNX graph says about its weights beyond their bytes, from the nodes that use them:
//  - stored quantization: a DequantizeLinear whose x is a listed int8/uint8/int16/uint16/int32
//    tensor and whose x_scale (and x_zero_point, if given) are listed tensors gives x its
//    scale, zero point and axis (ONNX's default axis 1 when per axis, 0 when per tensor;
//    negative axes counted from the end);
//  - channel axes: Conv's W → 0, ConvTranspose's W → 1, MatMul's B of rank 2 → 1, Gemm's B →
//    0 with transB, else 1; a weight stored quantized behind a DequantizeLinear counts too.
// Names resolve as ONNX scopes them: in the node's graph, then the enclosing ones.
#pragma once

#include <functional>
#include <vector>

#include "core/modelfile/model_file.h"
#include "core/modelfile/onnx_wire.h"

namespace qs::modelfile::onnx_links {

// Scales or zero points with more values than this are not read at open (nor attached).
inline constexpr int64_t kMaxQuantizationValues = int64_t{1} << 20;

// `tensors[i]` is the listing's tensor i, held by graph `scopes[i]`; `load` loads one of them
// (for scales and zero points). A use whose parameters are missing, computed at run time
// or unreadable attaches nothing.
void linkUses(std::vector<TensorInfo>& tensors, const std::vector<int>& scopes, const onnx_wire::Listing& listing,
              const std::function<Result<TensorData>(size_t)>& load);

}  // namespace qs::modelfile::onnx_links
