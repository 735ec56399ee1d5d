#include "ui/views/error_histogram_view.h"

#include <algorithm>
#include <cmath>

#include <QLocale>
#include <qcustomplot.h>

#include "core/analysis/view_data.h"
#include "ui/plot/plot_items.h"
#include "ui/views/view_text.h"

namespace qs::ui {

using namespace qs::ui::text;
using items::qvec;

ErrorHistogramView::ErrorHistogramView(QWidget* parent) : ResultPlot(parent) {
    QCustomPlot* p = plot();
    title_ = items::frame(this, p, QStringLiteral("errorHistogramView"), QStringLiteral("errorHistogramPlot"),
                          tr("error x − Q(x)"), tr("count per bin"));
    QCPAxis* x = p->xAxis;
    QCPAxis* y = p->yAxis;

    bars_ = items::bars(x, y, QStringLiteral("errorBars"), tr("error x − Q(x)"));
    uniform_ = p->addGraph(x, y);
    uniform_->setObjectName(QStringLiteral("uniformModel"));
    uniform_->setName(tr("uniform on ±Δ/2 (the classic model)"));
    uniform_->setLineStyle(QCPGraph::lsStepCenter);

    halfLo_ = items::line(p, x, y, QStringLiteral("halfStepMin"));
    halfHi_ = items::line(p, x, y, QStringLiteral("halfStepMax"));
    halfText_ = items::label(p, x, y, QStringLiteral("halfStepLabel"), QCPItemPosition::ptPlotCoords,
                             QCPItemPosition::ptAxisRectRatio, Qt::AlignLeft | Qt::AlignBottom);
    infoText_ = items::label(p, x, y, QStringLiteral("errorInfoText"), QCPItemPosition::ptAxisRectRatio,
                             QCPItemPosition::ptAxisRectRatio, Qt::AlignLeft | Qt::AlignTop);
    infoText_->position->setCoords(0.0, 0.0);
    infoText_->setPadding(QMargins(8, 6, 8, 6));
    infoText_->setTextAlignment(Qt::AlignLeft);

    dragAndZoomBothAxes();
    showSmallLegend(4);
    useCountAxis(1.35);  // room for the info box
    restyle();
    setResult(nullptr);
}

ErrorHistogramView::~ErrorHistogramView() = default;

void ErrorHistogramView::applySeriesStyle(const PlotPalette& c) {
    items::styleBars(bars_, c.error, 150);
    uniform_->setPen(QPen(c.theory, 2.2));
    for (QCPItemStraightLine* l : {halfLo_, halfHi_}) l->setPen(QPen(c.theory, 1.2, Qt::DashLine));
    halfText_->setColor(c.theory);
    infoText_->setColor(plotPalette(theme()).text);
}

void ErrorHistogramView::draw() {
    const bool have = result_ && result_->error_hist.bins() > 0;
    plot()->legend->setVisible(have);
    for (QCPAbstractItem* item : std::initializer_list<QCPAbstractItem*>{halfLo_, halfHi_, halfText_, infoText_})
        item->setVisible(have);
    if (!have) {
        bars_->data()->clear();
        uniform_->data()->clear();
        title_->setText(tr("Error histogram"));
        setStale(false);
        plot()->replot();
        return;
    }
    const qs::analysis::ExplorerResult& r = *result_;
    const qs::analysis::Histogram& h = r.error_hist;
    title_->setText(tr("Error histogram  ·  x − Q(x) over ±%1  ·  %2 bins").arg(num(r.error_span, 4)).arg(h.bins()));

    std::vector<double> centers(static_cast<size_t>(h.bins())), counts(centers.size());
    for (int i = 0; i < h.bins(); ++i) {
        centers[static_cast<size_t>(i)] = h.center(i);
        counts[static_cast<size_t>(i)] = static_cast<double>(h.counts[static_cast<size_t>(i)]);
    }
    bars_->setWidth(h.binWidth());
    bars_->setData(qvec(centers), qvec(counts), true);
    const bool haveModel = r.error_uniform_counts.size() == centers.size() && r.step > 0;
    uniform_->setData(haveModel ? qvec(centers) : QVector<double>{},
                      haveModel ? qvec(r.error_uniform_counts) : QVector<double>{}, true);

    const double half = std::abs(r.step) / 2;
    items::placeVertical(halfLo_, -half);
    items::placeVertical(halfHi_, half);
    halfText_->position->setCoords(half, 1.0);
    halfText_->setText(tr("±Δ/2"));
    for (QCPAbstractItem* item : std::initializer_list<QCPAbstractItem*>{halfLo_, halfHi_, halfText_})
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
    if (h.underflow + h.overflow > 0)
        info << tr("outside ±%1: %2 below, %3 above (clipped values)")
                    .arg(num(r.error_span, 3), QLocale().toString(static_cast<qlonglong>(h.underflow)),
                         QLocale().toString(static_cast<qlonglong>(h.overflow)));
    infoText_->setText(info.join(QLatin1Char('\n')));

    double maxCount = 1;
    for (double c : counts) maxCount = std::max(maxCount, c);
    if (haveModel)
        for (double c : r.error_uniform_counts) maxCount = std::max(maxCount, c);
    setHomeRange(plot()->xAxis, h.lo, h.hi);
    setMaxCount(maxCount);
    commitHomeView();
    setStale(false);
    restyle();
}


PlotFrame::Readout ErrorHistogramView::readoutAt(const QPointF& pixel) const {
    Readout r;
    if (!result_ || plot()->axisRectAt(pixel) != plot()->axisRect()) return r;
    const qs::analysis::Histogram& h = result_->error_hist;
    const double x = plot()->xAxis->pixelToCoord(pixel.x());
    const int bin = h.binAt(x);
    if (bin < 0) return r;
    const size_t i = static_cast<size_t>(bin);
    r.valid = true;
    r.xAxis = plot()->xAxis;
    r.yAxis = plot()->yAxis;
    r.x = h.center(bin);
    r.y = static_cast<double>(h.counts[i]);
    r.text = tr("error in [%1, %2)\ncount = %3").arg(num(h.edge(bin)), num(h.edge(bin + 1))).arg(h.counts[i]);
    if (i < result_->error_uniform_counts.size())
        r.text += tr("\nuniform model: %1").arg(num(result_->error_uniform_counts[i], 5));
    return r;
}

data::NumberColumns ErrorHistogramView::csvTable() const {
    auto t = data::NumberColumns::named({"bin_lo", "bin_hi", "count", "uniform_count"});
    if (!result_) return t;
    const qs::analysis::Histogram& h = result_->error_hist;
    const std::vector<double>& uniform = result_->error_uniform_counts;
    for (int i = 0; i < h.bins(); ++i) {
        const size_t k = static_cast<size_t>(i);
        t.addRow({h.edge(i), h.edge(i + 1), static_cast<double>(h.counts[k]),
                  k < uniform.size() ? uniform[k] : std::numeric_limits<double>::quiet_NaN()});
    }
    return t;
}

}  // namespace qs::ui
