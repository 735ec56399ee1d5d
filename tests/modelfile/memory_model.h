// A ModelFile held in memory, for tests of what runs over model files (the report) without
// depending on any reader: tensors are added with their bytes and served by load(). Plus
// seeded normal values to fill them.
#pragma once

#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "core/modelfile/model_file.h"

namespace qs::modelfile::test {

class MemoryModel : public ModelFile {
public:
    explicit MemoryModel(std::string label = "memory.npz", std::string format = "npz")
        : ModelFile(std::move(label)), format_(std::move(format)) {}

    std::string_view format() const override { return format_; }

    template <typename T>
    MemoryModel& add(const std::string& name, Shape shape, DType dtype, const std::vector<T>& values,
                     std::optional<StoredQuantization> q = std::nullopt) {
        TensorInfo info;
        info.name = name;
        info.shape = std::move(shape);
        info.dtype = dtype;
        info.dtype_name = std::string(dtypeName(dtype));
        info.quantization = std::move(q);
        tensors_.push_back(info);
        std::string bytes(values.size() * sizeof(T), '\0');
        if (!values.empty()) std::memcpy(bytes.data(), values.data(), bytes.size());
        bytes_.push_back(std::make_shared<std::string>(std::move(bytes)));
        return *this;
    }
    MemoryModel& addFloats(const std::string& name, Shape shape, const std::vector<float>& values) {
        return add(name, std::move(shape), DType::Float32, values);
    }
    // A tensor whose dtype the layer cannot load (listed, never loaded).
    MemoryModel& addOther(const std::string& name, Shape shape) {
        TensorInfo info;
        info.name = name;
        info.shape = std::move(shape);
        info.dtype = DType::Other;
        info.dtype_name = "string";
        tensors_.push_back(info);
        bytes_.push_back(std::make_shared<std::string>());
        return *this;
    }

protected:
    Result<TensorData> loadStored(size_t index) const override {
        const auto& b = bytes_[index];
        return TensorData{tensors_[index], std::string_view(*b), b};
    }

private:
    std::string format_;
    std::vector<std::shared_ptr<std::string>> bytes_;
};

// n normal values of standard deviation `sigma` (seeded: the same every run).
inline std::vector<float> normalValues(size_t n, float sigma, unsigned seed) {
    std::mt19937 gen(seed);
    std::normal_distribution<float> d(0.0f, sigma);
    std::vector<float> v(n);
    for (float& x : v) x = d(gen);
    return v;
}

}  // namespace qs::modelfile::test
