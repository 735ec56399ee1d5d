#include "core/modelfile/bytes.h"

#include "core/data/read_util.h"

namespace qs::modelfile {
namespace {

class MappedBytes final : public Bytes {
public:
    explicit MappedBytes(data::detail::MappedFile file) : file_(std::move(file)) {}
    std::string_view view() const override { return file_.bytes(); }

private:
    data::detail::MappedFile file_;
};

class OwnedBytes final : public Bytes {
public:
    explicit OwnedBytes(std::vector<char> bytes) : bytes_(std::move(bytes)) {}
    std::string_view view() const override { return {bytes_.data(), bytes_.size()}; }

private:
    std::vector<char> bytes_;
};

}  // namespace

Result<SharedBytes> mapFile(const std::string& path) {
    auto file = data::detail::MappedFile::open(path);
    if (!file) return file.error();
    return SharedBytes(std::make_shared<MappedBytes>(std::move(file).value()));
}

SharedBytes copyBytes(std::string_view bytes) {
    return std::make_shared<OwnedBytes>(std::vector<char>(bytes.begin(), bytes.end()));
}

SharedBytes ownBytes(std::vector<char> bytes) { return std::make_shared<OwnedBytes>(std::move(bytes)); }

bool inside(std::string_view whole, uint64_t offset, uint64_t length) {
    return offset <= whole.size() && length <= whole.size() - offset;
}

}  // namespace qs::modelfile
