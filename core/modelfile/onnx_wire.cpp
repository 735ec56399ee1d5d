#include "core/modelfile/onnx_wire.h"

#include <google/protobuf/io/coded_stream.h>
#include <onnx/onnx_pb.h>

#include <algorithm>
#include <climits>

namespace qs::modelfile::onnx_wire {
namespace {

using google::protobuf::io::CodedInputStream;

enum WireType : uint32_t { kVarint = 0, kFixed64 = 1, kLength = 2, kStartGroup = 3, kEndGroup = 4, kFixed32 = 5 };

constexpr size_t kMaxGraphs = size_t{1} << 16;        // subgraphs in one file
constexpr size_t kMaxExternalString = 4096;           // one external_data key or value
constexpr size_t kKeptInputs = 3;                     // a node's inputs the reader needs

// ONNX's TensorProto.DataType codes the walk itself assigns (Constant's plain attributes).
constexpr int32_t kFloat = onnx::TensorProto::FLOAT;
constexpr int32_t kInt64 = onnx::TensorProto::INT64;
constexpr int32_t kString = onnx::TensorProto::STRING;

// One message's bytes, read field by field. Positions in messages are the file's.
class Wire {
public:
    Wire(std::string_view whole, Span span)
        : base_(span.offset),
          in_(reinterpret_cast<const uint8_t*>(whole.data()) + span.offset, static_cast<int>(span.length)) {}

    bool atEnd() const { return in_.BytesUntilLimit() <= 0; }
    uint64_t position() const { return base_ + static_cast<uint64_t>(in_.CurrentPosition()); }
    const std::string& error() const { return error_; }

    bool next(uint32_t& field, uint32_t& type) {
        const uint64_t at = position();
        const uint32_t tag = in_.ReadTagNoLastTag();
        if (tag == 0) return failAt(at, "a field tag is truncated or zero");
        field = tag >> 3;
        type = tag & 7;
        if (field == 0) return failAt(at, "a field tag names field 0");
        return true;
    }

    bool varint(uint64_t& value) {
        const uint64_t at = position();
        return in_.ReadVarint64(&value) || failAt(at, "a varint is truncated");
    }

    bool fixed32(uint32_t& value) {
        const uint64_t at = position();
        return in_.ReadLittleEndian32(&value) || failAt(at, "a 4-byte value runs past the end of its message");
    }

    // A length-delimited field: its bytes as a span of the file, skipped over.
    bool length(Span& span) {
        const uint64_t at = position();
        uint64_t n = 0;
        if (!in_.ReadVarint64(&n)) return failAt(at, "a length is truncated");
        if (n > static_cast<uint64_t>(in_.BytesUntilLimit()))
            return failAt(at, "a length of " + std::to_string(n) + " bytes runs past the end of its message (" +
                                  std::to_string(in_.BytesUntilLimit()) + " bytes left)");
        span = {position(), n};
        in_.Skip(static_cast<int>(n));
        return true;
    }

    // A length-delimited field read as a string of at most `cap` bytes.
    bool string(std::string_view whole, std::string& out, size_t cap = SIZE_MAX) {
        Span span;
        if (!length(span)) return false;
        if (span.length > cap)
            return failAt(span.offset, "a string of " + std::to_string(span.length) + " bytes (at most " +
                                           std::to_string(cap) + " expected)");
        out.assign(whole.substr(span.offset, span.length));
        return true;
    }

    bool skip(uint32_t type) {
        const uint64_t at = position();
        uint64_t ignored = 0;
        Span span;
        switch (type) {
        case kVarint: return varint(ignored);
        case kFixed64: return in_.Skip(8) || failAt(at, "an 8-byte value runs past the end of its message");
        case kLength: return length(span);
        case kFixed32: return in_.Skip(4) || failAt(at, "a 4-byte value runs past the end of its message");
        case kStartGroup:
        case kEndGroup: return failAt(at, "a group field (wire type " + std::to_string(type) + "), which ONNX never writes");
        default: return failAt(at, "an invalid wire type " + std::to_string(type));
        }
    }

private:
    bool failAt(uint64_t at, const std::string& what) {
        error_ = what + " (byte " + std::to_string(at) + ")";
        return false;
    }

    uint64_t base_;
    CodedInputStream in_;
    std::string error_;
};

// What the walk needs of one AttributeProto.
struct Attribute {
    std::string name;
    std::optional<int64_t> i;
    std::optional<Span> t;
    bool has_f = false;
    bool has_s = false;
    uint64_t floats = 0;
    uint64_t ints = 0;
    uint64_t strings = 0;
    int64_t type = 0;  // AttributeProto.AttributeType
};

// A name as part of an origin: origins are copied into every tensor a subgraph holds, so
// a hostile file's long names must not multiply (cut at a UTF-8 character boundary).
std::string shortText(std::string_view s, size_t max = 48) {
    if (s.size() <= max) return std::string(s);
    while (max > 0 && (static_cast<unsigned char>(s[max]) & 0xC0) == 0x80) --max;
    return std::string(s.substr(0, max)) + "\u2026";
}

// A subgraph's origin prefix, its innermost part kept when it grows too long.
std::string keepTail(std::string s, size_t max = 240) {
    if (s.size() <= max) return s;
    size_t cut = s.size() - max;
    while (cut < s.size() && (static_cast<unsigned char>(s[cut]) & 0xC0) == 0x80) ++cut;
    return "\u2026 " + s.substr(cut);
}

// "not an ONNX (protobuf) file: ...", with the text the file starts with when it is text.
// Text: printable ASCII, tabs and line ends, and well-formed UTF-8 sequences (the last one
// may be cut by the end of `head`).
bool looksLikeText(std::string_view head) {
    if (head.empty()) return false;
    for (size_t i = 0; i < head.size();) {
        const auto u = static_cast<unsigned char>(head[i]);
        if (u < 0x80) {
            if ((u < 0x20 && u != '\n' && u != '\r' && u != '\t') || u == 0x7f) return false;
            ++i;
            continue;
        }
        const size_t length = u >= 0xf0 && u <= 0xf4 ? 4 : u >= 0xe0 ? 3 : u >= 0xc2 && u < 0xe0 ? 2 : 0;
        if (length == 0 || u > 0xf4) return false;
        for (size_t k = 1; k < length && i + k < head.size(); ++k)
            if ((static_cast<unsigned char>(head[i + k]) & 0xc0) != 0x80) return false;
        i += length;
    }
    return true;
}

std::string notProtobuf(std::string_view bytes, const std::string& what) {
    const std::string_view head = bytes.substr(0, 256);
    if (!looksLikeText(head)) return "not an ONNX (protobuf) file: " + what;
    const std::string_view line = head.substr(0, head.find_first_of("\r\n"));
    return "not an ONNX (protobuf) file: it holds text (\"" + shortText(line, 40) + "\")";
}

bool isDefaultDomain(const std::string& domain) { return domain.empty() || domain == "ai.onnx"; }

bool isWeightUse(const std::string& op) {
    return op == "DequantizeLinear" || op == "Conv" || op == "ConvTranspose" || op == "MatMul" || op == "Gemm";
}

class Walker {
public:
    explicit Walker(std::string_view whole) : whole_(whole) {}

    bool model(Span span) {
        Wire w(whole_, span);
        bool sawGraph = false;
        // Bytes that break the wire format before any graph are no protobuf at all (a text
        // file renamed .onnx): that is the news, not the wire type its bytes happen to spell.
        const auto broken = [&](const std::string& what) {
            return fail(sawGraph ? what : notProtobuf(whole_, what));
        };
        while (!w.atEnd()) {
            uint32_t field = 0, type = 0;
            if (!w.next(field, type)) return broken(w.error());
            if (field == onnx::ModelProto::kGraphFieldNumber && type == kLength) {
                Span graphSpan;
                if (!w.length(graphSpan)) return fail(w.error());  // a model cut short
                if (!graph(graphSpan, -1, "", 0)) return false;
                sawGraph = true;
            } else if (!w.skip(type)) {
                return broken(w.error());
            }
        }
        return sawGraph || fail("no graph in it (is it an ONNX model?)");
    }

    // A standalone TensorProto.
    bool tensorFile(Span span, StoredTensor& out) {
        out.origin = "TensorProto";
        if (!tensor(span, out)) return false;
        if (out.name.empty()) out.name = "tensor";
        return true;
    }

    Listing& listing() { return listing_; }
    const std::string& error() const { return error_; }

private:
    // Part of the place errors name ("graph", "node 12 'If_25'", ...), for its lifetime.
    class Place {
    public:
        Place(Walker& w, std::string part) : w_(w) { w_.place_.push_back(std::move(part)); }
        ~Place() { w_.place_.pop_back(); }
        Place(const Place&) = delete;
        Place& operator=(const Place&) = delete;

    private:
        Walker& w_;
    };

    bool fail(const std::string& what) {
        std::string where;
        for (const auto& part : place_) where += (where.empty() ? "" : " \u203a ") + part;
        error_ = where.empty() ? what : where + ": " + what;
        return false;
    }

    bool graph(Span span, int parent, const std::string& prefix, int depth) {
        Place here(*this, "graph");
        if (depth > kMaxGraphDepth)
            return fail("subgraphs nested deeper than " + std::to_string(kMaxGraphDepth) + " levels");
        if (listing_.parent_scope.size() >= kMaxGraphs)
            return fail("more than " + std::to_string(kMaxGraphs) + " subgraphs");
        const int scope = static_cast<int>(listing_.parent_scope.size());
        listing_.parent_scope.push_back(parent);
        // Initializers first, then the nodes in order (the wire has nodes first): two passes
        // rather than a list of spans, so a graph of a million empty nodes costs no memory.
        for (const bool initializers : {true, false}) {
            Wire w(whole_, span);
            size_t index = 0;
            while (!w.atEnd()) {
                uint32_t field = 0, type = 0;
                if (!w.next(field, type)) return fail(w.error());
                const uint32_t wanted = initializers ? onnx::GraphProto::kInitializerFieldNumber
                                                     : onnx::GraphProto::kNodeFieldNumber;
                if (field != wanted || type != kLength) {
                    if (!w.skip(type)) return fail(w.error());
                    continue;
                }
                Span item;
                if (!w.length(item)) return fail(w.error());
                const bool ok = initializers ? initializer(item, scope, prefix, index) : node(item, scope, prefix, depth, index);
                if (!ok) return false;
                ++index;
            }
        }
        return true;
    }

    bool initializer(Span span, int scope, const std::string& prefix, size_t index) {
        Place here(*this, "initializer " + std::to_string(index));
        StoredTensor t;
        t.origin = prefix + "initializer";
        t.scope = scope;
        if (!tensor(span, t)) return false;
        if (t.name.empty()) t.name = "initializer " + std::to_string(index);
        return add(std::move(t));
    }

    bool add(StoredTensor t) {
        if (listing_.tensors.size() >= kMaxTensors)
            return fail("more than " + std::to_string(kMaxTensors) + " tensors");
        listing_.tensors.push_back(std::move(t));
        return true;
    }

    bool tensor(Span span, StoredTensor& t) {
        t.message = span;
        Wire w(whole_, span);
        bool tooManyDims = false;
        const auto wireFail = [&](const std::string& e) {  // named once the name has been read
            return fail(t.name.empty() ? e : "tensor '" + t.name + "': " + e);
        };
        while (!w.atEnd()) {
            uint32_t field = 0, type = 0;
            if (!w.next(field, type)) return wireFail(w.error());
            uint64_t v = 0;
            Span s;
            switch (field) {
            case onnx::TensorProto::kDimsFieldNumber:
                if (type == kVarint) {
                    if (!w.varint(v)) return wireFail(w.error());
                    tooManyDims |= !addDim(t.dims, v);
                } else if (type == kLength) {  // packed
                    if (!w.length(s)) return wireFail(w.error());
                    Wire packed(whole_, s);
                    while (!packed.atEnd()) {
                        if (!packed.varint(v)) return wireFail(packed.error());
                        tooManyDims |= !addDim(t.dims, v);
                    }
                } else if (!w.skip(type)) {
                    return wireFail(w.error());
                }
                continue;
            case onnx::TensorProto::kDataTypeFieldNumber:
                if (type != kVarint) break;
                if (!w.varint(v)) return wireFail(w.error());
                t.data_type = static_cast<int32_t>(v);
                continue;
            case onnx::TensorProto::kNameFieldNumber:
                if (type != kLength) break;
                if (!w.string(whole_, t.name)) return wireFail(w.error());
                continue;
            case onnx::TensorProto::kRawDataFieldNumber:
                if (type != kLength) break;
                if (!w.length(s)) return wireFail(w.error());
                t.raw_data = s;
                continue;
            case onnx::TensorProto::kDataLocationFieldNumber:
                if (type != kVarint) break;
                if (!w.varint(v)) return wireFail(w.error());
                t.external = v == onnx::TensorProto::EXTERNAL;
                continue;
            case onnx::TensorProto::kExternalDataFieldNumber:
                if (type != kLength) break;
                if (!w.length(s)) return wireFail(w.error());
                if (!externalEntry(s, t)) return false;
                continue;
            default: break;
            }
            if (!w.skip(type)) return wireFail(w.error());
        }
        if (tooManyDims)
            return fail("tensor '" + t.name + "' has more than " + std::to_string(kMaxRank) + " dimensions");
        return true;
    }

    static bool addDim(Shape& dims, uint64_t v) {
        if (dims.size() >= kMaxRank) return false;
        dims.push_back(static_cast<int64_t>(v));  // a negative dim arrives as its two's complement
        return true;
    }

    bool externalEntry(Span span, StoredTensor& t) {
        if (t.external_data.size() >= kMaxExternalEntries)
            return fail("tensor '" + t.name + "' has more than " + std::to_string(kMaxExternalEntries) +
                        " external_data entries");
        std::pair<std::string, std::string> entry;
        Wire w(whole_, span);
        while (!w.atEnd()) {
            uint32_t field = 0, type = 0;
            if (!w.next(field, type)) return fail(w.error());
            const bool key = field == onnx::StringStringEntryProto::kKeyFieldNumber;
            const bool value = field == onnx::StringStringEntryProto::kValueFieldNumber;
            if ((key || value) && type == kLength) {
                if (!w.string(whole_, key ? entry.first : entry.second, kMaxExternalString))
                    return fail("external_data of tensor '" + t.name + "': " + w.error());
            } else if (!w.skip(type)) {
                return fail(w.error());
            }
        }
        t.external_data.push_back(std::move(entry));
        return true;
    }

    bool node(Span span, int scope, const std::string& prefix, int depth, size_t index) {
        // Pass 1: the node's strings (op_type may follow the attributes on the wire).
        std::string opType, name, domain, output;
        std::vector<std::string> inputs;
        {
            Place here(*this, "node " + std::to_string(index));
            Wire w(whole_, span);
            bool sawOutput = false;
            while (!w.atEnd()) {
                uint32_t field = 0, type = 0;
                if (!w.next(field, type)) return fail(w.error());
                std::string* into = nullptr;
                if (type == kLength) {
                    if (field == onnx::NodeProto::kOpTypeFieldNumber) into = &opType;
                    else if (field == onnx::NodeProto::kNameFieldNumber) into = &name;
                    else if (field == onnx::NodeProto::kDomainFieldNumber) into = &domain;
                    else if (field == onnx::NodeProto::kOutputFieldNumber && !sawOutput) into = &output, sawOutput = true;
                    else if (field == onnx::NodeProto::kInputFieldNumber && inputs.size() < kKeptInputs)
                        into = &inputs.emplace_back();
                }
                if (!(into ? w.string(whole_, *into) : w.skip(type))) return fail(w.error());
            }
        }
        Place here(*this, "node " + std::to_string(index) + (name.empty() ? "" : " '" + shortText(name) + "'"));
        const bool constant = opType == "Constant" && isDefaultDomain(domain);
        const std::string nodeLabel = shortText(opType) + (name.empty() ? "" : " '" + shortText(name) + "'");
        const bool use = isWeightUse(opType) && (isDefaultDomain(domain) || domain == "com.microsoft") &&
                         listing_.uses.size() < kMaxUses;
        NodeUse nodeUse;
        // Pass 2: the attributes.
        Wire w(whole_, span);
        while (!w.atEnd()) {
            uint32_t field = 0, type = 0;
            if (!w.next(field, type)) return fail(w.error());
            if (field != onnx::NodeProto::kAttributeFieldNumber || type != kLength) {
                if (!w.skip(type)) return fail(w.error());
                continue;
            }
            Span attrSpan;
            if (!w.length(attrSpan)) return fail(w.error());
            Attribute a;
            if (!attribute(attrSpan, a)) return false;
            if (constant && !constantValue(attrSpan, a, scope, prefix, name, output)) return false;
            if (use && a.name == "axis" && a.i) nodeUse.axis = a.i;
            if (use && a.name == "transB" && a.i) nodeUse.trans_b = *a.i;
            if (!subgraphs(attrSpan, a.name, scope, prefix + nodeLabel + " " + shortText(a.name), depth)) return false;
        }
        if (use) {
            nodeUse.op_type = std::move(opType);
            nodeUse.inputs = std::move(inputs);
            nodeUse.output = std::move(output);
            nodeUse.scope = scope;
            listing_.uses.push_back(std::move(nodeUse));
        }
        return true;
    }

    bool attribute(Span span, Attribute& a) {
        Wire w(whole_, span);
        while (!w.atEnd()) {
            uint32_t field = 0, type = 0;
            if (!w.next(field, type)) return fail(attributeError(a, w.error()));
            uint64_t v = 0;
            uint32_t f32 = 0;
            Span s;
            bool ok = true;
            if (field == onnx::AttributeProto::kNameFieldNumber && type == kLength) {
                ok = w.string(whole_, a.name);
            } else if (field == onnx::AttributeProto::kIFieldNumber && type == kVarint) {
                ok = w.varint(v);
                a.i = static_cast<int64_t>(v);
            } else if (field == onnx::AttributeProto::kTypeFieldNumber && type == kVarint) {
                ok = w.varint(v);
                a.type = static_cast<int64_t>(v);
            } else if (field == onnx::AttributeProto::kFFieldNumber && type == kFixed32) {
                ok = w.fixed32(f32);
                a.has_f = true;
            } else if (field == onnx::AttributeProto::kSFieldNumber && type == kLength) {
                ok = w.length(s);
                a.has_s = true;
            } else if (field == onnx::AttributeProto::kTFieldNumber && type == kLength) {
                ok = w.length(s);
                a.t = s;
            } else if (field == onnx::AttributeProto::kStringsFieldNumber && type == kLength) {
                ok = w.length(s);
                ++a.strings;
            } else if (field == onnx::AttributeProto::kFloatsFieldNumber && type == kFixed32) {
                ok = w.fixed32(f32);
                ++a.floats;
            } else if (field == onnx::AttributeProto::kFloatsFieldNumber && type == kLength) {  // packed
                ok = w.length(s);
                if (ok && s.length % 4 != 0)
                    return fail(attributeError(a, "packed floats of " + std::to_string(s.length) +
                                                      " bytes, not a multiple of 4 (byte " + std::to_string(s.offset) + ")"));
                a.floats += s.length / 4;
            } else if (field == onnx::AttributeProto::kIntsFieldNumber && type == kVarint) {
                ok = w.varint(v);
                ++a.ints;
            } else if (field == onnx::AttributeProto::kIntsFieldNumber && type == kLength) {  // packed
                ok = w.length(s);
                for (Wire packed(whole_, s); ok && !packed.atEnd(); ++a.ints)
                    if (!packed.varint(v)) return fail(attributeError(a, packed.error()));
            } else {
                ok = w.skip(type);
            }
            if (!ok) return fail(attributeError(a, w.error()));
        }
        return true;
    }

    static std::string attributeError(const Attribute& a, const std::string& what) {
        return "attribute" + (a.name.empty() ? std::string() : " '" + a.name + "'") + ": " + what;
    }

    // A Constant node's value, listed under the node's output name.
    bool constantValue(Span attrSpan, const Attribute& a, int scope, const std::string& prefix,
                       const std::string& nodeName, const std::string& output) {
        StoredTensor t;
        t.name = !output.empty() ? output : !nodeName.empty() ? nodeName : "Constant " + std::to_string(listing_.tensors.size());
        t.origin = prefix + "Constant node" + (nodeName.empty() ? "" : " '" + shortText(nodeName) + "'");
        t.scope = scope;
        t.message = attrSpan;
        const auto count = [](uint64_t n) { return static_cast<int64_t>(n); };
        if (a.name == "value" && a.t) {
            Place here(*this, "attribute 'value'");
            const std::string name = t.name;
            if (!tensor(*a.t, t)) return false;
            t.name = name;  // the node's output, not the TensorProto's own name
        } else if (a.name == "value_float" && a.has_f) {
            t.source = Source::AttrFloat;
            t.data_type = kFloat;
        } else if (a.name == "value_floats") {
            t.source = Source::AttrFloats;
            t.data_type = kFloat;
            t.dims = {count(a.floats)};
        } else if (a.name == "value_int" && a.i) {
            t.source = Source::AttrInt;
            t.data_type = kInt64;
        } else if (a.name == "value_ints") {
            t.source = Source::AttrInts;
            t.data_type = kInt64;
            t.dims = {count(a.ints)};
        } else if (a.name == "value_string" && a.has_s) {
            t.source = Source::AttrStrings;
            t.data_type = kString;
        } else if (a.name == "value_strings") {
            t.source = Source::AttrStrings;
            t.data_type = kString;
            t.dims = {count(a.strings)};
        } else {
            return true;  // sparse_value, or an attribute that is not the value
        }
        return add(std::move(t));
    }

    // The graphs of a graph-valued attribute (g, or each of graphs).
    bool subgraphs(Span attrSpan, const std::string& attrName, int scope, const std::string& prefix, int depth) {
        Wire w(whole_, attrSpan);
        size_t k = 0;
        while (!w.atEnd()) {
            uint32_t field = 0, type = 0;
            if (!w.next(field, type)) return fail(w.error());
            const bool single = field == onnx::AttributeProto::kGFieldNumber;
            const bool many = field == onnx::AttributeProto::kGraphsFieldNumber;
            if (!(single || many) || type != kLength) {
                if (!w.skip(type)) return fail(w.error());
                continue;
            }
            Span g;
            if (!w.length(g)) return fail(w.error());
            const std::string label = keepTail(many ? prefix + " " + std::to_string(k++) : prefix);
            Place here(*this, "attribute '" + attrName + "'");
            if (!graph(g, scope, label + " \u203a ", depth + 1)) return false;
        }
        return true;
    }

    std::string_view whole_;
    Listing listing_;
    std::vector<std::string> place_;
    std::string error_;
};

bool fitsProtobuf(std::string_view bytes) { return bytes.size() <= static_cast<size_t>(INT_MAX); }

}  // namespace

Result<Listing> listModel(std::string_view bytes) {
    if (!fitsProtobuf(bytes))
        return Error{"DataError", "larger than 2 GiB, more than a protobuf message can hold (ONNX keeps such "
                                  "models' weights in external data files)"};
    Walker walker(bytes);
    if (!walker.model({0, bytes.size()})) return Error{"DataError", walker.error()};
    return std::move(walker.listing());
}

Result<StoredTensor> listTensorProto(std::string_view bytes) {
    if (!fitsProtobuf(bytes)) return Error{"DataError", "larger than 2 GiB, more than a TensorProto can hold"};
    Walker walker(bytes);
    StoredTensor t;
    if (!walker.tensorFile({0, bytes.size()}, t)) return Error{"DataError", walker.error()};
    return t;
}

}  // namespace qs::modelfile::onnx_wire
