// .keras files (Keras 3): a zip whose member model.weights.h5 holds the weights as HDF5.
// The member is unpacked into memory (through libzip) and read by the HDF5 reader, with
// format "keras". What the zip declares is checked before anything of that size is made:
// a stored member must declare its packed size, a deflated one at most what deflate can
// expand to (about 1032 : 1), so a zip bomb is refused from its directory alone.
//
// Written against libzip directly because the shared zip helper (zip_archive.h, branch
// h/st) was not there yet; it can take this over when it lands.
#include <zip.h>

#include <memory>
#include <new>

#include "core/data/dataset.h"
#include "core/modelfile/hdf5_model.h"
#include "core/modelfile/readers.h"

namespace qs::modelfile {
namespace {

constexpr const char* kWeightsMember = "model.weights.h5";
// Deflate's best ratio is 1032 : 1 (258-byte matches coded in 2 bits); a little slack.
constexpr uint64_t kMaxDeflateRatio = 1040;

struct ZipCloser {
    void operator()(zip_t* z) const { zip_discard(z); }
};
struct FileCloser {
    void operator()(zip_file_t* f) const { zip_fclose(f); }
};

std::string zipMessage(zip_error_t* error) {
    std::string message = zip_error_strerror(error);
    zip_error_fini(error);
    return message;
}

std::string memberList(zip_t* zip) {
    std::string list;
    const zip_int64_t count = zip_get_num_entries(zip, 0);
    for (zip_int64_t i = 0; i < count && i < 20; ++i)
        if (const char* name = zip_get_name(zip, static_cast<zip_uint64_t>(i), 0))
            list += (list.empty() ? "" : ", ") + std::string(name);
    if (count > 20) list += ", ...";
    return list.empty() ? "none" : list;
}

// The member's bytes, or a message saying why not (without the file's name).
Result<std::vector<char>> unpackWeights(std::string_view bytes) {
    zip_error_t error;
    zip_error_init(&error);
    zip_source_t* source = zip_source_buffer_create(bytes.data(), bytes.size(), 0, &error);
    if (!source) return data::dataError("not a zip archive: " + zipMessage(&error));
    std::unique_ptr<zip_t, ZipCloser> zip(zip_open_from_source(source, ZIP_RDONLY, &error));
    if (!zip) {
        zip_source_free(source);
        return data::dataError("not a zip archive: " + zipMessage(&error));
    }
    zip_error_fini(&error);
    const zip_int64_t index = zip_name_locate(zip.get(), kWeightsMember, 0);
    if (index < 0)
        return data::dataError(std::string("no ") + kWeightsMember + " in the archive (members: " + memberList(zip.get()) + ")");
    zip_stat_t stat;
    zip_stat_init(&stat);
    if (zip_stat_index(zip.get(), static_cast<zip_uint64_t>(index), 0, &stat) != 0 || !(stat.valid & ZIP_STAT_SIZE) ||
        !(stat.valid & ZIP_STAT_COMP_SIZE))
        return data::dataError(std::string(kWeightsMember) + ": its size is unreadable: " + zip_strerror(zip.get()));
    const std::string member = std::string(kWeightsMember) + " ";
    if (stat.comp_size > bytes.size())
        return data::dataError(member + "declares " + std::to_string(stat.comp_size) + " packed bytes, the archive has " +
                               std::to_string(bytes.size()));
    const bool stored = (stat.valid & ZIP_STAT_COMP_METHOD) && stat.comp_method == ZIP_CM_STORE;
    if ((stored && stat.size != stat.comp_size) || stat.size / kMaxDeflateRatio > stat.comp_size)
        return data::dataError(member + "declares " + std::to_string(stat.size) + " bytes unpacked from " +
                               std::to_string(stat.comp_size) + " packed, more than its compression can give (a zip bomb?)");
    std::unique_ptr<zip_file_t, FileCloser> file(zip_fopen_index(zip.get(), static_cast<zip_uint64_t>(index), 0));
    if (!file) return data::dataError(member + "cannot be opened: " + zip_strerror(zip.get()));
    std::vector<char> out;
    try {
        out.resize(stat.size);
    } catch (const std::bad_alloc&) {
        return data::dataError(member + "is too large to unpack into memory (" + std::to_string(stat.size) + " bytes)");
    }
    const zip_int64_t read = zip_fread(file.get(), out.data(), out.size());
    if (read < 0 || static_cast<zip_uint64_t>(read) != stat.size)
        return data::dataError(member + "cannot be unpacked: " +
                               (read < 0 ? std::string(zip_file_strerror(file.get()))
                                         : "it holds " + std::to_string(read) + " of its " + std::to_string(stat.size) + " bytes"));
    return out;
}

}  // namespace

Result<ModelPtr> openKeras(const std::string& label, SharedBytes bytes) {
    auto weights = unpackWeights(bytes->view());
    if (!weights) return data::dataError(label + ": " + weights.error().message);
    return openHdf5As(label, ownBytes(std::move(weights).value()), "keras");
}

}  // namespace qs::modelfile
