#include "core/data/npy_header.h"

#include <cstring>
#include <limits>

#include "core/data/dataset.h"

namespace qs::data {
namespace {

constexpr std::string_view kMagic = "\x93NUMPY";

// The header is a Python dict literal, e.g.
//   {'descr': '<f4', 'fortran_order': False, 'shape': (3, 4), }
// A tiny recursive-descent reader of exactly that subset: string keys, and string, bool or
// int-tuple values. Errors name the byte offset inside the header text.
class HeaderParser {
public:
    HeaderParser(std::string_view text, std::string where) : s_(text), where_(std::move(where)) {}

    Result<NpyHeader> parse() {
        NpyHeader h;
        bool haveDescr = false, haveFortran = false, haveShape = false;
        if (!eat('{')) return fail("expected '{'");
        while (true) {
            skipSpace();
            if (eat('}')) break;
            std::string key;
            if (!readString(key)) return fail("expected a quoted key");
            if (!eat(':')) return fail("expected ':' after '" + key + "'");
            skipSpace();
            if (key == "descr") {
                if (peek() == '[')
                    return err("structured dtypes (a list as 'descr') are not supported; save a plain "
                               "float32/float64 array");
                if (!readString(h.descr)) return fail("expected a quoted dtype for 'descr'");
                haveDescr = true;
            } else if (key == "fortran_order") {
                if (take("True")) h.fortran = true;
                else if (take("False")) h.fortran = false;
                else return fail("expected True or False for 'fortran_order'");
                haveFortran = true;
            } else if (key == "shape") {
                if (!readShape(h.shape)) return fail("expected a tuple of non-negative integers for 'shape'");
                haveShape = true;
            } else {
                return fail("unexpected key '" + key + "'");
            }
            skipSpace();
            if (eat(',')) continue;
            skipSpace();
            if (eat('}')) break;
            return fail("expected ',' or '}'");
        }
        if (!haveDescr) return err("the header has no 'descr'");
        if (!haveFortran) return err("the header has no 'fortran_order'");
        if (!haveShape) return err("the header has no 'shape'");
        return h;
    }

private:
    char peek() const { return pos_ < s_.size() ? s_[pos_] : '\0'; }
    void skipSpace() {
        while (pos_ < s_.size() && (s_[pos_] == ' ' || s_[pos_] == '\n' || s_[pos_] == '\t' || s_[pos_] == '\r'))
            ++pos_;
    }
    bool eat(char c) {
        skipSpace();
        if (peek() != c) return false;
        ++pos_;
        return true;
    }
    bool take(std::string_view word) {
        if (s_.substr(pos_, word.size()) != word) return false;
        pos_ += word.size();
        return true;
    }
    bool readString(std::string& out) {
        skipSpace();
        const char q = peek();
        if (q != '\'' && q != '"') return false;
        const size_t close = s_.find(q, pos_ + 1);
        if (close == std::string_view::npos) return false;
        out = std::string(s_.substr(pos_ + 1, close - pos_ - 1));
        pos_ = close + 1;
        return true;
    }
    bool readShape(Shape& shape) {
        if (!eat('(')) return false;
        while (true) {
            skipSpace();
            if (eat(')')) return true;
            int64_t v = 0;
            size_t digits = 0;
            while (pos_ < s_.size() && s_[pos_] >= '0' && s_[pos_] <= '9') {
                if (v > (std::numeric_limits<int64_t>::max() - 9) / 10) return false;
                v = v * 10 + (s_[pos_++] - '0');
                ++digits;
            }
            if (pos_ < s_.size() && s_[pos_] == 'L') ++pos_;  // Python 2 longs
            if (digits == 0) return false;
            shape.push_back(v);
            if (eat(',')) continue;
            return eat(')');
        }
    }
    Error fail(const std::string& what) const {
        return dataError(where_ + "header, offset " + std::to_string(pos_) + ": " + what);
    }
    Error err(const std::string& what) const { return dataError(where_ + what); }

    std::string_view s_;
    std::string where_;
    size_t pos_ = 0;
};

}  // namespace

size_t npyDataOffset(std::string_view bytes) {
    if (bytes.size() < 10 || bytes.substr(0, 6) != kMagic) return 0;
    const int major = static_cast<unsigned char>(bytes[6]);
    if (major < 1 || major > 3) return 0;
    const size_t lenBytes = major == 1 ? 2 : 4;
    if (bytes.size() < 8 + lenBytes) return 0;
    size_t headerLen = 0;
    for (size_t i = 0; i < lenBytes; ++i)
        headerLen |= static_cast<size_t>(static_cast<unsigned char>(bytes[8 + i])) << (8 * i);
    return 8 + lenBytes + headerLen;
}

Result<NpyHeader> parseNpyHeader(std::string_view bytes, const std::string& where) {
    if (bytes.size() < 10 || bytes.substr(0, 6) != kMagic)
        return dataError(where + "not a NumPy .npy file (no \\x93NUMPY magic)");
    const int major = static_cast<unsigned char>(bytes[6]), minor = static_cast<unsigned char>(bytes[7]);
    if (major < 1 || major > 3)
        return dataError(where + "unsupported .npy format version " + std::to_string(major) + "." +
                         std::to_string(minor) + " (1.0, 2.0 and 3.0 are read)");
    // v1: 2-byte little-endian header length; v2/v3: 4 bytes (v3 only allows UTF-8 text).
    const size_t lenBytes = major == 1 ? 2 : 4;
    if (bytes.size() < 8 + lenBytes) return dataError(where + "truncated in the header length");
    const size_t dataOffset = npyDataOffset(bytes), headerLen = dataOffset - 8 - lenBytes;
    if (bytes.size() < dataOffset)
        return dataError(where + "truncated header: it announces " + std::to_string(headerLen) +
                         " bytes, the file has " + std::to_string(bytes.size() - 8 - lenBytes));
    auto header = HeaderParser(bytes.substr(8 + lenBytes, headerLen), where).parse();
    if (!header) return header.error();
    header.value().dataOffset = dataOffset;
    return header;
}

std::optional<NpyElementType> npyElementType(std::string_view descr) {
    if (descr.size() != 3 || std::string_view("<>|=").find(descr[0]) == std::string_view::npos) return std::nullopt;
    NpyElementType t;
    t.kind = descr[1];
    t.width = descr[2] - '0';
    t.bigEndian = descr[0] == '>';
    const bool ok = (t.kind == 'f' && (t.width == 2 || t.width == 4 || t.width == 8)) ||
                    ((t.kind == 'i' || t.kind == 'u') && (t.width == 1 || t.width == 2 || t.width == 4 || t.width == 8)) ||
                    (t.kind == 'b' && t.width == 1);
    if (!ok) return std::nullopt;
    return t;
}

// Column-major (Fortran) data to row-major: walk the input in its order with an odometer
// over the indices (first index fastest) and keep the row-major output offset in step.
void fortranToRowMajor(const char* in, char* out, const Shape& shape, size_t width) {
    const size_t rank = shape.size();
    size_t count = 1;
    for (int64_t d : shape) count *= static_cast<size_t>(d);
    if (count == 0) return;
    if (rank < 2) {
        std::memcpy(out, in, count * width);
        return;
    }
    std::vector<int64_t> stride(rank, 1), index(rank, 0);  // row-major strides of the output
    for (size_t k = rank - 1; k > 0; --k) stride[k - 1] = stride[k] * shape[k];
    int64_t o = 0;
    for (size_t i = 0; i < count; ++i) {
        std::memcpy(out + static_cast<size_t>(o) * width, in + i * width, width);
        for (size_t k = 0; k < rank; ++k) {  // increment the odometer
            o += stride[k];
            if (++index[k] < shape[k]) break;
            o -= stride[k] * shape[k];
            index[k] = 0;
        }
    }
}

}  // namespace qs::data
