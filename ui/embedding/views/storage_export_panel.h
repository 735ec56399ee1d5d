// Manual storage quantization of a table (TF keeps the table float32; the memory saving
// needs a hand-quantized copy): the code dtype, bytes as float32 / as codes / bit-packed,
// the memory saved and the reconstruction error, and an "Export…" button. The panel only
// asks: whoever owns the table shows the file dialog and runs the export.
#pragma once

#include "core/embedding/storage_quant.h"
#include "ui/embedding/views/table_panel.h"

class QPushButton;

namespace qs::ui {

class StorageExportPanel : public TablePanel {
    Q_OBJECT
public:
    explicit StorageExportPanel(QWidget* parent = nullptr);

    void setStorage(const qs::embedding::StorageQuantization& storage);
    void clear();  // no quantization config: nothing to export (the button is disabled)
    bool hasStorage() const { return have_; }

    QPushButton* exportButton() const { return export_; }
    // Displayed value of a row by key: dtype, config, shape, bytes_float32, bytes_codes,
    // bytes_packed, saved, mse, rmse, max_abs_error, sqnr_db.
    QString valueText(const QString& key) const;
    // "uint8" / "uint16" / "uint32" for code_bits 8 / 16 / 32.
    static QString dtypeName(int code_bits);

    // key,value: exact numbers (dtype and config as text).
    data::TextTable csvTable() const override;

signals:
    void exportRequested();

private:
    qs::embedding::StorageQuantization storage_;
    bool have_ = false;
    QPushButton* export_ = nullptr;
};

}  // namespace qs::ui
