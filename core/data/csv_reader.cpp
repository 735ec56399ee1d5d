#include "core/data/csv_reader.h"

#include <cstring>
#include <new>
#include <vector>

#include "core/data/read_util.h"

namespace qs::data {
namespace {

using detail::at;

constexpr char kWhitespace = 0;  // "delimiter" meaning runs of spaces/tabs

bool isBlank(char c) { return c == ' ' || c == '\t'; }

std::string_view trimmed(std::string_view s) {
    while (!s.empty() && isBlank(s.front())) s.remove_prefix(1);
    while (!s.empty() && isBlank(s.back())) s.remove_suffix(1);
    return s;
}

// The first row decides the delimiter: the most frequent candidate outside quotes.
char detectDelimiter(std::string_view line) {
    size_t comma = 0, semicolon = 0, tab = 0;
    bool quoted = false;
    for (char c : line) {
        if (c == '"') quoted = !quoted;
        else if (!quoted) {
            comma += c == ',';
            semicolon += c == ';';
            tab += c == '\t';
        }
    }
    if (comma == 0 && semicolon == 0 && tab == 0) return kWhitespace;
    if (comma >= semicolon && comma >= tab) return ',';
    return semicolon >= tab ? ';' : '\t';
}

// Splits `line` into `fields` (reused to avoid allocations). Quotes protect delimiters
// only on lines that contain a quote; the common unquoted case is a memchr loop.
void split(std::string_view line, char delim, std::vector<std::string_view>& fields) {
    fields.clear();
    if (delim == kWhitespace) {
        size_t i = 0;
        while (true) {
            while (i < line.size() && isBlank(line[i])) ++i;
            if (i == line.size()) return;
            const size_t b = i;
            while (i < line.size() && !isBlank(line[i])) ++i;
            fields.push_back(line.substr(b, i - b));
        }
    }
    if (line.find('"') == std::string_view::npos) {
        const char* p = line.data();
        const char* end = p + line.size();
        while (true) {
            const auto* d = static_cast<const char*>(std::memchr(p, delim, static_cast<size_t>(end - p)));
            if (!d) {
                fields.emplace_back(p, static_cast<size_t>(end - p));
                return;
            }
            fields.emplace_back(p, static_cast<size_t>(d - p));
            p = d + 1;
        }
    }
    bool quoted = false;
    size_t b = 0;
    for (size_t i = 0; i < line.size(); ++i) {
        if (line[i] == '"') quoted = !quoted;
        else if (line[i] == delim && !quoted) {
            fields.push_back(line.substr(b, i - b));
            b = i + 1;
        }
    }
    fields.push_back(line.substr(b));
}

// A .tsv file is tab-separated even when its header names contain commas.
bool isTsv(const std::string& path) {
    if (path.size() < 4) return false;
    std::string ext = path.substr(path.size() - 4);
    for (char& c : ext) c = static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
    return ext == ".tsv";
}

// A header cell: trimmed, unquoted, "" unescaped.
std::string columnName(std::string_view field) {
    std::string_view s = trimmed(field);
    if (s.size() >= 2 && s.front() == '"' && s.back() == '"') s = s.substr(1, s.size() - 2);
    std::string out;
    for (size_t i = 0; i < s.size(); ++i) {
        out += s[i];
        if (s[i] == '"' && i + 1 < s.size() && s[i + 1] == '"') ++i;
    }
    return out;
}

}  // namespace

Result<Dataset> readCsv(const std::string& path, const LoadOptions& options) {
    auto file = detail::MappedFile::open(path);
    if (!file) return file.error();
    std::string_view text = file->bytes();
    if (text.substr(0, 3) == "\xEF\xBB\xBF") text.remove_prefix(3);  // UTF-8 BOM
    detail::Progress progress(options, path, text.size());

    Dataset d;
    d.label = detail::baseName(path);
    char delim = kWhitespace;
    size_t cols = 0;          // 0 until the first row is seen
    int64_t firstRowLine = 0;
    std::vector<std::string_view> fields;
    detail::TextLines lines(text);
    try {
        while (!lines.done()) {
            if (!progress.at(lines.offset())) return progress.cancelled();
            const std::string_view line = lines.next();
            const int64_t lineNo = lines.number();
            const std::string_view content = trimmed(line);
            if (content.empty() || content.front() == '#') continue;

            if (cols == 0) {  // the first row: delimiter, width, header
                delim = isTsv(path) ? '\t' : detectDelimiter(line);
                split(line, delim, fields);
                cols = fields.size();
                firstRowLine = lineNo;
                bool header = false;
                float v;
                for (std::string_view f : fields)
                    header = header || (!trimmed(f).empty() && !detail::parseFloat(f, v));
                if (header) {
                    for (std::string_view f : fields) d.column_names.push_back(columnName(f));
                    continue;
                }
            } else {
                split(line, delim, fields);
            }
            if (fields.size() != cols)
                return dataError(at(path, lineNo) + ": " + std::to_string(fields.size()) +
                                 " fields, expected " + std::to_string(cols) + " (as in line " +
                                 std::to_string(firstRowLine) + ")");
            // Reserve for the whole file from the first data row's length, so a vector of
            // hundreds of MB is not copied while it grows; untouched pages cost nothing.
            if (d.values.capacity() == 0) d.values.reserve(cols * (text.size() / (line.size() + 1) + 1));
            for (size_t c = 0; c < cols; ++c) {
                float v;
                if (!detail::parseFloat(fields[c], v)) {
                    const std::string_view f = trimmed(fields[c]);
                    return dataError(at(path, lineNo, static_cast<int64_t>(c) + 1) + ": " +
                                     (f.empty() ? std::string("empty field")
                                                : detail::quoteField(f) + " is not a number"));
                }
                d.values.push_back(v);
            }
        }
    } catch (const std::bad_alloc&) {
        return dataError(path + ": out of memory after " + std::to_string(d.values.size()) + " values");
    }
    if (d.values.empty())
        return dataError(path + (cols == 0 ? ": no data (the file is empty)" : ": no data rows after the header"));
    if (!progress.finish()) return progress.cancelled();
    if (d.values.capacity() > d.values.size() + d.values.size() / 4) d.values.shrink_to_fit();
    const auto rows = static_cast<int64_t>(d.values.size() / cols);
    d.shape = cols == 1 ? Shape{rows} : Shape{rows, static_cast<int64_t>(cols)};
    return d;
}

}  // namespace qs::data
