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

const VerifiedFlatBuffer::Table* VerifiedFlatBuffer::root(const char* identifier) {
    if (size_ < 2 * sizeof(flatbuffers::uoffset_t) || !flatbuffers::BufferHasIdentifier(base_, identifier))
        return fail<Table>();
    const flatbuffers::uoffset_t offset = verifier_.VerifyOffset(0);
    if (offset == 0) return fail<Table>();
    const auto* t = reinterpret_cast<const Table*>(base_ + offset);
    return verifyTableStart(t) ? t : fail<Table>();
}

const VerifiedFlatBuffer::Table* VerifiedFlatBuffer::table(const Table* t, flatbuffers::voffset_t field) {
    if (!ok_ || !t->VerifyOffset(verifier_, field)) return fail<Table>();
    const auto* sub = t->GetPointer<const Table*>(field);
    if (!sub) return nullptr;
    return verifyTableStart(sub) ? sub : fail<Table>();
}

const VerifiedFlatBuffer::TableVector* VerifiedFlatBuffer::tables(const Table* t, flatbuffers::voffset_t field) {
    return vector<flatbuffers::Offset<Table>>(t, field);
}

const VerifiedFlatBuffer::Table* VerifiedFlatBuffer::tableAt(const TableVector* v, uint32_t i) {
    if (!ok_ || i >= v->size()) return fail<Table>();
    // The element is an offset relative to its own position in the vector.
    const auto* element = reinterpret_cast<const uint8_t*>(v->Data()) + size_t{i} * sizeof(flatbuffers::uoffset_t);
    const flatbuffers::uoffset_t offset = verifier_.VerifyOffset(offsetOf(element));
    if (offset == 0) return fail<Table>();
    const auto* t = reinterpret_cast<const Table*>(element + offset);
    return verifyTableStart(t) ? t : fail<Table>();
}

const flatbuffers::String* VerifiedFlatBuffer::string(const Table* t, flatbuffers::voffset_t field) {
    if (!ok_ || !t->VerifyOffset(verifier_, field)) return fail<flatbuffers::String>();
    const auto* s = t->GetPointer<const flatbuffers::String*>(field);
    return verifier_.VerifyString(s) ? s : fail<flatbuffers::String>();
}

}  // namespace qs::modelfile
