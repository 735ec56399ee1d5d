#include "ui/embedding/views/occupancy_view.h"

#include <algorithm>
#include <cmath>

#include <qcustomplot.h>

#include "core/embedding/occupancy_view_data.h"
#include "ui/plot/plot_items.h"
#include "ui/views/view_text.h"

namespace qs::ui {

using namespace qs::ui::text;

namespace {

QString percent(int64_t part, int64_t total) {
    return QString::number(qs::embedding::percentOf(part, total), 'g', 3);
}

}  // namespace

// The plot items the constructor makes and draw() fills; make_unique value-initializes them (null).
struct OccupancyView::Items {
    QCPTextElement* title;
    QCPBars *inside, *clipped;
    QCPItemText* caption;
};

OccupancyView::OccupancyView(QWidget* parent) : PlotFrame(parent), items_(std::make_unique<Items>()) {
    QCustomPlot* p = plot();
    items_->title =
        items::frame(this, p, QStringLiteral("occupancyView"), QStringLiteral("occupancyPlot"),
                     tr("bucket center = q · quantum + lower (table value, float32)"), tr("table values per bucket"));
    QCPAxis* x = p->xAxis;
    QCPAxis* y = p->yAxis;

    items_->inside = items::bars(x, y, QStringLiteral("occupancyBars"), tr("values in [lower, upper]"));
    items_->clipped =
        items::bars(x, y, QStringLiteral("occupancyClippedBars"), tr("clipped into the first / last bucket"));
    items_->clipped->moveAbove(items_->inside);  // bucket 0 = its own values + everything below lower

    items_->caption =
        items::topNote(p, x, y, QStringLiteral("occupancyCaption"), 0.5, Qt::AlignHCenter, QMargins(8, 4, 8, 4));

    showSmallLegend(2);
    dragAndZoomBothAxes();
    useCountAxis(1.25);  // room for the caption
    restyle();
    clear();
}

OccupancyView::~OccupancyView() = default;

QCPBars* OccupancyView::inRangeBars() const { return items_->inside; }
QCPBars* OccupancyView::clippedBars() const { return items_->clipped; }
QCPItemText* OccupancyView::captionText() const { return items_->caption; }
QCPTextElement* OccupancyView::titleElement() const { return items_->title; }

void OccupancyView::applySeriesStyle(const PlotPalette& c) {
    items::styleBars(items_->inside, c.curve, 200, c.axisRectBackground);
    items::styleBars(items_->clipped, c.clipped, 210, c.axisRectBackground);
    items_->caption->setColor(c.text);
    items_->caption->setBrush(c.overlayBackground);
    items_->caption->setPen(QPen(c.legendBorder));
    // One colour per suggestion (lower and upper share it).
    const QColor colours[] = {c.range, c.theory, c.secondary, c.handle, c.error, c.marker};
    for (int i = 0; i < suggestionLegend_.size(); ++i) {
        const QPen pen(colours[i % 6], 1.4, Qt::DashLine);
        suggestionLegend_[i]->setPen(pen);
        suggestionLines_[2 * i]->setPen(pen);
        suggestionLines_[2 * i + 1]->setPen(pen);
    }
}

QString OccupancyView::captionFor(const qs::embedding::BucketOccupancy& o) {
    const QLocale locale;
    auto n = [&locale](int64_t v) { return locale.toString(static_cast<qlonglong>(v)); };
    QString text = tr("clipped below: %1 (%2 %)  ·  above: %3 (%4 %)")
                       .arg(n(o.below), percent(o.below, o.total), n(o.above), percent(o.above, o.total));
    if (o.nan > 0) text += tr("  ·  NaN: %1 (in no bucket)").arg(n(o.nan));
    text += tr("\nempty buckets: %1 of %2  ·  entropy %3 bits of log2(%2) = %4 bits")
                .arg(n(o.empty_buckets), n(o.config.num_buckets))
                .arg(num(o.entropy_bits, 4))
                .arg(num(std::log2(static_cast<double>(std::max<int64_t>(o.config.num_buckets, 1))), 4));
    return text;
}

void OccupancyView::clear(const QString& reason) {
    occupancy_.reset();
    items_->inside->data()->clear();
    items_->clipped->data()->clear();
    items_->caption->setVisible(false);
    plot()->legend->setVisible(false);
    items_->title->setText(tr("Bucket occupancy"));
    setMessage(reason.isEmpty() ? tr("The table has no QuantizationConfig:\nno buckets to show.") : reason);
    setStale(false);
    plot()->replot();
}

void OccupancyView::setOccupancy(const qs::embedding::BucketOccupancy& o) {
    occupancy_ = o;
    const qs::embedding::OccupancyBars bars = qs::embedding::occupancyBars(o);
    const double quantum = qs::embedding::bucketQuantum(o);
    items_->inside->setWidth(quantum * 0.9);
    items_->clipped->setWidth(quantum * 0.9);
    items_->inside->setData(items::qvec(bars.centers), items::qvec(bars.in_range), true);
    items_->clipped->setData(items::qvec(bars.centers), items::qvec(bars.clipped), true);
    setMessage(QString());
    items_->caption->setText(captionFor(o));
    items_->caption->setVisible(true);
    plot()->legend->setVisible(true);
    items_->title->setText(tr("Bucket occupancy  ·  %1  ·  %2 values")
                               .arg(qs(qs::tpu::repr(o.config)), QLocale().toString(static_cast<qlonglong>(o.total))));
    // Two short lines: on one, the label ran past a short axis (the workbench at 1280×800).
    plot()->yAxis->setLabel(tr("table values per bucket\n(bucket width %1)").arg(num(quantum, 4)));
    setHomeX();
    setMaxCount(bars.max_count);
    finishDraw();
}

void OccupancyView::setSuggestions(const std::vector<qs::embedding::RangeSuggestion>& suggestions) {
    suggestions_ = suggestions;
    QCustomPlot* p = plot();
    for (QCPItemStraightLine* l : suggestionLines_) p->removeItem(l);
    for (QCPGraph* g : suggestionLegend_) p->removeGraph(g);
    suggestionLines_.clear();
    suggestionLegend_.clear();
    for (size_t i = 0; i < suggestions_.size(); ++i) {
        const auto& s = suggestions_[i];
        QCPGraph* entry = items::legendEntry(p, p->xAxis, p->yAxis, QStringLiteral("suggestionLegend%1").arg(i));
        entry->setName(tr("%1: [%2, %3]").arg(qs(s.method), num(s.lower, 4), num(s.upper, 4)));
        suggestionLegend_ << entry;
        for (double v : {s.lower, s.upper}) {
            QCPItemStraightLine* l = items::line(p, p->xAxis, p->yAxis, QStringLiteral("suggestionLine%1").arg(i));
            items::placeVertical(l, v);
            suggestionLines_ << l;
        }
    }
    if (occupancy_) {
        setHomeX();
        commitHomeView();
    }
    restyle();
}

// The buckets and every suggested bound.
void OccupancyView::setHomeX() {
    const auto range = qs::embedding::occupancyXRange(*occupancy_, suggestions_);
    setHomeRange(plot()->xAxis, range.lo, range.hi);
}


PlotFrame::Readout OccupancyView::readoutAt(const QPointF& pixel) const {
    Readout r;
    if (!occupancy_ || occupancy_->counts.empty() || plot()->axisRectAt(pixel) != plot()->axisRect()) return r;
    const auto& o = *occupancy_;
    const std::optional<size_t> bucket = qs::embedding::bucketAt(o, plot()->xAxis->pixelToCoord(pixel.x()));
    if (!bucket) return r;
    const size_t q = *bucket;
    const int64_t count = o.counts[q];
    r.valid = true;
    r.xAxis = plot()->xAxis;
    r.yAxis = plot()->yAxis;
    r.x = qs::embedding::bucketCenter(o, q);
    r.y = static_cast<double>(count);
    r.text = tr("bucket q = %1\ncenter %2\ncount %3 (%4 %)")
                 .arg(q)
                 .arg(floatText(static_cast<float>(r.x)), QLocale().toString(static_cast<qlonglong>(count)),
                      percent(count, o.total));
    if (q == 0 && o.below > 0) r.text += tr("\nincl. %1 clipped below lower").arg(o.below);
    if (q + 1 == o.counts.size() && o.above > 0) r.text += tr("\nincl. %1 clipped above upper").arg(o.above);
    return r;
}

data::NumberColumns OccupancyView::csvTable() const {
    auto t = data::NumberColumns::named({"bucket", "center", "count", "in_range", "clipped"});
    if (!occupancy_) return t;
    const auto& o = *occupancy_;
    const qs::embedding::OccupancyBars bars = qs::embedding::occupancyBars(o);
    for (size_t q = 0; q < o.counts.size(); ++q)
        t.addRow({static_cast<double>(q), bars.centers[q], static_cast<double>(o.counts[q]), bars.in_range[q],
                  bars.clipped[q]});
    return t;
}

}  // namespace qs::ui
