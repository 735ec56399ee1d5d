// Faults in the pages of a large fresh allocation on every worker thread at once.
//
// A new 512 MB std::vector<float> costs a noticeable pause (most of a table load, on a
// VM) before a single value is written: value-initialisation zero-fills it on one thread,
// taking 131072 page faults (each a VM exit plus the kernel zeroing 4 KiB). Asking for
// transparent huge pages (512x fewer faults) and faulting them in parallel
// (MADV_POPULATE_WRITE) first leaves the zero-fill a plain memset. Advice only: where the
// kernel refuses (older kernels, THP disabled), nothing changes but the speed.
#pragma once

#include <cstddef>

#include "core/tensor.h"  // Exec

namespace qs {

// For the `bytes` bytes at `data` (an allocation not yet touched, e.g. a reserve()d
// vector's storage); below 32 MiB it does nothing.
void prefaultPages(void* data, size_t bytes, const Exec& exec);

}  // namespace qs
