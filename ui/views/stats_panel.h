// The statistics of a result as a two-column table (quantity, value) plus the op's formula
// in words with the numbers of this run. Values come from qs::analysis::statisticsRows (the
// same rows the statistics CSV holds); the panel only formats them. Stale: the last values
// stay, greyed, under a "stale — <TF error>" line.
#pragma once

#include <memory>

#include <QHash>
#include <QWidget>

#include "core/analysis/explorer.h"
#include "core/data/csv_writer.h"
#include "ui/plot/theme.h"

class QLabel;
class QTableWidget;

namespace qs::ui {

class StatsPanel : public QWidget {
    Q_OBJECT
public:
    explicit StatsPanel(QWidget* parent = nullptr);

    void setResult(std::shared_ptr<const qs::analysis::ExplorerResult> result);
    std::shared_ptr<const qs::analysis::ExplorerResult> result() const { return result_; }

    // One header row of keys (count,nan_pairs,mse,rmse,...) and one row of values: the
    // statistics CSV. Empty columns without a result.
    // The statistics CSV (qs::analysis::statisticsTable): scope,channel then the keys; the
    // whole tensor's row, then one row per channel.
    data::TextTable csvTable() const;
    bool exportCsv(const QString& path, QString* error = nullptr) const;

    // The formula in words for the result's op/mode (also shown in the panel).
    static QString formulaText(const qs::analysis::ExplorerResult& result);
    // "[−2, 2]", "[-inf, inf]; finite values in [−2, 2]", "no finite value (every value is NaN)".
    static QString dataRangeText(const qs::analysis::ExplorerResult& result);

    QTableWidget* table() const { return table_; }
    QString valueText(const QString& key) const;  // the displayed value of a row, by key
    bool isStale() const { return stale_; }
    QLabel* staleLabel() const { return staleLabel_; }
    QLabel* formulaLabel() const { return formula_; }

public slots:
    void setStale(bool stale, const QString& message = QString());
    void setTheme(qs::ui::Theme theme);
    void copyToClipboard() const;  // the table as tab-separated text, then the formula
    void copyFormula() const;
    void exportCsvDialog();

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void refreshColors();
    // Each value on as many lines as the Value column needs (a narrow dock elided
    // "1,380 above" to "1,380 a…"), and the table exactly as high as its rows.
    void fitRows();
    // Copy formula, Copy table, Export statistics CSV… (from the table or the formula).
    void contextMenu(const QPoint& globalPos);

    std::shared_ptr<const qs::analysis::ExplorerResult> result_;
    QLabel* title_ = nullptr;
    QTableWidget* table_ = nullptr;
    QLabel* formula_ = nullptr;
    QLabel* staleLabel_ = nullptr;
    QHash<QString, int> rowOfKey_;
    int lineRowHeight_ = 0;  // a row of one line
    Theme theme_ = Theme::Light;
    bool stale_ = false;
};

}  // namespace qs::ui
