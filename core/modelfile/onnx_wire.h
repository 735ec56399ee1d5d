// The listing walk of an ONNX file: where every stored tensor lies, read straight off the
// protobuf wire (google::protobuf::io::CodedInputStream, the field numbers of the generated
// onnx::*Proto classes) without parsing the model into memory, so that listing a model
// never copies tensor data: raw_data and the typed value fields are skipped, only their
// positions are kept.
//
// It walks ModelProto.graph → initializers and nodes; a Constant node's value
// (value / value_float(s) / value_int(s) / value_string(s)); and every graph-valued attribute
// (If's branches, Loop's and Scan's bodies, ...) recursively up to kMaxGraphDepth. It also
// keeps, per graph, the nodes that tell how a weight is used (DequantizeLinear, Conv,
// ConvTranspose, MatMul, Gemm) so that the reader can attach stored quantization and
// channel axes.
//
// Errors are messages without the file's name (the reader prefixes it), naming the place:
// "graph › node 12 'If_25' › attribute 'then_branch' › initializer 3: a length of 900 bytes
// runs past the end of its message (byte 1234)".
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/status.h"
#include "core/tensor.h"

namespace qs::modelfile::onnx_wire {

// Limits a hostile file meets before it costs memory or stack.
inline constexpr int kMaxGraphDepth = 32;           // nested subgraphs
inline constexpr size_t kMaxRank = 64;              // dims of one tensor
// A listed tensor costs a few hundred bytes however small it is on the wire: the caps bound
// what a file of tiny ones can make the listing hold (~100 MB).
inline constexpr size_t kMaxTensors = size_t{1} << 18;
inline constexpr size_t kMaxUses = size_t{1} << 18;  // recorded weight uses (beyond: not recorded)
inline constexpr size_t kMaxExternalEntries = 64;    // external_data key/value pairs

// A run of bytes of the file: [offset, offset + length).
struct Span {
    uint64_t offset = 0;
    uint64_t length = 0;
};

// Where a listed tensor's values are: a TensorProto (initializer, Constant `value`, a
// standalone .pb) or one of Constant's plain attributes.
enum class Source : uint8_t { Tensor, AttrFloat, AttrFloats, AttrInt, AttrInts, AttrStrings };

struct StoredTensor {
    std::string name;
    std::string origin;  // "initializer", "Constant node 'c1'", "If 'If_25' then_branch › initializer"
    Source source = Source::Tensor;
    Span message;          // the TensorProto, or the AttributeProto for the Attr* sources
    int32_t data_type = 0;  // TensorProto.DataType (FLOAT = 1, ...)
    Shape dims;
    std::optional<Span> raw_data;
    bool external = false;  // data_location EXTERNAL
    std::vector<std::pair<std::string, std::string>> external_data;  // location, offset, length, ...
    int scope = 0;          // the graph that holds it (Listing::parent_scope)
};

// A node that uses weights: its first three inputs, first output and the attributes the
// reader needs.
struct NodeUse {
    std::string op_type;  // DequantizeLinear, Conv, ConvTranspose, MatMul, Gemm
    std::vector<std::string> inputs;
    std::string output;
    std::optional<int64_t> axis;
    int64_t trans_b = 0;
    int scope = 0;
};

struct Listing {
    std::vector<StoredTensor> tensors;
    std::vector<NodeUse> uses;
    std::vector<int> parent_scope;  // per graph: the enclosing graph, -1 for the main one
};

// Lists a serialized ModelProto (at most 2 GiB: protobuf's own limit).
Result<Listing> listModel(std::string_view bytes);
// Lists a serialized TensorProto (a node test's input_0.pb) as one tensor.
Result<StoredTensor> listTensorProto(std::string_view bytes);

}  // namespace qs::modelfile::onnx_wire
