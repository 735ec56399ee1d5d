#include "app/cli/model_listing.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cstdio>

#include "app/cli/json_out.h"

namespace qs::cli {

namespace {

std::string lower(std::string_view s) {
    std::string out(s);
    for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

size_t editDistance(const std::string& a, const std::string& b) {
    std::vector<size_t> row(b.size() + 1);
    for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
    for (size_t i = 1; i <= a.size(); ++i) {
        size_t diagonal = row[0];
        row[0] = i;
        for (size_t j = 1; j <= b.size(); ++j) {
            const size_t up = row[j];
            row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
            diagonal = up;
        }
    }
    return row[b.size()];
}

std::string bytesText(int64_t bytes) {
    if (bytes < 0) return "?";
    const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    double v = static_cast<double>(bytes);
    int u = 0;
    while (v >= 1024 && u < 4) {
        v /= 1024;
        ++u;
    }
    char buf[32];
    if (u == 0) std::snprintf(buf, sizeof buf, "%lld B", static_cast<long long>(bytes));
    else std::snprintf(buf, sizeof buf, "%.1f %s", v, units[u]);
    return buf;
}

std::string shapeText(const Shape& s) {
    std::string out = "[";
    for (size_t i = 0; i < s.size(); ++i) out += (i ? ", " : "") + std::to_string(s[i]);
    return out + "]";
}

// 8640 -> "8,640": a count read at a glance, and never taken for the byte size beside it.
std::string groupedCount(int64_t n) {
    if (n < 0) return "?";
    std::string digits = std::to_string(n), out;
    for (size_t i = 0; i < digits.size(); ++i) {
        if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
        out += digits[i];
    }
    return out;
}

std::string zeroPointsText(const std::vector<int64_t>& zp) {
    if (zp.empty()) return "zero point 0";
    const auto [lo, hi] = std::minmax_element(zp.begin(), zp.end());
    if (*lo == *hi) return "zero point " + std::to_string(*lo);
    return "zero points in [" + std::to_string(*lo) + ", " + std::to_string(*hi) + "]";
}

}  // namespace

std::string quantizationText(const modelfile::TensorInfo& info) {
    if (!info.quantization) return "-";
    const auto& q = *info.quantization;
    if (q.scale.empty()) return "quantized, no scale";
    if (!q.perChannel()) return "per tensor: scale " + formatFloat(q.scale[0]) + ", " + zeroPointsText(q.zero_point);
    const auto [lo, hi] = std::minmax_element(q.scale.begin(), q.scale.end());
    return "per channel on axis " + std::to_string(q.axis) + ": " + std::to_string(q.scale.size()) +
           " scales in [" + formatFloat(*lo) + ", " + formatFloat(*hi) + "], " + zeroPointsText(q.zero_point);
}

std::string listingTable(const modelfile::ModelFile& model) {
    const auto& tensors = model.tensors();
    // The element count and the byte size in columns of their own, numbers right-aligned.
    constexpr size_t kColumns = 6;
    constexpr std::array<bool, kColumns> rightAligned{false, false, false, true, true, false};
    std::vector<std::array<std::string, kColumns>> rows;
    rows.push_back({"name", "shape", "dtype", "elements", "bytes", "quantization"});
    for (const auto& t : tensors)
        rows.push_back({t.name, shapeText(t.shape), t.dtype_name, groupedCount(numElements(t.shape)),
                        bytesText(t.byteSize()), quantizationText(t)});
    std::array<size_t, kColumns> width{};
    for (const auto& r : rows)
        for (size_t c = 0; c + 1 < kColumns; ++c) width[c] = std::max(width[c], r[c].size());
    std::string out = model.label() + ": " + std::string(model.format()) + ", " + std::to_string(tensors.size()) +
                      (tensors.size() == 1 ? " tensor\n" : " tensors\n");
    for (const auto& r : rows) {
        std::string line;
        for (size_t c = 0; c + 1 < kColumns; ++c) {
            const std::string pad(width[c] - r[c].size(), ' ');
            line += rightAligned[c] ? pad + r[c] : r[c] + pad;
            line += "  ";
        }
        out += line + r[kColumns - 1] + "\n";
    }
    return out;
}

std::vector<std::string> nearNames(const modelfile::ModelFile& model, std::string_view name, size_t count) {
    const std::string wanted = lower(name);
    struct Candidate {
        bool contains;
        size_t distance;
        const std::string* name;
    };
    std::vector<Candidate> candidates;
    for (const auto& t : model.tensors()) {
        const std::string l = lower(t.name);
        const bool contains = !wanted.empty() && (l.find(wanted) != std::string::npos || wanted.find(l) != std::string::npos);
        const size_t d = editDistance(wanted, l);
        // Near: a containment, or at most a third of the longer name changed (3 edits at least).
        if (contains || d <= std::max<size_t>(3, std::max(wanted.size(), l.size()) / 3))
            candidates.push_back({contains, d, &t.name});
    }
    std::stable_sort(candidates.begin(), candidates.end(), [](const Candidate& a, const Candidate& b) {
        if (a.contains != b.contains) return a.contains;
        return a.distance < b.distance;
    });
    std::vector<std::string> out;
    for (size_t i = 0; i < candidates.size() && i < count; ++i) out.push_back(*candidates[i].name);
    return out;
}

std::string unknownTensorMessage(const modelfile::ModelFile& model, const std::string& name) {
    std::string msg = model.label() + ": no tensor '" + name + "'";
    const auto near = nearNames(model, name);
    if (!near.empty()) {
        msg += "; nearest:";
        for (size_t i = 0; i < near.size(); ++i) msg += (i ? ", '" : " '") + near[i] + "'";
    }
    const size_t n = model.tensors().size();
    return msg + " (--list shows all " + std::to_string(n) + (n == 1 ? " tensor)" : " tensors)");
}

}  // namespace qs::cli
