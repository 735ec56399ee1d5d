#include "core/modelfile/npy_tensor.h"

#include <algorithm>
#include <new>

#include "core/data/dataset.h"
#include "core/data/npy_header.h"

namespace qs::modelfile {
namespace {

DType dtypeOf(const data::NpyElementType& t) {
    switch (t.kind) {
    case 'f': return t.width == 2 ? DType::Float16 : t.width == 4 ? DType::Float32 : DType::Float64;
    case 'i':
        return t.width == 1 ? DType::Int8 : t.width == 2 ? DType::Int16 : t.width == 4 ? DType::Int32 : DType::Int64;
    case 'u':
        return t.width == 1 ? DType::UInt8 : t.width == 2 ? DType::UInt16 : t.width == 4 ? DType::UInt32 : DType::UInt64;
    default: return DType::Bool;
    }
}

// numpy's name for a descr that is not a plain number ("<c8" -> "complex64").
std::string otherName(const std::string& descr) {
    std::string_view d = descr;
    if (!d.empty() && std::string_view("<>|=").find(d[0]) != std::string_view::npos) d.remove_prefix(1);
    if (d.empty()) return descr;
    const std::string_view digits = d.substr(1);
    switch (d[0]) {
    case 'c':
        if (digits == "8") return "complex64";
        if (digits == "16") return "complex128";
        break;
    case 'f':
        if (digits == "12") return "float96";
        if (digits == "16") return "float128";
        break;
    case 'U': return "str";
    case 'S': case 'a': return "bytes";
    case 'O': return "object";
    case 'M': return "datetime64";
    case 'm': return "timedelta64";
    case 'V': return "void";
    }
    return descr;
}

}  // namespace

Result<NpyTensor> describeNpy(std::string_view head, uint64_t available, const std::string& where, std::string name) {
    auto header = data::parseNpyHeader(head, where);
    if (!header) return header.error();
    NpyTensor npy;
    npy.info.name = std::move(name);
    npy.info.shape = header->shape;
    npy.dataOffset = header->dataOffset;
    npy.fortran = header->fortran && header->shape.size() > 1;
    if (const auto type = data::npyElementType(header->descr)) {
        npy.info.dtype = dtypeOf(*type);
        npy.info.dtype_name = std::string(dtypeName(npy.info.dtype));
        npy.bigEndian = type->bigEndian && type->width > 1;
    } else {
        npy.info.dtype = DType::Other;
        npy.info.dtype_name = otherName(header->descr);
        return npy;  // listed; load() refuses it
    }
    const int64_t need = npy.info.byteSize();
    if (need < 0) return data::dataError(where + "shape " + shapeString(npy.info.shape) + " is too large");
    const uint64_t have = available - std::min<uint64_t>(available, npy.dataOffset);
    if (static_cast<uint64_t>(need) > have)
        return data::dataError(where + "truncated data: shape " + shapeString(npy.info.shape) + " of " +
                               npy.info.dtype_name + " needs " + std::to_string(need) + " bytes, the file has " +
                               std::to_string(have));
    return npy;
}

Result<TensorData> npyTensorData(const NpyTensor& npy, std::string_view stored, std::shared_ptr<const void> owner,
                                 const std::string& where) {
    TensorData out{npy.info, stored, std::move(owner)};
    if (!npy.bigEndian && !npy.fortran) return out;  // as stored: no copy
    const size_t width = dtypeSize(npy.info.dtype);
    std::vector<char> buffer, swapped;
    try {
        if (npy.bigEndian) {
            swapped.resize(stored.size());
            for (size_t i = 0; i + width <= stored.size(); i += width)
                std::reverse_copy(stored.data() + i, stored.data() + i + width, swapped.data() + i);
            stored = {swapped.data(), swapped.size()};
        }
        if (npy.fortran) {
            buffer.resize(stored.size());
            data::fortranToRowMajor(stored.data(), buffer.data(), npy.info.shape, width);
        } else {
            buffer = std::move(swapped);
        }
    } catch (const std::bad_alloc&) {
        return data::dataError(where + "out of memory for a copy of " + std::to_string(stored.size()) + " bytes");
    }
    SharedBytes copy = ownBytes(std::move(buffer));
    out.bytes = copy->view();
    out.owner = std::move(copy);
    return out;
}

}  // namespace qs::modelfile
