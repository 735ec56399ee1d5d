// The one CSV writer of QuantScope: every table the program writes (a plot's CSV, the
// statistics, the workbench's panels, `quantscope-cli analyze|embedding|export --csv`) goes
// through csvText(), so all of them format numbers and quote fields the same way.
// Qt-free: the GUI converts its names with QString::toStdString() (UTF-8).
#pragma once

#include <cstddef>
#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

namespace qs::data {

// One number as CSV text: the shortest text that reads back as the same float32 when the
// value is a float32 (so 0.1f prints as 0.1, not 0.100000001490116), else the shortest
// round-trip double; "nan", "inf", "-inf" for non-finite values.
std::string csvNumber(double value);
// One text field as CSV: quoted (with doubled quotes) only when it holds a comma, a quote
// or a line break.
std::string csvField(std::string_view text);

// A table of text cells (numbers already formatted with csvNumber).
struct TextTable {
    std::vector<std::string> header;
    std::vector<std::vector<std::string>> rows;
};

// A table of numbers by column: header[i] names columns[i]. Columns may differ in length;
// a row past a column's end leaves that cell empty.
struct NumberColumns {
    std::vector<std::string> header;
    std::vector<std::vector<double>> columns;

    // A table with these columns and no rows yet.
    static NumberColumns named(std::vector<std::string> names);
    // Appends one value to each column, in order; `row` has one value per column.
    void addRow(std::initializer_list<double> row);
    size_t rowCount() const;  // the longest column
};
// The columns as text rows (cells past a column's end are empty).
TextTable toTextTable(const NumberColumns& table);

// Header line, then one line per row; '\n' line ends; fields quoted as csvField() does.
std::string csvText(const TextTable& table);
std::string csvText(const NumberColumns& table);

}  // namespace qs::data
