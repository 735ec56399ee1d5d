// TensorFlow checkpoints (TensorBundle: PREFIX.index + PREFIX.data-NNNNN-of-NNNNN), as
// tf.train.Checkpoint and SavedModel's variables/ write them. The index is a LevelDB-format
// table (sstable.h) mapping each tensor's name to a BundleEntryProto (dtype, shape, shard,
// offset, size, crc32c); the entry with the empty key is the BundleHeaderProto. The protos
// are decoded from the wire format (proto_wire.h) with the field numbers of TensorFlow's
// tensor_bundle.proto and tensor_shape.proto.
//
// Listing reads the index only; a load maps the tensor's shard (once) and returns a view of
// its bytes after checking them against the stored CRC-32C.
#include <cstdio>
#include <map>
#include <mutex>

#include "core/data/dataset.h"
#include "core/modelfile/crc32c.h"
#include "core/modelfile/proto_wire.h"
#include "core/modelfile/readers.h"
#include "core/modelfile/sstable.h"

namespace qs::modelfile {
namespace {

// TensorFlow's DataType (types.proto) for the numbers a checkpoint may hold; the rest keep
// TF's name and are listed, not loaded.
struct TfType {
    DType dtype;
    const char* name;
};
TfType tfType(uint64_t code) {
    switch (code) {
    case 1: return {DType::Float32, "float32"};
    case 2: return {DType::Float64, "float64"};
    case 3: return {DType::Int32, "int32"};
    case 4: return {DType::UInt8, "uint8"};
    case 5: return {DType::Int16, "int16"};
    case 6: return {DType::Int8, "int8"};
    case 7: return {DType::Other, "string"};
    case 8: return {DType::Other, "complex64"};
    case 9: return {DType::Int64, "int64"};
    case 10: return {DType::Bool, "bool"};
    case 11: return {DType::Other, "qint8"};
    case 12: return {DType::Other, "quint8"};
    case 13: return {DType::Other, "qint32"};
    case 14: return {DType::BFloat16, "bfloat16"};
    case 15: return {DType::Other, "qint16"};
    case 16: return {DType::Other, "quint16"};
    case 17: return {DType::UInt16, "uint16"};
    case 18: return {DType::Other, "complex128"};
    case 19: return {DType::Float16, "float16"};
    case 20: return {DType::Other, "resource"};
    case 21: return {DType::Other, "variant"};
    case 22: return {DType::UInt32, "uint32"};
    case 23: return {DType::UInt64, "uint64"};
    default: return {DType::Other, nullptr};
    }
}

// Field numbers of tensor_bundle.proto / tensor_shape.proto.
namespace header_field {
constexpr uint32_t num_shards = 1, endianness = 2;  // version 3
}
namespace entry_field {
constexpr uint32_t dtype = 1, shape = 2, shard_id = 3, offset = 4, size = 5, crc32c = 6, slices = 7;
}
namespace shape_field {
constexpr uint32_t dim = 2, unknown_rank = 3;
constexpr uint32_t dim_size = 1;  // TensorShapeProto.Dim; name 2
}  // namespace shape_field

// Where a listed tensor's bytes are.
struct Entry {
    uint32_t shard = 0;
    uint64_t offset = 0;
    uint64_t size = 0;
    std::optional<uint32_t> crc;  // unmasked
    size_t slices = 0;
};

class CheckpointFile final : public ModelFile {
public:
    CheckpointFile(std::string label, SharedBytes index, Sidecars sidecars, std::string prefix)
        : ModelFile(std::move(label)), index_(std::move(index)), sidecars_(std::move(sidecars)), prefix_(std::move(prefix)) {}

    Status read();
    std::string_view format() const override { return "tf-checkpoint"; }

protected:
    Result<TensorData> loadStored(size_t index) const override;

private:
    Status readHeader(std::string_view value);
    Status readEntry(std::string_view key, std::string_view value);
    Result<SharedBytes> shard(size_t index) const;
    std::string shardName(uint32_t shard) const {
        char suffix[64];
        std::snprintf(suffix, sizeof suffix, ".data-%05u-of-%05u", shard, numShards_.value_or(0));
        return prefix_ + suffix;
    }
    // Charges copied names and shapes against what the index can honestly hold (prefix
    // compression lets a small index repeat a long name in many keys).
    bool charge(uint64_t bytes) {
        copied_ += bytes;
        return copied_ <= 8 * index_->size() + (uint64_t{16} << 20);
    }

    SharedBytes index_;
    Sidecars sidecars_;
    std::string prefix_;
    std::optional<uint32_t> numShards_;
    std::vector<Entry> entries_;
    uint64_t copied_ = 0;
    mutable std::mutex shardsMutex_;
    mutable std::map<uint32_t, SharedBytes> shards_;
};

Status CheckpointFile::read() {
    auto status = forEachTableEntry(index_->view(), [this](std::string_view key, std::string_view value) -> Status {
        if (key.empty()) return readHeader(value);
        // Keys starting with a 0 byte are the slices of partitioned variables (TF's
        // EncodeTensorNameSlice); the whole variable's entry lists them and refuses to load.
        if (key.front() == '\0') return okStatus();
        return readEntry(key, value);
    });
    if (!status) return fileError(status.error().message);
    if (!numShards_) return fileError("no BundleHeaderProto (the index's entry with the empty key): not a checkpoint index");
    for (size_t i = 0; i < tensors_.size(); ++i)
        if (entries_[i].shard >= *numShards_)
            return tensorError(i, "in shard " + std::to_string(entries_[i].shard) + ", but the header says " +
                                      std::to_string(*numShards_) + " shards");
    return okStatus();
}

Status CheckpointFile::readHeader(std::string_view value) {
    WireReader wire(value);
    uint64_t shards = 0, endianness = 0;
    while (auto field = wire.next()) {
        if (field->type != WireReader::Type::Varint) continue;
        if (field->number == header_field::num_shards) shards = field->value;
        if (field->number == header_field::endianness) endianness = field->value;
    }
    if (wire.failed()) return data::dataError("the BundleHeaderProto is malformed");
    if (endianness != 0)
        return data::dataError("written big-endian (BundleHeaderProto.endianness " + std::to_string(endianness) +
                               "); only little-endian checkpoints are read");
    if (shards < 1 || shards > 99999)  // the shard names have five digits
        return data::dataError("the header claims " + std::to_string(shards) + " shards");
    numShards_ = static_cast<uint32_t>(shards);
    return okStatus();
}

Status CheckpointFile::readEntry(std::string_view key, std::string_view value) {
    const auto bad = [&](const std::string& what) {
        return data::dataError("tensor '" + std::string(key) + "': " + what);
    };
    if (!charge(sizeof(TensorInfo) + key.size()))
        return bad("the index repeats names beyond any real checkpoint's size");
    // A table's keys are sorted and unique (bytewise, as std::string_view compares), which
    // also keeps the listed names unique.
    if (!tensors_.empty() && key <= tensors_.back().name)
        return bad("comes after '" + tensors_.back().name + "' in the index, whose keys must be sorted and unique");
    TensorInfo info;
    info.name = std::string(key);
    Entry entry;
    uint64_t dtype = 0;
    bool unknownRank = false;
    WireReader wire(value);
    while (auto field = wire.next()) {
        const bool varint = field->type == WireReader::Type::Varint;
        switch (field->number) {
        case entry_field::dtype: if (varint) dtype = field->value; break;
        case entry_field::shard_id:
            if (varint) {
                if (field->value > 99999) return bad("shard " + std::to_string(field->value) + " cannot exist");
                entry.shard = static_cast<uint32_t>(field->value);
            }
            break;
        case entry_field::offset: if (varint) entry.offset = field->value; break;
        case entry_field::size: if (varint) entry.size = field->value; break;
        case entry_field::crc32c:
            if (field->type == WireReader::Type::Fixed32) entry.crc = unmaskCrc(static_cast<uint32_t>(field->value));
            break;
        case entry_field::slices: ++entry.slices; break;
        case entry_field::shape: {
            if (field->type != WireReader::Type::Bytes) break;
            WireReader shape(field->bytes);
            while (auto s = shape.next()) {
                if (s->number == shape_field::unknown_rank && s->type == WireReader::Type::Varint) unknownRank = s->value != 0;
                if (s->number != shape_field::dim || s->type != WireReader::Type::Bytes) continue;
                int64_t size = 0;
                WireReader dim(s->bytes);
                while (auto d = dim.next())
                    if (d->number == shape_field::dim_size && d->type == WireReader::Type::Varint)
                        size = static_cast<int64_t>(d->value);  // int64 on the wire: negatives are 10-byte varints
                if (dim.failed()) return bad("its shape is malformed");
                if (size < 0) return bad("its shape has an unknown dimension (" + std::to_string(size) + ")");
                if (!charge(sizeof(int64_t))) return bad("the index repeats shapes beyond any real checkpoint's size");
                info.shape.push_back(size);
            }
            if (shape.failed()) return bad("its shape is malformed");
            break;
        }
        default: break;
        }
    }
    if (wire.failed()) return bad("its BundleEntryProto is malformed");
    if (unknownRank) return bad("its shape has an unknown rank");
    const TfType type = tfType(dtype);
    info.dtype = type.dtype;
    info.dtype_name = type.name ? type.name : "TF DataType " + std::to_string(dtype);
    info.origin = "shard " + std::to_string(entry.shard);
    tensors_.push_back(std::move(info));
    entries_.push_back(entry);
    return okStatus();
}

Result<SharedBytes> CheckpointFile::shard(size_t index) const {
    const uint32_t id = entries_[index].shard;
    std::lock_guard lock(shardsMutex_);
    if (auto found = shards_.find(id); found != shards_.end()) return found->second;
    const std::string name = shardName(id);
    auto bytes = sidecars_(name);
    if (!bytes) return tensorError(index, "cannot read its shard " + name + ": " + bytes.error().message);
    shards_.emplace(id, *bytes);
    return bytes;
}

Result<TensorData> CheckpointFile::loadStored(size_t index) const {
    const Entry& entry = entries_[index];
    if (entry.slices > 0)
        return tensorError(index, "stored in " + std::to_string(entry.slices) +
                                      " slices (a partitioned variable); only whole tensors are read");
    auto bytes = shard(index);
    if (!bytes) return bytes.error();
    const std::string_view data = (*bytes)->view();
    if (!inside(data, entry.offset, entry.size))
        return tensorError(index, "its " + std::to_string(entry.size) + " bytes at offset " + std::to_string(entry.offset) +
                                      " lie past the end of " + shardName(entry.shard) + " (" +
                                      std::to_string(data.size()) + " bytes)");
    const std::string_view stored = data.substr(entry.offset, entry.size);
    if (entry.crc && crc32c(stored) != *entry.crc)
        return tensorError(index, "its bytes in " + shardName(entry.shard) + " fail their CRC-32C (the shard is corrupt)");
    return TensorData{tensors_[index], stored, *bytes};
}

}  // namespace

Result<ModelPtr> openCheckpoint(const std::string& label, SharedBytes indexBytes, Sidecars sidecars,
                                const std::string& prefix) {
    auto model = std::make_shared<CheckpointFile>(label, std::move(indexBytes), std::move(sidecars), prefix);
    if (auto status = model->read(); !status) return status.error();
    return ModelPtr(std::move(model));
}

}  // namespace qs::modelfile
