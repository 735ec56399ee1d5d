#include "core/modelfile/dtype.h"

namespace qs::modelfile {

std::string_view dtypeName(DType t) {
    switch (t) {
    case DType::Float32: return "float32";
    case DType::Float16: return "float16";
    case DType::BFloat16: return "bfloat16";
    case DType::Float64: return "float64";
    case DType::Int8: return "int8";
    case DType::UInt8: return "uint8";
    case DType::Int16: return "int16";
    case DType::UInt16: return "uint16";
    case DType::Int32: return "int32";
    case DType::UInt32: return "uint32";
    case DType::Int64: return "int64";
    case DType::UInt64: return "uint64";
    case DType::Bool: return "bool";
    case DType::Other: break;
    }
    return "other";
}

size_t dtypeSize(DType t) {
    switch (t) {
    case DType::Int8: case DType::UInt8: case DType::Bool: return 1;
    case DType::Float16: case DType::BFloat16: case DType::Int16: case DType::UInt16: return 2;
    case DType::Float32: case DType::Int32: case DType::UInt32: return 4;
    case DType::Float64: case DType::Int64: case DType::UInt64: return 8;
    case DType::Other: break;
    }
    return 0;
}

bool isFloat(DType t) {
    return t == DType::Float32 || t == DType::Float16 || t == DType::BFloat16 || t == DType::Float64;
}

bool isInteger(DType t) {
    switch (t) {
    case DType::Int8: case DType::UInt8: case DType::Int16: case DType::UInt16:
    case DType::Int32: case DType::UInt32: case DType::Int64: case DType::UInt64: return true;
    default: return false;
    }
}

}  // namespace qs::modelfile
