// Shared plumbing of the elementwise kernels: run a per-slice function over a tensor's
// slices (spec 0.8), in parallel, and TF-style number printing for error messages.
#pragma once

#include <span>
#include <string>

#include "core/numeric/simd.h"  // QS_VECTOR_CLONES
#include "core/tensor.h"


namespace qs::detail {

// Calls fn(slice, begin, end) for contiguous runs [begin, end) of flat indices that all
// belong to `slice`. Per tensor, the whole range is split over threads; per axis, the
// [pre, depth, post] blocks are.
template <typename Fn>
void forEachSliceRun(const SliceLayout& layout, const Exec& exec, Fn&& fn) {
    if (layout.depth == 1) {
        parallelFor(exec, layout.pre * layout.post,
                    [&](int64_t b, int64_t e) { fn(int64_t{0}, b, e); });
        return;
    }
    const int64_t post = layout.post, depth = layout.depth;
    // Parallel over blocks, each thread getting at least kParallelMinPerThread elements.
    const int64_t minBlocks = post > 0 ? (kParallelMinPerThread + post - 1) / post : layout.blocks() + 1;
    parallelFor(exec, layout.blocks(), minBlocks, [&](int64_t b0, int64_t b1) {
        for (int64_t b = b0; b < b1; ++b) fn(b % depth, b * post, (b + 1) * post);
    });
}

// Applies the macro M to each quantized code type the kernels are instantiated for (the
// T attribute's int8/uint8/int16/uint16/int32 — qint32 codes are int32 too).
#define QS_FOR_EACH_CODE_TYPE(M) M(int8_t) M(uint8_t) M(int16_t) M(uint16_t) M(int32_t)

// TF's StrCat(float): "%.6g", or "%.9g" when 6 digits do not read back the same float.
std::string tfFloat(float v);
// StrCat(bool) goes through the integer overload: "1" / "0".
inline std::string tfBool(bool b) { return b ? "1" : "0"; }

}  // namespace qs::detail
