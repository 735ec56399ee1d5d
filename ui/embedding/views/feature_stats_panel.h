// One feature's simulated lookup in numbers: the error statistics of the combined
// activations as the TPU computes them (quantize every gathered row, then combine), next to
// "combine, then quantize" (the order people often assume) and to the gathered rows
// themselves; below them the batch's size and the lookup time.
#pragma once

#include <memory>

#include "core/embedding/feature_sim.h"
#include "ui/embedding/views/table_panel.h"

namespace qs::ui {

class FeatureStatsPanel : public TablePanel {
    Q_OBJECT
public:
    // Columns of the statistics rows.
    enum Column { QuantityColumn = 0, TpuOrderColumn, AfterCombineColumn, GatheredRowsColumn };

    explicit FeatureStatsPanel(QWidget* parent = nullptr);

    // `name`: the feature's name for the title (may be empty).
    void setSimulation(const qs::embedding::FeatureSimulation& simulation, const QString& name = QString());
    void clear();
    bool hasSimulation() const { return have_; }

    // The row of a key: count, mse, rmse, max_abs_error, bias, sqnr_db, cosine, examples,
    // ids, unique_ids, empty_examples, lookup_ms (-1 for an unknown key).
    int rowOf(const QString& key) const;
    QString valueText(const QString& key, Column column = TpuOrderColumn) const;

    // quantity,tpu_order,after_combine,gathered_rows: one row per statistic, then the batch
    // rows with their value in tpu_order. Exact numbers (csvNumber).
    data::TextTable csvTable() const override;

private:
    qs::embedding::FeatureSimulation sim_;  // without the activation matrices
    bool have_ = false;
};

}  // namespace qs::ui
