// The model report as CSV (through the one CSV writer) and as JSON. The JSON is written here,
// in core, rather than with the CLI's JsonOut so that `quantscope-cli model --report` and the
// window's JSON export are the same text; numbers use csvNumber's shortest round-trip form.
#include <cmath>
#include <string>

#include "core/analysis/op_attributes.h"
#include "core/model_analysis/model_report.h"

namespace qs::analysis {
namespace {

using data::csvNumber;

std::string shapeText(const Shape& shape) {
    std::string s;
    for (size_t i = 0; i < shape.size(); ++i) s += (i ? "x" : "") + std::to_string(shape[i]);
    return s.empty() ? "scalar" : s;
}

std::string levelsText(double levels) { return levels < 0 ? std::string() : csvNumber(levels); }

// A JSON string: valid UTF-8 passes through, control characters are escaped and bytes that
// are not UTF-8 (names come from files) become U+FFFD.
std::string jsonString(std::string_view s) {
    std::string out = "\"";
    for (size_t i = 0; i < s.size();) {
        const auto c = static_cast<unsigned char>(s[i]);
        if (c == '"' || c == '\\') {
            out += '\\';
            out += static_cast<char>(c);
            ++i;
        } else if (c < 0x20) {
            static const char* hex = "0123456789abcdef";
            out += "\\u00";
            out += hex[c >> 4];
            out += hex[c & 15];
            ++i;
        } else if (c < 0x80) {
            out += static_cast<char>(c);
            ++i;
        } else {
            // Length of a well-formed sequence starting here (0: not one).
            size_t len = c >= 0xC2 && c <= 0xDF ? 2 : c >= 0xE0 && c <= 0xEF ? 3 : c >= 0xF0 && c <= 0xF4 ? 4 : 0;
            for (size_t k = 1; k < len; ++k) {
                if (i + k >= s.size() || (static_cast<unsigned char>(s[i + k]) & 0xC0) != 0x80) {
                    len = 0;
                    break;
                }
            }
            if (len == 3 || len == 4) {  // overlong forms, surrogates, past U+10FFFF
                const auto d = static_cast<unsigned char>(s[i + 1]);
                if ((c == 0xE0 && d < 0xA0) || (c == 0xED && d > 0x9F) || (c == 0xF0 && d < 0x90) ||
                    (c == 0xF4 && d > 0x8F))
                    len = 0;
            }
            if (len == 0) {
                out += "\xEF\xBF\xBD";
                ++i;
            } else {
                out.append(s.substr(i, len));
                i += len;
            }
        }
    }
    return out + "\"";
}

std::string jsonNumber(double v) { return std::isfinite(v) ? csvNumber(v) : jsonString(csvNumber(v)); }

std::string specJson(const QuantSpec& s) {
    std::string j = "{\"op\": " + jsonString(quantOpKey(s.op));
    for (const OpAttribute& a : opAttributes()) {
        if (!a.tf || a.use(s.op) == AttrUse::None) continue;
        const AttrValue v = a.get(s);
        j += ", " + jsonString(a.name) + ": ";
        switch (a.kind) {
            case AttrKind::Bool: j += std::get<bool>(v) ? "true" : "false"; break;
            case AttrKind::Int: j += std::to_string(std::get<int64_t>(v)); break;
            case AttrKind::Float: j += jsonNumber(std::get<double>(v)); break;
            case AttrKind::Enum: j += jsonString(a.choiceName(std::get<int64_t>(v))); break;
        }
    }
    return j + "}";
}

std::string statsJson(const ReportStats& s) {
    return "\"elements\": " + std::to_string(s.elements) + ", \"min\": " + jsonNumber(s.min) +
           ", \"max\": " + jsonNumber(s.max) + ", \"mse\": " + jsonNumber(s.mse) +
           ", \"sqnr_db\": " + jsonNumber(s.sqnr_db) + ", \"clipped_fraction\": " + jsonNumber(s.clipped_fraction) +
           ", \"levels_used\": " + (s.levels_used < 0 ? std::string("null") : jsonNumber(s.levels_used)) +
           ", \"levels_available\": " + std::to_string(s.levels_available) +
           ", \"nan_pairs\": " + std::to_string(s.nan_pairs);
}

std::vector<std::string> statsCells(const ReportStats& s) {
    return {std::to_string(s.elements), csvNumber(s.min),          csvNumber(s.max),
            csvNumber(s.mse),           csvNumber(s.sqnr_db),      csvNumber(s.clipped_fraction),
            levelsText(s.levels_used),  std::to_string(s.levels_available)};
}

}  // namespace

data::TextTable modelReportTable(const ModelReport& report) {
    data::TextTable t;
    t.header = {"tensor", "channel", "shape", "dtype", "axis", "elements", "min", "max", "mse", "sqnr_db",
                "clipped_fraction", "levels_used", "levels_available", "best_calibration",
                "best_calibration_sqnr_db"};
    for (const TensorReportRow& r : report.rows) {
        std::vector<std::string> line = {r.name, "", shapeText(r.shape), r.dtype, std::to_string(r.axis)};
        for (auto& cell : statsCells(r.stats)) line.push_back(std::move(cell));
        line.push_back(r.calibration ? bestCalibrationName(*r.calibration) : "");
        line.push_back(r.calibration ? csvNumber(r.calibration->sqnr_db) : "");
        t.rows.push_back(std::move(line));
        for (const ChannelRow& c : r.channels) {
            std::vector<std::string> ch = {r.name, std::to_string(c.channel), shapeText(r.shape), r.dtype,
                                           std::to_string(r.axis)};
            for (auto& cell : statsCells(c.stats)) ch.push_back(std::move(cell));
            ch.push_back("");
            ch.push_back("");
            t.rows.push_back(std::move(ch));
        }
    }
    return t;
}

std::string modelReportJson(const ModelReport& report) {
    std::string j = "{\n  \"file\": " + jsonString(report.file) + ",\n  \"format\": " + jsonString(report.format) +
                    ",\n  \"spec\": " + specJson(report.spec) +
                    ",\n  \"per_channel\": " + (report.per_channel ? "true" : "false") +
                    ",\n  \"elements\": " + std::to_string(report.elements) +
                    ",\n  \"bytes_float32\": " + std::to_string(report.bytes_float32) + ",\n  \"tensors\": [";
    for (size_t i = 0; i < report.rows.size(); ++i) {
        const TensorReportRow& r = report.rows[i];
        std::string shape;
        for (size_t k = 0; k < r.shape.size(); ++k) shape += (k ? ", " : "") + std::to_string(r.shape[k]);
        j += std::string(i ? "," : "") + "\n    {\"name\": " + jsonString(r.name) + ", \"shape\": [" + shape +
             "], \"dtype\": " + jsonString(r.dtype) + ", \"dequantized\": " + (r.dequantized ? "true" : "false") +
             ", \"int32_codes\": " + (r.int32_codes ? "true" : "false") +
             ", \"axis\": " + std::to_string(r.axis) + ", " + statsJson(r.stats) + ", \"best_calibration\": ";
        if (r.calibration)
            j += "{\"method\": " + jsonString(calibrationMethodName(r.calibration->method)) +
                 ", \"min\": " + jsonNumber(r.calibration->min) + ", \"max\": " + jsonNumber(r.calibration->max) +
                 ", \"sqnr_db\": " + jsonNumber(r.calibration->sqnr_db) +
                 ", \"sample\": " + std::to_string(r.calibration->sample) +
                 ", \"per_channel\": " + (r.calibration->per_channel ? "true" : "false") + "}";
        else
            j += "null";
        j += ", \"channels\": [";
        for (size_t c = 0; c < r.channels.size(); ++c)
            j += std::string(c ? ",\n      " : "\n      ") + "{\"channel\": " + std::to_string(r.channels[c].channel) +
                 ", " + statsJson(r.channels[c].stats) + "}";
        j += r.channels.empty() ? "]}" : "\n    ]}";
    }
    j += report.rows.empty() ? "],\n  \"skipped\": [" : "\n  ],\n  \"skipped\": [";
    for (size_t i = 0; i < report.skipped.size(); ++i)
        j += std::string(i ? "," : "") + "\n    {\"name\": " + jsonString(report.skipped[i].name) +
             ", \"reason\": " + jsonString(report.skipped[i].reason) + "}";
    j += report.skipped.empty() ? "]\n}\n" : "\n  ]\n}\n";
    return j;
}

}  // namespace qs::analysis
