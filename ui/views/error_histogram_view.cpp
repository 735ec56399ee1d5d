#include "ui/views/error_histogram_view.h"

#include <algorithm>
#include <cmath>

#include <QLocale>
#include <qcustomplot.h>

#include "core/analysis/explorer_tables.h"
#include "core/analysis/view_data.h"
#include "ui/plot/plot_items.h"
#include "ui/views/readout_parts.h"
#include "ui/views/view_text.h"

namespace qs::ui {

using namespace qs::ui::text;

// The plot items the constructor makes and draw() fills; make_unique value-initializes them (null).
struct ErrorHistogramView::Items {
    QCPTextElement* title;
    QCPBars* bars;
    QCPGraph* uniform;
    QCPItemStraightLine *halfLo, *halfHi, *zero;
    QCPItemText *halfText, *infoText;
};

ErrorHistogramView::ErrorHistogramView(QWidget* parent) : ResultPlot(parent), items_(std::make_unique<Items>()) {
    QCustomPlot* p = plot();
    items_->title = items::frame(this, p, QStringLiteral("errorHistogramView"), QStringLiteral("errorHistogramPlot"),
                                 tr("error x − Q(x)"), tr("count per bin"));
    QCPAxis* x = p->xAxis;
    QCPAxis* y = p->yAxis;

    items_->bars = items::bars(x, y, QStringLiteral("errorBars"), tr("error x − Q(x)"));
    items_->uniform = p->addGraph(x, y);
    items_->uniform->setObjectName(QStringLiteral("uniformModel"));
    items_->uniform->setName(tr("uniform on ±Δ/2 (the classic model)"));
    items_->uniform->setLineStyle(QCPGraph::lsStepCenter);

    // Zero error, over the bars: the grid's zero line is behind them since they are opaque.
    items_->zero = items::line(p, x, y, QStringLiteral("zeroErrorLine"));
    items::placeVertical(items_->zero, 0.0);
    items_->halfLo = items::line(p, x, y, QStringLiteral("halfStepMin"));
    items_->halfHi = items::line(p, x, y, QStringLiteral("halfStepMax"));
    items_->halfText = items::label(p, x, y, QStringLiteral("halfStepLabel"), QCPItemPosition::ptPlotCoords,
                                    QCPItemPosition::ptAxisRectRatio, Qt::AlignLeft | Qt::AlignBottom);
    items_->infoText =
        items::topNote(p, x, y, QStringLiteral("errorInfoText"), 0.0, Qt::AlignLeft, QMargins(8, 6, 8, 6));
    items_->infoText->setTextAlignment(Qt::AlignLeft);

    dragAndZoomBothAxes();
    showSmallLegend(4);
    useCountAxis(1.35);  // room for the info box
    restyle();
    setResult(nullptr);
}

ErrorHistogramView::~ErrorHistogramView() = default;

QCPBars* ErrorHistogramView::errorBars() const { return items_->bars; }
QCPGraph* ErrorHistogramView::uniformGraph() const { return items_->uniform; }

void ErrorHistogramView::applySeriesStyle(const PlotPalette& c) {
    items::styleBars(items_->bars, c.error, 150, c.axisRectBackground);
    items_->uniform->setPen(QPen(c.theory, 2.2));
    for (QCPItemStraightLine* l : {items_->halfLo, items_->halfHi}) l->setPen(QPen(c.theory, 1.2, Qt::DashLine));
    items_->halfText->setColor(c.theory);
    items_->zero->setPen(QPen(c.zeroLine, 1));
    items_->infoText->setColor(plotPalette(theme()).text);
}

QString ErrorHistogramView::infoText() const { return items_->infoText->text(); }

void ErrorHistogramView::draw() {
    const bool have = result_ && result_->error_hist.bins() > 0;
    plot()->legend->setVisible(have);
    for (QCPAbstractItem* item :
         std::initializer_list<QCPAbstractItem*>{items_->zero, items_->halfLo, items_->halfHi, items_->halfText,
                                                 items_->infoText})
        item->setVisible(have);
    if (!have) {
        setPlotData(items_->bars, {}, {});
        setPlotData(items_->uniform, {}, {});
        items_->title->setText(tr("Error histogram"));
        setStale(false);
        requestReplot();
        return;
    }
    const qs::analysis::ExplorerResult& r = *result_;
    const qs::analysis::Histogram& h = r.error_hist;
    items_->title->setText(
        tr("Error histogram  ·  x − Q(x) over ±%1  ·  %2 bins").arg(num(r.error_span, 4)).arg(h.bins()));

    std::vector<double> centers(static_cast<size_t>(h.bins())), counts(centers.size());
    for (int i = 0; i < h.bins(); ++i) {
        centers[static_cast<size_t>(i)] = h.center(i);
        counts[static_cast<size_t>(i)] = static_cast<double>(h.counts[static_cast<size_t>(i)]);
    }
    items_->bars->setWidth(h.binWidth());
    setPlotData(items_->bars, centers, counts);
    const bool haveModel = r.error_uniform_counts.size() == centers.size() && r.step > 0;
    setPlotData(items_->uniform, haveModel ? centers : std::vector<double>{},
                haveModel ? r.error_uniform_counts : std::vector<double>{});

    const double half = std::abs(r.step) / 2;
    items::placeVertical(items_->halfLo, -half);
    items::placeVertical(items_->halfHi, half);
    items_->halfText->position->setCoords(half, 1.0);
    items_->halfText->setText(tr("±Δ/2"));
    for (QCPAbstractItem* item :
         std::initializer_list<QCPAbstractItem*>{items_->halfLo, items_->halfHi, items_->halfText})
        item->setVisible(haveModel);

    // Δ and RMSE/Δ against the model's 1/√12, and the mass outside the plotted span.
    QStringList info;
    double rmseOverStep = std::numeric_limits<double>::quiet_NaN();
    for (const auto& row : qs::analysis::statisticsRows(r))
        if (row.key == "rmse_over_step") rmseOverStep = row.value;
    if (r.run.slices.size() > 1)
        info << tr("Δ of channel 0 = %1 (span: the largest channel Δ)").arg(num(r.step));
    else
        info << tr("Δ = %1").arg(num(r.step));
    info << tr("RMSE = %1 (every value, clipped ones included)").arg(num(r.stats.rmse, 4));
    if (std::isfinite(rmseOverStep))
        info << tr("RMSE/Δ = %1   (uniform model: 1/√12 = %2)")
                    .arg(num(rmseOverStep, 4), num(qs::analysis::kUniformRmseOverStep, 4));
    // The clipped values are the explorer's count (the Statistics dock's); the errors past
    // the plotted span are another thing (a clipped value's error may be small, and a
    // channel with a larger Δ has unclipped errors past channel 0's).
    if (r.clipped_below + r.clipped_above > 0)
        info << tr("clipped: %1 below · %2 above the range").arg(QLocale().toString(static_cast<qlonglong>(r.clipped_below)),
                                                                 QLocale().toString(static_cast<qlonglong>(r.clipped_above)));
    if (h.underflow + h.overflow > 0)
        info << tr("errors outside ±%1 (not drawn): %2 below, %3 above")
                    .arg(num(r.error_span, 3), QLocale().toString(static_cast<qlonglong>(h.underflow)),
                         QLocale().toString(static_cast<qlonglong>(h.overflow)));
    items_->infoText->setText(info.join(QLatin1Char('\n')));

    double maxCount = 1;
    for (double c : counts) maxCount = std::max(maxCount, c);
    if (haveModel)
        for (double c : r.error_uniform_counts) maxCount = std::max(maxCount, c);
    setHomeRange(plot()->xAxis, h.lo, h.hi);
    setMaxCount(maxCount);
    finishDraw();
}


PlotFrame::Readout ErrorHistogramView::readoutAt(const QPointF& pixel) const {
    Readout r;
    if (!result_) return r;
    const qs::analysis::Histogram& h = result_->error_hist;
    const int bin = histogramBinReadout(plot(), h, pixel, r);
    if (bin < 0) return r;
    const size_t i = static_cast<size_t>(bin);
    r.text = tr("error in [%1, %2)\ncount = %3").arg(num(h.edge(bin)), num(h.edge(bin + 1))).arg(h.counts[i]);
    if (i < result_->error_uniform_counts.size())
        r.text += tr("\nuniform model: %1").arg(num(result_->error_uniform_counts[i], 5));
    return r;
}

data::NumberColumns ErrorHistogramView::csvTable() const {
    return qs::analysis::errorHistogramColumns(result_.get());
}

}  // namespace qs::ui
