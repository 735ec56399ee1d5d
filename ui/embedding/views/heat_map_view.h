// A window of table rows as a heat map (QCPColorMap): one cell per (row, column), row ids
// down the left, the embedding dimension along the bottom. A selector inside the view
// switches the layer: the float32 values, their simulated quantization (same colour range
// as float, so the two compare by eye), or the error quantized − float on a diverging
// gradient symmetric around 0. The read-out gives all three numbers of the cell.
#pragma once

#include <memory>
#include <optional>

#include "core/embedding/workbench.h"
#include "ui/plot/plot_frame.h"
#include "ui/plot/qcp_fwd.h"

class QComboBox;

namespace qs::ui {

class HeatMapView : public PlotFrame {
    Q_OBJECT
public:
    enum class Layer { Float = 0, Quantized = 1, Error = 2 };

    explicit HeatMapView(QWidget* parent = nullptr);
    ~HeatMapView() override;

    void setWindow(const qs::embedding::TableWindow& window);
    void clear();
    const std::optional<qs::embedding::TableWindow>& window() const { return window_; }

    Layer layer() const { return layer_; }
    QComboBox* layerSelector() const;  // object name "heatMapLayer"
    QCPColorMap* colorMap() const;
    QCPColorScale* colorScale() const;
    // The value of a cell of the shown layer (NaN outside the window): row is the table's
    // row id (first_row + r), col the dimension index.
    double cellValue(int64_t row, int64_t col) const;
    static QString layerName(Layer layer);

    // row,col,float,quantized,error — one line per cell, row-major (all layers).
    data::NumberColumns csvTable() const override;

public slots:
    void setLayer(qs::ui::HeatMapView::Layer layer);

protected:
    void applySeriesStyle(const PlotPalette& palette) override;
    Readout readoutAt(const QPointF& pixel) const override;

private:
    const std::vector<float>& layerValues(Layer layer) const;
    void fillMap();

    std::optional<qs::embedding::TableWindow> window_;
    Layer layer_ = Layer::Float;
    struct Items;  // the plot items, defined in the .cpp
    std::unique_ptr<Items> items_;
};

}  // namespace qs::ui
