// The ONNX reader: the listing walk (onnx_wire) finds the tensors, onnx_links attaches what
// the graph says about them, and a load takes raw_data as a view into the mapped file, or
// decodes typed fields / Constant attributes, or reads external data (onnx_values).
#include "core/modelfile/onnx_reader.h"

#include "core/data/dataset.h"
#include "core/modelfile/onnx_links.h"
#include "core/modelfile/onnx_values.h"
#include "core/modelfile/onnx_wire.h"
#include "core/modelfile/readers.h"

namespace qs::modelfile {
namespace {

using onnx_wire::Source;
using onnx_wire::StoredTensor;

class OnnxModel final : public ModelFile {
public:
    OnnxModel(std::string label, SharedBytes bytes, Sidecars sidecars, std::vector<StoredTensor> stored)
        : ModelFile(std::move(label)), bytes_(std::move(bytes)), sidecars_(std::move(sidecars)), stored_(std::move(stored)) {
        tensors_.reserve(stored_.size());
        for (StoredTensor& s : stored_) {
            TensorInfo info;
            info.name = std::move(s.name);
            info.origin = std::move(s.origin);
            info.shape = std::move(s.dims);
            auto type = onnx_values::elementType(s.data_type);
            info.dtype = type.dtype;
            info.dtype_name = std::move(type.name);
            tensors_.push_back(std::move(info));
        }
    }

    std::string_view format() const override { return "onnx"; }

    void linkUses(const onnx_wire::Listing& listing) {
        std::vector<int> scopes;
        scopes.reserve(stored_.size());
        for (const StoredTensor& s : stored_) scopes.push_back(s.scope);
        onnx_links::linkUses(tensors_, scopes, listing, [this](size_t i) { return load(i); });
    }

protected:
    Result<TensorData> loadStored(size_t index) const override {
        const StoredTensor& s = stored_[index];
        const TensorInfo& info = tensors_[index];
        const auto slice = [this](onnx_wire::Span span) { return bytes_->view().substr(span.offset, span.length); };
        Result<onnx_values::Values> values = onnx_values::Values{};
        if (s.source != Source::Tensor)
            values = onnx_values::decodeAttribute(slice(s.message), s.source);
        else if (s.external)
            values = onnx_values::externalData(s, info.byteSize(), sidecars_);
        else if (s.raw_data)
            values = onnx_values::Values{slice(*s.raw_data), bytes_};
        else
            values = onnx_values::decodeTypedFields(slice(s.message), info.dtype, numElements(info.shape));
        if (!values) return tensorError(index, values.error().message);
        return TensorData{info, values->bytes, values->owner};
    }

private:
    SharedBytes bytes_;
    Sidecars sidecars_;
    std::vector<StoredTensor> stored_;  // where each tensor lies (names and shapes moved to tensors_)
};

}  // namespace

Result<ModelPtr> openOnnx(const std::string& label, SharedBytes bytes, Sidecars sidecars) {
    auto listing = onnx_wire::listModel(bytes->view());
    if (!listing) return data::dataError(label + ": " + listing.error().message);
    auto model = std::make_shared<OnnxModel>(label, std::move(bytes), std::move(sidecars), std::move(listing.value().tensors));
    model->linkUses(listing.value());
    return ModelPtr(std::move(model));
}

Result<ModelPtr> readOnnxTensorProto(const std::string& label, SharedBytes bytes) {
    auto tensor = onnx_wire::listTensorProto(bytes->view());
    if (!tensor) return data::dataError(label + ": " + tensor.error().message);
    std::vector<StoredTensor> one;
    one.push_back(std::move(tensor).value());
    return ModelPtr(std::make_shared<OnnxModel>(label, std::move(bytes), noSidecars(), std::move(one)));
}

}  // namespace qs::modelfile
