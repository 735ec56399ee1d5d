// TablePanel: the base of the workbench's table panels (feature statistics, range
// suggestions, storage quantization). A bold title, a "stale — …" line, one QTableWidget and
// whatever the panel adds below it; a context menu copies the table or exports its CSV.
// Unlike the plots' number columns these tables hold text (method names, dtypes), so the CSV
// is a data::TextTable whose numbers the panels write with data::csvNumber (exact, not as
// displayed).
#pragma once

#include <QList>
#include <QString>
#include <QStringList>
#include <QWidget>

#include "core/data/csv_writer.h"
#include "ui/plot/theme.h"

class QLabel;
class QTableWidget;
class QVBoxLayout;

namespace qs::ui {

class TablePanel : public QWidget {
    Q_OBJECT
public:
    explicit TablePanel(const QString& objectName, QWidget* parent = nullptr);

    // What `Export CSV` writes (empty rows without a result).
    virtual data::TextTable csvTable() const = 0;
    bool exportCsv(const QString& path, QString* error = nullptr) const;

    QTableWidget* table() const { return table_; }
    QLabel* titleLabel() const { return title_; }
    QLabel* staleLabel() const { return staleLabel_; }
    bool isStale() const { return stale_; }
    Theme theme() const { return theme_; }
    QString cellText(int row, int column) const;  // empty for a missing item

public slots:
    void setStale(bool stale, const QString& message = QString());
    void setTheme(qs::ui::Theme theme);
    void copyToClipboard() const;  // header and cells as tab-separated text
    void exportCsvDialog();

protected:
    QVBoxLayout* panelLayout() const { return layout_; }
    // Sets a cell's text (creating a read-only item), with an optional tooltip.
    void setCell(int row, int column, const QString& text, const QString& tip = QString());
    virtual void themeChanged() {}

private:
    void refreshColors();

    QVBoxLayout* layout_ = nullptr;
    QLabel* title_ = nullptr;
    QLabel* staleLabel_ = nullptr;
    QTableWidget* table_ = nullptr;
    Theme theme_ = Theme::Light;
    bool stale_ = false;
};

}  // namespace qs::ui
