// The readable side of `quantscope-cli model`: the tensor table --list prints and the message
// for a tensor name the file does not have (with the names nearest to it).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/modelfile/model_file.h"

namespace qs::cli {

// "FILE: FORMAT, N tensors" and one row per tensor: name, shape, dtype, size (elements and
// bytes), stored quantization ("-", "per tensor: scale S, zero point Z", "per channel on
// axis K: N scales in [A, B], zero points ...").
std::string listingTable(const modelfile::ModelFile& model);
std::string quantizationText(const modelfile::TensorInfo& info);

// Up to `count` tensor names closest to `name` (those containing it or contained in it
// first, then by edit distance, ignoring case); only names reasonably near.
std::vector<std::string> nearNames(const modelfile::ModelFile& model, std::string_view name, size_t count = 5);
// "FILE: no tensor 'NAME'; nearest: 'a', 'b' (--list shows all N)".
std::string unknownTensorMessage(const modelfile::ModelFile& model, const std::string& name);

}  // namespace qs::cli
