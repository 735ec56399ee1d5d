// Counts distinct float values (-0 == +0, NaN never added) with a cuckoo hash set of their
// bit patterns (each value at one of two slots). Quantized outputs have few levels (256 for
// 8 bits), so the table stays in cache and a value costs a few loads, far less than
// sorting. Past kMaxTable / 4 distinct values (4M) it gives up (`overflowed`) and the caller
// counts by sorting instead. upTo() makes a small counter that stops at a given count.
// Counters of parts of the data merge into the count of the whole, whatever the split.
//
// Given the quantizer's grid (its levels lo + k·step, k < points), the counter puts a
// direct-mapped table in front of the hash set: each grid point's slot holds the first value
// seen nearest to it. A value equal to its slot's costs one load and no hash; the hash set
// takes only values whose slot holds another value (off-grid outputs, other channels'
// levels). Which slot a value goes to is a fixed function of the value, so a value lives in
// one place only and the count stays exact for any grid; a good grid only makes it faster
// (16-bit levels: a 256 KB table instead of a 1 MB hash set probed twice).
#pragma once

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

namespace qs {

class DistinctCounter {
public:
    DistinctCounter() = default;
    // With a grid in front: levels near lo + k·step, 0 <= k < points (at most kMaxGrid
    // slots are kept; past that the slots are spread over [lo, lo + (points - 1)·step]).
    // (No name here may be "slots": Qt defines it as a macro, and a test includes both.)
    DistinctCounter(double lo, double step, int64_t points) {
        if (!(points > 1) || !std::isfinite(lo) || !std::isfinite(step) || !(step != 0)) return;
        const int64_t gridSize = std::min(points, kMaxGrid);
        // In float: eight slots per AVX2 instruction. The slot only has to be a fixed function
        // of the value; rounding here at worst sends a level to a neighbouring slot.
        gridLo_ = static_cast<float>(lo);
        gridScale_ = static_cast<float>(static_cast<double>(gridSize - 1) / (static_cast<double>(points - 1) * step));
        if (!std::isfinite(gridLo_) || !std::isfinite(gridScale_)) return;
        gridLast_ = static_cast<float>(gridSize - 1);
        grid_.assign(static_cast<size_t>(gridSize), kEmpty);
    }

    // Counts at most `maxDistinct` values, allocating nothing until the first one and then a
    // small table: for many small sets (a model report's slices, most of which never hash a
    // value) whose count past the cap is not wanted. Past the cap it stops (`overflowed`).
    static DistinctCounter upTo(int64_t maxDistinct) { return DistinctCounter(Capped{maxDistinct}); }

    void add(float v) { addKey(keyOf(v)); }
    // The values y[k] whose pair (x[k], y[k]) has no NaN.
    [[gnu::always_inline]] void addPairs(const float* x, const float* y, int64_t n) {
        if (grid_.empty()) {
            addPairsToTable(x, y, n);
            return;
        }
        // Two phases per group: keys and slots (arithmetic only, vectorised), then one load
        // and a compare per value.
        constexpr int64_t kGroup = 256;
        uint32_t keys[kGroup], misses[kGroup];
        int32_t slotIndex[kGroup];
        const float lo = gridLo_, scale = gridScale_, last = gridLast_;
        for (int64_t g = 0; g < n; g += kGroup) {
            const int64_t m = std::min(n - g, kGroup);
            for (int64_t k = 0; k < m; ++k) {
                keys[k] = pairKey(x[g + k], y[g + k]);
                slotIndex[k] = slotOf(y[g + k], lo, scale, last);
            }
            // Whether any value of the group missed its slot, without a branch per value
            // (the branch made the check loop cost as much as everything else); only a group
            // with a miss (a new level, an off-grid value, a skipped pair) is walked again.
            // The walk tests the misses kept from the check (not the grid again, which for
            // 16-bit levels is out of L1), and looks at the grid only where one was, as an
            // earlier value of the group may have filled that slot meanwhile.
            const uint32_t* front = grid_.data();
            uint32_t missed = 0;
            for (int64_t k = 0; k < m; ++k) missed |= misses[k] = front[slotIndex[k]] ^ keys[k];
            if (missed == 0) continue;
            for (int64_t k = 0; k < m; ++k)
                if (misses[k] != 0 && keys[k] != kEmpty && grid_[static_cast<size_t>(slotIndex[k])] != keys[k])
                    addBehindGrid(keys[k], slotIndex[k]);
        }
    }
    // addPairs without a grid, in two phases per group, as with the grid: keys and their two
    // table slots (arithmetic only, vectorised), then whether every key sits at one of its two
    // slots, without a branch per value (a key is always at one of them: see place()). With a
    // branch per value the loop waited on each load, as the table is in L2 for thousands of
    // levels; without, the loads overlap. A group with a miss (a new value, a
    // skipped pair) is walked again; a slot computed before the table grew is stale, so the
    // walk takes addToTable's path.
    [[gnu::always_inline]] void addPairsToTable(const float* x, const float* y, int64_t n) {
        if (table_.empty()) startSmallTable();
        constexpr int64_t kGroup = 256;
        uint32_t keys[kGroup], homes[kGroup], seconds[kGroup];
        for (int64_t g = 0; g < n; g += kGroup) {
            const int64_t m = std::min(n - g, kGroup);
            const int shift = shift_;
            for (int64_t k = 0; k < m; ++k) {
                const uint32_t key = keys[k] = pairKey(x[g + k], y[g + k]);
                homes[k] = slotHash(key, kHomeFactor, shift);
                seconds[k] = slotHash(key, kSecondFactor, shift);
            }
            const uint32_t* t = table_.data();
            uint32_t missed = 0;
            for (int64_t k = 0; k < m; ++k) {
                // Zero where a slot holds the key; a skipped pair's key (kEmpty) finds an empty slot.
                homes[k] = std::min(t[homes[k]] ^ keys[k], t[seconds[k]] ^ keys[k]);
                missed |= homes[k];
            }
            if (missed == 0) continue;
            for (int64_t k = 0; k < m; ++k)
                if (homes[k] != 0) addKey(keys[k]);
        }
    }
    // Adds every value `other` has seen (its grid need not be this one's).
    void merge(const DistinctCounter& other) {
        if (other.overflowed_) overflowed_ = true;
        const bool sameGrid = other.grid_.size() == grid_.size() && other.gridLo_ == gridLo_ &&
                              other.gridScale_ == gridScale_;
        if (sameGrid) {  // a key has the same slot in both: slot by slot, no slot computed
            for (size_t s = 0; s < grid_.size(); ++s) {
                const uint32_t k = other.grid_[s];
                if (k == kEmpty || k == grid_[s]) continue;
                addBehindGrid(k, static_cast<int32_t>(s));
            }
        } else {
            for (uint32_t k : other.grid_)
                if (k != kEmpty) addKey(k);
        }
        for (uint32_t k : other.table_)
            if (k != kEmpty) addKey(k);
    }
    bool overflowed() const { return overflowed_; }
    int64_t count() const { return static_cast<int64_t>(size_ + gridSize_); }

private:
    static constexpr uint32_t kEmpty = 0xFFFFFFFFu;  // a NaN pattern, never a key
    static constexpr int64_t kMaxGrid = int64_t{1} << 16;

    static uint32_t keyOf(float v) {
        uint32_t key;
        std::memcpy(&key, &v, sizeof key);
        return (key & 0x7FFFFFFFu) == 0 ? 0 : key;  // -0 and +0 are the same level
    }
    // y's key, or kEmpty when the pair (x, y) is skipped (x or y NaN); without branches.
    static uint32_t pairKey(float xv, float yv) {
        return (xv != xv || yv != yv) ? kEmpty : keyOf(yv);
    }
    // The grid slot of a value: the nearest grid point, clamped (NaN never gets here as a
    // key; it is mapped to 0 so that the conversion is always defined).
    static int32_t slotOf(float v, float lo, float scale, float last) {
        float t = (v - lo) * scale + 0.5f;
        t = t > 0.0f ? t : 0.0f;  // NaN too
        t = t < last ? t : last;
        return static_cast<int32_t>(t);
    }
    void addKey(uint32_t key) {
        if (key == kEmpty) return;  // the one pattern neither table can hold (a NaN)
        if (grid_.empty()) {
            addToTable(key);
            return;
        }
        float v;
        std::memcpy(&v, &key, sizeof v);
        const int32_t slot = slotOf(v, gridLo_, gridScale_, gridLast_);
        if (grid_[static_cast<size_t>(slot)] != key) addBehindGrid(key, slot);
    }
    // A key not in its grid slot: the slot's first value if it is free, else the hash set.
    void addBehindGrid(uint32_t key, int32_t slot) {
        uint32_t& front = grid_[static_cast<size_t>(slot)];
        if (front == kEmpty) {
            front = key;
            ++gridSize_;
        } else {
            addToTable(key);
        }
    }
    void addToTable(uint32_t key) {
        if (table_.empty()) startSmallTable();  // an upTo() counter's first value
        // The common case, a level seen before, is at one of its two slots (it is never
        // elsewhere): two loads and one well-predicted branch.
        if (contains(key) || overflowed_) return;
        if (!place(key)) {  // `key` is now another value, left without a slot
            grow(key);
            if (overflowed_) return;
        }
        if (static_cast<int64_t>(++size_ + gridSize_) > maxDistinct_) {
            overflowed_ = true;
            return;
        }
        // At most a quarter full: a new value nearly always finds one of its two slots free
        // (place() moves others seldom). An eighth full, the table left the L2 cache.
        if (size_ * 4 > table_.size()) grow(kEmpty);
    }
    static constexpr size_t kMaxTable = size_t{1} << 24;
    static constexpr int kSmallTableBits = 6;  // upTo()'s first table: 64 slots
    struct Capped {
        int64_t max;
    };
    explicit DistinctCounter(Capped cap) : table_(), maxDistinct_(cap.max) {}
    [[gnu::noinline, gnu::cold]] void startSmallTable() {  // out of line: once per counter
        table_.assign(size_t{1} << kSmallTableBits, kEmpty);
        shift_ = 32 - kSmallTableBits;
    }
    static constexpr int kMaxMoves = 64;
    // Multiplicative hashing: the top bits of a 32-bit product, which depend on every bit of
    // the key (the low bits ignore the sign bit, so x and -x, like the two clip levels, would
    // always collide, and quantized levels have many trailing zero mantissa bits). One 32-bit
    // multiply per slot, eight keys per AVX2 instruction (a 64-bit product took six).
    static constexpr uint32_t kHomeFactor = 0x9E3779B1u, kSecondFactor = 0x85EBCA77u;
    static uint32_t slotHash(uint32_t k, uint32_t factor, int shift) { return (k * factor) >> shift; }
    size_t home(uint32_t k) const { return slotHash(k, kHomeFactor, shift_); }
    size_t second(uint32_t k) const { return slotHash(k, kSecondFactor, shift_); }
    // Cuckoo hashing: a key is always at its home or its second slot, so a lookup is two
    // loads and never a probe.
    bool contains(uint32_t key) const { return table_[home(key)] == key || table_[second(key)] == key; }
    // Puts a key that is not in the table into one of its slots: a free one, else it takes
    // its home and the key it displaces moves to that key's other slot, and so on. After
    // kMaxMoves displacements it gives up (false) with the key still without a slot in `key`.
    // (A key whose two slots coincide, like 0, moves back at once, and the key that displaced
    // it moves on instead.)
    bool place(uint32_t& key) {
        size_t at = home(key);
        if (table_[at] != kEmpty && table_[second(key)] == kEmpty) at = second(key);
        for (int moves = 0; moves < kMaxMoves; ++moves) {
            std::swap(key, table_[at]);
            if (key == kEmpty) return true;
            const size_t h = home(key);  // the displaced key was at `at`: its other slot
            at = h == at ? second(key) : h;
        }
        return false;
    }
    // Doubles the table (and `pending`, a key without a slot, unless kEmpty) until every key
    // has found one of its slots, or gives up past kMaxTable (the count is then unknown).
    void grow(uint32_t pending) {
        std::vector<uint32_t> keys;
        keys.reserve(size_ + 2);  // the counted keys, one just placed and `pending`
        for (uint32_t k : table_)
            if (k != kEmpty) keys.push_back(k);
        if (pending != kEmpty) keys.push_back(pending);
        for (size_t size = table_.size() * 2;; size *= 2) {
            if (size > kMaxTable) {
                overflowed_ = true;
                return;
            }
            table_.assign(size, kEmpty);
            shift_ = 32 - std::countr_zero(size);  // one more bit of the hash per doubling
            bool placed = true;
            for (uint32_t k : keys) {
                uint32_t homeless = k;
                if (!place(homeless)) {
                    placed = false;
                    break;
                }
            }
            if (placed) return;
        }
    }
    std::vector<uint32_t> table_ = std::vector<uint32_t>(4096, kEmpty);
    int shift_ = 32 - 12;  // 32 - log2(table size)
    size_t size_ = 0;
    int64_t maxDistinct_ = INT64_MAX;  // upTo()'s cap
    bool overflowed_ = false;
    std::vector<uint32_t> grid_;  // empty: no grid
    float gridLo_ = 0, gridScale_ = 0, gridLast_ = 0;
    size_t gridSize_ = 0;
};

}  // namespace qs
