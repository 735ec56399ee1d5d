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
        // The common case, a level seen before, is at one of its two slots: two loads and
        // one well-predicted branch. (With one slot, a frequent level that collided at
        // insertion, such as a clip level, missed every time.)
        const uint32_t* t = table_.data();
        if ((t[home(key)] == key) | (t[second(key)] == key)) return;
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
    // The table takes the low bits, and they must depend on every bit of the key: a 32-bit
    // product's low bits ignore the sign bit (so x and -x, like the two clip levels, always
    // collided) and quantized levels have many trailing zero mantissa bits.
    static size_t hash(uint32_t k) {
        return static_cast<size_t>((uint64_t{k} * 0x9E3779B97F4A7C15ull) >> 32);
    }
    size_t home(uint32_t k) const { return hash(k) & mask_; }
    size_t second(uint32_t k) const { return (hash(k) >> 16) & mask_; }
    // Into its home slot or its second slot when one is free, else the first free slot
    // after home. A key is therefore at one of the two or along the probe from home.
    bool contains(uint32_t key) const {
        for (size_t i = home(key);; i = (i + 1) & mask_) {
            if (table_[i] == key) return true;
            if (table_[i] == kEmpty) return table_[second(key)] == key;
        }
    }
    void place(uint32_t key) {
        size_t i = home(key);
        if (table_[i] != kEmpty) {
            const size_t j = second(key);
            if (table_[j] == kEmpty) i = j;
            else
                while (table_[i] != kEmpty) i = (i + 1) & mask_;
        }
        table_[i] = key;
    }
    void insert(uint32_t key) {
        if (key == kEmpty) return;  // the one pattern the table cannot hold (a NaN)
        if (contains(key)) return;
        place(key);
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
        for (uint32_t k : old)
            if (k != kEmpty) place(k);
    }
    std::vector<uint32_t> table_ = std::vector<uint32_t>(4096, kEmpty);
    size_t mask_ = 4095;
    size_t size_ = 0;
    bool overflowed_ = false;
};

}  // namespace qs::analysis
