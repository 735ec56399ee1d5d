// .keras files (Keras 3): a zip whose member model.weights.h5 holds the weights as HDF5,
// read by the HDF5 reader with format "keras". A stored member is read in place (a view
// into the mapped archive, like a plain .h5); a deflated one is inflated into memory
// through ZipArchive, which checks its declared size against kMaxUnpacked and deflate's
// ratio before allocating and stops inflating at that size (zip bombs).
#include "core/data/dataset.h"
#include "core/modelfile/hdf5_model.h"
#include "core/modelfile/readers.h"
#include "core/modelfile/zip_archive.h"

namespace qs::modelfile {
namespace {

constexpr const char* kWeightsMember = "model.weights.h5";
// Compressed weights are unpacked into memory: refuse what would not fit on the machines
// QuantScope runs on (stored weights of any size are read in place).
constexpr uint64_t kMaxUnpacked = uint64_t{8} << 30;

// A stored member's bytes inside the archive, keeping the archive alive.
class MemberBytes final : public Bytes {
public:
    MemberBytes(std::shared_ptr<const ZipArchive> zip, std::string_view view) : zip_(std::move(zip)), view_(view) {}
    std::string_view view() const override { return view_; }

private:
    std::shared_ptr<const ZipArchive> zip_;
    std::string_view view_;
};

std::string memberList(const ZipArchive& zip) {
    std::string list;
    for (size_t i = 0; i < zip.members().size() && i < 20; ++i) list += (list.empty() ? "" : ", ") + zip.members()[i].name;
    if (zip.members().size() > 20) list += ", ...";
    return list.empty() ? "none" : list;
}

}  // namespace

Result<ModelPtr> openKeras(const std::string& label, SharedBytes bytes) {
    auto opened = ZipArchive::open(label, std::move(bytes));
    if (!opened) return opened.error();
    const std::shared_ptr<const ZipArchive> zip = std::move(opened).value();
    const int64_t index = zip->find(kWeightsMember);
    if (index < 0)
        return data::dataError(label + ": no " + kWeightsMember + " in the archive (members: " + memberList(*zip) + ")");
    SharedBytes weights;
    if (zip->members()[size_t(index)].stored()) {
        auto view = zip->storedView(size_t(index));
        if (!view) return view.error();
        weights = std::make_shared<MemberBytes>(zip, *view);
    } else {
        auto read = zip->read(size_t(index), kMaxUnpacked);
        if (!read) return read.error();
        weights = std::move(read).value();
    }
    return openHdf5As(label, std::move(weights), "keras");
}

}  // namespace qs::modelfile
