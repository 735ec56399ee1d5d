// Heap settings shared by the explorer (and the workbench in its process) and their benchmarks
// (quantscope-gui-bench, quantscope-embedding-bench), so the benches measure what users run.
#pragma once

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace qs::app {

// Every recomputation allocates result buffers of the data's size (4 MB per million
// samples). Above glibc's mmap threshold each one is fresh pages and page faults cost
// more than the arithmetic; keeping them in the heap avoids those faults on every update.
// The workbench's feature analysis likewise took thousands of page faults per call without it.
inline void keepResultBuffersInHeap() {
#if defined(__GLIBC__)
    mallopt(M_MMAP_THRESHOLD, 512 << 20);
    mallopt(M_TRIM_THRESHOLD, 1 << 30);
#endif
}

}  // namespace qs::app
