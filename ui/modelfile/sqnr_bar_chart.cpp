#include "ui/modelfile/sqnr_bar_chart.h"

#include <algorithm>
#include <cmath>

#include <QFontMetrics>
#include <QFontMetricsF>

#include <qcustomplot.h>

#include "ui/plot/layout_width.h"
#include "ui/plot/plot_items.h"

namespace qs::ui {

SqnrBarChart::SqnrBarChart(QWidget* parent) : ResultPlot(parent) {
    QCustomPlot* p = plot();
    title_ = items::frame(this, p, QStringLiteral("sqnrBarChart"), QStringLiteral("sqnrBarPlot"), tr("SQNR (dB)"),
                          QString());
    // Bars along y (one per tensor, row 0 at the top), lengths along x.
    p->yAxis->setRangeReversed(true);
    p->yAxis->setTicker(QSharedPointer<QCPAxisTickerText>(new QCPAxisTickerText));
    p->yAxis->setSubTicks(false);
    p->yAxis->grid()->setVisible(false);
    bars_ = new QCPBars(p->yAxis, p->xAxis);
    bars_->setObjectName(QStringLiteral("sqnrBars"));
    bars_->setName(tr("SQNR, each tensor's own range"));
    bars_->setWidth(0.7);
    calibrated_ = items::graph(p, p->yAxis, p->xAxis, QStringLiteral("bestCalibration"),
                               tr("SQNR, best calibration's range"));
    calibrated_->setLineStyle(QCPGraph::lsNone);
    // Names only where they fit: with more bars than the axis has lines of text, every k-th
    // bar is labelled (the read-out names any bar under the cursor), so zooming in names all.
    // Decided once the layout knows the bars' height, for the screen and for every export
    // (toPainter lays out at the export's size without a replot).
    connect(p, &QCustomPlot::afterLayout, this, [this] { labelBars(); });
    connect(p, &QCustomPlot::plottableClick, this,
            [this](QCPAbstractPlottable* plottable, int index, QMouseEvent*) { barClicked(plottable, index); });
    placeLegendOnTop(2);
    restyle();
    setResult(nullptr);
}

SqnrBarChart::~SqnrBarChart() = default;

void SqnrBarChart::applySeriesStyle(const PlotPalette& c) {
    items::styleBars(bars_, c.curve, 170, c.axisRectBackground);
    calibrated_->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDiamond, QPen(c.secondary, 1.6), c.secondary, 7));
    calibrated_->setPen(QPen(c.secondary, 1.6));  // the legend's sample
}

double SqnrBarChart::drawnSqnr(size_t row) const {
    if (!result_ || row >= result_->rows.size()) return 0;
    const double s = result_->rows[row].stats.sqnr_db;
    if (std::isnan(s)) return 0;
    return std::isinf(s) ? (s > 0 ? losslessAt_ : 0) : s;
}

void SqnrBarChart::draw() {
    QCustomPlot* p = plot();
    names_.clear();
    labelStep_ = 0;
    labelRoom_ = 0;
    QVector<double> keys, values, calKeys, calValues;
    const bool have = result_ && !result_->rows.empty();
    if (have) {
        const auto& rows = result_->rows;
        double longest = 0;
        for (const auto& r : rows) {
            if (std::isfinite(r.stats.sqnr_db)) longest = std::max(longest, r.stats.sqnr_db);
            if (r.calibration && std::isfinite(r.calibration->sqnr_db)) longest = std::max(longest, r.calibration->sqnr_db);
        }
        losslessAt_ = longest > 0 ? longest * 1.1 : 100.0;
        for (size_t i = 0; i < rows.size(); ++i) {
            const double k = static_cast<double>(i);
            keys << k;
            values << drawnSqnr(i);
            QString name = QString::fromStdString(rows[i].name);
            if (name.size() > 48) name = QStringLiteral("…") + name.right(47);
            if (rows[i].int32_codes) name += tr(" (int32 bias)");
            names_ << name;
            if (rows[i].calibration && std::isfinite(rows[i].calibration->sqnr_db)) {
                calKeys << k;
                calValues << rows[i].calibration->sqnr_db;
            }
        }
    }
    bars_->setData(keys, values, true);
    calibrated_->setData(calKeys, calValues, true);
    calibrated_->setVisible(!calKeys.isEmpty());
    p->legend->setVisible(have);
    if (!have) {
        title_->setText(tr("SQNR per tensor"));
        setMessage(result_ ? tr("No float weight tensors in this model.") : QString());
        setStale(false);
        p->replot();
        return;
    }
    setMessage(QString());
    const auto& r = *result_;
    title_->setText(tr("SQNR per tensor  ·  %1  ·  %2 tensors, worst first%3")
                        .arg(QString::fromStdString(std::string(qs::quantOpName(r.spec.op))))
                        .arg(r.rows.size())
                        .arg(r.per_channel ? tr("  ·  per channel") : QString()));
    // Home shows the worst bars that fit one per line of text (at least 8), each named, and
    // the SQNR axis spans those bars and their calibration marks (a far better tensor further
    // down would otherwise squeeze them all to the left).
    const double lineHeight = QFontMetricsF(p->yAxis->tickLabelFont()).height() * 1.15;
    const int fitting = std::clamp(static_cast<int>(barAreaHeight() / lineHeight), 8, kHomeBars);
    const int shown = std::min(static_cast<int>(r.rows.size()), fitting);
    double lo = 0, hi = 1;
    for (int i = 0; i < shown; ++i) {
        const auto& row = r.rows[static_cast<size_t>(i)];
        lo = std::min(lo, values[i]);
        hi = std::max(hi, values[i]);
        if (row.calibration && std::isfinite(row.calibration->sqnr_db)) {
            lo = std::min(lo, row.calibration->sqnr_db);
            hi = std::max(hi, row.calibration->sqnr_db);
        }
    }
    setHomeRange(p->xAxis, lo, hi * 1.05);
    setHomeRange(p->yAxis, -0.6, shown - 0.4);
    finishDraw();
}

double SqnrBarChart::barAreaHeight() const {
    // A chart that was never shown (quantscope-cli model --png renders one offscreen) has no
    // layout yet: its axis rectangle is the widget less the title, legend and x axis.
    if (!isVisible()) return std::max(0, height() - 130);
    return plot()->axisRect()->height();
}

void SqnrBarChart::labelBars() {
    QCustomPlot* p = plot();
    const double lineHeight = QFontMetricsF(p->yAxis->tickLabelFont()).height() * 1.15;
    const double barsShown = std::max(1.0, p->yAxis->range().size());
    // Called after the layout: the axis rect has the height the bars are drawn in.
    const double pixelsPerBar = std::max(1, p->axisRect()->height()) / barsShown;
    const int step = std::max(1, static_cast<int>(std::ceil(lineHeight / pixelsPerBar)));
    // A name takes at most two fifths of the width, elided at its start: the end of a path
    // ("…Conv2d_13_pointwise/weights/read") is what tells tensors apart, and whole names
    // left the bars a sliver of a narrow dock.
    const int room = std::max(80, layoutWidth(p) * 2 / 5);
    if (step == labelStep_ && room == labelRoom_) return;
    labelStep_ = step;
    labelRoom_ = room;
    const QFontMetrics metrics(p->yAxis->tickLabelFont());
    auto ticker = qSharedPointerCast<QCPAxisTickerText>(p->yAxis->ticker());
    ticker->clear();
    for (int k = 0; k < names_.size(); k += step) ticker->addTick(k, metrics.elidedText(names_[k], Qt::ElideLeft, room));
    // Other names need another width beside the bars: lay out again (the height, and so the
    // step, stays; this handler then returns above).
    for (auto phase : {QCPLayoutElement::upPreparation, QCPLayoutElement::upMargins, QCPLayoutElement::upLayout})
        p->plotLayout()->update(phase);
}

void SqnrBarChart::barClicked(QCPAbstractPlottable* plottable, int dataIndex) {
    if (plottable != bars_ || !result_ || dataIndex < 0) return;
    // dataIndex counts the bars' data in key order, which is the row order.
    const auto row = static_cast<size_t>(dataIndex);
    if (row < result_->rows.size()) emit tensorClicked(QString::fromStdString(result_->rows[row].name));
}

data::NumberColumns SqnrBarChart::csvTable() const {
    auto t = data::NumberColumns::named({"rank", "sqnr_db", "best_calibration_sqnr_db"});
    if (!result_) return t;
    for (size_t i = 0; i < result_->rows.size(); ++i) {
        const auto& r = result_->rows[i];
        t.addRow({static_cast<double>(i), r.stats.sqnr_db,
                  r.calibration ? r.calibration->sqnr_db : std::numeric_limits<double>::quiet_NaN()});
    }
    return t;
}

PlotFrame::Readout SqnrBarChart::readoutAt(const QPointF& pixel) const {
    Readout out;
    if (!result_ || result_->rows.empty()) return out;
    QCustomPlot* p = plot();
    const long i = std::lround(p->yAxis->pixelToCoord(pixel.y()));
    if (i < 0 || i >= static_cast<long>(result_->rows.size())) return out;
    const auto& r = result_->rows[static_cast<size_t>(i)];
    out.valid = true;
    out.xAxis = p->xAxis;
    out.yAxis = p->yAxis;
    out.x = drawnSqnr(static_cast<size_t>(i));
    out.y = static_cast<double>(i);
    out.text = tr("%1\nSQNR %2 dB   MSE %3\nlevels used %4 of %5")
                   .arg(QString::fromStdString(r.name))
                   .arg(r.stats.sqnr_db, 0, 'f', 2)
                   .arg(r.stats.mse, 0, 'g', 4)
                   .arg(r.stats.levels_used < 0 ? tr("(not counted)") : QString::number(r.stats.levels_used, 'f', 1))
                   .arg(r.stats.levels_available);
    if (r.calibration)
        out.text += tr("\nbest calibration: %1, %2 dB")
                        .arg(QString::fromStdString(std::string(qs::analysis::calibrationMethodName(r.calibration->method))))
                        .arg(r.calibration->sqnr_db, 0, 'f', 2);
    return out;
}

}  // namespace qs::ui
