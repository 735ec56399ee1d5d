#include "core/data/load_file.h"

#include "core/data/csv_reader.h"
#include "core/data/npy_reader.h"
#include "core/data/npy_stream.h"
#include "core/data/read_util.h"
#include "core/data/vec_reader.h"

namespace qs::data {

namespace {

// A .npy within the budget is read into memory; a larger one is opened as a stream (only its
// header is read: the walks that need the values read them).
Result<Dataset> readOrStreamNpy(const std::string& path, const LoadOptions& options) {
    auto layout = NpyFileStream::inspect(path);
    if (!layout) return layout.error();
    if (layout->count <= *options.stream_above_bytes / static_cast<int64_t>(sizeof(float)))
        return readNpy(path, options);
    auto stream = NpyFileStream::open(path);
    if (!stream) return stream.error();
    Dataset d;
    d.shape = (*stream)->shape();
    d.label = detail::baseName(path);
    d.stream = *stream;
    if (options.progress && !options.progress(1.0)) return cancelledError(path + ": loading cancelled");
    return d;
}

}  // namespace

const std::vector<std::string>& supportedExtensions() {
    static const std::vector<std::string> exts = {".npy", ".csv", ".tsv", ".txt", ".vec"};
    return exts;
}

Result<Dataset> loadDataFile(const std::string& path, const LoadOptions& options) {
    // The extension of the file name (a dot in a directory name does not count).
    const size_t slash = path.find_last_of('/');
    const size_t dot = path.find_last_of('.');
    std::string ext;
    if (dot != std::string::npos && (slash == std::string::npos || dot > slash)) ext = path.substr(dot);
    for (char& c : ext)
        if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');

    if (ext == ".npy") return options.stream_above_bytes ? readOrStreamNpy(path, options) : readNpy(path, options);
    if (ext == ".csv" || ext == ".tsv" || ext == ".txt") return readCsv(path, options);
    if (ext == ".vec") return readVec(path, options);
    std::string list;
    for (const std::string& e : supportedExtensions()) {
        if (!list.empty()) list += ", ";
        list += e;
    }
    const std::string what = ext.empty() ? std::string("(no extension)") : std::string("\"") + ext + "\"";
    return dataError(path + ": unknown file type " + what + " (supported: " + list + ")");
}

}  // namespace qs::data
