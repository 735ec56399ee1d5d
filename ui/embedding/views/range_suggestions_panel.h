// The suggested QuantizationConfig bounds for a table (min-max, symmetric max |x|,
// percentile, MSE-optimal), each with the error it would give on the table, and an "Apply"
// button per row that asks for that lower/upper to be used. The lowest-MSE row is bold.
#pragma once

#include <vector>

#include "core/embedding/range_suggest.h"
#include "ui/embedding/views/table_panel.h"

class QPushButton;

namespace qs::ui {

class RangeSuggestionsPanel : public TablePanel {
    Q_OBJECT
public:
    enum Column { MethodColumn = 0, LowerColumn, UpperColumn, MseColumn, SqnrColumn, ClippedColumn, ApplyColumn };

    explicit RangeSuggestionsPanel(QWidget* parent = nullptr);

    // `num_buckets`: the bucket count the errors were computed for (title only; 0 = unknown).
    void setSuggestions(const std::vector<qs::embedding::RangeSuggestion>& suggestions, int64_t num_buckets = 0);
    const std::vector<qs::embedding::RangeSuggestion>& suggestions() const { return suggestions_; }
    QPushButton* applyButton(int row) const;  // null past the rows
    int bestRow() const { return best_; }     // lowest finite MSE, -1 when none

    // A bound as its cell shows it: a float32 value in the fewest digits that read back as
    // it ("-0.49993807", "2.0"), any other double in nine significant digits.
    static QString boundText(double value);

    // method,lower,upper,mse,sqnr_db,clipped_fraction (exact numbers).
    data::TextTable csvTable() const override;

signals:
    void applyRequested(double lower, double upper);

private:
    std::vector<qs::embedding::RangeSuggestion> suggestions_;
    int best_ = -1;
};

}  // namespace qs::ui
