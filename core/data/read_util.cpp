#include "core/data/read_util.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <limits>
#include <system_error>

namespace qs::data::detail {

std::string errnoText(int e) { return std::generic_category().message(e); }

Result<OpenedFile> openRegularFile(const std::string& path) {
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return dataError("cannot open " + path + ": " + errnoText(errno));
    struct stat st {};
    if (::fstat(fd, &st) != 0) {
        const int e = errno;
        ::close(fd);
        return dataError("cannot read " + path + ": " + errnoText(e));
    }
    if (!S_ISREG(st.st_mode)) {
        ::close(fd);
        return dataError("cannot read " + path + ": " +
                         (S_ISDIR(st.st_mode) ? errnoText(EISDIR) : std::string("not a regular file")));
    }
    return OpenedFile{fd, static_cast<size_t>(st.st_size)};
}

Result<MappedFile> MappedFile::open(const std::string& path) {
    auto opened = openRegularFile(path);
    if (!opened) return opened.error();
    const int fd = opened->fd;
    const size_t size = opened->size;
    if (size == 0) {  // mmap refuses length 0
        ::close(fd);
        return MappedFile(nullptr, 0);
    }
    void* p = ::mmap(nullptr, size, PROT_READ, MAP_PRIVATE, fd, 0);
    const int e = errno;
    ::close(fd);  // the mapping keeps the file alive
    if (p == MAP_FAILED) return dataError("cannot read " + path + ": " + errnoText(e));
    ::madvise(p, size, MADV_SEQUENTIAL);  // every reader walks the file front to back
    return MappedFile(static_cast<const char*>(p), size);
}

MappedFile::MappedFile(MappedFile&& other) noexcept : data_(other.data_), size_(other.size_) {
    other.data_ = nullptr;
    other.size_ = 0;
}

MappedFile::~MappedFile() {
    if (data_) ::munmap(const_cast<char*>(data_), size_);
}

std::string baseName(const std::string& path) {
    const size_t slash = path.find_last_of('/');
    return slash == std::string::npos ? path : path.substr(slash + 1);
}

bool parseFloat(std::string_view s, float& out) {
    const auto trim = [](std::string_view& t) {
        while (!t.empty() && (t.front() == ' ' || t.front() == '\t')) t.remove_prefix(1);
        while (!t.empty() && (t.back() == ' ' || t.back() == '\t' || t.back() == '\r')) t.remove_suffix(1);
    };
    trim(s);
    if (s.size() >= 2 && s.front() == '"' && s.back() == '"') {
        s = s.substr(1, s.size() - 2);
        trim(s);
    }
    if (s.size() > 1 && s.front() == '+' && s[1] != '-') s.remove_prefix(1);
    if (s.empty()) return false;
    const char* end = s.data() + s.size();
    const auto r = std::from_chars(s.data(), end, out);
    if (r.ptr != end) return false;
    if (r.ec == std::errc()) return true;
    if (r.ec != std::errc::result_out_of_range) return false;
    // Beyond float32: the nearest float32 is +-inf (too large) or +-0 (too small). Find
    // which through double, or the exponent's sign when even double cannot hold it.
    const bool negative = s.front() == '-';
    double d = 0;
    bool huge;
    if (std::from_chars(s.data(), end, d).ec == std::errc()) {
        huge = d > 1 || d < -1;
    } else {
        const size_t e = s.find_first_of("eE");
        huge = e == std::string_view::npos || e + 1 >= s.size() || s[e + 1] != '-';
    }
    const float mag = huge ? std::numeric_limits<float>::infinity() : 0.0f;
    out = negative ? -mag : mag;
    return true;
}

std::string quoteField(std::string_view field) {
    constexpr size_t kMax = 40;
    std::string out = "\"";
    out += field.substr(0, kMax);
    if (field.size() > kMax) out += "...";
    out += '"';
    return out;
}

std::string at(const std::string& path, int64_t line) { return path + ": line " + std::to_string(line); }

std::string at(const std::string& path, int64_t line, int64_t column) {
    return at(path, line) + ", column " + std::to_string(column);
}

}  // namespace qs::data::detail
