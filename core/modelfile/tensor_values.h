// A loaded tensor's stored bytes as the numbers people explore: float32 in the stored shape.
//  - float32 as is; float16, bfloat16 and float64 to the nearest float32;
//  - integer codes with stored quantization: (code - zero_point) * scale in float32, per
//    channel along the quantization axis (the dequantization TFLite and ONNX define);
//  - integers without quantization (and bool) to the nearest float32.
#pragma once

#include <optional>
#include <string_view>
#include <vector>

#include "core/data/dataset.h"
#include "core/modelfile/model_file.h"

namespace qs::modelfile {

// DataError when the stored quantization does not fit the tensor (scale count neither 1 nor
// the size of dimension `axis`, zero_point count different from the scale count, axis out
// of range).
Result<std::vector<float>> toFloat32(const TensorData& tensor);

// The tensor as the explorer's data set, labelled "FILE › TENSOR". When its float32 values
// would take more than `stream_above_bytes`, the set is streamed instead (Dataset::stream):
// the stored bytes (a view into the memory-mapped file where the format stores them raw) are
// converted chunk by chunk as the explorer reads them, so a tensor larger than the memory
// budget is explored without a float32 copy. A zero point out of range for its codes then
// fails the read that meets it.
Result<data::Dataset> toDataset(const ModelFile& model, size_t index,
                                std::optional<int64_t> stream_above_bytes = std::nullopt);

// float16 / bfloat16 bit patterns to float32 (exact: every such value is a float32).
float halfToFloat(uint16_t bits);
float bfloat16ToFloat(uint16_t bits);

// The axis along which a tensor's channels lie: the stored quantization's axis when it is
// per channel (0 for a 1-D tensor with one scale per element, whatever axis the file names); then the reader's TensorInfo::channel_axis; otherwise the output-channel dimension by the format's layout convention
// (its row's ChannelLayout in model_formats.h: TFLite, ONNX and safetensors — PyTorch's
// layouts — put output channels first, except TFLite depthwise kernels [1, H, W, C] last;
// Keras, TF checkpoints and NumPy put them last; so does a format the table lacks). -1 for
// rank < 2.
int channelAxis(std::string_view format, const TensorInfo& info);

}  // namespace qs::modelfile
