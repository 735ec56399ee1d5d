#include "core/modelfile/model_file.h"

#include <sys/stat.h>

#include <algorithm>
#include <cctype>

#include "core/data/dataset.h"
#include "core/modelfile/readers.h"

namespace qs::modelfile {
namespace {

std::string lower(std::string s) {
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
    return s;
}

bool endsWith(const std::string& s, std::string_view suffix) {
    return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

std::string folderOf(const std::string& path) {
    const size_t slash = path.find_last_of('/');
    return slash == std::string::npos ? std::string(".") : path.substr(0, slash);
}

std::string fileNameOf(const std::string& path) {
    const size_t slash = path.find_last_of('/');
    return slash == std::string::npos ? path : path.substr(slash + 1);
}

bool isDirectory(const std::string& path) {
    struct stat st {};
    return ::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

bool safeSidecarName(const std::string& name) {
    return !name.empty() && name.find('/') == std::string::npos && name.find('\\') == std::string::npos &&
           name != "." && name != "..";
}

Result<ModelPtr> openCheckpointIndex(const std::string& indexPath) {
    auto bytes = mapFile(indexPath);
    if (!bytes) return bytes.error();
    std::string prefix = fileNameOf(indexPath);
    prefix.resize(prefix.size() - std::string_view(".index").size());
    return openCheckpoint(indexPath, std::move(bytes).value(), sidecarsBeside(indexPath), prefix);
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

const std::vector<std::string>& modelSuffixes() {
    static const std::vector<std::string> suffixes = {".onnx", ".tflite", ".safetensors", ".h5", ".hdf5",
                                                      ".keras", ".npz", ".npy", ".index"};
    return suffixes;
}

Result<ModelPtr> openModel(const std::string& path) {
    if (isDirectory(path)) {  // a SavedModel folder (or its variables folder)
        for (const char* candidate : {"/variables/variables.index", "/variables.index"}) {
            struct stat st {};
            if (::stat((path + candidate).c_str(), &st) == 0) return openCheckpointIndex(path + candidate);
        }
        return data::dataError(path + ": a folder, but no SavedModel variables in it (variables/variables.index)");
    }
    const std::string name = lower(fileNameOf(path));
    if (endsWith(name, ".index")) return openCheckpointIndex(path);
    auto bytes = mapFile(path);
    if (!bytes) return bytes.error();
    SharedBytes b = std::move(bytes).value();
    if (endsWith(name, ".onnx")) return openOnnx(path, b, sidecarsBeside(path));
    if (endsWith(name, ".tflite")) return openTflite(path, b);
    if (endsWith(name, ".safetensors")) return openSafetensors(path, b);
    if (endsWith(name, ".h5") || endsWith(name, ".hdf5")) return openHdf5(path, b);
    if (endsWith(name, ".keras")) return openKeras(path, b);
    if (endsWith(name, ".npz")) return openNpz(path, b);
    if (endsWith(name, ".npy")) return openNpy(path, b);
    std::string list;
    for (const auto& s : modelSuffixes()) list += (list.empty() ? "" : ", ") + s;
    return data::dataError(path + ": not a model file QuantScope reads (" + list + ", or a SavedModel folder)");
}

}  // namespace qs::modelfile
