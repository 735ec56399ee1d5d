#include "core/modelfile/model_file.h"

#include <sys/stat.h>

#include "core/data/dataset.h"
#include "core/modelfile/model_formats.h"

namespace qs::modelfile {
namespace {

std::string folderOf(const std::string& path) {
    const size_t slash = path.find_last_of('/');
    return slash == std::string::npos ? std::string(".") : path.substr(0, slash);
}

bool isDirectory(const std::string& path) {
    struct stat st {};
    return ::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

bool safeSidecarName(const std::string& name) {
    return !name.empty() && name.find('/') == std::string::npos && name.find('\\') == std::string::npos &&
           name != "." && name != "..";
}

}  // namespace

int64_t TensorInfo::byteSize() const {
    const auto n = checkedNumElements(shape);
    const auto width = static_cast<int64_t>(dtypeSize(dtype));
    int64_t bytes = 0;
    if (!n || width == 0 || __builtin_mul_overflow(*n, width, &bytes)) return -1;
    return bytes;
}

Sidecars sidecarsBeside(const std::string& modelPath) {
    const std::string folder = folderOf(modelPath);
    return [folder](const std::string& name) -> Result<SharedBytes> {
        if (!safeSidecarName(name))
            return data::dataError("refusing to open '" + name + "' beside the model: only plain file names in the model's folder are read");
        return mapFile(folder + "/" + name);
    };
}

Sidecars noSidecars() {
    return [](const std::string& name) -> Result<SharedBytes> {
        return data::dataError("cannot open '" + name + "': no files beside this model");
    };
}

int64_t ModelFile::find(std::string_view name) const {
    for (size_t i = 0; i < tensors_.size(); ++i)
        if (tensors_[i].name == name) return static_cast<int64_t>(i);
    return -1;
}

Result<TensorData> ModelFile::load(size_t index) const {
    if (index >= tensors_.size()) return fileError("no tensor number " + std::to_string(index));
    const TensorInfo& info = tensors_[index];
    if (info.dtype == DType::Other)
        return tensorError(index, "its dtype " + info.dtype_name + " cannot be loaded (numbers only)");
    const int64_t expected = info.byteSize();
    if (expected < 0) return tensorError(index, "invalid shape " + shapeString(info.shape));
    auto data = loadStored(index);
    if (!data) return data;
    if (static_cast<int64_t>(data->bytes.size()) != expected)
        return tensorError(index, "the file holds " + std::to_string(data->bytes.size()) + " bytes, shape " +
                                      shapeString(info.shape) + " of " + info.dtype_name + " needs " +
                                      std::to_string(expected));
    return data;
}

Error ModelFile::tensorError(size_t index, const std::string& what) const {
    const std::string name = index < tensors_.size() ? tensors_[index].name : std::to_string(index);
    return data::dataError(label_ + ": tensor '" + name + "': " + what);
}

Error ModelFile::fileError(const std::string& what) const { return data::dataError(label_ + ": " + what); }

Result<ModelPtr> openModel(const std::string& path) {
    if (isDirectory(path)) {
        if (const ModelFormat* format = folderModelFormat()) return format->openFolder(path);
        return data::dataError(path + ": a folder, not a model file");
    }
    const ModelFormat* format = modelFormatForPath(path);
    auto bytes = mapFile(path);
    if (!bytes) return bytes.error();
    if (format) return format->open(path, std::move(bytes).value());
    return data::dataError(path + ": not a model file QuantScope reads (" + modelSuffixList() + ")");
}

}  // namespace qs::modelfile
