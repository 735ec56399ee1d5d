// Chunked HDF5 datasets: finds the chunks through the dataset's chunk index (a version 1
// B-tree, a single chunk, the implicit index or an unpaged fixed array) and copies each
// chunk's part of the dataset into one row-major buffer. Unfiltered chunks only: the
// reader refuses compressed ones before calling this. Chunks never written read as zeros
// (HDF5's default fill value).
#pragma once

#include <cstdint>
#include <vector>

#include "core/modelfile/hdf5_format.h"
#include "core/modelfile/hdf5_messages.h"
#include "core/tensor.h"

namespace qs::modelfile::hdf5 {

// The dataset's bytes; fails (FormatError) for a dataset larger than the file, chunks past
// its end or outside the dataset, and a broken index. `what` names the dataset.
std::vector<char> readChunked(const File& file, const Layout& layout, const Shape& dims, uint32_t elementSize,
                              const std::string& what);

}  // namespace qs::modelfile::hdf5
