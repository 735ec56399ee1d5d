#include "ui/embedding/views/pipeline_view.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include <qcustomplot.h>

#include "ui/plot/plot_items.h"
#include "ui/views/view_text.h"

namespace qs::ui {

using namespace qs::ui::text;

QString PipelineView::explanation() {
    return tr("With pipeline_execution_with_tensor_core the SparseCore runs step N+1's forward lookups before "
              "step N's backward pass,\nso step N+1's activations do not see step N's gradient updates "
              "(faster; quality changes only when consecutive steps share ids).");
}

PipelineView::PipelineView(QWidget* parent) : PlotFrame(parent) {
    QCustomPlot* p = plot();
    title_ = items::titledPlot(this, p, QStringLiteral("pipelineView"), QStringLiteral("pipelinePlot"));
    QCPAxisRect* lossRect = p->axisRect();
    diffRect_ = items::rectBelow(p, QStringLiteral("pipelineDifferenceRect"));
    QFont small = font();
    small.setPointSizeF(small.pointSizeF() * 0.9);
    caption_ = new QCPTextElement(p, explanation(), small);
    caption_->setObjectName(QStringLiteral("pipelineCaption"));
    p->plotLayout()->addElement(p->plotLayout()->rowCount(), 0, caption_);
    p->plotLayout()->setRowSpacing(4);
    auto* margins = new QCPMarginGroup(p);
    for (QCPAxisRect* rect : {lossRect, diffRect_}) {
        rect->setMarginGroup(QCP::msLeft | QCP::msRight, margins);
        rect->setRangeDrag(Qt::Horizontal | Qt::Vertical);
        rect->setRangeZoom(Qt::Horizontal | Qt::Vertical);
    }
    QCPAxis* x = p->xAxis;
    QCPAxis* y = p->yAxis;
    QCPAxis* y2 = p->yAxis2;
    QCPAxis* dx = diffRect_->axis(QCPAxis::atBottom);
    QCPAxis* dy = diffRect_->axis(QCPAxis::atLeft);
    y2->setVisible(true);
    QSharedPointer<QCPAxisTickerFixed> integers(new QCPAxisTickerFixed);
    integers->setTickStep(1.0);
    integers->setScaleStrategy(QCPAxisTickerFixed::ssMultiples);
    x->setTicker(integers);
    dx->setTicker(integers);
    x->setTickLabels(false);
    dx->setLabel(tr("training step"));
    y->setLabel(tr("toy-model loss"));
    y2->setLabel(tr("stale activations (examples)"));
    dy->setLabel(tr("|activation difference|"));
    connect(x, qOverload<const QCPRange&>(&QCPAxis::rangeChanged), dx, qOverload<const QCPRange&>(&QCPAxis::setRange));
    connect(dx, qOverload<const QCPRange&>(&QCPAxis::rangeChanged), x, qOverload<const QCPRange&>(&QCPAxis::setRange));

    // First: drawn under the loss lines.
    stale_ = items::bars(x, y2, QStringLiteral("staleActivationBars"), tr("stale activations (right axis)"));
    stale_->setWidth(0.6);
    sequential_ = items::graph(p, x, y, QStringLiteral("lossSequential"), tr("loss without pipelining"));
    pipelined_ = items::graph(p, x, y, QStringLiteral("lossPipelined"), tr("loss with pipelining"));
    meanDiff_ = items::graph(p, dx, dy, QStringLiteral("meanAbsDifference"), tr("mean |a_pipelined − a_sequential|"));
    maxDiff_ = items::graph(p, dx, dy, QStringLiteral("maxAbsDifference"), tr("max |a_pipelined − a_sequential|"));

    showSmallLegend(3);
    restyle();
    clear();
}

PipelineView::~PipelineView() = default;

void PipelineView::applySeriesStyle(const PlotPalette& c) {
    items::styleBars(stale_, c.clipped, 70, c.axisRectBackground);
    sequential_->setPen(QPen(c.curve, 2.0));
    sequential_->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, c.curve, c.curve, 5));
    pipelined_->setPen(QPen(c.handle, 2.0, Qt::DashLine));
    pipelined_->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssSquare, c.handle, c.handle, 5));
    meanDiff_->setPen(QPen(c.error, 1.8));
    meanDiff_->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, c.error, c.error, 4));
    maxDiff_->setPen(QPen(c.secondary, 1.8, Qt::DashLine));
    maxDiff_->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssTriangle, c.secondary, c.secondary, 5));
    caption_->setTextColor(plotPalette(theme()).text);
}

void PipelineView::clear() {
    demo_.reset();
    for (QCPGraph* g : {sequential_, pipelined_, meanDiff_, maxDiff_}) g->data()->clear();
    stale_->data()->clear();
    title_->setText(tr("Pipelining demonstration"));
    setMessage(tr("Run the demonstration to compare a few training steps\nwithout and with pipelining."));
    setStale(false);
    plot()->replot();
}

void PipelineView::setDemo(const qs::embedding::PipelineDemoResult& d) {
    demo_ = d;
    QVector<double> keys, seq, pip, stale, meanD, maxD;
    double lossLo = std::numeric_limits<double>::infinity(), lossHi = -lossLo, staleMax = 1, diffMax = 0;
    int64_t staleTotal = 0, activations = 0;
    for (const auto& s : d.steps) {
        keys << static_cast<double>(s.step);
        seq << s.loss_sequential;
        pip << s.loss_pipelined;
        stale << static_cast<double>(s.stale_activations);
        meanD << s.mean_abs_difference;
        maxD << s.max_abs_difference;
        for (double l : {s.loss_sequential, s.loss_pipelined})
            if (std::isfinite(l)) {
                lossLo = std::min(lossLo, l);
                lossHi = std::max(lossHi, l);
            }
        staleMax = std::max(staleMax, static_cast<double>(std::max(s.activations, s.stale_activations)));
        if (std::isfinite(s.max_abs_difference)) diffMax = std::max(diffMax, s.max_abs_difference);
        staleTotal += s.stale_activations;
        activations += s.activations;
    }
    sequential_->setData(keys, seq, true);
    pipelined_->setData(keys, pip, true);
    stale_->setData(keys, stale, true);
    meanDiff_->setData(keys, meanD, true);
    maxDiff_->setData(keys, maxD, true);
    title_->setText(tr("Pipelining  ·  %1 steps  ·  %2 of %3 activations read stale rows  ·  final tables differ by ≤ %4")
                        .arg(d.steps.size())
                        .arg(countText(static_cast<double>(staleTotal)), countText(static_cast<double>(activations)),
                             num(d.final_table_max_abs_difference, 4)));
    setMessage(d.steps.empty() ? tr("No steps") : QString());
    if (!(lossHi >= lossLo)) {
        lossLo = 0;
        lossHi = 1;
    }
    const double pad = std::max(0.08 * (lossHi - lossLo), 1e-6 * std::max(1.0, std::abs(lossHi)));
    const double first = keys.isEmpty() ? 0 : keys.front(), last = keys.isEmpty() ? 1 : keys.back();
    setHomeRange(plot()->xAxis, first - 0.6, last + 0.6);
    setHomeRange(diffRect_->axis(QCPAxis::atBottom), first - 0.6, last + 0.6);
    setHomeRange(plot()->yAxis, lossLo - pad, lossHi + pad);
    setHomeRange(plot()->yAxis2, 0, staleMax * 1.1);
    setHomeRange(diffRect_->axis(QCPAxis::atLeft), 0, diffMax > 0 ? diffMax * 1.15 : 1.0);
    finishDraw();
}

PlotFrame::Readout PipelineView::readoutAt(const QPointF& pixel) const {
    Readout r;
    if (!demo_ || demo_->steps.empty()) return r;
    QCPAxisRect* rect = plot()->axisRectAt(pixel);
    if (!rect) return r;
    QCPAxis* kx = rect->axis(QCPAxis::atBottom);
    const double key = kx->pixelToCoord(pixel.x());
    const auto& steps = demo_->steps;
    const auto it = std::min_element(steps.begin(), steps.end(), [key](const auto& a, const auto& b) {
        return std::abs(static_cast<double>(a.step) - key) < std::abs(static_cast<double>(b.step) - key);
    });
    const auto& s = *it;
    r.valid = true;
    r.xAxis = kx;
    r.yAxis = rect->axis(QCPAxis::atLeft);
    r.x = static_cast<double>(s.step);
    r.y = rect == diffRect_ ? s.max_abs_difference : s.loss_sequential;
    r.text = tr("step %1\nloss %2 without, %3 with pipelining\nstale: %4 of %5 activations, %6 rows\n"
                "|difference| mean %7, max %8")
                 .arg(s.step)
                 .arg(num(s.loss_sequential, 6), num(s.loss_pipelined, 6), countText(static_cast<double>(s.stale_activations)),
                      countText(static_cast<double>(s.activations)), countText(static_cast<double>(s.stale_rows)),
                      num(s.mean_abs_difference, 4), num(s.max_abs_difference, 4));
    return r;
}

data::NumberColumns PipelineView::csvTable() const {
    auto t = data::NumberColumns::named({"step", "loss_sequential", "loss_pipelined", "activations", "stale_activations",
                                         "stale_rows", "mean_abs_difference", "max_abs_difference"});
    if (!demo_) return t;
    for (const auto& s : demo_->steps)
        t.addRow({static_cast<double>(s.step), s.loss_sequential, s.loss_pipelined, static_cast<double>(s.activations),
                  static_cast<double>(s.stale_activations), static_cast<double>(s.stale_rows), s.mean_abs_difference,
                  s.max_abs_difference});
    return t;
}

}  // namespace qs::ui
