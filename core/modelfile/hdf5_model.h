// The HDF5 reader's model, shared by openHdf5 (format "hdf5") and openKeras (format
// "keras": the same file, taken out of the .keras zip).
#pragma once

#include <string>

#include "core/modelfile/model_file.h"

namespace qs::modelfile {

Result<ModelPtr> openHdf5As(const std::string& label, SharedBytes bytes, std::string format);

}  // namespace qs::modelfile
