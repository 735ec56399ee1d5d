#include "ui/embedding/views/heat_map_view.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QVBoxLayout>
#include <qcustomplot.h>

#include "ui/plot/plot_items.h"
#include "ui/views/view_text.h"

namespace qs::ui {

using namespace qs::ui::text;

namespace {

// The heat maps' colour stops: a perceptually even sequential map (viridis) for values and
// blue–white–red for errors, both at 0, 1/4, 1/2, 3/4 and 1.
struct GradientStop {
    double at;
    QColor sequential, diverging;
};
constexpr GradientStop kStops[] = {{0.00, {68, 1, 84}, {33, 102, 172}},
                                   {0.25, {59, 82, 139}, {146, 197, 222}},
                                   {0.50, {33, 145, 140}, {247, 247, 247}},
                                   {0.75, {94, 201, 98}, {244, 165, 130}},
                                   {1.00, {253, 231, 37}, {178, 24, 43}}};

// The gradient through the stops' `colour` (NaN cells transparent).
QCPColorGradient gradient(QColor GradientStop::*colour) {
    QCPColorGradient g;
    g.clearColorStops();
    for (const GradientStop& stop : kStops) g.setColorStopAt(stop.at, stop.*colour);
    g.setNanHandling(QCPColorGradient::nhTransparent);
    return g;
}

QCPColorGradient sequentialGradient() { return gradient(&GradientStop::sequential); }
QCPColorGradient divergingGradient() { return gradient(&GradientStop::diverging); }

QCPColorGradient greyGradient() {
    QCPColorGradient g(QCPColorGradient::gpGrayscale);
    g.setNanHandling(QCPColorGradient::nhTransparent);
    return g;
}

}  // namespace

QString HeatMapView::layerName(Layer layer) {
    switch (layer) {
        case Layer::Float: return tr("Float");
        case Layer::Quantized: return tr("Quantized");
        case Layer::Error: return tr("Error");
    }
    return QString();
}

// The plot items the constructor makes and draw() fills; make_unique value-initializes them (null).
struct HeatMapView::Items {
    QComboBox* selector;
    QCPTextElement* title;
    QCPColorMap* map;
    QCPColorScale* scale;
};

HeatMapView::HeatMapView(QWidget* parent) : PlotFrame(parent), items_(std::make_unique<Items>()) {
    setObjectName(QStringLiteral("heatMapView"));
    plot()->setObjectName(QStringLiteral("heatMapPlot"));
    auto* bar = new QHBoxLayout;
    bar->setContentsMargins(6, 4, 6, 0);
    auto* label = new QLabel(tr("Layer:"));
    items_->selector = new QComboBox;
    items_->selector->setObjectName(QStringLiteral("heatMapLayer"));
    for (Layer l : {Layer::Float, Layer::Quantized, Layer::Error}) items_->selector->addItem(layerName(l));
    items_->selector->setItemData(0, tr("The table's float32 values"), Qt::ToolTipRole);
    items_->selector->setItemData(1, tr("What a lookup returns for each value: its simulated quantization"),
                                  Qt::ToolTipRole);
    items_->selector->setItemData(2, tr("quantized − float, on a colour scale symmetric around 0"), Qt::ToolTipRole);
    label->setBuddy(items_->selector);
    bar->addWidget(label);
    bar->addWidget(items_->selector);
    bar->addStretch(1);
    static_cast<QVBoxLayout*>(layout())->insertLayout(0, bar);
    connect(items_->selector, qOverload<int>(&QComboBox::currentIndexChanged), this,
            [this](int index) { setLayer(static_cast<Layer>(index)); });

    QCustomPlot* p = plot();
    items_->title = items::title(p, font());
    QCPAxis* x = p->xAxis;
    QCPAxis* y = p->yAxis;
    x->setLabel(tr("column (embedding dimension index)"));
    y->setLabel(tr("row (id)"));
    y->setRangeReversed(true);  // row ids grow downwards, as in a table
    QSharedPointer<QCPAxisTickerFixed> integers(new QCPAxisTickerFixed);
    integers->setTickStep(1.0);
    integers->setScaleStrategy(QCPAxisTickerFixed::ssMultiples);
    x->setTicker(integers);
    y->setTicker(integers);
    x->grid()->setVisible(false);
    y->grid()->setVisible(false);

    items_->map = new QCPColorMap(x, y);
    items_->map->setObjectName(QStringLiteral("heatMap"));
    items_->map->setName(tr("table window"));
    items_->map->setInterpolate(false);
    items_->map->setTightBoundary(false);
    items_->scale = new QCPColorScale(p);
    items_->scale->setObjectName(QStringLiteral("heatMapScale"));
    items_->scale->setType(QCPAxis::atRight);
    const int row = p->plotLayout()->rowCount() - 1;  // the axis rect's row (under the title)
    p->plotLayout()->addElement(row, 1, items_->scale);
    p->plotLayout()->setColumnStretchFactor(1, 0.01);
    items_->map->setColorScale(items_->scale);
    auto* margins = new QCPMarginGroup(p);
    p->axisRect()->setMarginGroup(QCP::msTop | QCP::msBottom, margins);
    items_->scale->setMarginGroup(QCP::msTop | QCP::msBottom, margins);
    dragAndZoomBothAxes();
    restyle();
    clear();
}

HeatMapView::~HeatMapView() = default;

QComboBox* HeatMapView::layerSelector() const { return items_->selector; }
QCPColorMap* HeatMapView::colorMap() const { return items_->map; }
QCPColorScale* HeatMapView::colorScale() const { return items_->scale; }

void HeatMapView::applySeriesStyle(const PlotPalette& c) {
    const bool stale = isStale();
    items_->map->setGradient(stale                    ? greyGradient()
                             : layer_ == Layer::Error ? divergingGradient()
                                                      : sequentialGradient());
    // The colour scale's axis is not one of the plot's axis rects: theme it here.
    const PlotPalette& base = plotPalette(theme());
    QCPAxis* a = items_->scale->axis();
    a->setBasePen(QPen(base.axis, 1));
    a->setTickPen(QPen(base.axis, 1));
    a->setSubTickPen(QPen(base.axis, 1));
    a->setTickLabelColor(base.text);
    a->setLabelColor(base.text);
    Q_UNUSED(c);
}

const std::vector<float>& HeatMapView::layerValues(Layer layer) const {
    switch (layer) {
        case Layer::Quantized: return window_->quantized;
        case Layer::Error: return window_->error;
        case Layer::Float: break;
    }
    return window_->float_values;
}

void HeatMapView::clear() {
    window_.reset();
    items_->map->data()->clear();
    items_->map->setVisible(false);
    items_->scale->setVisible(false);
    items_->title->setText(tr("Table window"));
    setMessage(tr("No table loaded"));
    setStale(false);
    plot()->replot();
}

void HeatMapView::setWindow(const qs::embedding::TableWindow& window) {
    const size_t cells = static_cast<size_t>(std::max<int64_t>(window.rows, 0) * std::max<int64_t>(window.dim, 0));
    if (window.rows < 1 || window.dim < 1 || window.float_values.size() != cells || window.quantized.size() != cells ||
        window.error.size() != cells) {
        clear();
        setMessage(tr("The window holds no rows"));
        return;
    }
    window_ = window;
    setMessage(QString());
    items_->map->setVisible(true);
    items_->scale->setVisible(true);
    fillMap();  // sets the title too
    setHomeRange(plot()->xAxis, -0.5, static_cast<double>(window.dim) - 0.5);
    setHomeRange(plot()->yAxis, static_cast<double>(window.first_row) - 0.5,
                 static_cast<double>(window.first_row + window.rows) - 0.5);
    finishDraw();
}

void HeatMapView::setLayer(Layer layer) {
    layer_ = layer;
    if (items_->selector->currentIndex() != static_cast<int>(layer)) {
        const QSignalBlocker block(items_->selector);
        items_->selector->setCurrentIndex(static_cast<int>(layer));
    }
    if (window_) fillMap();
    restyle();
}

void HeatMapView::fillMap() {
    const auto& w = *window_;
    const auto nx = static_cast<int>(w.dim), ny = static_cast<int>(w.rows);
    items_->map->data()->setSize(nx, ny);
    items_->map->data()->setRange(
        QCPRange(0, nx - 1), QCPRange(static_cast<double>(w.first_row), static_cast<double>(w.first_row + w.rows - 1)));
    const std::vector<float>& v = layerValues(layer_);
    for (int r = 0; r < ny; ++r)
        for (int c = 0; c < nx; ++c)
            items_->map->data()->setCell(c, r, v[static_cast<size_t>(r) * static_cast<size_t>(nx) + c]);
    // Float and quantized share one range; the error's is symmetric around 0.
    double lo = std::numeric_limits<double>::infinity(), hi = -lo;
    auto extend = [&lo, &hi](const std::vector<float>& values) {
        for (float f : values)
            if (std::isfinite(f)) {
                lo = std::min(lo, static_cast<double>(f));
                hi = std::max(hi, static_cast<double>(f));
            }
    };
    QString label;
    if (layer_ == Layer::Error) {
        extend(w.error);
        double m = std::max(std::abs(lo), std::abs(hi));
        if (!(m > 0) || !std::isfinite(m)) m = 1e-6;  // no error: a flat white map
        lo = -m;
        hi = m;
        label = tr("error = quantized − float");
    } else {
        extend(w.float_values);
        extend(w.quantized);
        if (!(hi > lo)) {
            lo = std::isfinite(lo) ? lo - 0.5 : -1;
            hi = lo + 1;
        }
        label = layer_ == Layer::Float ? tr("value (float32)") : tr("quantized value (float32)");
    }
    items_->map->setDataRange(QCPRange(lo, hi));
    items_->scale->axis()->setLabel(label);
    items_->title->setText(tr("Table rows %1 … %2  ·  %3 columns  ·  %4")
                               .arg(w.first_row)
                               .arg(w.first_row + w.rows - 1)
                               .arg(w.dim)
                               .arg(layerName(layer_)));
}

double HeatMapView::cellValue(int64_t row, int64_t col) const {
    if (!window_) return std::numeric_limits<double>::quiet_NaN();
    const auto& w = *window_;
    const int64_t r = row - w.first_row;
    if (r < 0 || r >= w.rows || col < 0 || col >= w.dim) return std::numeric_limits<double>::quiet_NaN();
    return items_->map->data()->cell(static_cast<int>(col), static_cast<int>(r));
}

PlotFrame::Readout HeatMapView::readoutAt(const QPointF& pixel) const {
    Readout r;
    if (!window_ || plot()->axisRectAt(pixel) != plot()->axisRect()) return r;
    const auto& w = *window_;
    const long col = std::lround(plot()->xAxis->pixelToCoord(pixel.x()));
    const long row = std::lround(plot()->yAxis->pixelToCoord(pixel.y()));
    if (col < 0 || col >= w.dim || row < w.first_row || row >= w.first_row + w.rows) return r;
    const size_t i = static_cast<size_t>(row - w.first_row) * static_cast<size_t>(w.dim) + static_cast<size_t>(col);
    r.valid = true;
    r.xAxis = plot()->xAxis;
    r.yAxis = plot()->yAxis;
    r.x = static_cast<double>(col);
    r.y = static_cast<double>(row);
    r.text = tr("row %1, col %2: float %3, quantized %4, error %5")
                 .arg(row)
                 .arg(col)
                 .arg(floatText(w.float_values[i]), floatText(w.quantized[i]), floatText(w.error[i]));
    return r;
}

data::NumberColumns HeatMapView::csvTable() const {
    auto t = data::NumberColumns::named({"row", "col", "float", "quantized", "error"});
    if (!window_) return t;
    const auto& w = *window_;
    for (int64_t r = 0; r < w.rows; ++r)
        for (int64_t c = 0; c < w.dim; ++c) {
            const size_t i = static_cast<size_t>(r * w.dim + c);
            t.addRow({static_cast<double>(w.first_row + r), static_cast<double>(c), w.float_values[i], w.quantized[i],
                      w.error[i]});
        }
    return t;
}

}  // namespace qs::ui
