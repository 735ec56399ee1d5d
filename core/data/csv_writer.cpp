#include "core/data/csv_writer.h"

#include <algorithm>
#include <charconv>
#include <cmath>

namespace qs::data {

std::string csvNumber(double value) {
    if (std::isnan(value)) return "nan";
    if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
    char buffer[64];
    std::to_chars_result r;
    const float f = static_cast<float>(value);
    if (static_cast<double>(f) == value)
        r = std::to_chars(buffer, buffer + sizeof buffer, f);
    else
        r = std::to_chars(buffer, buffer + sizeof buffer, value);
    return std::string(buffer, r.ptr);
}

std::string csvField(std::string_view text) {
    if (text.find_first_of(",\"\n\r") == std::string_view::npos) return std::string(text);
    std::string quoted = "\"";
    for (char c : text) {
        if (c == '"') quoted += '"';
        quoted += c;
    }
    return quoted + '"';
}

NumberColumns NumberColumns::named(std::vector<std::string> names) {
    NumberColumns t;
    t.columns.resize(names.size());
    t.header = std::move(names);
    return t;
}

void NumberColumns::addRow(std::initializer_list<double> row) {
    if (columns.size() < row.size()) columns.resize(row.size());
    size_t c = 0;
    for (double v : row) columns[c++].push_back(v);
}

size_t NumberColumns::rowCount() const {
    size_t rows = 0;
    for (const auto& c : columns) rows = std::max(rows, c.size());
    return rows;
}

TextTable toTextTable(const NumberColumns& table) {
    TextTable text{table.header, {}};
    const size_t rows = table.rowCount();
    text.rows.reserve(rows);
    for (size_t r = 0; r < rows; ++r) {
        std::vector<std::string>& cells = text.rows.emplace_back();
        cells.reserve(table.columns.size());
        for (const auto& column : table.columns)
            cells.push_back(r < column.size() ? csvNumber(column[r]) : std::string());
    }
    return text;
}

std::string csvText(const TextTable& table) {
    auto line = [](const std::vector<std::string>& cells) {
        std::string s;
        for (size_t i = 0; i < cells.size(); ++i) {
            if (i) s += ',';
            s += csvField(cells[i]);
        }
        return s + '\n';
    };
    std::string out = line(table.header);
    for (const auto& row : table.rows) out += line(row);
    return out;
}

std::string csvText(const NumberColumns& table) { return csvText(toTextTable(table)); }

}  // namespace qs::data
