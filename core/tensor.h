// Tensors as the ops see them: a flat row-major buffer plus a shape. The ops never own
// their inputs and write into caller-owned outputs, so the GUI can reuse allocations and
// the benchmark measures arithmetic, not malloc.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace qs {

using Shape = std::vector<int64_t>;

// The element count of a shape, or nullopt when a dimension is negative or the product of
// the dimensions does not fit in int64_t. Shapes come from files and JSON cases, so the
// product must never be formed unchecked ([2^32, 2^32, 2] overflows).
inline std::optional<int64_t> checkedNumElements(const Shape& s) {
    int64_t n = 1;
    for (int64_t d : s) {
        if (d < 0 || __builtin_mul_overflow(n, d, &n)) return std::nullopt;
    }
    return n;
}

// The element count, or -1 (which equals no buffer size) for a shape checkedNumElements
// refuses, so "numElements(shape) != values.size()" rejects such shapes too.
inline int64_t numElements(const Shape& s) { return checkedNumElements(s).value_or(-1); }

// "[2,3,4]" — how TF prints a shape in its messages.
std::string shapeString(const Shape& s);

template <typename T>
struct TensorRef {
    std::span<const T> data;
    Shape shape;
    int rank() const { return static_cast<int>(shape.size()); }
    int64_t size() const { return static_cast<int64_t>(data.size()); }
};

// A rank-0 view of one value (the range arguments of the ops are often scalars).
template <typename T>
TensorRef<T> scalarRef(const T& v) { return {std::span<const T>(&v, 1), {}}; }

// Per-axis layout (spec 0.8): the tensor viewed as [pre, depth, post]; flat element i
// belongs to slice (i / post) % depth. With axis -1 (or any axis < 0 given to a kernel
// that treats it as per-tensor) the layout is [1, 1, n].
struct SliceLayout {
    int64_t pre = 1, depth = 1, post = 0;
    static SliceLayout perTensor(int64_t n) { return {1, 1, n}; }
    static SliceLayout along(const Shape& shape, int axis);  // 0 <= axis < rank
    int64_t sliceOf(int64_t flat) const { return (flat / post) % depth; }
    int64_t blocks() const { return pre * depth; }  // contiguous runs of `post` elements
};

// Runs fn(begin, end) over [0, n) split into at most `threads` contiguous chunks, on
// std::threads (the calling thread takes the first chunk). threads <= 1 runs inline.
// Each chunk holds at least minPerThread items (below that, threads cost more than they
// save); for element loops (minPerThread >= 16) chunk edges are multiples of 16 so vectors
// stay aligned. The workers come from the process's ThreadBudget (core/thread_budget.h):
// overlapping calls share the cores, and a call finding none free runs on its caller alone.
// Results never depend on the split.
struct Exec {
    int threads = 1;
    static Exec allCores();
};

inline constexpr int64_t kParallelMinPerThread = int64_t{1} << 16;  // elements of a vector loop

template <typename Fn>
void parallelFor(const Exec& exec, int64_t n, int64_t minPerThread, Fn&& fn);
template <typename Fn>
void parallelFor(const Exec& exec, int64_t n, Fn&& fn);  // minPerThread = kParallelMinPerThread

// For items (tiles, blocks) whose results do not depend on which thread takes them: runs
// body(claim) once on each of as many threads as parallelFor would use (the caller's one of
// them), and each thread calls claim(k) to take the next unclaimed item k of [0, n), until
// it returns false. A thread that runs slower, its CPU shared with other work (in the GUI,
// the views drawing the previous result), takes fewer items; with parallelFor's fixed
// halves the whole waited for the slowed one.
template <typename Body>
void parallelClaim(const Exec& exec, int64_t n, int64_t minPerThread, Body&& body);

}  // namespace qs

#include "core/parallel_for.inl"
