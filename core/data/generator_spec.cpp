#include "core/data/generator_spec.h"

#include <algorithm>
#include <charconv>
#include <cmath>

#include "core/data/generators.h"

namespace qs::data {
namespace {

struct KindInfo {
    const char* kind;
    std::vector<std::pair<std::string, double>> keys;  // canonical order, with defaults
};

// n first, the shape parameters next, seed last: the order of the labels.
const std::vector<KindInfo>& kindTable() {
    static const std::vector<KindInfo> table = {
        {"uniform", {{"n", 100000}, {"low", -1}, {"high", 1}, {"seed", 1}}},
        {"normal", {{"n", 100000}, {"mean", 0}, {"std", 1}, {"seed", 1}}},
        {"laplace", {{"n", 100000}, {"loc", 0}, {"scale", 1}, {"seed", 1}}},
        {"sine", {{"n", 100000}, {"amplitude", 1}}},
        {"mixture",
         {{"n", 100000}, {"std", 1}, {"outlier_fraction", 0.01}, {"outlier_scale", 20}, {"seed", 1}}},
    };
    return table;
}

const KindInfo* findKind(std::string_view kind) {
    for (const KindInfo& k : kindTable())
        if (kind == k.kind) return &k;
    return nullptr;
}

bool hasKey(const KindInfo& info, std::string_view key) {
    for (const auto& k : info.keys)
        if (k.first == key) return true;
    return false;
}

std::string_view trim(std::string_view s) {
    const auto isSpace = [](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; };
    while (!s.empty() && isSpace(s.front())) s.remove_prefix(1);
    while (!s.empty() && isSpace(s.back())) s.remove_suffix(1);
    return s;
}

std::string joined(const std::vector<std::string>& items) {
    std::string out;
    for (const std::string& s : items) {
        if (!out.empty()) out += ", ";
        out += s;
    }
    return out;
}

// The keys a spec of `kind` takes, as an error lists them: "n, shape, mean, std, seed".
std::string validKeys(std::string_view kind) {
    std::vector<std::string> keys = generatorKeys(kind);
    keys.insert(keys.begin() + 1, "shape");
    return joined(keys);
}

std::string quoted(std::string_view s) {
    std::string out = "\"";
    out += s;
    out += '"';
    return out;
}

// The whole of `s` as a double; a leading '+' is allowed because people type it.
bool parseDouble(std::string_view s, double& v) {
    if (s.size() > 1 && s.front() == '+' && s[1] != '-') s.remove_prefix(1);
    const auto r = std::from_chars(s.data(), s.data() + s.size(), v);
    return r.ec == std::errc() && r.ptr == s.data() + s.size();
}

// Checks one value; returns the problem ("" if fine). Messages show the value as typed
// back in canonical form.
std::string checkValue(std::string_view kind, const std::string& key, double v,
                       const std::map<std::string, double>& all) {
    const std::string shown = key + " = " + formatNumber(v);
    if (!std::isfinite(v)) return shown + " is not finite";
    if (key == "n") {
        if (v != std::trunc(v)) return shown + " is not an integer";
        if (v < 1 || v > static_cast<double>(kMaxGeneratedValues))
            return shown + " is out of range 1.." + std::to_string(kMaxGeneratedValues) +
                   " (larger data sets are refused to bound memory)";
    } else if (key == "seed") {
        if (v != std::trunc(v) || v < 0 || v > 0x1p53)
            return shown + " must be an integer in 0..9007199254740992 (2^53)";
    } else if (key == "std" || key == "scale" || key == "outlier_scale" || key == "amplitude") {
        if (!(v > 0)) return shown + " must be > 0";
    } else if (key == "outlier_fraction") {
        if (v < 0 || v > 1) return shown + " must lie in [0, 1]";
    } else if (key == "high") {
        const double low = all.at("low");
        if (!(low < v)) return "low = " + formatNumber(low) + " must be < high = " + formatNumber(v);
        if (!std::isfinite(v - low)) return "high - low overflows a double";
    }
    if (kind == "mixture" && key == "outlier_scale" && !std::isfinite(all.at("std") * v))
        return "std * outlier_scale overflows a double";
    return "";
}

// The number of values of `shape` (dimensions >= 1), or -1 past kMaxGeneratedValues.
int64_t shapeProduct(const std::vector<int64_t>& shape) {
    int64_t product = 1;
    for (int64_t d : shape) {
        if (d > kMaxGeneratedValues / product) return -1;
        product *= d;
    }
    return product;
}

// The shape's problem ("" if fine): its rank, each dimension, the product's bound, and an n
// given beside it.
std::string checkShape(const std::vector<int64_t>& shape, const std::map<std::string, double>& params) {
    const std::string shown = "shape = " + generatorShapeText(shape);
    if (shape.size() > kMaxGeneratedRank)
        return shown + " has " + std::to_string(shape.size()) + " dimensions; at most " +
               std::to_string(kMaxGeneratedRank) + " are allowed";
    for (size_t i = 0; i < shape.size(); ++i)
        if (shape[i] < 1)
            return shown + ": dimension " + std::to_string(i + 1) + " is " + std::to_string(shape[i]) +
                   " (every dimension must be >= 1)";
    const int64_t product = shapeProduct(shape);
    if (product < 0)
        return shown + " has more than " + std::to_string(kMaxGeneratedValues) +
               " values (larger data sets are refused to bound memory)";
    if (const auto n = params.find("n"); n != params.end() && n->second != static_cast<double>(product))
        return "n = " + formatNumber(n->second) + " does not match " + shown + " (" + std::to_string(product) +
               " values): give n = " + std::to_string(product) + " or leave n out";
    return "";
}

Result<GeneratorSpec> normalize(const GeneratorSpec& spec, const std::string& where) {
    const KindInfo* info = findKind(spec.kind);
    if (!info)
        return dataError(where + "unknown kind " + quoted(spec.kind) + " (valid: " +
                         joined(generatorKinds()) + ")");
    GeneratorSpec out{spec.kind, {}, spec.shape};
    if (!spec.shape.empty()) {
        const std::string problem = checkShape(spec.shape, spec.params);
        if (!problem.empty()) return dataError(where + problem);
        out.params["n"] = static_cast<double>(shapeProduct(spec.shape));
    }
    for (const auto& [key, value] : spec.params) {
        if (!hasKey(*info, key))
            return dataError(where + "unknown key " + quoted(key) + " for " + spec.kind +
                             " (valid keys: " + validKeys(spec.kind) + ")");
        out.params[key] = value;
    }
    for (const auto& [key, def] : info->keys) out.params.emplace(key, def);
    for (const auto& [key, def] : info->keys) {  // canonical order: low before high
        const std::string problem = checkValue(spec.kind, key, out.params.at(key), out.params);
        if (!problem.empty()) return dataError(where + problem);
    }
    return out;
}

}  // namespace

const std::vector<std::string>& generatorKinds() {
    static const std::vector<std::string> kinds = [] {
        std::vector<std::string> k;
        for (const KindInfo& info : kindTable()) k.emplace_back(info.kind);
        return k;
    }();
    return kinds;
}

std::vector<std::string> generatorKeys(std::string_view kind) {
    std::vector<std::string> keys;
    if (const KindInfo* info = findKind(kind))
        for (const auto& k : info->keys) keys.push_back(k.first);
    return keys;
}

Result<GeneratorSpec> parseGeneratorSpec(std::string_view text) {
    const std::string where = "generator " + quoted(text) + ": ";
    const std::string_view body = trim(text);
    if (body.empty())
        return dataError(where + "empty; expected KIND or KIND:key=value,... with KIND one of " +
                         joined(generatorKinds()));
    const size_t colon = body.find(':');
    GeneratorSpec spec;
    spec.kind = std::string(trim(body.substr(0, colon)));
    // Report an unknown kind before looking at the keys, which depend on it.
    if (!findKind(spec.kind)) return normalize(spec, where);
    if (colon != std::string_view::npos) {
        std::string_view rest = body.substr(colon + 1);
        if (!trim(rest).empty()) {
            while (true) {
                const size_t comma = rest.find(',');
                const std::string_view item = trim(rest.substr(0, comma));
                if (item.empty())
                    return dataError(where + "empty item (expected key=value between commas)");
                const size_t eq = item.find('=');
                if (eq == std::string_view::npos)
                    return dataError(where + quoted(item) + " has no value (expected key=value)");
                const std::string key(trim(item.substr(0, eq)));
                const std::string_view valueText = trim(item.substr(eq + 1));
                if (key == "shape") {
                    if (!spec.shape.empty()) return dataError(where + "key \"shape\" is given twice");
                    auto shape = parseGeneratorShape(valueText);
                    if (!shape) return dataError(where + shape.error().message);
                    spec.shape = std::move(shape).value();
                    if (comma == std::string_view::npos) break;
                    rest = rest.substr(comma + 1);
                    continue;
                }
                if (!hasKey(*findKind(spec.kind), key))
                    return dataError(where + "unknown key " + quoted(key) + " for " + spec.kind +
                                     " (valid keys: " + validKeys(spec.kind) + ")");
                if (spec.params.count(key))
                    return dataError(where + "key " + quoted(key) + " is given twice");
                double v = 0;
                if (!parseDouble(valueText, v))
                    return dataError(where + key + ": " + quoted(valueText) + " is not a number");
                spec.params[key] = v;
                if (comma == std::string_view::npos) break;
                rest = rest.substr(comma + 1);
            }
        }
    }
    return normalize(spec, where);
}

Result<GeneratorSpec> normalizeGeneratorSpec(const GeneratorSpec& spec) {
    return normalize(spec, "generator " + quoted(toString(spec)) + ": ");
}

std::string toString(const GeneratorSpec& spec) {
    std::string out = spec.kind;
    char sep = ':';
    const auto put = [&](const std::string& key, double v) {
        out += sep;
        out += key;
        out += '=';
        out += formatNumber(v);
        sep = ',';
    };
    const std::vector<std::string> keys = generatorKeys(spec.kind);
    for (const std::string& key : keys) {
        if (auto it = spec.params.find(key); it != spec.params.end()) put(key, it->second);
        if (key == "n" && !spec.shape.empty()) {  // n, then the shape it is the product of
            out += sep;
            out += "shape=" + generatorShapeText(spec.shape);
            sep = ',';
        }
    }
    for (const auto& [key, v] : spec.params)  // keys foreign to the kind, so errors can show them
        if (std::find(keys.begin(), keys.end(), key) == keys.end()) put(key, v);
    return out;
}

namespace {

Dataset generateFlat(const GeneratorSpec& spec, const Exec& exec) {
    const std::map<std::string, double>& p = spec.params;
    const auto n = static_cast<int64_t>(p.at("n"));
    const std::string& kind = spec.kind;
    if (kind == "sine") return sine(n, p.at("amplitude"), exec);
    const auto seed = static_cast<uint64_t>(p.at("seed"));
    if (kind == "uniform") return uniform(n, seed, p.at("low"), p.at("high"), exec);
    if (kind == "normal") return normal(n, seed, p.at("mean"), p.at("std"), exec);
    if (kind == "laplace") return laplace(n, seed, p.at("loc"), p.at("scale"), exec);
    return mixture(n, seed, p.at("std"), p.at("outlier_fraction"), p.at("outlier_scale"), exec);
}

}  // namespace

Result<std::vector<int64_t>> parseGeneratorShape(std::string_view text) {
    const std::string problem = "shape: " + quoted(text) + " is not a list of integers joined by 'x' (e.g. 64x1024)";
    std::vector<int64_t> shape;
    std::string_view rest = trim(text);
    while (true) {
        const size_t x = rest.find_first_of("xX");
        std::string_view item = trim(rest.substr(0, x));
        if (item.size() > 1 && item.front() == '+') item.remove_prefix(1);
        int64_t d = 0;
        const auto r = std::from_chars(item.data(), item.data() + item.size(), d);
        if (item.empty() || r.ec != std::errc() || r.ptr != item.data() + item.size()) return dataError(problem);
        shape.push_back(d);
        if (x == std::string_view::npos) break;
        rest = rest.substr(x + 1);
    }
    return shape;
}

std::string generatorShapeText(const std::vector<int64_t>& shape) {
    std::string out;
    for (int64_t d : shape) {
        if (!out.empty()) out += 'x';
        out += std::to_string(d);
    }
    return out;
}

Result<Dataset> generate(const GeneratorSpec& spec, const Exec& exec) {
    auto normalized = normalizeGeneratorSpec(spec);
    if (!normalized) return normalized.error();
    Dataset d = generateFlat(*normalized, exec);
    if (!normalized->shape.empty()) {
        // The values are a function of the index alone: the shape only lays them out.
        d.shape = normalized->shape;
        const std::string head = normalized->kind + "(n=" + std::to_string(d.values.size());
        if (d.label.compare(0, head.size(), head) == 0)
            d.label.insert(head.size(), ", shape=" + generatorShapeText(normalized->shape));
    }
    return d;
}

}  // namespace qs::data
