// Placeholder until the hdf5 reader lands: refuses every file.
#include "core/modelfile/readers.h"
#include "core/data/dataset.h"

namespace qs::modelfile {

Result<ModelPtr> openHdf5(const std::string& label, SharedBytes) {
    return data::dataError(label + ": the hdf5 reader is not built yet");
}

}  // namespace qs::modelfile
