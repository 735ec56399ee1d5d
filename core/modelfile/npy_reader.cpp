// A single NumPy .npy array as a model of one tensor, named after the file without ".npy".
// The data stays in the mapped file unless it must be byte-swapped or transposed.
#include <cctype>

#include "core/data/dataset.h"
#include "core/modelfile/npy_tensor.h"
#include "core/modelfile/readers.h"

namespace qs::modelfile {
namespace {

class NpyModel final : public ModelFile {
public:
    NpyModel(std::string label, SharedBytes bytes, NpyTensor npy)
        : ModelFile(std::move(label)), bytes_(std::move(bytes)), npy_(std::move(npy)) {
        tensors_.push_back(npy_.info);
    }
    std::string_view format() const override { return "npy"; }

protected:
    Result<TensorData> loadStored(size_t index) const override {
        const auto stored = bytes_->view().substr(npy_.dataOffset, static_cast<size_t>(npy_.info.byteSize()));
        return npyTensorData(npy_, stored, bytes_, label() + ": tensor '" + tensors_[index].name + "': ");
    }

private:
    SharedBytes bytes_;
    NpyTensor npy_;
};

std::string tensorNameOf(const std::string& label) {
    const size_t slash = label.find_last_of('/');
    std::string name = slash == std::string::npos ? label : label.substr(slash + 1);
    if (name.size() > 4 && name[name.size() - 4] == '.' && std::tolower(name[name.size() - 3]) == 'n' &&
        std::tolower(name[name.size() - 2]) == 'p' && std::tolower(name[name.size() - 1]) == 'y')
        name.resize(name.size() - 4);  // "w.npy", "W.NPY" -> "w", "W"
    return name;
}

}  // namespace

Result<ModelPtr> openNpy(const std::string& label, SharedBytes bytes) {
    auto npy = describeNpy(bytes->view(), bytes->size(), label + ": ", tensorNameOf(label));
    if (!npy) return npy.error();
    return ModelPtr(std::make_shared<NpyModel>(label, std::move(bytes), std::move(npy).value()));
}

}  // namespace qs::modelfile
