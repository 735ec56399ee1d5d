#include "ui/embedding/views/storage_export_panel.h"

#include <cmath>
#include <iterator>

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>

#include "core/tpu/simulated_quantization.h"
#include "ui/embedding/views/embedding_text.h"
#include "ui/views/panel_parts.h"

namespace qs::ui {

using namespace qs::ui::text;

namespace {

const RowSpec kRows[] = {
    {"dtype", "Code dtype", "The narrowest unsigned type that holds num_buckets − 1"},
    {"config", "QuantizationConfig", "The table's config: codes reconstruct as code · quantum + lower"},
    {"shape", "Shape", "rows × dim of the exported codes"},
    {"bytes_float32", "Float32 table", "rows · dim · 4 bytes"},
    {"bytes_codes", "Codes", "rows · dim · code bytes, plus 12 bytes of parameters"},
    {"bytes_packed", "Bit-packed", "rows · dim · ⌈log2(num_buckets)⌉ bits, plus 12 bytes: what a packed store needs"},
    {"saved", "Memory saved", "1 − codes / float32"},
    {"mse", "Reconstruction MSE", "Mean of (x − reconstruction)² over the table"},
    {"rmse", "Reconstruction RMSE", "√MSE"},
    {"max_abs_error", "Max |error|", "Largest |x − reconstruction|"},
    {"sqnr_db", "SQNR", "10·log10(Σx² / Σ(x − reconstruction)²)"},
};

int rowOf(const QString& key) {
    for (int i = 0; i < static_cast<int>(std::size(kRows)); ++i)
        if (key == QLatin1String(kRows[i].key)) return i;
    return -1;
}

}  // namespace

StorageExportPanel::StorageExportPanel(QWidget* parent) : TablePanel(QStringLiteral("storageExportPanel"), parent) {
    QTableWidget* t = table();
    t->setColumnCount(2);
    t->setRowCount(static_cast<int>(std::size(kRows)));
    t->setHorizontalHeaderLabels({tr("Quantity"), tr("Value")});
    for (int i = 0; i < t->rowCount(); ++i) {
        setCell(i, 0, tr(kRows[i].label), QString::fromUtf8(kRows[i].tip));
        setCell(i, 1, QStringLiteral("—"), QString::fromUtf8(kRows[i].tip));
    }
    t->horizontalHeader()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    t->resizeRowsToContents();
    export_ = new QPushButton(tr("Export…"));
    export_->setObjectName(QStringLiteral("storageExportButton"));
    export_->setToolTip(tr("Write the codes (.npy) and the parameters (JSON) to reconstruct the table"));
    connect(export_, &QPushButton::clicked, this, &StorageExportPanel::exportRequested);
    auto* row = new QHBoxLayout;
    row->addStretch(1);
    row->addWidget(export_);
    panelLayout()->addLayout(row);
    clear();
}

QString StorageExportPanel::dtypeName(int code_bits) { return QStringLiteral("uint%1").arg(code_bits); }

QString StorageExportPanel::valueText(const QString& key) const {
    const int row = rowOf(key);
    return row < 0 ? QString() : cellText(row, 1);
}

void StorageExportPanel::clear() {
    have_ = false;
    storage_ = {};
    for (int i = 0; i < table()->rowCount(); ++i) setCell(i, 1, QStringLiteral("—"));
    titleLabel()->setText(tr("Storage quantization  ·  the table has no QuantizationConfig"));
    export_->setEnabled(false);
    setStale(false);
}

void StorageExportPanel::setStorage(const qs::embedding::StorageQuantization& s) {
    storage_ = s;
    have_ = true;
    auto set = [this](const char* key, const QString& text) { setCell(rowOf(QLatin1String(key)), 1, text); };
    set("dtype", tr("%1   (%2 bits of information per value)").arg(dtypeName(s.code_bits)).arg(s.information_bits));
    const QString config = qs(qs::tpu::repr(s.config));
    setCell(rowOf(QStringLiteral("config")), 1, config, config);  // the tooltip: all of it when the cell is narrow
    set("shape", tr("%1 × %2").arg(countText(static_cast<double>(s.rows)), countText(static_cast<double>(s.dim))));
    const double f32 = static_cast<double>(s.bytes_float32);
    auto share = [f32](int64_t bytes) {
        return f32 > 0 ? tr("   (%1 % of float32)").arg(statText(100.0 * static_cast<double>(bytes) / f32, 3)) : QString();
    };
    set("bytes_float32", bytesText(f32));
    set("bytes_codes", bytesText(static_cast<double>(s.bytes_codes)) + share(s.bytes_codes));
    set("bytes_packed", bytesText(static_cast<double>(s.bytes_packed)) + share(s.bytes_packed));
    set("saved", tr("%1 %").arg(statText(100.0 * s.saved_fraction, 4)));
    set("mse", statText(s.reconstruction.mse));
    set("rmse", statText(s.reconstruction.rmse));
    set("max_abs_error", statText(s.reconstruction.max_abs_error));
    set("sqnr_db", std::isfinite(s.reconstruction.sqnr_db) ? tr("%1 dB").arg(s.reconstruction.sqnr_db, 0, 'f', 2)
                                                            : statText(s.reconstruction.sqnr_db));
    titleLabel()->setText(tr("Storage quantization  ·  %1 codes save %2 % of the table's memory")
                              .arg(dtypeName(s.code_bits), statText(100.0 * s.saved_fraction, 3)));
    export_->setEnabled(true);
    setStale(false);
}

data::TextTable StorageExportPanel::csvTable() const {
    data::TextTable t{{"key", "value"}, {}};
    if (!have_) return t;
    const auto& s = storage_;
    auto add = [&t](const char* key, const std::string& value) { t.rows.push_back({key, value}); };
    auto addNumber = [&add](const char* key, double value) { add(key, data::csvNumber(value)); };
    add("dtype", dtypeName(s.code_bits).toStdString());
    addNumber("num_buckets", static_cast<double>(s.config.num_buckets));
    addNumber("lower", s.config.lower);
    addNumber("upper", s.config.upper);
    addNumber("code_bits", s.code_bits);
    addNumber("information_bits", s.information_bits);
    addNumber("rows", static_cast<double>(s.rows));
    addNumber("dim", static_cast<double>(s.dim));
    addNumber("bytes_float32", static_cast<double>(s.bytes_float32));
    addNumber("bytes_codes", static_cast<double>(s.bytes_codes));
    addNumber("bytes_packed", static_cast<double>(s.bytes_packed));
    addNumber("saved_fraction", s.saved_fraction);
    addNumber("mse", s.reconstruction.mse);
    addNumber("rmse", s.reconstruction.rmse);
    addNumber("max_abs_error", s.reconstruction.max_abs_error);
    addNumber("sqnr_db", s.reconstruction.sqnr_db);
    return t;
}

}  // namespace qs::ui
