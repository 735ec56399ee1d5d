#include "app/cli/json_out.h"

#include <QString>
#include <QUtf8StringView>
#include <charconv>
#include <cmath>
#include <cstdio>

namespace qs::cli {

namespace {

void writeString(std::string& out, const std::string& text) {
    // Text that is not UTF-8 (a file name's bytes) gets U+FFFD for its stray bytes, so the
    // document stays JSON.
    std::string repaired;
    const std::string& s = QUtf8StringView(text).isValidUtf8() ? text : (repaired = QString::fromUtf8(text).toStdString());
    out += '"';
    for (unsigned char c : s) {
        switch (c) {
            case '"': out += "\\\""; break;
            case '\\': out += "\\\\"; break;
            case '\n': out += "\\n"; break;
            case '\t': out += "\\t"; break;
            case '\r': out += "\\r"; break;
            default:
                if (c < 0x20) {
                    char buf[8];
                    std::snprintf(buf, sizeof buf, "\\u%04x", c);
                    out += buf;
                } else {
                    out += static_cast<char>(c);
                }
        }
    }
    out += '"';
}

template <typename F>
std::string formatFinite(F v) {
    char buf[64];
    auto res = std::to_chars(buf, buf + sizeof buf, v);
    return std::string(buf, res.ptr);
}

template <typename F>
void writeNumber(std::string& out, F v) {
    if (std::isnan(v)) out += "\"nan\"";
    else if (std::isinf(v)) out += v > 0 ? "\"inf\"" : "\"-inf\"";
    else out += formatFinite(v);
}

bool isScalar(const JsonOut& v) {
    return !std::holds_alternative<JsonOut::Array>(v.variant()) &&
           !std::holds_alternative<JsonOut::Object>(v.variant());
}

void newline(std::string& out, int indent, int depth) {
    if (indent < 0) return;
    out += '\n';
    out.append(static_cast<size_t>(indent * depth), ' ');
}

}  // namespace

std::string formatFloat(float v) { return formatFinite(v); }
std::string formatDouble(double v) { return formatFinite(v); }

JsonOut& JsonOut::set(std::string key, JsonOut value) {
    if (std::holds_alternative<std::nullptr_t>(v_)) v_ = Object{};
    auto& obj = std::get<Object>(v_);
    for (auto& [k, v] : obj)
        if (k == key) {
            v = std::move(value);
            return v;
        }
    obj.emplace_back(std::move(key), std::move(value));
    return obj.back().second;
}

const JsonOut* JsonOut::find(const std::string& key) const {
    if (const auto* obj = std::get_if<Object>(&v_))
        for (const auto& [k, v] : *obj)
            if (k == key) return &v;
    return nullptr;
}

std::string JsonOut::dump(int indent) const {
    std::string out;
    write(out, indent, 0);
    return out;
}

void JsonOut::write(std::string& out, int indent, int depth) const {
    std::visit(
        [&](const auto& x) {
            using T = std::decay_t<decltype(x)>;
            if constexpr (std::is_same_v<T, std::nullptr_t>) out += "null";
            else if constexpr (std::is_same_v<T, bool>) out += x ? "true" : "false";
            else if constexpr (std::is_same_v<T, int64_t>) out += std::to_string(x);
            else if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>)
                writeNumber(out, x);
            else if constexpr (std::is_same_v<T, std::string>) writeString(out, x);
            else if constexpr (std::is_same_v<T, Array>) {
                bool flat = true;  // arrays of scalars stay on one line: tensors can be long
                for (const auto& e : x) flat = flat && isScalar(e);
                out += '[';
                for (size_t i = 0; i < x.size(); ++i) {
                    if (i) out += flat || indent < 0 ? ", " : ",";
                    if (!flat) newline(out, indent, depth + 1);
                    x[i].write(out, indent, depth + 1);
                }
                if (!flat && !x.empty()) newline(out, indent, depth);
                out += ']';
            } else {
                out += '{';
                for (size_t i = 0; i < x.size(); ++i) {
                    if (i) out += indent < 0 ? ", " : ",";
                    newline(out, indent, depth + 1);
                    writeString(out, x[i].first);
                    out += ": ";
                    x[i].second.write(out, indent, depth + 1);
                }
                if (!x.empty()) newline(out, indent, depth);
                out += '}';
            }
        },
        v_);
}

}  // namespace qs::cli
