#include "core/modelfile/hdf5_groups.h"

#include <set>
#include <utility>

#include "core/modelfile/hdf5_dense_links.h"
#include "core/modelfile/hdf5_messages.h"

namespace qs::modelfile::hdf5 {
namespace {

// Keras nests three levels (model_weights/LAYER/LAYER/kernel:0); a hostile file could
// nest thousands of distinct groups to exhaust the stack.
constexpr int kMaxDepth = 64;
// Names of groups and datasets are short (HDF5 allows any length; Keras' are a few dozen bytes).
constexpr size_t kMaxName = 64 * 1024;

using Members = std::vector<std::pair<std::string, uint64_t>>;  // name, object header address

class Walker {
public:
    Walker(const File& file, Budget& budget) : file_(file), budget_(budget) {}

    void object(uint64_t address, const std::string& path, int depth) {
        ObjectHeader header = readObjectHeader(file_, address, budget_);
        const bool group = header.find(kSymbolTable) || header.find(kLinkInfo) || header.find(kLink);
        if (!group) {
            // Paths cost what they hold: many links to one dataset under long names could
            // otherwise fill memory with names.
            budget_.spend(1 + path.size() / 16);
            if (header.find(kLayout)) datasets_.push_back({path, std::move(header)});
            else if (depth == 0) fail("the root object at " + byteAt(address) + " is not a group");
            return;  // committed datatypes and other objects hold no data
        }
        if (!groups_.insert(address).second) return;  // reached again through another hard link
        const std::string name = path.empty() ? "the root group" : "group '" + path + "'";
        if (depth >= kMaxDepth) fail(name + " is nested deeper than " + std::to_string(kMaxDepth) + " groups");
        for (const auto& [member, memberAddress] : members(header, name)) {
            if (member.empty()) continue;
            object(memberAddress, path.empty() ? member : path + "/" + member, depth + 1);
        }
    }

    std::vector<DatasetHeader> take() { return std::move(datasets_); }

private:
    Members members(const ObjectHeader& header, const std::string& name) {
        Members out;
        for (const Message& m : header.messages) {
            if (m.type == kSymbolTable) {
                symbolTable(readSymbolTable(file_, m.data), name, out);
            } else if (m.type == kLinkInfo) {
                const LinkInfo info = readLinkInfo(file_, m.data);
                if (info.heap == kUndefined) continue;  // compact: link messages follow
                for (Link& link : readDenseLinks(file_, info, budget_, name))
                    if (link.hard) out.emplace_back(std::move(link.name), link.address);
            } else if (m.type == kLink) {
                Link link = readLink(file_, m.data);
                if (link.hard) out.emplace_back(std::move(link.name), link.address);
            }
        }
        return out;
    }

    // Old-style group: a local heap holds the names; a version 1 B-tree leads to symbol
    // table nodes listing the members.
    void symbolTable(const SymbolTable& table, const std::string& name, Members& out) {
        const std::string heapWhat = "the local heap of " + name;
        Cursor heap = file_.at(table.heap, heapWhat);
        heap.expect("HEAP");
        heap.skip(4);  // version, reserved
        const uint64_t size = heap.length();
        heap.length();  // free list
        const std::string_view names = file_.span(heap.address(), size, heapWhat);
        btreeNode(table.btree, -1, names, name, out);
    }

    // `level` is what the parent promised (-1 for the root node): one less than its own.
    void btreeNode(uint64_t address, int level, std::string_view names, const std::string& name, Members& out) {
        if (address == kUndefined) return;  // an empty group
        BTreeNode node = readBTreeNode(file_, address, 0, level, nodes_, "a B-tree node of " + name);
        Cursor& c = node.entries;
        for (int i = 0; i < node.count; ++i) {
            budget_.spend();
            c.length();  // key: the heap offset of the last name below
            const uint64_t child = c.address();
            if (node.level == 0) symbolNode(child, names, name, out);
            else btreeNode(child, node.level - 1, names, name, out);
        }
    }

    void symbolNode(uint64_t address, std::string_view names, const std::string& name, Members& out) {
        const std::string what = "a symbol table node of " + name;
        if (!nodes_.insert(address).second) fail(what + " at " + byteAt(address) + " is reached twice");
        Cursor c = file_.at(address, what);
        c.expect("SNOD");
        c.skip(2);  // version, reserved
        const uint16_t count = c.u16();
        for (int i = 0; i < count; ++i) {
            budget_.spend();
            const uint64_t nameOffset = c.address();  // an offset into the heap, address-sized
            const uint64_t header = c.address();
            c.skip(24);  // cache type, reserved, scratch pad
            if (nameOffset >= names.size())
                fail(what + " names a member at heap offset " + std::to_string(nameOffset) + ", past the heap's " +
                     std::to_string(names.size()) + " bytes");
            const std::string_view rest = names.substr(nameOffset, kMaxName + 1);
            const size_t end = rest.find('\0');
            if (end == std::string_view::npos)
                fail(what + ": a member's name runs past the end of the heap or past " + std::to_string(kMaxName) + " bytes");
            budget_.spend(1 + end / 64);  // long names cost: a hostile heap could make every search long
            out.emplace_back(std::string(rest.substr(0, end)), header);
        }
    }

    const File& file_;
    Budget& budget_;
    std::set<uint64_t> groups_, nodes_;
    std::vector<DatasetHeader> datasets_;
};

}  // namespace

std::vector<DatasetHeader> findDatasets(const File& file, Budget& budget) {
    Walker walker(file, budget);
    walker.object(file.rootHeader, "", 0);
    return walker.take();
}

}  // namespace qs::modelfile::hdf5
