// Walks an HDF5 file's group tree from the root and collects its datasets with their
// paths ("model_weights/dense/dense/kernel:0"). Reads old-style groups (a symbol table: a
// version 1 B-tree of "SNOD" nodes naming their members in a local "HEAP") and new-style
// groups: compact (link messages in the header) and dense (hdf5_dense_links.h).
//
// Hard links may make the tree a graph with loops: each group is entered once (the
// second path to it is skipped), every B-tree node is read once, and nesting is capped.
#pragma once

#include <string>
#include <vector>

#include "core/modelfile/hdf5_format.h"

namespace qs::modelfile::hdf5 {

struct DatasetHeader {
    std::string path;  // from the root, without the leading '/'
    ObjectHeader header;
};

std::vector<DatasetHeader> findDatasets(const File& file, Budget& budget);

}  // namespace qs::modelfile::hdf5
