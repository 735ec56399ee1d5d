// The stored-quantization view: for a tensor a model file stores as integer codes (TFLite
// int8 weights with their scales, an int8 copy next to its float original), the stored codes
// against the floats they stand for, channel by channel (a scatter of code over input value,
// and on the right axis what dequantizing the code gives back minus the input: the stored
// quantization's error, exactly 0 in a round-trip check), and the table of the rules that could have
// made them (core/model_analysis/stored_quant.h): TF's QuantizeV2 SCALED and QDQ V4, the
// Frameworks tab's schemes, the file's own scale; per rule the differing codes, the channels
// they lie in, the largest code difference and whether it reproduces the file exactly. The
// first exact rule is named above the table and its row selected.
//
// The comparison (loading the tensors included) is the StoredQuantService's job, off the UI
// thread, the newest tensor winning; the view only draws what it delivers. No MainWindow
// knowledge: whoever owns the Model dock calls setTensor().
#pragma once

#include <memory>

#include "core/model_analysis/stored_quant.h"
#include "core/modelfile/model_file.h"
#include "session/modelfile/stored_quant_service.h"
#include "ui/plot/plot_frame.h"

class QLabel;
class QPushButton;
class QSpinBox;
class QSplitter;
class QTableWidget;

namespace qs::ui {

class StoredQuantView : public PlotFrame {
    Q_OBJECT
public:
    // Draws what `service` (not owned; it outlives the view) delivers.
    explicit StoredQuantView(StoredQuantService* service, QWidget* parent = nullptr);
    ~StoredQuantView() override;

    // Compares tensor `index` of `model`; `original` (optional) is another file holding the
    // same tensor name as floats (the safetensors pair), whose values the rules then quantize.
    void setTensor(std::shared_ptr<const qs::modelfile::ModelFile> model, int index,
                   std::shared_ptr<const qs::modelfile::ModelFile> original = {});
    void clear(const QString& reason = QString());

    const StoredQuantPtr& comparison() const { return comparison_; }
    int channel() const;
    void setChannel(int channel);
    bool busy() const;

    QTableWidget* rulesTable() const { return table_; }
    QLabel* summaryLabel() const { return summary_; }
    QLabel* sourceLabel() const { return source_; }
    QSpinBox* channelBox() const { return channelBox_; }
    // "Apply to explorer": enabled when the selected rule is a TF op the explorer runs
    // (analysis::explorerSpecOf); the exact rule is selected when a comparison is shown.
    QPushButton* applyButton() const { return apply_; }
    int selectedRule() const;  // -1: none
    QCPGraph* codesGraph() const { return codes_; }
    QCPGraph* errorGraph() const { return error_; }
    // The plot and the rules table: side by side in a wide, low dock, one above the other
    // in a tall one.
    QSplitter* splitter() const { return split_; }

    // input x, stored code, dequantized value, error of the plotted channel's points.
    data::NumberColumns csvTable() const override;

signals:
    void comparisonShown();
    void failed(const QString& message);
    // The user asked the explorer to run rule `rule` of comparison() (the owner applies it).
    void applyRequested(int rule);

protected:
    void applySeriesStyle(const PlotPalette& palette) override;
    void resizeEvent(QResizeEvent* event) override;

private:
    void showComparison(StoredQuantPtr result);
    void showError(const QString& message);
    void drawChannel();
    void fillTable();
    void updateApply();

    StoredQuantService* service_ = nullptr;
    StoredQuantPtr comparison_;
    QCPGraph* codes_ = nullptr;   // stored code over input x
    QCPGraph* error_ = nullptr;   // dequantized value − input x, right axis
    qs::analysis::CodePoints points_;  // what the graphs show
    QTableWidget* table_ = nullptr;
    QLabel* summary_ = nullptr;
    QLabel* source_ = nullptr;
    QSpinBox* channelBox_ = nullptr;
    QSplitter* split_ = nullptr;
    QPushButton* apply_ = nullptr;
};

}  // namespace qs::ui
