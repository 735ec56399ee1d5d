// What every model reader must satisfy, whatever the bytes were: a file that opens lists
// tensors whose loads either fail with a message naming the file, or return exactly the
// bytes shape × dtype needs and convert to that many floats. Loads are capped so a fuzz
// input that legitimately describes a huge (but present) tensor cannot exhaust memory.
#pragma once

#include <string>

#include "core/modelfile/model_file.h"
#include "core/modelfile/tensor_values.h"
#include "tests/fuzz/fuzz_input.h"

namespace qs::fuzz {

inline void checkModel(const qs::Result<qs::modelfile::ModelPtr>& opened, const std::string& label) {
    if (!opened) {
        if (opened.error().message.find(label) == std::string::npos)
            propertyFailed("error without the file's name: " + opened.error().message);
        return;
    }
    const auto& model = **opened;
    for (size_t i = 0; i < model.tensors().size() && i < 256; ++i) {
        const auto& info = model.tensors()[i];
        auto tensor = model.load(i);
        if (!tensor) {
            if (tensor.error().message.find(label) == std::string::npos)
                propertyFailed("load error without the file's name: " + tensor.error().message);
            continue;
        }
        const int64_t expected = info.byteSize();
        if (expected < 0 || static_cast<int64_t>(tensor->bytes.size()) != expected)
            propertyFailed("tensor '" + info.name + "' loaded " + std::to_string(tensor->bytes.size()) +
                           " bytes for shape " + qs::shapeString(info.shape));
        if (expected > (int64_t{64} << 20)) continue;
        if (auto values = qs::modelfile::toFloat32(*tensor);
            values && static_cast<int64_t>(values->size()) != qs::numElements(info.shape))
            propertyFailed("tensor '" + info.name + "' converted to the wrong number of floats");
    }
}

}  // namespace qs::fuzz
