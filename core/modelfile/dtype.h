// The element types model files store, with the names the CLI contract prints
// ("float32", "int8", ...). One table: readers map their own type codes onto it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace qs::modelfile {

enum class DType : uint8_t {
    Float32, Float16, BFloat16, Float64,
    Int8, UInt8, Int16, UInt16, Int32, UInt32, Int64, UInt64,
    Bool,
    Other,  // anything else a file may hold (strings, complex, 4-bit, ...): listed, not loaded
};

// "float32", "float16", "bfloat16", "float64", "int8", "uint8", "int16", "uint16", "int32",
// "uint32", "int64", "uint64", "bool"; "other" for Other (readers give the file's own name).
std::string_view dtypeName(DType t);
// Bytes per element; 0 for Other.
size_t dtypeSize(DType t);
bool isFloat(DType t);    // the four float types
bool isInteger(DType t);  // int8 ... uint64 (bool is neither)

}  // namespace qs::modelfile
