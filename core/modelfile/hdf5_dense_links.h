// The links of a dense new-style group (more links than fit its header, or a file written
// with h5repack -L / libver="latest"): a version 2 B-tree ("BTHD", "BTIN", "BTLF") indexes
// the links by name hash; each record holds a heap ID that locates the link message in the
// group's fractal heap ("FRHP", with "FHIB" indirect and "FHDB" direct blocks).
// Unfiltered heaps, managed and tiny objects; huge objects and compressed heaps are refused.
#pragma once

#include <cstdint>
#include <vector>

#include "core/modelfile/hdf5_format.h"
#include "core/modelfile/hdf5_messages.h"

namespace qs::modelfile::hdf5 {

// Every link of the group, in name-index order; `what` names the group for messages.
std::vector<Link> readDenseLinks(const File& file, const LinkInfo& info, Budget& budget, const std::string& what);

}  // namespace qs::modelfile::hdf5
