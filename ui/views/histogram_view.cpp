#include "ui/views/histogram_view.h"

#include <algorithm>
#include <cmath>

#include <QLocale>
#include <qcustomplot.h>

#include "core/analysis/view_data.h"
#include "ui/plot/plot_items.h"
#include "ui/views/requested_range.h"
#include "ui/views/view_text.h"

namespace qs::ui {

using namespace qs::ui::text;
using items::qvec;

HistogramView::HistogramView(QWidget* parent) : ResultPlot(parent) {
    QCustomPlot* p = plot();
    title_ = items::frame(this, p, QStringLiteral("histogramView"), QStringLiteral("histogramPlot"),
                          tr("input x (float32)"), tr("count per bin"));
    QCPAxis* x = p->xAxis;
    QCPAxis* y = p->yAxis;

    inside_ = items::bars(x, y, QStringLiteral("insideBars"), tr("in range"));
    clipped_ = items::bars(x, y, QStringLiteral("clippedBars"), tr("clipped"));
    clipLegend_ = items::legendEntry(p, x, y, QStringLiteral("clipLegendEntry"));
    handleLegend_ = items::legendEntry(p, x, y, QStringLiteral("requestedRangeLegendEntry"));

    clipLo_ = items::line(p, x, y, QStringLiteral("clipLoLine"));
    clipHi_ = items::line(p, x, y, QStringLiteral("clipHiLine"));
    // Clip labels outside the range, a line below the handle labels (which sit inside it).
    clipLoText_ = items::label(p, x, y, QStringLiteral("clipLoLabel"), QCPItemPosition::ptPlotCoords,
                               QCPItemPosition::ptAxisRectRatio, Qt::AlignRight | Qt::AlignTop);
    clipHiText_ = items::label(p, x, y, QStringLiteral("clipHiLabel"), QCPItemPosition::ptPlotCoords,
                               QCPItemPosition::ptAxisRectRatio, Qt::AlignLeft | Qt::AlignTop);
    for (QCPItemText* t : {clipLoText_, clipHiText_}) t->setPadding(QMargins(6, 22, 6, 2));
    clippedText_ = items::label(p, x, y, QStringLiteral("clippedText"), QCPItemPosition::ptAxisRectRatio,
                                QCPItemPosition::ptAxisRectRatio, Qt::AlignHCenter | Qt::AlignTop);
    clippedText_->position->setCoords(0.5, 0.0);
    clippedText_->setPadding(QMargins(8, 44, 8, 4));

    handles_ = addRangeHandles(x, y);

    dragAndZoomBothAxes();
    showSmallLegend(2);
    useCountAxis(1.12);
    restyle();
    setResult(nullptr);
}

HistogramView::~HistogramView() = default;

void HistogramView::applySeriesStyle(const PlotPalette& c) {
    items::styleBars(inside_, c.curve, 200);
    items::styleBars(clipped_, c.clipped, 210);
    clipLegend_->setPen(QPen(c.range, 1.6));
    handleLegend_->setPen(QPen(c.handle, 2.0));
    for (QCPItemStraightLine* l : {clipLo_, clipHi_}) l->setPen(QPen(c.range, 1.6));
    for (QCPItemText* t : {clipLoText_, clipHiText_}) t->setColor(c.range);
    clippedText_->setColor(c.clipped);
    clippedText_->setBrush(Qt::NoBrush);
}

void HistogramView::draw() {
    const bool have = result_ && result_->data_hist.bins() > 0;
    for (QCPAbstractItem* item : std::initializer_list<QCPAbstractItem*>{clipLo_, clipHi_, clipLoText_,
                                                                          clipHiText_, clippedText_})
        item->setVisible(have);
    handles_->setVisible(false);
    plot()->legend->setVisible(have);
    if (!have) {
        inside_->data()->clear();
        clipped_->data()->clear();
        title_->setText(tr("Data histogram"));
        setStale(false);
        plot()->replot();
        return;
    }
    const qs::analysis::ExplorerResult& r = *result_;
    const qs::analysis::Histogram& h = r.data_hist;
    const bool perChannel = r.run.slices.size() > 1;
    title_->setText(tr("Data histogram  ·  %1 values  ·  %2 bins")
                        .arg(QLocale().toString(static_cast<qlonglong>(r.stats.count + r.stats.nan_pairs)))
                        .arg(h.bins()));

    const auto split = qs::analysis::splitClipped(h, r.clip_lo, r.clip_hi);
    inside_->setWidth(h.binWidth());
    clipped_->setWidth(h.binWidth());
    inside_->setData(qvec(split.centers), qvec(split.inside), true);
    clipped_->setData(qvec(split.centers), qvec(split.clipped), true);
    plot()->yAxis->setLabel(tr("count per bin (bin width %1)").arg(num(h.binWidth(), 4)));

    const qs::QuantSpec& spec = r.spec;
    items::placeVertical(clipLo_, r.clip_lo);
    items::placeVertical(clipHi_, r.clip_hi);
    clipLoText_->position->setCoords(r.clip_lo, 0.0);
    clipHiText_->position->setCoords(r.clip_hi, 0.0);
    const QString suffix = perChannel ? tr(" (channel 0)") : QString();
    clipLoText_->setText(usedMinName(spec) + QStringLiteral(" ") + floatText(r.clip_lo) + suffix);
    clipHiText_->setText(usedMaxName(spec) + QStringLiteral(" ") + floatText(r.clip_hi) + suffix);
    // Labels sit outside the range, unless that side has no room left in the home view.
    const double lo = r.data_hist.lo, width = r.data_hist.hi - r.data_hist.lo;
    const bool loRoom = width > 0 && (r.clip_lo - lo) / width > 0.22;
    const bool hiRoom = width > 0 && (r.data_hist.hi - r.clip_hi) / width > 0.22;
    clipLoText_->setPositionAlignment((loRoom ? Qt::AlignRight : Qt::AlignLeft) | Qt::AlignTop);
    clipHiText_->setPositionAlignment((hiRoom ? Qt::AlignLeft : Qt::AlignRight) | Qt::AlignTop);
    clipLegend_->setName(perChannel ? tr("clip points of channel 0 (each channel has its own)")
                                    : tr("%1 / %2 (clip points)").arg(usedMinName(spec), usedMaxName(spec)));

    const QLocale locale;
    QString clippedLine =
        tr("clipped: %1 below · %2 above · %3 % of the values")
            .arg(locale.toString(static_cast<qlonglong>(r.clipped_below)),
                 locale.toString(static_cast<qlonglong>(r.clipped_above)),
                 QString::number(100.0 * r.stats.fraction_clipped, 'g', 3));
    if (perChannel) clippedLine += tr("\n(each value against its own channel's range)");
    clippedText_->setText(clippedLine);

    if (!r.run.slices.empty()) {
        const qs::SliceQuant& q = r.run.slices.front();
        showRequestedRange(handles_, handleLegend_, spec, q.requested_min, q.requested_max);
    }

    double maxCount = 1;
    for (int64_t c : h.counts) maxCount = std::max(maxCount, static_cast<double>(c));
    setHomeRange(plot()->xAxis, h.lo, h.hi);
    setMaxCount(maxCount);
    commitHomeView();
    setStale(false);
    restyle();
}


PlotFrame::Readout HistogramView::readoutAt(const QPointF& pixel) const {
    Readout r;
    if (!result_ || plot()->axisRectAt(pixel) != plot()->axisRect()) return r;
    const qs::analysis::Histogram& h = result_->data_hist;
    const double x = plot()->xAxis->pixelToCoord(pixel.x());
    const int bin = h.binAt(x);
    if (bin < 0) return r;
    const double center = h.center(bin);
    const bool clipped =
        qs::analysis::splitClipped(h, result_->clip_lo, result_->clip_hi).is_clipped[static_cast<size_t>(bin)];
    r.valid = true;
    r.xAxis = plot()->xAxis;
    r.yAxis = plot()->yAxis;
    r.x = center;
    r.y = static_cast<double>(h.counts[static_cast<size_t>(bin)]);
    r.text = tr("[%1, %2)\ncount = %3%4")
                 .arg(num(h.edge(bin)), num(h.edge(bin + 1)))
                 .arg(h.counts[static_cast<size_t>(bin)])
                 .arg(clipped ? tr("\nclipped") : QString());
    return r;
}

data::NumberColumns HistogramView::csvTable() const {
    auto t = data::NumberColumns::named({"bin_lo", "bin_hi", "count", "clipped"});
    if (!result_) return t;
    const qs::analysis::Histogram& h = result_->data_hist;
    const auto split = qs::analysis::splitClipped(h, result_->clip_lo, result_->clip_hi);
    for (int i = 0; i < h.bins(); ++i) {
        const size_t k = static_cast<size_t>(i);
        t.addRow({h.edge(i), h.edge(i + 1), static_cast<double>(h.counts[k]), split.is_clipped[k] ? 1.0 : 0.0});
    }
    return t;
}

}  // namespace qs::ui
