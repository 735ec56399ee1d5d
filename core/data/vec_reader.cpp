#include "core/data/vec_reader.h"

#include <charconv>
#include <cstring>
#include <new>

#include "core/data/read_util.h"

namespace qs::data {
namespace {

using detail::at;

bool isBlank(char c) { return c == ' ' || c == '\t'; }

// Next space-separated token of `line` from `i` on ("" at the end); advances i.
std::string_view nextToken(std::string_view line, size_t& i) {
    while (i < line.size() && isBlank(line[i])) ++i;
    const size_t b = i;
    while (i < line.size() && !isBlank(line[i])) ++i;
    return line.substr(b, i - b);
}

bool parseCount(std::string_view s, int64_t& v) {
    const auto r = std::from_chars(s.data(), s.data() + s.size(), v);
    return r.ec == std::errc() && r.ptr == s.data() + s.size() && v >= 0;
}

}  // namespace

Result<Dataset> readVec(const std::string& path, const LoadOptions& options) {
    auto file = detail::MappedFile::open(path);
    if (!file) return file.error();
    const std::string_view text = file->bytes();
    detail::Progress progress(options, path, text.size());

    Dataset d;
    d.label = detail::baseName(path);
    int64_t headerCount = -1, dim = -1, firstRowLine = 0;
    detail::TextLines lines(text);
    bool firstLine = true;
    try {
        while (!lines.done()) {
            if (!progress.at(lines.offset())) return progress.cancelled();
            const std::string_view line = lines.next();
            const int64_t lineNo = lines.number();
            size_t i = 0;
            const std::string_view word = nextToken(line, i);
            if (word.empty()) continue;  // blank line

            if (firstLine) {  // "<count> <dim>" and nothing else: the fastText header
                firstLine = false;
                size_t j = i;
                const std::string_view second = nextToken(line, j);
                int64_t count = 0, width = 0;
                if (nextToken(line, j).empty() && parseCount(word, count) && parseCount(second, width)) {
                    if (width == 0) return dataError(at(path, 1) + ": the header announces 0 values per row");
                    headerCount = count;
                    dim = width;
                    // Trust the header for the reservation only as far as the file size allows
                    // (each value takes at least two bytes).
                    const double announced = static_cast<double>(count) * static_cast<double>(width);
                    d.values.reserve(static_cast<size_t>(std::min(announced, static_cast<double>(text.size() / 2))));
                    continue;
                }
            }
            const size_t before = d.values.size();
            int64_t k = 0;
            for (std::string_view tok = nextToken(line, i); !tok.empty(); tok = nextToken(line, i)) {
                ++k;
                float v;
                if (!detail::parseFloat(tok, v))
                    return dataError(at(path, lineNo) + ", value " + std::to_string(k) + " of " +
                                     detail::quoteField(word) + ": " + detail::quoteField(tok) +
                                     " is not a number");
                d.values.push_back(v);
            }
            if (dim < 0) {
                if (k == 0) return dataError(at(path, lineNo) + ": " + detail::quoteField(word) + " has no values");
                dim = k;
                firstRowLine = lineNo;
                // Reserve for the whole file from the first row's length.
                d.values.reserve(static_cast<size_t>(dim) * (text.size() / (line.size() + 1) + 1));
            } else if (k != dim) {
                d.values.resize(before);
                return dataError(at(path, lineNo) + ": " + detail::quoteField(word) + " has " +
                                 std::to_string(k) + " values, expected " + std::to_string(dim) +
                                 (headerCount >= 0 ? std::string(" (from the header)")
                                                   : " (as in line " + std::to_string(firstRowLine) + ")"));
            }
            d.row_names.emplace_back(word);
        }
    } catch (const std::bad_alloc&) {
        return dataError(path + ": out of memory after " + std::to_string(d.values.size()) + " values");
    }
    const auto rows = static_cast<int64_t>(d.row_names.size());
    if (headerCount >= 0 && rows != headerCount)
        return dataError(path + ": the header announces " + std::to_string(headerCount) + " rows, the file has " +
                         std::to_string(rows));
    if (rows == 0) return dataError(path + ": no vectors in the file");
    if (!progress.finish()) return progress.cancelled();
    if (d.values.capacity() > d.values.size() + d.values.size() / 4) d.values.shrink_to_fit();
    d.shape = {rows, dim};
    return d;
}

}  // namespace qs::data
