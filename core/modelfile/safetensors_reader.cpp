// safetensors: an 8-byte little-endian header length N, N bytes of JSON
//   {"__metadata__": {...}, "NAME": {"dtype": "F32", "shape": [2, 3], "data_offsets": [0, 24]}, ...}
// and the raw little-endian row-major data, offsets relative to its start (byte 8 + N).
// Tensors are listed in the order their data lies in the file (by begin offset, then name:
// the JSON object's own key order is not kept, as keeping it costs a linear search per key
// in nlohmann's ordered map), named by their keys. Every tensor is a view into the mapped
// file: nothing is copied on load.
//
// Checks, before anything of a header-declared size is made: N against the file and a
// 100 MB cap (the reference implementation's own), each entry's fields and types, shape ×
// dtype = end − begin (overflow-checked), and the offsets inside the data. Overlaps and gaps
// between tensors are allowed (readers do not need them excluded).
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <limits>
#include <new>

#include "core/data/dataset.h"
#include "core/modelfile/readers.h"

namespace qs::modelfile {
namespace {

using Json = nlohmann::json;

constexpr uint64_t kMaxHeaderBytes = 100'000'000;

struct Entry {
    uint64_t begin = 0, end = 0;  // inside the data section
};

class SafetensorsModel final : public ModelFile {
public:
    SafetensorsModel(std::string label, SharedBytes bytes, uint64_t dataStart, std::vector<TensorInfo> infos,
                     std::vector<Entry> entries)
        : ModelFile(std::move(label)), bytes_(std::move(bytes)), dataStart_(dataStart), entries_(std::move(entries)) {
        tensors_ = std::move(infos);
    }
    std::string_view format() const override { return "safetensors"; }

protected:
    Result<TensorData> loadStored(size_t index) const override {
        const Entry& e = entries_[index];
        return TensorData{tensors_[index], bytes_->view().substr(dataStart_ + e.begin, e.end - e.begin), bytes_};
    }

private:
    SharedBytes bytes_;
    uint64_t dataStart_;
    std::vector<Entry> entries_;
};

// The safetensors dtype names; anything else is listed as Other under its name in lower case
// ("F8_E4M3" -> "f8_e4m3").
DType dtypeOf(const std::string& name) {
    static const std::pair<const char*, DType> table[] = {
        {"F64", DType::Float64}, {"F32", DType::Float32}, {"F16", DType::Float16}, {"BF16", DType::BFloat16},
        {"I64", DType::Int64},   {"I32", DType::Int32},   {"I16", DType::Int16},   {"I8", DType::Int8},
        {"U64", DType::UInt64},  {"U32", DType::UInt32},  {"U16", DType::UInt16},  {"U8", DType::UInt8},
        {"BOOL", DType::Bool},
    };
    for (const auto& [n, t] : table)
        if (name == n) return t;
    return DType::Other;
}

std::string lower(std::string s) {
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
    return s;
}

// A JSON number that is a whole number in [0, INT64_MAX].
bool asCount(const Json& j, uint64_t& out) {
    if (j.is_number_unsigned()) out = j.get<uint64_t>();
    else if (j.is_number_integer() && j.get<int64_t>() >= 0) out = static_cast<uint64_t>(j.get<int64_t>());
    else return false;
    return out <= static_cast<uint64_t>(std::numeric_limits<int64_t>::max());
}

// One header entry as a TensorInfo and its offsets; `error` names what is wrong.
bool readEntry(const std::string& name, const Json& value, uint64_t dataSize, TensorInfo& info, Entry& entry,
               std::string& error) {
    if (!value.is_object()) return error = "its entry is not an object", false;
    const auto dtype = value.find("dtype");
    const auto shape = value.find("shape");
    const auto offsets = value.find("data_offsets");
    if (dtype == value.end() || !dtype->is_string()) return error = "no \"dtype\" string", false;
    if (shape == value.end() || !shape->is_array()) return error = "no \"shape\" list", false;
    if (offsets == value.end() || !offsets->is_array() || offsets->size() != 2 || !asCount((*offsets)[0], entry.begin) ||
        !asCount((*offsets)[1], entry.end))
        return error = "\"data_offsets\" is not a pair of non-negative integers", false;
    info.name = name;
    const std::string dtypeText = dtype->get<std::string>();
    info.dtype = dtypeOf(dtypeText);
    info.dtype_name = info.dtype == DType::Other ? lower(dtypeText) : std::string(dtypeName(info.dtype));
    for (const Json& dim : *shape) {
        uint64_t d = 0;
        if (!asCount(dim, d))  // (dump() recurses: only numbers and strings are shown)
            return error = "\"shape\" holds " + (dim.is_primitive() ? dim.dump() : std::string("an ") + dim.type_name()) +
                           ", not a dimension (a whole number from 0 to 2^63-1)", false;
        info.shape.push_back(static_cast<int64_t>(d));
    }
    if (entry.begin > entry.end)
        return error = "\"data_offsets\" [" + std::to_string(entry.begin) + ", " + std::to_string(entry.end) +
                       "] end before they begin", false;
    if (entry.end > dataSize)
        return error = "\"data_offsets\" end at " + std::to_string(entry.end) + ", past the " +
                       std::to_string(dataSize) + " bytes of data", false;
    if (info.dtype == DType::Other) return true;  // size unknown: listed, not loadable
    const int64_t need = info.byteSize();
    if (need < 0) return error = "shape " + shapeString(info.shape) + " is too large", false;
    if (static_cast<uint64_t>(need) != entry.end - entry.begin)
        return error = "shape " + shapeString(info.shape) + " of " + dtypeText + " needs " + std::to_string(need) +
                       " bytes, \"data_offsets\" give " + std::to_string(entry.end - entry.begin), false;
    return true;
}

}  // namespace

Result<ModelPtr> openSafetensors(const std::string& label, SharedBytes bytes) {
    const std::string_view b = bytes->view();
    const std::string where = label + ": ";
    if (b.size() < 8) return data::dataError(where + "not a safetensors file (" + std::to_string(b.size()) + " bytes)");
    uint64_t headerLen = 0;
    for (int i = 0; i < 8; ++i) headerLen |= uint64_t{static_cast<unsigned char>(b[i])} << (8 * i);
    if (headerLen > kMaxHeaderBytes)
        return data::dataError(where + "the header length " + std::to_string(headerLen) +
                               " is more than safetensors allows (100000000 bytes): not a safetensors file?");
    if (headerLen > b.size() - 8)
        return data::dataError(where + "the header length " + std::to_string(headerLen) + " runs past the end of the file (" +
                               std::to_string(b.size()) + " bytes)");
    const std::string_view text = b.substr(8, headerLen);
    Json header;
    try {
        header = Json::parse(text.begin(), text.end());
    } catch (const Json::exception& e) {
        return data::dataError(where + "the JSON header does not parse: " + e.what());
    } catch (const std::bad_alloc&) {
        return data::dataError(where + "out of memory reading the JSON header");
    }
    if (!header.is_object()) return data::dataError(where + "the JSON header is not an object");

    const uint64_t dataStart = 8 + headerLen, dataSize = b.size() - dataStart;
    std::vector<TensorInfo> infos;
    std::vector<Entry> entries;
    for (const auto& [name, value] : header.items()) {
        if (name == "__metadata__") continue;
        TensorInfo info;
        Entry entry;
        std::string error;
        if (!readEntry(name, value, dataSize, info, entry, error))
            return data::dataError(where + "tensor '" + name + "': " + error);
        infos.push_back(std::move(info));
        entries.push_back(entry);
    }
    std::vector<size_t> order(infos.size());
    for (size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::sort(order.begin(), order.end(), [&](size_t x, size_t y) {
        return entries[x].begin != entries[y].begin ? entries[x].begin < entries[y].begin : infos[x].name < infos[y].name;
    });
    std::vector<TensorInfo> sortedInfos;
    std::vector<Entry> sortedEntries;
    for (size_t i : order) {
        sortedInfos.push_back(std::move(infos[i]));
        sortedEntries.push_back(entries[i]);
    }
    return ModelPtr(std::make_shared<SafetensorsModel>(label, std::move(bytes), dataStart, std::move(sortedInfos),
                                                       std::move(sortedEntries)));
}

}  // namespace qs::modelfile
