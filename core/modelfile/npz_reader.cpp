// NumPy .npz: a zip of .npy members (numpy.savez stores them, savez_compressed deflates
// them). Each member whose name ends in ".npy" is a tensor named without that suffix
// ("layer/kernel.npy" -> "layer/kernel"); other members are skipped (numpy.load would hand
// out their raw bytes). Tensors are listed in the archive's order.
//
// Listing reads headers only: a stored member's header is read where it lies in the mapped
// archive; a deflated member's is inflated from the member's first bytes (4 KiB, more only
// for the rare longer header). Loading a stored member is a view into the mapped archive;
// a deflated member is inflated with a limit of exactly what its .npy header declares.
#include <algorithm>

#include "core/data/dataset.h"
#include "core/data/npy_header.h"
#include "core/modelfile/npy_tensor.h"
#include "core/modelfile/readers.h"
#include "core/modelfile/zip_archive.h"

namespace qs::modelfile {
namespace {

constexpr size_t kHeadBytes = 4096;
// numpy refuses headers above 10000 bytes by default; a megabyte is generous and bounded.
constexpr size_t kMaxHeadBytes = size_t{1} << 20;

struct Member {
    size_t zipIndex = 0;
    NpyTensor npy;
    bool viewable = false;  // stored and its bytes reachable as a view
};

class NpzModel final : public ModelFile {
public:
    NpzModel(std::string label, ZipPtr zip, std::vector<Member> members)
        : ModelFile(std::move(label)), zip_(std::move(zip)), members_(std::move(members)) {
        for (const Member& m : members_) tensors_.push_back(m.npy.info);
    }
    std::string_view format() const override { return "npz"; }

protected:
    Result<TensorData> loadStored(size_t index) const override {
        const Member& m = members_[index];
        const std::string where = label() + ": tensor '" + tensors_[index].name + "': ";
        const auto need = static_cast<uint64_t>(m.npy.info.byteSize());
        const uint64_t whole = m.npy.dataOffset + need;
        if (m.viewable) {
            auto view = zip_->storedView(m.zipIndex);
            if (view) return npyTensorData(m.npy, view->substr(m.npy.dataOffset, need), zip_->bytes(), where);
        }
        // Inflate no more than the header declares: exactly the member when it holds just
        // the array (CRC and size checked), its first `whole` bytes when more follows.
        SharedBytes bytes;
        if (zip_->members()[m.zipIndex].size == whole) {
            auto read = zip_->read(m.zipIndex, whole);
            if (!read) return read.error();
            bytes = std::move(read).value();
        } else {
            auto head = zip_->readPrefix(m.zipIndex, whole);
            if (!head) return head.error();
            if (head->size() != whole)
                return data::dataError(where + "the member holds " + std::to_string(head->size()) + " bytes, " +
                                       std::to_string(whole) + " declared");
            bytes = ownBytes(std::move(head).value());
        }
        return npyTensorData(m.npy, bytes->view().substr(m.npy.dataOffset, need), bytes, where);
    }

private:
    ZipPtr zip_;
    std::vector<Member> members_;
};

// The member's first bytes, enough for its .npy header: read where a stored member lies in
// the archive, else inflated (4 KiB, or the header's announced length when longer, up to
// kMaxHeadBytes; a longer header then reads as truncated).
Result<std::string> headOf(const ZipArchive& zip, size_t index, bool& viewable) {
    auto view = zip.storedView(index);
    viewable = view.ok();
    if (viewable) {
        const uint64_t end = std::clamp<uint64_t>(data::npyDataOffset(view->substr(0, 12)), kHeadBytes, kMaxHeadBytes);
        return std::string(view->substr(0, end));
    }
    auto head = zip.readPrefix(index, kHeadBytes);
    if (!head) return head.error();
    const uint64_t end = data::npyDataOffset({head->data(), head->size()});
    if (head->size() == kHeadBytes && end > kHeadBytes && end <= kMaxHeadBytes) {
        head = zip.readPrefix(index, end);
        if (!head) return head.error();
    }
    return std::string(head->begin(), head->end());
}

}  // namespace

Result<ModelPtr> openNpz(const std::string& label, SharedBytes bytes) {
    auto zip = ZipArchive::open(label, std::move(bytes));
    if (!zip) return zip.error();
    std::vector<Member> members;
    const auto& entries = (*zip)->members();
    for (size_t i = 0; i < entries.size(); ++i) {
        const std::string& name = entries[i].name;
        if (name.size() <= 4 || name.compare(name.size() - 4, 4, ".npy") != 0) continue;
        const std::string where = label + ": member '" + name + "': ";
        Member m;
        m.zipIndex = i;
        auto head = headOf(**zip, i, m.viewable);
        if (!head) return head.error();
        auto npy = describeNpy(*head, entries[i].size, where, name.substr(0, name.size() - 4));
        if (!npy) return npy.error();
        m.npy = std::move(npy).value();
        members.push_back(std::move(m));
    }
    return ModelPtr(std::make_shared<NpzModel>(label, std::move(zip).value(), std::move(members)));
}

}  // namespace qs::modelfile
