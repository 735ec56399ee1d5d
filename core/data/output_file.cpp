#include "core/data/output_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <system_error>

#include "core/data/dataset.h"

namespace qs::data {
namespace {

// Every byte of `parts`, or the errno of the write that failed (0 when all went out). A short
// write is retried, so the error of a full disk or a size limit is the one reported.
int writeAll(int fd, std::span<const std::string_view> parts) {
    for (std::string_view part : parts) {
        const char* p = part.data();
        size_t left = part.size();
        while (left > 0) {
            const ssize_t n = ::write(fd, p, std::min(left, size_t{1} << 30));
            if (n < 0) {
                if (errno == EINTR) continue;
                return errno;
            }
            if (n == 0) return EIO;
            p += n;
            left -= static_cast<size_t>(n);
        }
    }
    return 0;
}

bool isOpenAs(const struct stat& file, int fd) {
    struct stat open{};
    return ::fstat(fd, &open) == 0 && open.st_dev == file.st_dev && open.st_ino == file.st_ino;
}

// A device, FIFO or socket: written where it is.
int writeInPlace(const std::string& path, std::span<const std::string_view> parts) {
    const int fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC | O_NOCTTY);
    if (fd < 0) return errno;
    int e = writeAll(fd, parts);
    if (::close(fd) != 0 && e == 0) e = errno;
    return e;
}

// The file this process's stdout (or stderr) writes to: written through that descriptor,
// after what stdio still buffers for it.
int writeToStream(int fd, std::span<const std::string_view> parts) {
    std::fflush(fd == STDOUT_FILENO ? stdout : stderr);
    return writeAll(fd, parts);
}

// A new file beside `target` that no one else uses: ".NAME.<random>.tmp", created with
// `mode` (less the umask, like any new file). -1 with errno set on failure.
int createTemporary(const std::string& target, mode_t mode, std::string& tmpPath) {
    const size_t slash = target.rfind('/');
    const std::string dir = slash == std::string::npos ? std::string() : target.substr(0, slash + 1);
    // Short enough that the temporary's name fits where the target's did (NAME_MAX).
    const std::string name = target.substr(slash == std::string::npos ? 0 : slash + 1).substr(0, 200);
    thread_local std::mt19937_64 random{std::random_device{}()};
    for (int attempt = 0; attempt < 64; ++attempt) {
        char suffix[24];
        std::snprintf(suffix, sizeof suffix, ".%016llx.tmp", static_cast<unsigned long long>(random()));
        tmpPath = dir + "." + name + suffix;
        const int fd = ::open(tmpPath.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode);
        if (fd >= 0 || errno != EEXIST) return fd;
    }
    return -1;  // errno is EEXIST
}

// A regular file (or a new one): a complete, synced temporary renamed over it.
int replaceAtomically(const std::string& target, const struct stat* existing,
                      std::span<const std::string_view> parts) {
    std::string tmp;
    const int fd = createTemporary(target, existing ? existing->st_mode & 07777 : 0666, tmp);
    if (fd < 0) return errno;
    int e = 0;
    if (existing) {
        // The replacement keeps the owner where we may set it (root saving a user's file;
        // otherwise it stays ours) and the permissions, whatever the umask.
        const bool ownerKept = ::fchown(fd, existing->st_uid, existing->st_gid) == 0;
        static_cast<void>(ownerKept);
        if (::fchmod(fd, existing->st_mode & 07777) != 0) e = errno;
    }
    if (e == 0) e = writeAll(fd, parts);
    // On a crash after the rename the name must not point at blocks never written.
    if (e == 0 && ::fsync(fd) != 0 && errno != EINVAL) e = errno;
    if (::close(fd) != 0 && e == 0) e = errno;
    if (e == 0 && std::rename(tmp.c_str(), target.c_str()) != 0) e = errno;
    if (e != 0) ::unlink(tmp.c_str());
    return e;
}

}  // namespace

int writeOutputFileErrno(const std::string& path, std::span<const std::string_view> parts) {
    if (path.empty()) return ENOENT;
    struct stat st{};
    if (::stat(path.c_str(), &st) != 0)
        return errno == ENOENT ? replaceAtomically(path, nullptr, parts) : errno;  // a new file
    for (int fd : {STDOUT_FILENO, STDERR_FILENO})
        if (isOpenAs(st, fd)) return writeToStream(fd, parts);
    if (S_ISDIR(st.st_mode)) return EISDIR;
    if (!S_ISREG(st.st_mode)) return writeInPlace(path, parts);
    // Replace what a symbolic link points to, not the link.
    std::string target = path;
    struct stat link{};
    if (::lstat(path.c_str(), &link) == 0 && S_ISLNK(link.st_mode)) {
        if (char* real = ::realpath(path.c_str(), nullptr)) {
            target = real;
            std::free(real);
        }
    }
    // A read-only file stays read-only even though its folder would allow the rename.
    if (::access(target.c_str(), W_OK) != 0) return errno;
    return replaceAtomically(target, &st, parts);
}

Status writeOutputFile(const std::string& path, std::span<const std::string_view> parts) {
    const int e = writeOutputFileErrno(path, parts);
    if (e != 0) return dataError("cannot write " + path + ": " + std::generic_category().message(e));
    return okStatus();
}

Status writeOutputFile(const std::string& path, std::string_view bytes) {
    const std::string_view parts[] = {bytes};
    return writeOutputFile(path, parts);
}

}  // namespace qs::data
