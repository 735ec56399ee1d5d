#include "core/modelfile/flatbuffer_tables.h"

#include <algorithm>

namespace qs::modelfile {
namespace {

flatbuffers::Verifier::Options verifierOptions(uint32_t maxTables) {
    flatbuffers::Verifier::Options options;
    // No reader here follows more than a few levels of tables, and each is verified on its own.
    options.max_depth = 16;
    options.max_tables = maxTables;
    options.check_alignment = true;  // so that reads of scalars are aligned (UBSan-clean)
    options.check_nested_flatbuffers = false;
    return options;
}

uint32_t readU32(const uint8_t* base, uint64_t at) {
    return flatbuffers::ReadScalar<uint32_t>(base + at);
}

size_t verifiedLength(std::string_view bytes) {
    // The Verifier asserts its buffer is below FLATBUFFERS_MAX_BUFFER_SIZE; every offset of
    // the flatbuffer itself is below that anyway.
    return std::min<size_t>(bytes.size(), FLATBUFFERS_MAX_BUFFER_SIZE - 1);
}

}  // namespace

VerifiedFlatBuffer::VerifiedFlatBuffer(std::string_view bytes, uint32_t maxTables)
    : base_(reinterpret_cast<const uint8_t*>(bytes.data())),
      size_(verifiedLength(bytes)),
      verifier_(base_, size_, verifierOptions(maxTables)) {}

bool VerifiedFlatBuffer::verifyTableStart(const Table* t) {
    // Each table is verified where it is reached rather than recursively, so the depth the
    // verifier counts is given back at once; the count of tables keeps growing.
    if (!t->VerifyTableStart(verifier_)) return false;
    verifier_.EndTable();
    return true;
}

// The reach of a failed check is read with bounds checks of its own: the bytes it reads
// failed verification, so only what lies inside the buffer is read, and only to say how far
// past its end the flatbuffer would go.
void VerifiedFlatBuffer::noteTableReach(uint64_t at) {
    if (at + 4 > size_) return noteReach(at + 4);
    const auto soffset = static_cast<int32_t>(readU32(base_, at));
    const int64_t vtable = static_cast<int64_t>(at) - soffset;
    if (vtable < 0) return;
    const auto vt = static_cast<uint64_t>(vtable);
    if (vt + 4 > size_) return noteReach(vt + 4);
    const auto vtableSize = flatbuffers::ReadScalar<flatbuffers::voffset_t>(base_ + vt);
    const auto tableSize = flatbuffers::ReadScalar<flatbuffers::voffset_t>(base_ + vt + 2);
    noteReach(std::max<uint64_t>(vt + vtableSize, at + tableSize));
}

void VerifiedFlatBuffer::noteReach(const Table* t, flatbuffers::voffset_t field, size_t elementSize) {
    // `t` passed verifyTableStart: its vtable, which says where the field is, is inside.
    const flatbuffers::voffset_t fieldOffset = t->GetOptionalFieldOffset(field);
    if (fieldOffset == 0) return;
    const uint64_t slot = offsetOf(t) + fieldOffset;
    if (slot + 4 > size_) return noteReach(slot + 4);
    const uint64_t target = slot + readU32(base_, slot);
    if (elementSize == 0) return noteTableReach(target);
    if (target + 4 > size_) return noteReach(target + 4);
    noteReach(target + 4 + uint64_t{readU32(base_, target)} * elementSize);
}

const VerifiedFlatBuffer::Table* VerifiedFlatBuffer::root(const char* identifier) {
    if (size_ < 2 * sizeof(flatbuffers::uoffset_t) || !flatbuffers::BufferHasIdentifier(base_, identifier))
        return fail<Table>();
    const flatbuffers::uoffset_t offset = verifier_.VerifyOffset(0);
    if (offset == 0) {
        noteTableReach(readU32(base_, 0));
        return fail<Table>();
    }
    const auto* t = reinterpret_cast<const Table*>(base_ + offset);
    if (verifyTableStart(t)) return t;
    noteTableReach(offset);
    return fail<Table>();
}

const VerifiedFlatBuffer::Table* VerifiedFlatBuffer::table(const Table* t, flatbuffers::voffset_t field) {
    if (!ok_ || !t->VerifyOffset(verifier_, field)) return failAt<Table>(t, field, 0);
    const auto* sub = t->GetPointer<const Table*>(field);
    if (!sub) return nullptr;
    return verifyTableStart(sub) ? sub : failAt<Table>(t, field, 0);
}

const VerifiedFlatBuffer::TableVector* VerifiedFlatBuffer::tables(const Table* t, flatbuffers::voffset_t field) {
    return vector<flatbuffers::Offset<Table>>(t, field);
}

const VerifiedFlatBuffer::Table* VerifiedFlatBuffer::tableAt(const TableVector* v, uint32_t i) {
    if (!ok_ || i >= v->size()) return fail<Table>();
    // The element is an offset relative to its own position in the vector.
    const auto* element = reinterpret_cast<const uint8_t*>(v->Data()) + size_t{i} * sizeof(flatbuffers::uoffset_t);
    const flatbuffers::uoffset_t offset = verifier_.VerifyOffset(offsetOf(element));
    if (offset == 0) {
        noteTableReach(offsetOf(element) + readU32(base_, offsetOf(element)));
        return fail<Table>();
    }
    const auto* t = reinterpret_cast<const Table*>(element + offset);
    if (verifyTableStart(t)) return t;
    noteTableReach(offsetOf(t));
    return fail<Table>();
}

const flatbuffers::String* VerifiedFlatBuffer::string(const Table* t, flatbuffers::voffset_t field) {
    if (!ok_ || !t->VerifyOffset(verifier_, field)) return failAt<flatbuffers::String>(t, field, 1);
    const auto* s = t->GetPointer<const flatbuffers::String*>(field);
    return verifier_.VerifyString(s) ? s : failAt<flatbuffers::String>(t, field, 1);
}

}  // namespace qs::modelfile
