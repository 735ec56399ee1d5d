// Reading a FlatBuffer without its generated code: FlatBuffers' generic Table API, with every
// table, vector and string checked by a flatbuffers::Verifier before it is read. A reader
// names only the fields it reads, by their ids in the format's published .fbs schema.
// Anything that fails a check reads as absent-and-broken (nullptr + !ok()), so a hostile file
// can only produce an error, never an out-of-bounds read.
#pragma once

#include <flatbuffers/flatbuffers.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <string_view>

namespace qs::modelfile {

// A field's id in the schema → its slot in the table's vtable (two voffset_t header
// entries, then one per field id). A union field takes two ids: its type byte, then its value.
constexpr flatbuffers::voffset_t fieldSlot(int id) { return static_cast<flatbuffers::voffset_t>(4 + 2 * id); }

class VerifiedFlatBuffer {
public:
    using Table = flatbuffers::Table;
    template <typename T>
    using Vector = flatbuffers::Vector<T>;
    using TableVector = Vector<flatbuffers::Offset<Table>>;

    // `bytes` may be longer than the flatbuffer (TFLite stores big buffers after it); only
    // its first 2 GiB can hold the flatbuffer (32-bit offsets), so only they are verified.
    // `maxTables` bounds how many tables one file may make us look at (shared sub-tables
    // count each time they are reached).
    VerifiedFlatBuffer(std::string_view bytes, uint32_t maxTables);

    // The root table, after checking the 4-byte file identifier; nullptr when either fails.
    const Table* root(const char* identifier);

    // Offsets inside a verified table. nullptr when the field is absent or fails verification;
    // failed() tells the two apart.
    const Table* table(const Table* t, flatbuffers::voffset_t field);
    const TableVector* tables(const Table* t, flatbuffers::voffset_t field);
    const Table* tableAt(const TableVector* v, uint32_t i);  // element i, verified
    const flatbuffers::String* string(const Table* t, flatbuffers::voffset_t field);
    template <typename T>
    const Vector<T>* vector(const Table* t, flatbuffers::voffset_t field) {
        if (!ok_ || !t->VerifyOffset(verifier_, field)) return failAt<Vector<T>>(t, field, sizeof(T));
        const auto* v = t->GetPointer<const Vector<T>*>(field);
        return verifier_.VerifyVector(v) ? v : failAt<Vector<T>>(t, field, sizeof(T));
    }
    // A scalar field (its default when absent).
    template <typename T>
    T scalar(const Table* t, flatbuffers::voffset_t field, T defaultValue) {
        if (!ok_ || !t->VerifyField<T>(verifier_, field, sizeof(T))) {
            ok_ = false;
            return defaultValue;
        }
        return t->GetField<T>(field, defaultValue);
    }
    // Whether a field is present (no read of its value: safe on any verified table).
    static bool has(const Table* t, flatbuffers::voffset_t field) { return t->CheckField(field); }

    bool failed() const { return !ok_; }
    // How many bytes the flatbuffer needs at least, as far as a check that failed could tell
    // (an offset, a vector or a table reaching past the end): above the size of the bytes
    // when the file is cut short; 0 when no check ran past the end.
    uint64_t bytesNeeded() const { return needed_; }
    uint64_t size() const { return size_; }
    // Where a pointer into the verified bytes sits, from the start of `bytes`.
    size_t offsetOf(const void* p) const { return static_cast<size_t>(static_cast<const uint8_t*>(p) - base_); }

private:
    template <typename T>
    const T* fail() {
        ok_ = false;
        return nullptr;
    }
    bool verifyTableStart(const Table* t);
    // fail(), noting how far the field's offset (and the vector of `elementSize`-byte
    // elements it points at) reaches when that is past the end.
    template <typename T>
    const T* failAt(const Table* t, flatbuffers::voffset_t field, size_t elementSize) {
        noteReach(t, field, elementSize);
        return fail<T>();
    }
    void noteReach(const Table* t, flatbuffers::voffset_t field, size_t elementSize);
    void noteReach(uint64_t end) { needed_ = std::max(needed_, end); }
    // The table at `at` (its start read, as far as it lies inside): where it and its vtable end.
    void noteTableReach(uint64_t at);

    const uint8_t* base_;
    size_t size_;
    flatbuffers::Verifier verifier_;
    bool ok_ = true;
    uint64_t needed_ = 0;
};

}  // namespace qs::modelfile
