#include "ui/embedding/views/feature_stats_panel.h"

#include <cmath>
#include <iterator>

#include <QHeaderView>
#include <QLabel>
#include <QTableWidget>

#include "ui/views/panel_parts.h"
#include "ui/views/view_text.h"

namespace qs::ui {

using namespace qs::ui::text;
using qs::analysis::ErrorStats;

namespace {

struct StatRow {
    const char* key;
    const char* label;
    const char* tip;
    double (*value)(const ErrorStats&);
};

// Statistics of "x = float, y = quantized", as the explorer's statistics panel names them.
const StatRow kStats[] = {
    {"count", "Elements", "Values compared (NaN pairs are skipped)",
     [](const ErrorStats& s) { return static_cast<double>(s.count); }},
    {"mse", "MSE", "Mean of (float − quantized)²", [](const ErrorStats& s) { return s.mse; }},
    {"rmse", "RMSE", "√MSE", [](const ErrorStats& s) { return s.rmse; }},
    {"max_abs_error", "Max |error|", "Largest |float − quantized|",
     [](const ErrorStats& s) { return s.max_abs_error; }},
    {"bias", "Bias (mean error)", "Mean of float − quantized", [](const ErrorStats& s) { return s.mean_error; }},
    {"sqnr_db", "SQNR", "10·log10(Σfloat² / Σ(float − quantized)²)", [](const ErrorStats& s) { return s.sqnr_db; }},
    {"cosine", "Cosine similarity", "Σ float·quantized / (|float|·|quantized|)",
     [](const ErrorStats& s) { return s.cosine; }},
};

const RowSpec kBatch[] = {
    {"examples", "Examples", "Rows of the id batch (the activations' batch size)"},
    {"ids", "Ids", "Ids looked up, repeats included"},
    {"unique_ids", "Unique ids", "Distinct ids (distinct table rows gathered)"},
    {"empty_examples", "Empty examples", "Examples without ids: their activation is zeros"},
    {"lookup_ms", "Lookup time", "Wall time of the float and the quantized lookup together"},
};

constexpr int kStatRows = static_cast<int>(std::size(kStats));
constexpr int kRows = kStatRows + static_cast<int>(std::size(kBatch));

QString statCell(const StatRow& row, const ErrorStats& s) {
    const double v = row.value(s);
    const QString key = QString::fromLatin1(row.key);
    if (key == QLatin1String("count")) {
        QString text = countText(v);
        if (s.nan_pairs > 0) text += tr(" (+%1 NaN)").arg(countText(static_cast<double>(s.nan_pairs)));
        return text;
    }
    if (key == QLatin1String("sqnr_db") && std::isfinite(v)) return tr("%1 dB").arg(v, 0, 'f', 2);
    if (key == QLatin1String("cosine")) return statText(v, 9);
    return statText(v);
}

}  // namespace

FeatureStatsPanel::FeatureStatsPanel(QWidget* parent) : TablePanel(QStringLiteral("featureStatsPanel"), parent) {
    QTableWidget* t = table();
    t->setColumnCount(4);
    t->setRowCount(kRows);
    t->setHorizontalHeaderLabels({tr("Quantity"), tr("TPU order"), tr("Quantize after combine"), tr("Gathered rows")});
    const QString tips[] = {
        QString(),
        tr("The activations as the TPU computes them: every gathered row quantized, then combined"),
        tr("Combined in float32, then quantized: not what the TPU does (the mean of quantized rows "
           "is not the quantized mean)"),
        tr("Every gathered row, float against its simulated quantization (before the combiner)"),
    };
    for (int c = 0; c < 4; ++c) t->horizontalHeaderItem(c)->setToolTip(tips[c]);
    for (int r = 0; r < kStatRows; ++r) {
        setCell(r, QuantityColumn, tr(kStats[r].label), QString::fromUtf8(kStats[r].tip));
        for (int c = TpuOrderColumn; c <= GatheredRowsColumn; ++c) setCell(r, c, QStringLiteral("—"), tips[c]);
    }
    for (int i = 0; i < static_cast<int>(std::size(kBatch)); ++i) {
        const int r = kStatRows + i;
        setCell(r, QuantityColumn, tr(kBatch[i].label), QString::fromUtf8(kBatch[i].tip));
        setCell(r, TpuOrderColumn, QStringLiteral("—"), QString::fromUtf8(kBatch[i].tip));
        t->setSpan(r, TpuOrderColumn, 1, 3);
    }
    t->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    t->horizontalHeader()->setStretchLastSection(true);
    t->resizeRowsToContents();
    clear();
}

int FeatureStatsPanel::rowOf(const QString& key) const {
    for (int r = 0; r < kStatRows; ++r)
        if (key == QLatin1String(kStats[r].key)) return r;
    for (int i = 0; i < static_cast<int>(std::size(kBatch)); ++i)
        if (key == QLatin1String(kBatch[i].key)) return kStatRows + i;
    return -1;
}

QString FeatureStatsPanel::valueText(const QString& key, Column column) const {
    const int row = rowOf(key);
    return row < 0 ? QString() : cellText(row, column);
}

void FeatureStatsPanel::clear() {
    have_ = false;
    sim_ = {};
    titleLabel()->setText(tr("Feature statistics (no lookup yet)"));
    for (int r = 0; r < kRows; ++r)
        for (int c = TpuOrderColumn; c <= GatheredRowsColumn; ++c)
            if (table()->item(r, c)) table()->item(r, c)->setText(QStringLiteral("—"));
    setStale(false);
}

void FeatureStatsPanel::setSimulation(const qs::embedding::FeatureSimulation& s, const QString& name) {
    // The activation matrices can be large and are not shown here: keep only the numbers.
    sim_ = {.float_activations = {},
            .quantized_activations = {},
            .quantized_after_combine = {},
            .stats = s.stats,
            .stats_after_combine = s.stats_after_combine,
            .gathered_rows = s.gathered_rows,
            .examples = s.examples,
            .ids = s.ids,
            .unique_ids = s.unique_ids,
            .empty_examples = s.empty_examples,
            .lookup_ms = s.lookup_ms};
    have_ = true;
    const ErrorStats* columns[] = {&sim_.stats, &sim_.stats_after_combine, &sim_.gathered_rows};
    for (int r = 0; r < kStatRows; ++r)
        for (int c = 0; c < 3; ++c) setCell(r, TpuOrderColumn + c, statCell(kStats[r], *columns[c]));
    const int b = kStatRows;
    setCell(b + 0, TpuOrderColumn, countText(static_cast<double>(s.examples)));
    setCell(b + 1, TpuOrderColumn, countText(static_cast<double>(s.ids)));
    setCell(b + 2, TpuOrderColumn, countText(static_cast<double>(s.unique_ids)));
    setCell(b + 3, TpuOrderColumn, countText(static_cast<double>(s.empty_examples)));
    setCell(b + 4, TpuOrderColumn, tr("%1 ms").arg(statText(s.lookup_ms, 3)));
    titleLabel()->setText(name.isEmpty() ? tr("Feature statistics  ·  float vs simulated quantization")
                                         : tr("Feature %1  ·  float vs simulated quantization").arg(name));
    setStale(false);
}

data::TextTable FeatureStatsPanel::csvTable() const {
    using data::csvNumber;
    data::TextTable t{{"quantity", "tpu_order", "after_combine", "gathered_rows"}, {}};
    if (!have_) return t;
    for (const StatRow& row : kStats)
        t.rows.push_back({row.key, csvNumber(row.value(sim_.stats)), csvNumber(row.value(sim_.stats_after_combine)),
                          csvNumber(row.value(sim_.gathered_rows))});
    const double batch[] = {static_cast<double>(sim_.examples), static_cast<double>(sim_.ids),
                            static_cast<double>(sim_.unique_ids), static_cast<double>(sim_.empty_examples),
                            sim_.lookup_ms};
    for (size_t i = 0; i < std::size(kBatch); ++i)
        t.rows.push_back({kBatch[i].key, csvNumber(batch[i]), "", ""});
    return t;
}

}  // namespace qs::ui
