#include "ui/views/channel_view.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QSpinBox>
#include <QVBoxLayout>
#include <qcustomplot.h>

#include "core/analysis/explorer_tables.h"
#include "ui/plot/plot_items.h"
#include "ui/views/readout_parts.h"
#include "ui/views/view_text.h"

namespace qs::ui {

using namespace qs::ui::text;

namespace {

// A horizontal dash `halfWidth` pixels either side of its point (QCustomPlot scales a custom
// shape by size / 6).
QCPScatterStyle dash(const QColor& color, double width, double halfWidth) {
    QPainterPath path;
    path.moveTo(-6, 0);
    path.lineTo(6, 0);
    return QCPScatterStyle(path, QPen(color, width, Qt::SolidLine, Qt::FlatCap), Qt::NoBrush, halfWidth);
}

// Below this many pixels a channel, marks per channel overlap: the output range is drawn as
// two thin lines and the bars without outlines (else a thousand channels are a red smear).
constexpr double kDensePixels = 4.0;

}  // namespace

ChannelView::ChannelView(QWidget* parent) : ResultPlot(parent) {
    QCustomPlot* p = plot();
    title_ = items::titledPlot(this, p, QStringLiteral("channelView"), QStringLiteral("channelPlot"));
    QCPAxisRect* rangeRect = p->axisRect();
    scaleRect_ = items::rectBelow(p, QStringLiteral("scaleRect"));
    errorRect_ = items::rectBelow(p, QStringLiteral("channelErrorRect"));
    p->plotLayout()->setRowStretchFactors({0.01, 2.0, 1.0, 1.0});
    p->plotLayout()->setRowSpacing(4);
    auto* margins = new QCPMarginGroup(p);
    for (QCPAxisRect* rect : {rangeRect, scaleRect_, errorRect_}) {
        rect->setMarginGroup(QCP::msLeft | QCP::msRight, margins);
        rect->setRangeDrag(Qt::Horizontal | Qt::Vertical);
        rect->setRangeZoom(Qt::Horizontal | Qt::Vertical);
    }
    QCPAxis* x = p->xAxis;
    QCPAxis* sx = scaleRect_->axis(QCPAxis::atBottom);
    QCPAxis* ex = errorRect_->axis(QCPAxis::atBottom);
    QCPAxis* y = p->yAxis;
    QCPAxis* sy = scaleRect_->axis(QCPAxis::atLeft);
    QCPAxis* ey = errorRect_->axis(QCPAxis::atLeft);
    QSharedPointer<QCPAxisTickerFixed> integers(new QCPAxisTickerFixed);
    integers->setTickStep(1.0);
    integers->setScaleStrategy(QCPAxisTickerFixed::ssMultiples);
    for (QCPAxis* a : {x, sx, ex}) a->setTicker(integers);
    x->setTickLabels(false);
    sx->setTickLabels(false);
    ex->setLabel(tr("channel"));
    y->setLabel(tr("value (float32)"));
    sy->setLabel(tr("scale"));
    ey->setLabel(tr("error"));
    // One x for the three panels.
    const QList<QCPAxis*> xs{x, sx, ex};
    for (QCPAxis* a : xs)
        for (QCPAxis* b : xs)
            if (a != b)
                connect(a, qOverload<const QCPRange&>(&QCPAxis::rangeChanged), b,
                        qOverload<const QCPRange&>(&QCPAxis::setRange));

    band_ = new QCPItemRect(p);
    band_->setObjectName(QStringLiteral("curveChannelBand"));
    band_->setClipAxisRect(rangeRect);
    band_->setSelectable(false);
    for (QCPItemPosition* pos : {band_->topLeft, band_->bottomRight}) {
        pos->setAxes(x, y);
        pos->setTypeX(QCPItemPosition::ptPlotCoords);
        pos->setTypeY(QCPItemPosition::ptAxisRectRatio);
        pos->setAxisRect(rangeRect);
    }
    band_->setLayer(QStringLiteral("grid"));

    dataMid_ = items::pointGraph(p, x, y, QStringLiteral("dataMid"), false);
    dataRange_ = new QCPErrorBars(x, y);
    dataRange_->setObjectName(QStringLiteral("dataRange"));
    dataRange_->setName(tr("data min … max"));
    dataRange_->setDataPlottable(dataMid_);
    dataRange_->setErrorType(QCPErrorBars::etValueError);
    dataRange_->setWhiskerWidth(7);
    dataRange_->setSymbolGap(0);
    dataMin_ = items::pointGraph(p, x, y, QStringLiteral("dataMin"), false);
    dataMax_ = items::pointGraph(p, x, y, QStringLiteral("dataMax"), false);
    outMin_ = items::pointGraph(p, x, y, QStringLiteral("outputMin"), true);
    outMax_ = items::pointGraph(p, x, y, QStringLiteral("outputMax"), false);

    scale_ = new QCPBars(sx, sy);
    scale_->setObjectName(QStringLiteral("channelScale"));
    scale_->setName(tr("scale per channel"));
    scale_->setWidth(0.7);
    rmse_ = new QCPBars(ex, ey);
    rmse_->setObjectName(QStringLiteral("channelRmse"));
    rmse_->setName(tr("RMSE per channel"));
    rmse_->setWidth(0.7);
    maxAbs_ = p->addGraph(ex, ey);
    maxAbs_->setObjectName(QStringLiteral("channelMaxAbsError"));
    maxAbs_->setName(tr("max |error| per channel"));
    maxAbs_->setLineStyle(QCPGraph::lsNone);

    showSmallLegend(2);

    bandText_ = items::label(p, x, y, QStringLiteral("curveChannelLabel"), QCPItemPosition::ptPlotCoords,
                             QCPItemPosition::ptAxisRectRatio, Qt::AlignLeft | Qt::AlignTop);
    bandText_->setLayer(QStringLiteral("grid"));
    setLogScaleAxes({sy});
    static_cast<QVBoxLayout*>(layout())->insertWidget(0, createControls());
    restyle();
    setResult(nullptr);
}

QWidget* ChannelView::createControls() {
    orderBox_ = new QComboBox;
    orderBox_->setObjectName(QStringLiteral("channelOrder"));
    orderBox_->addItem(tr("channel index"), int(ChannelOrder::Index));
    orderBox_->addItem(tr("RMSE, worst first"), int(ChannelOrder::Rmse));
    orderBox_->addItem(tr("max |error|, worst first"), int(ChannelOrder::MaxAbsError));
    worstBox_ = new QSpinBox;
    worstBox_->setObjectName(QStringLiteral("channelWorstCount"));
    worstBox_->setRange(0, 1 << 24);
    worstBox_->setSpecialValueText(tr("all"));
    worstBox_->setToolTip(tr("Only the channels of largest error (by max |error| when sorted so, else by RMSE); "
                             "“all” shows every channel."));
    worstBox_->setKeyboardTracking(false);
    connect(orderBox_, &QComboBox::currentIndexChanged, this, [this] { draw(); });
    connect(worstBox_, &QSpinBox::valueChanged, this, [this] { draw(); });
    auto* bar = new QWidget;
    bar->setObjectName(QStringLiteral("channelControls"));
    bar->setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Fixed);  // the plot takes the height
    auto* row = new QHBoxLayout(bar);
    row->setContentsMargins(6, 2, 6, 0);
    row->addWidget(new QLabel(tr("Order")));
    row->addWidget(orderBox_);
    row->addSpacing(12);
    row->addWidget(new QLabel(tr("Show worst")));
    row->addWidget(worstBox_);
    row->addStretch(1);
    return bar;
}

void ChannelView::setOrder(ChannelOrder order) { orderBox_->setCurrentIndex(orderBox_->findData(int(order))); }

void ChannelView::setWorstCount(int count) { worstBox_->setValue(count); }

ChannelView::~ChannelView() = default;

void ChannelView::applySeriesStyle(const PlotPalette& c) {
    dataMin_->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssNone));
    dataMax_->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssNone));
    // Marks sized to the pixels a channel gets: dashes and whiskers as wide as ~70 % of it.
    const bool dense = pixelsPerChannel_ < kDensePixels;
    const double half = std::clamp(0.35 * pixelsPerChannel_, 1.0, 8.0);
    for (QCPGraph* g : {outMin_, outMax_}) {
        g->setScatterStyle(dense ? QCPScatterStyle(QCPScatterStyle::ssNone) : dash(c.range, 2.2, half));
        g->setLineStyle(dense ? QCPGraph::lsStepCenter : QCPGraph::lsNone);
        g->setPen(QPen(c.range, dense ? 1.0 : 2.2));
    }
    dataRange_->setWhiskerWidth(std::clamp(0.7 * pixelsPerChannel_, 0.0, 7.0));
    dataRange_->setPen(QPen(c.curve, dense ? 1.0 : 2.0));
    items::styleBars(scale_, c.secondary, 190, c.axisRectBackground);
    items::styleBars(rmse_, c.error, 170, c.axisRectBackground);
    if (dense)  // outlines on bars a pixel wide would be all that shows
        for (QCPBars* b : {scale_, rmse_}) b->setPen(QPen(b->brush().color(), 1));
    maxAbs_->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCross, QPen(c.marker, dense ? 1.0 : 1.4), Qt::NoBrush,
                                             dense ? 3 : 7));
    band_->setBrush(c.highlight);
    band_->setPen(Qt::NoPen);
    bandText_->setColor(plotPalette(theme()).text);
}

void ChannelView::draw() {
    const bool have = result_ && !result_->channels.empty();
    std::vector<double> keys, mid, minus, plus, dmin, dmax, omin, omax, scale, rmse, maxAbs;
    shown_.clear();
    if (have) {
        const auto& channels = result_->channels;
        shown_ = channelsShown(channels, static_cast<ChannelOrder>(orderBox_->currentData().toInt()),
                               static_cast<size_t>(worstBox_->value()));
        for (size_t k = 0; k < shown_.size(); ++k) {
            const auto& ch = channels[shown_[k]];
            keys.push_back(static_cast<double>(k));
            // A whisker from data_min to data_max, hung on its midpoint.
            const double lo = ch.data_min, hi = ch.data_max;
            mid.push_back((lo + hi) / 2);
            minus.push_back((hi - lo) / 2);
            plus.push_back((hi - lo) / 2);
            dmin.push_back(lo);
            dmax.push_back(hi);
            omin.push_back(ch.quant.output_min);
            omax.push_back(ch.quant.output_max);
            scale.push_back(ch.quant.scale);
            rmse.push_back(ch.stats.rmse);
            maxAbs.push_back(ch.stats.max_abs_error);
        }
    }
    // Decimated to the plot's width: thousands of channels draw as their envelope.
    setPlotData(dataMid_, dataRange_, keys, mid, minus, plus);
    setPlotData(dataMin_, keys, dmin);
    setPlotData(dataMax_, keys, dmax);
    setPlotData(outMin_, keys, omin);
    setPlotData(outMax_, keys, omax);
    setPlotData(scale_, keys, scale);
    setPlotData(rmse_, keys, rmse);
    setPlotData(maxAbs_, keys, maxAbs);
    plot()->legend->setVisible(have);
    band_->setVisible(have);
    bandText_->setVisible(have);

    if (!have) {
        title_->setText(tr("Per-channel ranges"));
        QString note;
        if (result_) {
            note = tr("Per tensor: the spec has no axis.\nSet an axis to see each channel's range, scale and error.");
            // QDQ V2/V4 take one scalar range with range_given: per channel they need it off.
            if (qs::opDescriptor(result_->spec.op).range.given_range_scalar_only && result_->spec.range_given)
                note += tr("\nWith %1, also untick range_given: each channel then uses its own data's range.")
                            .arg(QString::fromUtf8(qs::quantOpName(result_->spec.op).data()));
        }
        setMessage(note);
        setStale(false);
        requestReplot();
        return;
    }
    setMessage(QString());
    const auto& r = *result_;
    const qs::QuantSpec& spec = r.spec;
    outMin_->setName(tr("%1 / %2 per channel").arg(usedMinName(spec), usedMaxName(spec)));
    // rangeIsGiven: QDQ with range_given off, or "each channel's own min/max", gives each
    // channel the range of its own data, whatever the range source says.
    const QString ranges = rangeIsGiven(spec) ? tr("one given range for all") : tr("ranges from each channel's data");
    const QString shownText = shown_.size() == r.channels.size()
                                  ? tr("%1 channels").arg(r.channels.size())
                                  : tr("worst %1 of %2 channels").arg(shown_.size()).arg(r.channels.size());
    title_->setText(tr("Per channel  ·  axis %1  ·  %2  ·  %3").arg(spec.axis).arg(shownText, ranges));
    plot()->xAxis->setLabel(QString());
    labelChannelAxis();
    // The transfer curve's channel, where it is drawn (nowhere if it is not among the shown).
    const auto at = std::find(shown_.begin(), shown_.end(), static_cast<size_t>(r.curve_channel));
    band_->setVisible(at != shown_.end());
    bandText_->setVisible(at != shown_.end());
    const double k = static_cast<double>(at - shown_.begin());
    band_->topLeft->setCoords(k - 0.5, 0.0);
    band_->bottomRight->setCoords(k + 0.5, 1.0);
    bandText_->position->setCoords(k - 0.5, 0.0);
    bandText_->setText(tr("transfer curve: channel %1").arg(r.curve_channel));

    // Home: all shown channels; values over data and ranges; scale and error from 0.
    const double n = static_cast<double>(shown_.size());
    double lo = std::numeric_limits<double>::infinity(), hi = -lo;
    for (const std::vector<double>* v : {&dmin, &dmax, &omin, &omax})
        for (double d : *v)
            if (std::isfinite(d)) {
                lo = std::min(lo, d);
                hi = std::max(hi, d);
            }
    if (!(hi > lo)) {
        lo = -1;
        hi = 1;
    }
    const double pad = 0.08 * (hi - lo);
    scaleMin_ = std::numeric_limits<double>::infinity();
    scaleMax_ = 0;
    for (double s : scale)
        if (s > 0 && std::isfinite(s)) {
            scaleMin_ = std::min(scaleMin_, s);
            scaleMax_ = std::max(scaleMax_, s);
        }
    if (!(scaleMax_ > 0)) scaleMin_ = scaleMax_ = 1;
    double emax = 0;
    for (double e : maxAbs)
        if (std::isfinite(e)) emax = std::max(emax, e);
    if (!(emax > 0)) emax = 1;
    for (QCPAxis* a : {plot()->xAxis, scaleRect_->axis(QCPAxis::atBottom), errorRect_->axis(QCPAxis::atBottom)})
        setHomeRange(a, -0.6, n - 0.4);
    setHomeRange(plot()->yAxis, lo - pad, hi + pad);
    setScaleHome();
    setHomeRange(errorRect_->axis(QCPAxis::atLeft), 0, emax * 1.25);
    finishDraw();
}

void ChannelView::setScaleHome() {
    QCPAxis* sy = scaleRect_->axis(QCPAxis::atLeft);
    if (isLogScale())
        setHomeRange(sy, scaleMin_ / 2, scaleMax_ * 2);
    else
        setHomeRange(sy, 0, scaleMax_ * 1.25);
}

void ChannelView::logScaleChanged(bool) { setScaleHome(); }

void ChannelView::labelChannelAxis() {
    const int axis = result_ ? result_->spec.axis : 0;
    QCPAxis* ex = errorRect_->axis(QCPAxis::atBottom);
    bool identity = true;
    for (size_t k = 0; k < shown_.size() && identity; ++k) identity = shown_[k] == k;
    QSharedPointer<QCPAxisTicker> ticker;
    if (identity) {
        QSharedPointer<QCPAxisTickerFixed> integers(new QCPAxisTickerFixed);
        integers->setTickStep(1.0);
        integers->setScaleStrategy(QCPAxisTickerFixed::ssMultiples);
        ticker = integers;
        ex->setLabel(tr("channel (index along axis %1)").arg(axis));
    } else {
        // Sorted or cut: position k is channel shown_[k]; every label if they fit, else
        // about 30 of them.
        QSharedPointer<QCPAxisTickerText> names(new QCPAxisTickerText);
        const size_t every = std::max<size_t>(1, shown_.size() / 30);
        for (size_t k = 0; k < shown_.size(); k += every)
            names->addTick(static_cast<double>(k), QString::number(shown_[k]));
        ticker = names;
        const bool byMax = orderBox_->currentData().toInt() == int(ChannelOrder::MaxAbsError);
        ex->setLabel(orderBox_->currentData().toInt() == int(ChannelOrder::Index)
                         ? tr("channel (index along axis %1; the worst %2 by RMSE)").arg(axis).arg(shown_.size())
                         : tr("channel (along axis %1), %2 worst first").arg(axis).arg(byMax ? tr("max |error|") : tr("RMSE")));
    }
    for (QCPAxis* a : {plot()->xAxis, scaleRect_->axis(QCPAxis::atBottom), ex}) a->setTicker(ticker);
}

void ChannelView::viewRangesChanged() {
    const QCPAxis* x = plot()->xAxis;
    const double px = std::fabs(x->coordToPixel(1.0) - x->coordToPixel(0.0));
    // Restyle only when the marks' size changes by a visible amount.
    if (std::fabs(px - pixelsPerChannel_) < 0.25 * std::min(px, pixelsPerChannel_) + 0.01) return;
    pixelsPerChannel_ = px;
    restyle();
}

PlotFrame::Readout ChannelView::readoutAt(const QPointF& pixel) const {
    Readout r;
    if (!result_ || result_->channels.empty()) return r;
    QCPAxisRect* rect = nullptr;
    const long k = indexReadout(plot(), pixel, shown_.size(), r, rect);
    if (k < 0) return r;
    const size_t i = shown_[static_cast<size_t>(k)];
    const auto& ch = result_->channels[i];
    if (rect == scaleRect_)
        r.y = ch.quant.scale;
    else if (rect == errorRect_)
        r.y = ch.stats.rmse;
    else
        r.y = ch.quant.output_max;
    r.text = tr("channel %1\ndata [%2, %3]\nrange used [%4, %5]\nscale %6   Δ %7\nRMSE %8   max |e| %9")
                 .arg(i)
                 .arg(floatText(ch.data_min), floatText(ch.data_max), floatText(ch.quant.output_min),
                      floatText(ch.quant.output_max), floatText(ch.quant.scale), num(ch.quant.step, 5),
                      num(ch.stats.rmse, 4), num(ch.stats.max_abs_error, 4));
    if (ch.clipped > 0) r.text += tr("\nclipped %1").arg(ch.clipped);
    return r;
}

data::NumberColumns ChannelView::csvTable() const { return qs::analysis::channelColumns(result_.get()); }

}  // namespace qs::ui
