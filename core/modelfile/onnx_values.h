// The values of one listed ONNX tensor where they are not raw bytes of the file: ONNX's
// element types onto ours, the typed TensorProto fields (float_data, int32_data, ...) and
// Constant's plain attributes (value_float(s), value_int(s)) decoded into an owned buffer of
// little-endian elements, and external data found in a sidecar file.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "core/modelfile/dtype.h"
#include "core/modelfile/model_file.h"
#include "core/modelfile/onnx_wire.h"

namespace qs::modelfile::onnx_values {

// TensorProto.DataType → DType, and the name listings show: ours, or for DType::Other the
// ONNX name lowercased ("string", "complex64", "float8e4m3fn", "int4"; "data_type 99" for
// codes ONNX does not define).
struct ElementType {
    DType dtype = DType::Other;
    std::string name;
};
ElementType elementType(int32_t dataType);

// Bytes with the owner keeping them alive (a TensorData without its info).
struct Values {
    std::string_view bytes;
    std::shared_ptr<const void> owner;
};

// The typed fields of a TensorProto (`message`: its serialized bytes) as `count` elements of
// `dtype`. DataError "float_data holds 10 values, the shape needs 24" when the count differs;
// nothing of the claimed size is allocated before the field is known to hold it.
Result<Values> decodeTypedFields(std::string_view message, DType dtype, int64_t count);
// A Constant's value_float / value_floats / value_int / value_ints (`message`: the
// AttributeProto).
Result<Values> decodeAttribute(std::string_view message, onnx_wire::Source source);
// External data (data_location EXTERNAL): the location / offset / length entries, checked
// against the sidecar file; `expected` is the byte count the shape and dtype need (the
// length when the file gives none).
Result<Values> externalData(const onnx_wire::StoredTensor& tensor, int64_t expected, const Sidecars& sidecars);

}  // namespace qs::modelfile::onnx_values
