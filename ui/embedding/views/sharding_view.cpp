#include "ui/embedding/views/sharding_view.h"

#include <algorithm>
#include <cmath>

#include <qcustomplot.h>

#include "ui/embedding/views/embedding_text.h"
#include "ui/plot/plot_items.h"
#include "ui/views/readout_parts.h"

namespace qs::ui {

using namespace qs::ui::text;

namespace {

QString strategyName(qs::tpu::PartitionStrategy s) {
    return s == qs::tpu::PartitionStrategy::Div ? QStringLiteral("div") : QStringLiteral("mod");
}

QString count(int64_t v) { return countText(static_cast<double>(v)); }

}  // namespace

ShardingView::ShardingView(QWidget* parent) : PlotFrame(parent) {
    setObjectName(QStringLiteral("shardingView"));
    plot()->setObjectName(QStringLiteral("shardingPlot"));
    QCustomPlot* p = plot();
    title_ = items::title(p, font());
    caption_ = new QCPTextElement(p, QString(), font());
    caption_->setObjectName(QStringLiteral("shardingCaption"));
    p->plotLayout()->insertRow(1);
    p->plotLayout()->addElement(1, 0, caption_);
    QCPAxisRect* rowsRect = p->axisRect();
    bytesRect_ = new QCPAxisRect(p);
    bytesRect_->setObjectName(QStringLiteral("shardingBytesRect"));
    trafficRect_ = new QCPAxisRect(p);
    trafficRect_->setObjectName(QStringLiteral("shardingTrafficRect"));
    const int first = p->plotLayout()->rowCount();
    p->plotLayout()->addElement(first, 0, bytesRect_);
    p->plotLayout()->addElement(first + 1, 0, trafficRect_);
    p->plotLayout()->setRowSpacing(4);
    auto* margins = new QCPMarginGroup(p);
    const QList<QCPAxisRect*> rects{rowsRect, bytesRect_, trafficRect_};
    for (QCPAxisRect* rect : rects) {
        rect->setMarginGroup(QCP::msLeft | QCP::msRight, margins);
        rect->setRangeDrag(Qt::Horizontal);
        rect->setRangeZoom(Qt::Horizontal);
        // Each panel carries its own legend in its top-right corner.
    }
    QSharedPointer<QCPAxisTickerFixed> integers(new QCPAxisTickerFixed);
    integers->setTickStep(1.0);
    integers->setScaleStrategy(QCPAxisTickerFixed::ssMultiples);
    QList<QCPAxis*> xs;
    for (QCPAxisRect* rect : rects) {
        rect->axis(QCPAxis::atBottom)->setTicker(integers);
        rect->axis(QCPAxis::atBottom)->setTickLabels(rect == trafficRect_);
        xs << rect->axis(QCPAxis::atBottom);
    }
    for (QCPAxis* a : xs)
        for (QCPAxis* b : xs)
            if (a != b)
                connect(a, qOverload<const QCPRange&>(&QCPAxis::rangeChanged), b,
                        qOverload<const QCPRange&>(&QCPAxis::setRange));
    trafficRect_->axis(QCPAxis::atBottom)->setLabel(tr("host"));
    rowsRect->axis(QCPAxis::atLeft)->setLabel(tr("rows held"));
    bytesRect_->axis(QCPAxis::atLeft)->setLabel(tr("bytes per host"));
    trafficRect_->axis(QCPAxis::atLeft)->setLabel(tr("lookups (ids)"));

    for (QCPAxisRect* rect : rects) {
        auto* band = new QCPItemRect(p);
        band->setObjectName(QStringLiteral("hotHostBand"));
        band->setClipAxisRect(rect);
        band->setSelectable(false);
        for (QCPItemPosition* pos : {band->topLeft, band->bottomRight}) {
            pos->setAxes(rect->axis(QCPAxis::atBottom), rect->axis(QCPAxis::atLeft));
            pos->setTypeX(QCPItemPosition::ptPlotCoords);
            pos->setTypeY(QCPItemPosition::ptAxisRectRatio);
            pos->setAxisRect(rect);
        }
        // On the main layer, made before the bars (drawn under them): the extra axis rects
        // paint their backgrounds on the main layer, over anything on "grid".
        band->setLayer(QStringLiteral("main"));
        bands_ << band;
    }

    auto bars = [](QCPAxisRect* rect, const QString& object, const QString& name) {
        return items::bars(rect->axis(QCPAxis::atBottom), rect->axis(QCPAxis::atLeft), object, name);
    };
    rows_ = bars(rowsRect, QStringLiteral("rowsBars"), tr("rows held (padded)"));
    rows_->setWidth(0.7);
    f32_ = bars(bytesRect_, QStringLiteral("float32Bars"), tr("float32"));
    quant_ = bars(bytesRect_, QStringLiteral("quantizedBars"), tr("k-bit"));
    bytesGroup_ = items::groupBars(p, {f32_, quant_}, 0.38);
    lookups_ = bars(trafficRect_, QStringLiteral("lookupBars"), tr("lookups (with repeats)"));
    unique_ = bars(trafficRect_, QStringLiteral("uniqueLookupBars"), tr("distinct ids"));
    trafficGroup_ = items::groupBars(p, {lookups_, unique_}, 0.38);

    // One legend per panel, inside its top-right corner.
    QFont legendFont = font();
    legendFont.setPointSizeF(legendFont.pointSizeF() * 0.85);
    p->legend->setVisible(false);
    for (QCPAxisRect* rect : rects) {
        auto* legend = new QCPLegend;
        legend->setObjectName(QStringLiteral("panelLegend"));
        rect->insetLayout()->addElement(legend, Qt::AlignRight | Qt::AlignTop);
        legend->setLayer(QStringLiteral("legend"));
        legend->setFont(legendFont);
        legend->setFillOrder(QCPLayoutGrid::foColumnsFirst);
        legend->setWrap(2);
        for (int i = 0; i < p->plottableCount(); ++i)
            if (p->plottable(i)->keyAxis()->axisRect() == rect) p->plottable(i)->addToLegend(legend);
    }
    restyle();
    clear();
}

ShardingView::~ShardingView() = default;

void ShardingView::applySeriesStyle(const PlotPalette& c) {
    auto style = [background = c.axisRectBackground](QCPBars* b, const QColor& colour) {
        items::styleBars(b, colour, 190, background);
    };
    style(rows_, c.secondary);
    style(f32_, c.curve);
    style(quant_, c.theory);
    style(lookups_, c.error);
    style(unique_, c.code);
    for (QCPItemRect* band : bands_) {
        band->setBrush(c.highlight);
        band->setPen(Qt::NoPen);
    }
    caption_->setTextColor(plotPalette(theme()).text);
}

QString ShardingView::captionFor(const qs::embedding::ShardingReport& r) {
    int64_t total = 0, max = 0;
    int hot = -1;
    for (size_t h = 0; h < r.hosts.size(); ++h) {
        total += r.hosts[h].lookups;
        if (r.hosts[h].lookups > max) {
            max = r.hosts[h].lookups;
            hot = static_cast<int>(h);
        }
    }
    QString text = total > 0 ? tr("traffic imbalance (max / mean lookups) = %1  ·  hot host %2 serves %3 of %4 lookups")
                                   .arg(num(r.traffic_imbalance, 4))
                                   .arg(hot)
                                   .arg(count(max), count(total))
                             : tr("no lookups: generate or load ids to see the traffic per host");
    if (r.ids_out_of_range > 0) text += tr("  ·  %1 ids out of range (not routed)").arg(count(r.ids_out_of_range));
    return text;
}

void ShardingView::clear() {
    report_.reset();
    hot_ = -1;
    for (QCPBars* b : {rows_, f32_, quant_, lookups_, unique_}) b->data()->clear();
    for (QCPItemRect* band : bands_) band->setVisible(false);
    title_->setText(tr("Sharding"));
    caption_->setText(QString());
    setMessage(tr("No table configured"));
    setStale(false);
    plot()->replot();
}

void ShardingView::setReport(const qs::embedding::ShardingReport& r) {
    report_ = r;
    const int n = static_cast<int>(r.hosts.size());
    QVector<double> keys, rows, f32, quant, lookups, unique;
    double maxBytes = 0, maxRows = 0, maxLookups = 0;
    hot_ = -1;
    for (int h = 0; h < n; ++h) {
        const auto& host = r.hosts[static_cast<size_t>(h)];
        keys << h;
        rows << static_cast<double>(host.rows);
        f32 << static_cast<double>(host.bytes_float32);
        quant << static_cast<double>(host.bytes_quantized);
        lookups << static_cast<double>(host.lookups);
        unique << static_cast<double>(host.unique_lookups);
        maxBytes = std::max({maxBytes, f32.back(), quant.back()});
        maxRows = std::max(maxRows, rows.back());
        if (lookups.back() > maxLookups) {
            maxLookups = lookups.back();
            hot_ = h;
        }
    }
    const ByteUnit unit = byteUnitFor(maxBytes);
    byteUnit_ = unit.bytes;
    for (double& b : f32) b /= byteUnit_;
    for (double& b : quant) b /= byteUnit_;
    rows_->setData(keys, rows, true);
    f32_->setData(keys, f32, true);
    quant_->setData(keys, quant, true);
    lookups_->setData(keys, lookups, true);
    unique_->setData(keys, unique, true);
    quant_->setName(tr("%1-bit codes").arg(r.quantized_bits));
    bytesRect_->axis(QCPAxis::atLeft)->setLabel(tr("bytes per host (%1)").arg(unit.name));
    for (QCPItemRect* band : bands_) {
        band->setVisible(hot_ >= 0);
        band->topLeft->setCoords(hot_ - 0.5, 0.0);
        band->bottomRight->setCoords(hot_ + 0.5, 1.0);
    }
    QString vocabulary = count(r.vocabulary_size);
    if (r.padded_vocabulary != r.vocabulary_size)
        vocabulary += tr(" (padded to %1: every host holds a row)").arg(count(r.padded_vocabulary));
    title_->setText(tr("Sharding  ·  %1  ·  %2 hosts  ·  vocabulary %3  ·  dim %4")
                        .arg(strategyName(r.strategy))
                        .arg(n)
                        .arg(vocabulary)
                        .arg(r.dim));
    caption_->setText(captionFor(r));
    setMessage(n > 0 ? QString() : tr("No hosts"));
    // Home: all hosts; each panel from 0 with room for its legend.
    for (QCPAxisRect* rect : {plot()->axisRect(), bytesRect_, trafficRect_})
        setHomeRange(rect->axis(QCPAxis::atBottom), -0.6, n - 0.4);
    setHomeRange(plot()->yAxis, 0, std::max(maxRows, 1.0) * 1.35);
    setHomeRange(bytesRect_->axis(QCPAxis::atLeft), 0, std::max(maxBytes / byteUnit_, 1e-9) * 1.35);
    setHomeRange(trafficRect_->axis(QCPAxis::atLeft), 0, std::max(maxLookups, 1.0) * 1.35);
    finishDraw();
}

PlotFrame::Readout ShardingView::readoutAt(const QPointF& pixel) const {
    Readout out;
    if (!report_ || report_->hosts.empty()) return out;
    QCPAxisRect* rect = nullptr;
    const long h = indexReadout(plot(), pixel, report_->hosts.size(), out, rect);
    if (h < 0) return out;
    const auto& host = report_->hosts[static_cast<size_t>(h)];
    if (rect == bytesRect_)
        out.y = static_cast<double>(host.bytes_float32) / byteUnit_;
    else if (rect == trafficRect_)
        out.y = static_cast<double>(host.lookups);
    else
        out.y = static_cast<double>(host.rows);
    const QString held = report_->strategy == qs::tpu::PartitionStrategy::Div
                             ? tr("ids %1 … %2").arg(host.first_id).arg(host.first_id + host.rows - 1)
                             : tr("ids ≡ %1 (mod %2)").arg(host.first_id).arg(report_->hosts.size());
    out.text = tr("host %1%2\n%3 rows: %4\nfloat32 %5  ·  %6-bit %7\nlookups %8 (%9 distinct)")
                   .arg(h)
                   .arg(h == hot_ ? tr("  (hot)") : QString())
                   .arg(count(host.rows), held, bytesText(static_cast<double>(host.bytes_float32)))
                   .arg(report_->quantized_bits)
                   .arg(bytesText(static_cast<double>(host.bytes_quantized)), count(host.lookups),
                        count(host.unique_lookups));
    return out;
}

data::NumberColumns ShardingView::csvTable() const {
    auto t = data::NumberColumns::named(
        {"host", "first_id", "rows", "bytes_float32", "bytes_quantized", "lookups", "unique_lookups"});
    if (!report_) return t;
    for (size_t h = 0; h < report_->hosts.size(); ++h) {
        const auto& host = report_->hosts[h];
        t.addRow({static_cast<double>(h), static_cast<double>(host.first_id), static_cast<double>(host.rows),
                  static_cast<double>(host.bytes_float32), static_cast<double>(host.bytes_quantized),
                  static_cast<double>(host.lookups), static_cast<double>(host.unique_lookups)});
    }
    return t;
}

}  // namespace qs::ui
