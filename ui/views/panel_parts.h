// The pieces the table panels share (the statistics dock, the workbench's table panels): a
// bold title, the "stale — …" line, a read-only table with a context menu, and the row spec
// their tables are built from.
#pragma once

#include <QString>

class QLabel;
class QTableWidget;

namespace qs::ui {

// One row of a panel's table: the key (CSV, lookups), the label shown and its tooltip.
struct RowSpec {
    const char* key;
    const char* label;
    const char* tip;
};

// A bold, word-wrapped title label named `objectName`.
QLabel* makePanelTitle(const QString& objectName);
// The hidden, word-wrapped "staleLabel" line.
QLabel* makeStaleLabel();
// Read-only rows without a vertical header, the last column stretched, alternating colours,
// no word wrap, and a custom context menu (the panel's copy/export menu).
void makeReadOnlyTable(QTableWidget* table);

}  // namespace qs::ui
