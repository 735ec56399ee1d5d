// Plumbing shared by the file readers (not part of the public API): the file as one
// read-only memory view, progress/cancellation, and number parsing for the text formats.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

#include "core/data/dataset.h"
#include "core/status.h"

namespace qs::data::detail {

// strerror's text for an errno value (without strerror's shared buffer).
std::string errnoText(int e);

// A regular file opened read-only (close-on-exec) and its size; the caller closes fd.
// DataError "cannot open PATH: <strerror text>" for missing/unreadable files, "cannot read
// PATH: Is a directory" for directories and other non-regular files.
struct OpenedFile {
    int fd = -1;
    size_t size = 0;
};
Result<OpenedFile> openRegularFile(const std::string& path);

// The whole file, mmap'ed read-only: no copy, and the kernel reads ahead while we parse
// (hundreds of MB load at parsing speed). Move-only; unmaps on destruction.
class MappedFile {
public:
    // DataError "cannot open PATH: <strerror text>" for missing/unreadable files and
    // directories.
    static Result<MappedFile> open(const std::string& path);
    MappedFile(MappedFile&& other) noexcept;
    MappedFile& operator=(MappedFile&&) = delete;
    MappedFile(const MappedFile&) = delete;
    ~MappedFile();
    std::string_view bytes() const { return {data_, size_}; }

private:
    MappedFile(const char* data, size_t size) : data_(data), size_(size) {}
    const char* data_ = nullptr;
    size_t size_ = 0;
};

// Calls options.progress at about every 1 % of the file (but at most every 1 MB: each call
// may repaint a progress bar); at() returns false once the user has cancelled, and
// cancelled() is the matching error.
class Progress {
public:
    Progress(const LoadOptions& options, const std::string& path, size_t total)
        : options_(options), path_(path), total_(total), step_(std::max(total / 100, size_t{1} << 20)) {}
    // Call with the bytes done so far; cheap unless a step boundary was crossed.
    bool at(size_t done) {
        if (!options_.progress || done < next_) return true;
        next_ = done + step_;
        return options_.progress(total_ ? static_cast<double>(done) / static_cast<double>(total_) : 1.0);
    }
    bool finish() { return !options_.progress || options_.progress(1.0); }
    Error cancelled() const { return cancelledError(path_ + ": loading cancelled"); }

private:
    const LoadOptions& options_;
    const std::string& path_;
    size_t total_, step_;
    size_t next_ = 0;  // the first call (0 bytes) always reports
};

// The lines of a text file, one at a time, without the '\n' and a trailing '\r' (CRLF files);
// number() is the 1-based number of the line next() returned last, offset() the bytes
// consumed so far (for Progress::at before the next line).
class TextLines {
public:
    explicit TextLines(std::string_view text) : begin_(text.data()), p_(begin_), end_(begin_ + text.size()) {}
    bool done() const { return p_ >= end_; }
    size_t offset() const { return static_cast<size_t>(p_ - begin_); }
    int64_t number() const { return number_; }
    std::string_view next() {
        const auto* nl = static_cast<const char*>(std::memchr(p_, '\n', static_cast<size_t>(end_ - p_)));
        std::string_view line(p_, static_cast<size_t>((nl ? nl : end_) - p_));
        p_ = nl ? nl + 1 : end_;
        ++number_;
        if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
        return line;
    }

private:
    const char* begin_;
    const char* p_;
    const char* end_;
    int64_t number_ = 0;
};

// The file name without directories, the label of a loaded data set.
std::string baseName(const std::string& path);

// A text field as float32: surrounding spaces and one pair of double quotes are ignored, a
// leading '+' is allowed, nan/inf/infinity in any case are accepted, and decimals beyond
// float32's range round to +-inf or +-0 as a float32 conversion does. The conversion is
// correctly rounded (std::from_chars). False if the field is not (entirely) a number.
bool parseFloat(std::string_view field, float& out);

// "abc" with the text cut to 40 characters, for messages.
std::string quoteField(std::string_view field);

// Messages: "PATH: line 17" / "PATH: line 17, column 3".
std::string at(const std::string& path, int64_t line);
std::string at(const std::string& path, int64_t line, int64_t column);

}  // namespace qs::data::detail
