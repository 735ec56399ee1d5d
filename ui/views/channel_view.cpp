#include "ui/views/channel_view.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include <qcustomplot.h>

#include "ui/plot/plot_items.h"
#include "ui/views/readout_parts.h"
#include "ui/views/view_text.h"

namespace qs::ui {

using namespace qs::ui::text;

namespace {

QCPScatterStyle dash(const QColor& color, double width) {
    QPainterPath path;
    path.moveTo(-6, 0);
    path.lineTo(6, 0);
    return QCPScatterStyle(path, QPen(color, width, Qt::SolidLine, Qt::FlatCap), Qt::NoBrush, 8);
}

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
    restyle();
    setResult(nullptr);
}

ChannelView::~ChannelView() = default;

void ChannelView::applySeriesStyle(const PlotPalette& c) {
    dataRange_->setPen(QPen(c.curve, 2.0));
    dataMin_->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssNone));
    dataMax_->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssNone));
    outMin_->setScatterStyle(dash(c.range, 2.2));
    outMax_->setScatterStyle(dash(c.range, 2.2));
    outMin_->setPen(QPen(c.range, 2.2));  // the legend's sample
    items::styleBars(scale_, c.secondary, 190, c.axisRectBackground);
    items::styleBars(rmse_, c.error, 170, c.axisRectBackground);
    maxAbs_->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCross, QPen(c.marker, 1.4), Qt::NoBrush, 7));
    band_->setBrush(c.highlight);
    band_->setPen(Qt::NoPen);
    bandText_->setColor(plotPalette(theme()).text);
}

void ChannelView::draw() {
    const bool have = result_ && !result_->channels.empty();
    std::vector<double> keys, mid, minus, plus, dmin, dmax, omin, omax, scale, rmse, maxAbs;
    if (have) {
        const auto& channels = result_->channels;
        for (size_t i = 0; i < channels.size(); ++i) {
            const auto& ch = channels[i];
            keys.push_back(static_cast<double>(i));
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
        setMessage(result_ ? tr("Per tensor: the spec has no axis.\nSet an axis to see each channel's "
                                "range, scale and error.")
                           : QString());
        setStale(false);
        requestReplot();
        return;
    }
    setMessage(QString());
    const auto& r = *result_;
    const qs::QuantSpec& spec = r.spec;
    outMin_->setName(tr("%1 / %2 per channel").arg(usedMinName(spec), usedMaxName(spec)));
    title_->setText(tr("Per channel  ·  axis %1  ·  %2 channels  ·  %3")
                        .arg(spec.axis)
                        .arg(r.channels.size())
                        .arg(spec.range_source == qs::RangeSource::FromData ? tr("ranges from each channel's data")
                                                                            : tr("one given range for all")));
    plot()->xAxis->setLabel(QString());
    errorRect_->axis(QCPAxis::atBottom)->setLabel(tr("channel (index along axis %1)").arg(spec.axis));
    const double k = static_cast<double>(r.curve_channel);
    band_->topLeft->setCoords(k - 0.5, 0.0);
    band_->bottomRight->setCoords(k + 0.5, 1.0);
    bandText_->position->setCoords(k - 0.5, 0.0);
    bandText_->setText(tr("transfer curve: channel %1").arg(r.curve_channel));

    // Home: all channels; values over data and ranges; scale and error from 0.
    const double n = static_cast<double>(r.channels.size());
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
    commitHomeView();
    setStale(false);
    restyle();
}

void ChannelView::setScaleHome() {
    QCPAxis* sy = scaleRect_->axis(QCPAxis::atLeft);
    if (isLogScale())
        setHomeRange(sy, scaleMin_ / 2, scaleMax_ * 2);
    else
        setHomeRange(sy, 0, scaleMax_ * 1.25);
}

void ChannelView::logScaleChanged(bool) { setScaleHome(); }

PlotFrame::Readout ChannelView::readoutAt(const QPointF& pixel) const {
    Readout r;
    if (!result_ || result_->channels.empty()) return r;
    QCPAxisRect* rect = nullptr;
    const long i = indexReadout(plot(), pixel, result_->channels.size(), r, rect);
    if (i < 0) return r;
    const auto& ch = result_->channels[static_cast<size_t>(i)];
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

data::NumberColumns ChannelView::csvTable() const {
    auto t = data::NumberColumns::named({"channel", "data_min", "data_max", "output_min", "output_max", "scale", "step",
                                         "zero_point", "rmse", "max_abs_error", "sqnr_db", "clipped"});
    if (!result_) return t;
    for (size_t i = 0; i < result_->channels.size(); ++i) {
        const auto& ch = result_->channels[i];
        t.addRow({static_cast<double>(i), ch.data_min, ch.data_max, ch.quant.output_min, ch.quant.output_max,
                  ch.quant.scale, ch.quant.step, static_cast<double>(ch.quant.zero_code), ch.stats.rmse,
                  ch.stats.max_abs_error, ch.stats.sqnr_db, static_cast<double>(ch.clipped)});
    }
    return t;
}

}  // namespace qs::ui
