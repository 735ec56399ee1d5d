// TFLite flatbuffers (.tflite). Debian ships FlatBuffers but not TFLite's schema, so this
// reader names the few fields it reads by their ids in TFLite's published schema.fbs
// (tensorflow/lite/schema/schema.fbs) and reads them through VerifiedFlatBuffer, which checks
// every table, vector and string before it is touched.
//
// Listed: every tensor of every subgraph whose buffer holds data, either inside the flatbuffer
// (Buffer.data) or after it (Buffer.offset/size, offsets from the file's start: how files over
// 2 GB store their weights). Loads are views into the file's bytes.
#include <cstring>
#include <unordered_map>
#include <unordered_set>

#include "core/data/dataset.h"
#include "core/modelfile/flatbuffer_tables.h"
#include "core/modelfile/readers.h"

namespace qs::modelfile {
namespace {

namespace fb = flatbuffers;

// Field ids of schema.fbs (only those read).
namespace model_field {
constexpr auto subgraphs = fieldSlot(2);  // version 0, operator_codes 1, description 3
constexpr auto buffers = fieldSlot(4);
}  // namespace model_field
namespace subgraph_field {
constexpr auto tensors = fieldSlot(0);  // inputs 1, outputs 2, operators 3, name 4
}
namespace tensor_field {
constexpr auto shape = fieldSlot(0);
constexpr auto type = fieldSlot(1);
constexpr auto buffer = fieldSlot(2);
constexpr auto name = fieldSlot(3);
constexpr auto quantization = fieldSlot(4);
constexpr auto sparsity = fieldSlot(6);  // is_variable 5
}  // namespace tensor_field
namespace quantization_field {
constexpr auto scale = fieldSlot(2);  // min 0, max 1
constexpr auto zero_point = fieldSlot(3);
constexpr auto details_type = fieldSlot(4);  // the union QuantizationDetails: type 4, value 5
constexpr auto quantized_dimension = fieldSlot(6);
}  // namespace quantization_field
namespace buffer_field {
constexpr auto data = fieldSlot(0);
constexpr auto offset = fieldSlot(1);
constexpr auto size = fieldSlot(2);
}  // namespace buffer_field

// schema.fbs's TensorType, as far as it goes today (BFLOAT16 18, INT2 19, UINT4 20 came last).
struct TfliteType {
    DType dtype;
    const char* name;  // TFLite's name, shown for DType::Other
};
TfliteType tfliteType(int8_t code) {
    switch (code) {
    case 0: return {DType::Float32, "float32"};
    case 1: return {DType::Float16, "float16"};
    case 2: return {DType::Int32, "int32"};
    case 3: return {DType::UInt8, "uint8"};
    case 4: return {DType::Int64, "int64"};
    case 5: return {DType::Other, "string"};
    case 6: return {DType::Bool, "bool"};
    case 7: return {DType::Int16, "int16"};
    case 8: return {DType::Other, "complex64"};
    case 9: return {DType::Int8, "int8"};
    case 10: return {DType::Float64, "float64"};
    case 11: return {DType::Other, "complex128"};
    case 12: return {DType::UInt64, "uint64"};
    case 13: return {DType::Other, "resource"};
    case 14: return {DType::Other, "variant"};
    case 15: return {DType::UInt32, "uint32"};
    case 16: return {DType::UInt16, "uint16"};
    case 17: return {DType::Other, "int4"};
    case 18: return {DType::BFloat16, "bfloat16"};
    case 19: return {DType::Other, "int2"};
    case 20: return {DType::Other, "uint4"};
    default: return {DType::Other, nullptr};
    }
}

// Where a listed tensor's bytes are: [offset, offset + size) of the file.
struct StoredAt {
    uint64_t offset = 0;
    uint64_t size = 0;
    uint32_t buffer = 0;
    bool sparse = false;
};

// Tables one file may make us verify (FlatBuffers' own default): far above any real model,
// and a bound on the work a file of shared sub-tables can ask for.
constexpr uint32_t kMaxTables = 1'000'000;

class TfliteFile final : public ModelFile {
public:
    TfliteFile(std::string label, SharedBytes bytes) : ModelFile(std::move(label)), bytes_(std::move(bytes)) {}

    Status read();

    std::string_view format() const override { return "tflite"; }

protected:
    Result<TensorData> loadStored(size_t index) const override {
        const StoredAt& at = stored_[index];
        if (at.sparse)
            return tensorError(index, "stored sparse (TFLite sparsity parameters); only dense tensors are read");
        const std::string_view file = bytes_->view();
        if (!inside(file, at.offset, at.size))
            return tensorError(index, "its buffer " + std::to_string(at.buffer) + " holds " + std::to_string(at.size) +
                                          " bytes at offset " + std::to_string(at.offset) +
                                          ", past the end of the file (" + std::to_string(file.size()) + " bytes)");
        return TensorData{tensors_[index], file.substr(at.offset, at.size), bytes_};
    }

private:
    using Table = VerifiedFlatBuffer::Table;

    Status readTables(VerifiedFlatBuffer& fb);
    Status readTensor(VerifiedFlatBuffer& fb, const Table* tensor, const VerifiedFlatBuffer::TableVector* buffers,
                      size_t subgraph, uint32_t index);
    // "LABEL: tensor 'NAME' (subgraph S, tensor T): what", before the tensor is listed.
    Error broken(size_t subgraph, uint32_t tensor, std::string_view name, const std::string& what) const {
        const std::string at = "subgraph " + std::to_string(subgraph) + ", tensor " + std::to_string(tensor);
        return fileError((name.empty() ? at : "tensor '" + std::string(name) + "' (" + at + ")") + ": " + what);
    }
    // Charges `bytes` of copied header (names, shapes, scales) against what the file can
    // honestly ask for: shared strings and vectors could otherwise make a small file list
    // terabytes of names.
    bool charge(uint64_t bytes) {
        copied_ += bytes;
        return copied_ <= 4 * bytes_->size() + (uint64_t{16} << 20);
    }
    void addUnique(TensorInfo info, StoredAt at);

    SharedBytes bytes_;
    std::vector<StoredAt> stored_;
    std::unordered_set<std::string> names_;
    std::unordered_map<std::string, int> nextNumber_;
    uint64_t copied_ = 0;
};

Status TfliteFile::read() {
    VerifiedFlatBuffer fb(bytes_->view(), kMaxTables);
    Status status = readTables(fb);
    // A check that failed because the flatbuffer runs past the end of the bytes: a file cut
    // short (a download or copy that stopped). That is what to say first; the check follows.
    if (!status && fb.bytesNeeded() > fb.size()) {
        std::string what = status.error().message;
        if (const std::string prefix = label() + ": "; what.starts_with(prefix)) what.erase(0, prefix.size());
        return fileError("truncated: the file is " + std::to_string(fb.size()) +
                         " bytes, the flatbuffer needs at least " + std::to_string(fb.bytesNeeded()) + " (" + what +
                         ")");
    }
    return status;
}

Status TfliteFile::readTables(VerifiedFlatBuffer& fb) {
    const Table* model = fb.root("TFL3");
    if (!model) return fileError("not a TFLite model (no valid flatbuffer with the identifier TFL3)");
    const auto* subgraphs = fb.tables(model, model_field::subgraphs);
    const auto* buffers = fb.tables(model, model_field::buffers);
    if (fb.failed()) return fileError("the model's subgraph or buffer list fails verification");
    if (!subgraphs) return okStatus();  // a model without graphs holds no tensors
    for (uint32_t s = 0; s < subgraphs->size(); ++s) {
        const Table* subgraph = fb.tableAt(subgraphs, s);
        const auto* tensors = subgraph ? fb.tables(subgraph, subgraph_field::tensors) : nullptr;
        if (fb.failed())
            return fileError("subgraph " + std::to_string(s) + " fails verification (or the model has more than " +
                             std::to_string(kMaxTables) + " tables)");
        if (!tensors) continue;
        for (uint32_t t = 0; t < tensors->size(); ++t) {
            const Table* tensor = fb.tableAt(tensors, t);
            if (!tensor) return broken(s, t, {}, "fails verification");
            if (auto status = readTensor(fb, tensor, buffers, s, t); !status) return status;
        }
    }
    return okStatus();
}

Status TfliteFile::readTensor(VerifiedFlatBuffer& fb, const Table* tensor,
                              const VerifiedFlatBuffer::TableVector* buffers, size_t subgraph, uint32_t index) {
    const auto bufferIndex = fb.scalar<uint32_t>(tensor, tensor_field::buffer, 0);
    const auto* nameString = fb.string(tensor, tensor_field::name);
    if (fb.failed()) return broken(subgraph, index, {}, "its buffer index or name fails verification");
    // A view until the tensor is listed: a hostile file may share one huge name among many.
    const std::string_view name = nameString ? std::string_view(nameString->c_str(), nameString->size()) : "";
    if (bufferIndex == 0) return okStatus();  // buffer 0: the empty sentinel of tensors without data
    if (!buffers || bufferIndex >= buffers->size())
        return broken(subgraph, index, name,
                      "refers to buffer " + std::to_string(bufferIndex) + ", but the model has " +
                          std::to_string(buffers ? buffers->size() : 0) + " buffers");
    const Table* buffer = fb.tableAt(buffers, bufferIndex);
    const auto* data = buffer ? fb.vector<uint8_t>(buffer, buffer_field::data) : nullptr;
    const auto offset = buffer ? fb.scalar<uint64_t>(buffer, buffer_field::offset, 0) : 0;
    const auto size = buffer ? fb.scalar<uint64_t>(buffer, buffer_field::size, 0) : 0;
    if (fb.failed()) return broken(subgraph, index, name, "its buffer " + std::to_string(bufferIndex) + " fails verification");
    StoredAt at;
    at.buffer = bufferIndex;
    if (data && data->size() > 0) {
        at.offset = fb.offsetOf(data->Data());
        at.size = data->size();
    } else if (offset > 1) {  // schema.fbs: the offset "is only valid if > 1"
        at.offset = offset;
        at.size = size;
    } else {
        return okStatus();  // an empty buffer: no data stored
    }

    TensorInfo info;
    info.origin = "subgraph " + std::to_string(subgraph);
    const auto code = fb.scalar<int8_t>(tensor, tensor_field::type, 0);
    const auto* shape = fb.vector<int32_t>(tensor, tensor_field::shape);
    const Table* quantization = fb.table(tensor, tensor_field::quantization);
    if (fb.failed()) return broken(subgraph, index, name, "its type, shape or quantization fails verification");
    const TfliteType type = tfliteType(code);
    info.dtype = type.dtype;
    info.dtype_name = type.name ? type.name : "TFLite type " + std::to_string(code);
    const uint32_t rank = shape ? shape->size() : 0;
    if (!charge(sizeof(TensorInfo) + name.size() + uint64_t{rank} * sizeof(int64_t)))
        return broken(subgraph, index, name, "the tensor list repeats names or shapes beyond any real model's size");
    info.shape.reserve(rank);
    for (uint32_t d = 0; d < rank; ++d) {
        const int32_t dim = shape->Get(d);
        if (dim < 0)
            return broken(subgraph, index, name, "holds data but has a negative dimension " + std::to_string(dim));
        info.shape.push_back(dim);
    }
    at.sparse = VerifiedFlatBuffer::has(tensor, tensor_field::sparsity);

    if (quantization) {
        const auto* scale = fb.vector<float>(quantization, quantization_field::scale);
        const auto* zero = fb.vector<int64_t>(quantization, quantization_field::zero_point);
        const auto details = fb.scalar<uint8_t>(quantization, quantization_field::details_type, 0);
        const auto axis = fb.scalar<int32_t>(quantization, quantization_field::quantized_dimension, 0);
        if (fb.failed()) return broken(subgraph, index, name, "its quantization parameters fail verification");
        // With QuantizationDetails set, schema.fbs says scale and zero_point do not apply.
        if (scale && scale->size() > 0 && details == 0) {
            const uint64_t zeroCount = zero ? zero->size() : 0;
            if (!charge(uint64_t{scale->size()} * sizeof(float) + zeroCount * sizeof(int64_t)))
                return broken(subgraph, index, name, "the tensor list repeats quantization parameters beyond any real model's size");
            // Copied bytewise: the verifier checks a vector's 4-byte alignment only, and an
            // int64 vector's elements may sit off their 8-byte alignment (a fuzz finding).
            StoredQuantization q;
            q.scale.resize(scale->size());
            std::memcpy(q.scale.data(), scale->Data(), q.scale.size() * sizeof(float));
            q.zero_point.resize(zeroCount);
            if (zeroCount) std::memcpy(q.zero_point.data(), zero->Data(), q.zero_point.size() * sizeof(int64_t));
            q.axis = axis;
            info.quantization = std::move(q);
        } else if (details != 0) {
            info.origin += ", custom quantization (not read)";
        }
    }
    // Subgraphs may reuse names (a While body and its caller both have "x"): the first keeps
    // the file's name, later ones get " (subgraph N)", so the list stays in file order with
    // unique names whatever order the subgraphs come in.
    info.name = name.empty() ? "subgraph " + std::to_string(subgraph) + " tensor " + std::to_string(index)
                             : std::string(name);
    if (names_.count(info.name)) {
        info.name += " (subgraph " + std::to_string(subgraph) + ")";
        if (names_.count(info.name))
            info.name.insert(info.name.size() - 1, ", tensor " + std::to_string(index));
    }
    addUnique(std::move(info), at);
    return okStatus();
}

void TfliteFile::addUnique(TensorInfo info, StoredAt at) {
    // A hostile file can still name a tensor "x (subgraph 1, tensor 2)": count up until unique.
    // Counting on from the last number given to the same base keeps this linear.
    if (names_.count(info.name)) {
        const std::string base = info.name;
        int& n = nextNumber_[base];
        do info.name = base + " #" + std::to_string(n++ + 2);
        while (names_.count(info.name));
    }
    names_.insert(info.name);
    tensors_.push_back(std::move(info));
    stored_.push_back(at);
}

}  // namespace

Result<ModelPtr> openTflite(const std::string& label, SharedBytes bytes) {
    auto model = std::make_shared<TfliteFile>(label, std::move(bytes));
    if (auto status = model->read(); !status) return status.error();
    return ModelPtr(std::move(model));
}

}  // namespace qs::modelfile
