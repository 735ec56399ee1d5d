#include "ui/views/histogram_view.h"

#include <algorithm>
#include <cmath>

#include <QLocale>
#include <qcustomplot.h>

#include "core/analysis/explorer_tables.h"
#include "core/analysis/view_data.h"
#include "ui/plot/plot_items.h"
#include "ui/views/readout_parts.h"
#include "ui/views/requested_range.h"
#include "ui/views/view_text.h"

namespace qs::ui {

using namespace qs::ui::text;

// The plot items the constructor makes and draw() fills; make_unique value-initializes them (null).
struct HistogramView::Items {
    QCPTextElement* title;
    QCPBars *inside, *clipped;
    QCPGraph *clipLegend, *handleLegend;
    QCPItemStraightLine *clipLo, *clipHi;
    QCPItemText *clipLoText, *clipHiText, *clippedText;
    RangeHandles* handles;
};

HistogramView::HistogramView(QWidget* parent) : ResultPlot(parent), items_(std::make_unique<Items>()) {
    QCustomPlot* p = plot();
    items_->title = items::frame(this, p, QStringLiteral("histogramView"), QStringLiteral("histogramPlot"),
                                 tr("input x (float32)"), tr("count per bin"));
    QCPAxis* x = p->xAxis;
    QCPAxis* y = p->yAxis;

    items_->inside = items::bars(x, y, QStringLiteral("insideBars"), tr("in range"));
    items_->clipped = items::bars(x, y, QStringLiteral("clippedBars"), tr("clipped"));
    // A bin may hold kept and clipped values (per channel, each against its own range).
    items_->clipped->moveAbove(items_->inside);
    items_->clipLegend = items::legendEntry(p, x, y, QStringLiteral("clipLegendEntry"));
    items_->handleLegend = items::legendEntry(p, x, y, QStringLiteral("requestedRangeLegendEntry"));

    items_->clipLo = items::line(p, x, y, QStringLiteral("clipLoLine"));
    items_->clipHi = items::line(p, x, y, QStringLiteral("clipHiLine"));
    // Clip labels outside the range, a line below the handle labels (which sit inside it).
    items_->clipLoText = items::label(p, x, y, QStringLiteral("clipLoLabel"), QCPItemPosition::ptPlotCoords,
                                      QCPItemPosition::ptAxisRectRatio, Qt::AlignRight | Qt::AlignTop);
    items_->clipHiText = items::label(p, x, y, QStringLiteral("clipHiLabel"), QCPItemPosition::ptPlotCoords,
                                      QCPItemPosition::ptAxisRectRatio, Qt::AlignLeft | Qt::AlignTop);
    for (QCPItemText* t : {items_->clipLoText, items_->clipHiText}) t->setPadding(QMargins(6, 22, 6, 2));
    items_->clippedText =
        items::topNote(p, x, y, QStringLiteral("clippedText"), 0.5, Qt::AlignHCenter, QMargins(8, 44, 8, 4));

    items_->handles = addRangeHandles(x, y);

    dragAndZoomBothAxes();
    showSmallLegend(2);
    useCountAxis(1.12);
    restyle();
    setResult(nullptr);
}

HistogramView::~HistogramView() = default;

RangeHandles* HistogramView::rangeHandles() const { return items_->handles; }
QCPBars* HistogramView::insideBars() const { return items_->inside; }
QCPBars* HistogramView::clippedBars() const { return items_->clipped; }
QCPItemText* HistogramView::clippedText() const { return items_->clippedText; }

void HistogramView::applySeriesStyle(const PlotPalette& c) {
    items::styleBars(items_->inside, c.curve, 200, c.axisRectBackground);
    items::styleBars(items_->clipped, c.clipped, 210, c.axisRectBackground);
    items_->clipLegend->setPen(QPen(c.range, 1.6));
    items_->handleLegend->setPen(QPen(c.handle, 2.0));
    for (QCPItemStraightLine* l : {items_->clipLo, items_->clipHi}) l->setPen(QPen(c.range, 1.6));
    for (QCPItemText* t : {items_->clipLoText, items_->clipHiText}) t->setColor(c.range);
    items_->clippedText->setColor(c.clipped);
    items_->clippedText->setBrush(Qt::NoBrush);
}

void HistogramView::draw() {
    const bool have = result_ && result_->data_hist.bins() > 0;
    for (QCPAbstractItem* item : std::initializer_list<QCPAbstractItem*>{
             items_->clipLo, items_->clipHi, items_->clipLoText, items_->clipHiText, items_->clippedText})
        item->setVisible(have);
    items_->handles->setVisible(false);
    plot()->legend->setVisible(have);
    if (!have) {
        setPlotData(items_->inside, {}, {});
        setPlotData(items_->clipped, {}, {});
        items_->title->setText(tr("Data histogram"));
        setStale(false);
        requestReplot();
        return;
    }
    const qs::analysis::ExplorerResult& r = *result_;
    const qs::analysis::Histogram& h = r.data_hist;
    const bool perChannel = r.run.slices.size() > 1;
    items_->title->setText(tr("Data histogram  ·  %1 values  ·  %2 bins")
                               .arg(QLocale().toString(static_cast<qlonglong>(r.stats.count + r.stats.nan_pairs)))
                               .arg(h.bins()));

    const auto split = qs::analysis::splitClipped(r);
    items_->inside->setWidth(h.binWidth());
    items_->clipped->setWidth(h.binWidth());
    setPlotData(items_->inside, split.centers, split.inside);
    setPlotData(items_->clipped, split.centers, split.clipped);
    plot()->yAxis->setLabel(tr("count per bin (bin width %1)").arg(num(h.binWidth(), 4)));

    const qs::QuantSpec& spec = r.spec;
    items::placeVertical(items_->clipLo, r.clip_lo);
    items::placeVertical(items_->clipHi, r.clip_hi);
    items_->clipLoText->position->setCoords(r.clip_lo, 0.0);
    items_->clipHiText->position->setCoords(r.clip_hi, 0.0);
    const QString suffix = perChannel ? tr(" (channel 0)") : QString();
    items_->clipLoText->setText(usedMinName(spec) + QStringLiteral(" ") + floatText(r.clip_lo) + suffix);
    items_->clipHiText->setText(usedMaxName(spec) + QStringLiteral(" ") + floatText(r.clip_hi) + suffix);
    // Labels sit outside the range, unless that side has no room left in the home view.
    const double lo = r.data_hist.lo, width = r.data_hist.hi - r.data_hist.lo;
    const bool loRoom = width > 0 && (r.clip_lo - lo) / width > 0.22;
    const bool hiRoom = width > 0 && (r.data_hist.hi - r.clip_hi) / width > 0.22;
    items_->clipLoText->setPositionAlignment((loRoom ? Qt::AlignRight : Qt::AlignLeft) | Qt::AlignTop);
    items_->clipHiText->setPositionAlignment((hiRoom ? Qt::AlignLeft : Qt::AlignRight) | Qt::AlignTop);
    items_->clipLegend->setName(perChannel ? tr("clip points of channel 0 (each channel has its own)")
                                           : tr("%1 / %2 (clip points)").arg(usedMinName(spec), usedMaxName(spec)));

    const QLocale locale;
    QString clippedLine =
        tr("clipped: %1 below · %2 above · %3 % of the values")
            .arg(locale.toString(static_cast<qlonglong>(r.clipped_below)),
                 locale.toString(static_cast<qlonglong>(r.clipped_above)),
                 QString::number(100.0 * r.stats.fraction_clipped, 'g', 3));
    if (perChannel) clippedLine += tr("\n(each value against its own channel's range)");
    items_->clippedText->setText(clippedLine);

    if (!r.run.slices.empty()) {
        const qs::SliceQuant& q = r.run.slices.front();
        showRequestedRange(items_->handles, items_->handleLegend, spec, q.requested_min, q.requested_max);
    }

    double maxCount = 1;
    for (int64_t c : h.counts) maxCount = std::max(maxCount, static_cast<double>(c));
    setHomeRange(plot()->xAxis, h.lo, h.hi);
    setMaxCount(maxCount);
    finishDraw();
}


PlotFrame::Readout HistogramView::readoutAt(const QPointF& pixel) const {
    Readout r;
    if (!result_) return r;
    const qs::analysis::Histogram& h = result_->data_hist;
    const int bin = histogramBinReadout(plot(), h, pixel, r);
    if (bin < 0) return r;
    const double clipped = qs::analysis::splitClipped(*result_).clipped[static_cast<size_t>(bin)];
    r.text = tr("[%1, %2)\ncount = %3%4")
                 .arg(num(h.edge(bin)), num(h.edge(bin + 1)))
                 .arg(h.counts[static_cast<size_t>(bin)])
                 .arg(clipped > 0 ? tr("\nclipped: %1").arg(static_cast<qlonglong>(clipped)) : QString());
    return r;
}

data::NumberColumns HistogramView::csvTable() const { return qs::analysis::histogramColumns(result_.get()); }

}  // namespace qs::ui
