// Small ONNX models made with ONNX's own generated classes, for the reader's tests: what a
// writer would produce, which the tests then open, or corrupt byte by byte.
#pragma once

#include <onnx/onnx_pb.h>

#include <cstring>
#include <initializer_list>
#include <string>
#include <vector>

namespace qs::testing::onnx_build {

inline void setDims(onnx::TensorProto& t, std::initializer_list<int64_t> dims) {
    for (int64_t d : dims) t.add_dims(d);
}

// A tensor stored in raw_data (little-endian, as ONNX requires).
template <typename T>
onnx::TensorProto rawTensor(const std::string& name, int dataType, std::initializer_list<int64_t> dims,
                            const std::vector<T>& values) {
    onnx::TensorProto t;
    t.set_name(name);
    t.set_data_type(dataType);
    setDims(t, dims);
    std::string raw(values.size() * sizeof(T), '\0');
    if (!values.empty()) std::memcpy(raw.data(), values.data(), raw.size());
    t.set_raw_data(raw);
    return t;
}

inline onnx::TensorProto floatTensor(const std::string& name, std::initializer_list<int64_t> dims,
                                     const std::vector<float>& values) {
    return rawTensor(name, onnx::TensorProto::FLOAT, dims, values);
}

inline onnx::ModelProto model() {
    onnx::ModelProto m;
    m.set_ir_version(8);
    m.set_producer_name("tst_model_onnx");
    m.add_opset_import()->set_version(17);
    m.mutable_graph()->set_name("main");
    return m;
}

inline onnx::NodeProto* addNode(onnx::GraphProto& g, const std::string& op, const std::string& name,
                                std::initializer_list<std::string> inputs, std::initializer_list<std::string> outputs) {
    onnx::NodeProto* n = g.add_node();
    n->set_op_type(op);
    n->set_name(name);
    for (const auto& i : inputs) n->add_input(i);
    for (const auto& o : outputs) n->add_output(o);
    return n;
}

inline onnx::AttributeProto* addAttribute(onnx::NodeProto& n, const std::string& name, onnx::AttributeProto::AttributeType type) {
    onnx::AttributeProto* a = n.add_attribute();
    a->set_name(name);
    a->set_type(type);
    return a;
}

inline void addInt(onnx::NodeProto& n, const std::string& name, int64_t value) {
    addAttribute(n, name, onnx::AttributeProto::INT)->set_i(value);
}

// A Constant node whose `value` is `t`, output `output`.
inline onnx::NodeProto* addConstant(onnx::GraphProto& g, const std::string& output, const onnx::TensorProto& t,
                                    const std::string& nodeName = "") {
    onnx::NodeProto* n = addNode(g, "Constant", nodeName, {}, {output});
    *addAttribute(*n, "value", onnx::AttributeProto::TENSOR)->mutable_t() = t;
    return n;
}

// A node with a graph attribute (If's then_branch, Loop's body); returns that graph.
inline onnx::GraphProto* addSubgraph(onnx::NodeProto& n, const std::string& attribute) {
    onnx::GraphProto* g = addAttribute(n, attribute, onnx::AttributeProto::GRAPH)->mutable_g();
    g->set_name(attribute);
    return g;
}

inline std::string bytesOf(const google::protobuf::MessageLite& m) {
    std::string out;
    m.SerializeToString(&out);
    return out;
}

}  // namespace qs::testing::onnx_build
