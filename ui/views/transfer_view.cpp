#include "ui/views/transfer_view.h"

#include <algorithm>
#include <cmath>

#include <QFontMetricsF>
#include <qcustomplot.h>

#include "core/analysis/explorer_tables.h"
#include "ui/plot/plot_items.h"
#include "ui/views/requested_range.h"
#include "ui/views/view_text.h"

namespace qs::ui {

using namespace qs::ui::text;
using items::placeHorizontal;

namespace {

// Step-edge markers appear once this few edges are in view (else they are a smear).
constexpr int kMaxEdgesShown = 60;

QCPItemStraightLine* horizontalLine(QCustomPlot* plot, QCPAxis* x, QCPAxis* y, const QString& name) {
    return items::line(plot, x, y, name);
}

// A label at the left edge of the axis rect, beside a horizontal marker.
QCPItemText* markerLabel(QCustomPlot* plot, QCPAxis* x, QCPAxis* y, const QString& name,
                         Qt::Alignment vertical) {
    QCPItemText* text = items::label(plot, x, y, name, QCPItemPosition::ptAxisRectRatio,
                                     QCPItemPosition::ptPlotCoords, Qt::AlignLeft | vertical);
    text->setTextAlignment(Qt::AlignLeft);  // the "(requested …)" second line starts flush
    return text;
}

QCPScatterStyle scatter(QCPScatterStyle::ScatterShape shape, const QColor& pen,
                        const QBrush& brush, double size) {
    return QCPScatterStyle(shape, QPen(pen, 1.4), brush, size);
}

}  // namespace

// The plot items the constructor makes and draw() fills; make_unique value-initializes them (null).
struct TransferView::Items {
    QCPTextElement* title;
    QCPAxisRect* errorRect;
    QCPGraph *curve, *identity, *rangeLegend, *handleLegend, *edgesAfter, *edgesBefore, *zero, *knees, *error;
    QCPItemStraightLine *outputMinLine, *outputMaxLine, *halfStepLo, *halfStepHi;
    QCPItemText *outputMinText, *outputMaxText, *zeroText, *halfStepText;
    RangeHandles* handles;
};

TransferView::TransferView(QWidget* parent) : ResultPlot(parent), items_(std::make_unique<Items>()) {
    buildPlot();
    restyle();
    clear();
}

TransferView::~TransferView() = default;

RangeHandles* TransferView::rangeHandles() const { return items_->handles; }
QCPAxisRect* TransferView::errorRect() const { return items_->errorRect; }
QCPGraph* TransferView::curveGraph() const { return items_->curve; }
QCPGraph* TransferView::errorGraph() const { return items_->error; }
QCPGraph* TransferView::edgeGraph() const { return items_->edgesAfter; }

void TransferView::buildPlot() {
    QCustomPlot* p = plot();
    QCPAxisRect* main = p->axisRect();

    items_->title = items::titledPlot(this, p, QStringLiteral("transferView"), QStringLiteral("transferPlot"));

    items_->errorRect = items::rectBelow(p, QStringLiteral("errorRect"));
    p->plotLayout()->setRowStretchFactors({0.01, 3.0, 1.3});
    p->plotLayout()->setRowSpacing(4);
    auto* margins = new QCPMarginGroup(p);
    main->setMarginGroup(QCP::msLeft | QCP::msRight, margins);
    items_->errorRect->setMarginGroup(QCP::msLeft | QCP::msRight, margins);
    items_->errorRect->addAxis(QCPAxis::atRight)->setTickLabels(false);  // width matches the code axis
    items_->errorRect->axis(QCPAxis::atRight)->setTicks(false);
    items_->errorRect->axis(QCPAxis::atRight)->setVisible(true);

    QCPAxis* x = p->xAxis;
    QCPAxis* y = p->yAxis;
    QCPAxis* ex = items_->errorRect->axis(QCPAxis::atBottom);
    QCPAxis* ey = items_->errorRect->axis(QCPAxis::atLeft);
    x->setTickLabels(false);  // the error panel's x axis below carries the labels
    ex->setLabel(tr("input x (float32)"));
    y->setLabel(tr("output Q(x) (float32)"));
    ey->setLabel(tr("error x − Q(x)"));
    p->yAxis2->setVisible(true);
    p->yAxis2->setTickLabels(true);
    for (QCPAxisRect* rect : {main, items_->errorRect}) {
        rect->setRangeDrag(Qt::Horizontal | Qt::Vertical);
        rect->setRangeZoom(Qt::Horizontal | Qt::Vertical);
    }
    // Shared x: either panel's pan/zoom moves both.
    connect(x, qOverload<const QCPRange&>(&QCPAxis::rangeChanged), ex,
            qOverload<const QCPRange&>(&QCPAxis::setRange));
    connect(ex, qOverload<const QCPRange&>(&QCPAxis::rangeChanged), x,
            qOverload<const QCPRange&>(&QCPAxis::setRange));
    connect(y, qOverload<const QCPRange&>(&QCPAxis::rangeChanged), this,
            &TransferView::alignCodeAxis);

    auto graph = [&](QCPAxis* kx, QCPAxis* vy, const QString& name) {
        QCPGraph* g = p->addGraph(kx, vy);
        g->setObjectName(name);
        return g;
    };
    items_->identity = graph(x, y, QStringLiteral("identityLine"));
    items_->identity->setName(tr("identity y = x"));
    items_->rangeLegend = graph(x, y, QStringLiteral("outputRangeLegendEntry"));
    items_->handleLegend = graph(x, y, QStringLiteral("requestedRangeLegendEntry"));
    items_->curve = graph(x, y, QStringLiteral("transferCurve"));
    items_->edgesBefore = graph(x, y, QStringLiteral("stepEdgesOpen"));
    items_->edgesBefore->setLineStyle(QCPGraph::lsNone);
    items_->edgesBefore->removeFromLegend();
    items_->edgesAfter = graph(x, y, QStringLiteral("stepEdges"));
    items_->edgesAfter->setLineStyle(QCPGraph::lsNone);
    items_->edgesAfter->setName(tr("step edges (● at, ○ just below)"));
    items_->knees = graph(x, y, QStringLiteral("clipKnees"));
    items_->knees->setLineStyle(QCPGraph::lsNone);
    items_->knees->setName(tr("clipping knees"));
    items_->zero = graph(x, y, QStringLiteral("zeroPoint"));
    items_->zero->setLineStyle(QCPGraph::lsNone);
    items_->zero->setName(tr("zero point"));
    items_->error = graph(ex, ey, QStringLiteral("errorCurve"));
    items_->error->setName(tr("error x − Q(x)"));

    items_->outputMinLine = horizontalLine(p, x, y, QStringLiteral("outputMinMarker"));
    items_->outputMaxLine = horizontalLine(p, x, y, QStringLiteral("outputMaxMarker"));
    items_->outputMinText = markerLabel(p, x, y, QStringLiteral("outputMinLabel"), Qt::AlignTop);
    items_->outputMaxText = markerLabel(p, x, y, QStringLiteral("outputMaxLabel"), Qt::AlignBottom);

    items_->zeroText = new QCPItemText(p);
    items_->zeroText->setObjectName(QStringLiteral("zeroPointLabel"));
    items_->zeroText->setClipAxisRect(main);
    items_->zeroText->position->setAxes(x, y);
    items_->zeroText->setPositionAlignment(Qt::AlignLeft | Qt::AlignTop);
    items_->zeroText->setPadding(QMargins(8, 4, 2, 2));
    items_->zeroText->setSelectable(false);
    // Right of the zero point, or left of it when that would run past the data's right edge
    // (a narrow plot cut "Q(0) = 0" short). Decided once the layout knows the pixels.
    connect(p, &QCustomPlot::afterLayout, this, [this] {
        QCPItemText* t = items_->zeroText;
        const QMargins pad = t->padding();
        const double width = QFontMetricsF(t->font()).horizontalAdvance(t->text()) + pad.left() + pad.right();
        const double at = t->position->pixelPosition().x();
        const bool room = at + width <= t->clipAxisRect()->rect().right();
        t->setPositionAlignment((room ? Qt::AlignLeft : Qt::AlignRight) | Qt::AlignTop);
    });

    items_->halfStepLo = horizontalLine(p, ex, ey, QStringLiteral("halfStepMin"));
    items_->halfStepHi = horizontalLine(p, ex, ey, QStringLiteral("halfStepMax"));
    items_->halfStepText = new QCPItemText(p);
    items_->halfStepText->setObjectName(QStringLiteral("halfStepLabel"));
    items_->halfStepText->setClipAxisRect(items_->errorRect);
    items_->halfStepText->position->setAxes(ex, ey);
    items_->halfStepText->position->setAxisRect(items_->errorRect);
    items_->halfStepText->position->setTypeX(QCPItemPosition::ptAxisRectRatio);
    items_->halfStepText->position->setTypeY(QCPItemPosition::ptPlotCoords);
    items_->halfStepText->setPositionAlignment(Qt::AlignLeft | Qt::AlignBottom);
    items_->halfStepText->setPadding(QMargins(6, 1, 6, 1));
    items_->halfStepText->setSelectable(false);

    items_->handles = addRangeHandles(x, y);

    // Above the plot, in as many columns as its width holds: inside it, the eight entries
    // covered the curve and its clipping knee on a 1280-pixel screen (any corner of the data
    // area holds some of the curve, the range lines or their labels once the user zooms).
    showSmallLegend(4);
}

void TransferView::applySeriesStyle(const PlotPalette& c) {
    items_->identity->setPen(QPen(c.identity, 1.2, Qt::DashLine));
    items_->curve->setPen(QPen(c.curve, 2.0));
    items_->rangeLegend->setPen(QPen(c.range, 1.3, Qt::DashLine));
    items_->handleLegend->setPen(QPen(c.handle, 2.0));
    items_->edgesAfter->setScatterStyle(scatter(QCPScatterStyle::ssDisc, c.curve, c.curve, 6));
    const QColor bg = plotPalette(theme()).axisRectBackground;
    items_->edgesBefore->setScatterStyle(scatter(QCPScatterStyle::ssCircle, c.curve, bg, 6));
    items_->knees->setScatterStyle(scatter(QCPScatterStyle::ssSquare, c.range, Qt::NoBrush, 9));
    items_->zero->setScatterStyle(scatter(QCPScatterStyle::ssDiamond, c.marker, c.marker, 9));
    items_->error->setPen(QPen(c.error, 1.0));
    for (QCPItemStraightLine* l : {items_->outputMinLine, items_->outputMaxLine})
        l->setPen(QPen(c.range, 1.3, Qt::DashLine));
    for (QCPItemText* t : {items_->outputMinText, items_->outputMaxText}) t->setColor(c.range);
    items_->zeroText->setColor(c.marker);
    for (QCPItemStraightLine* l : {items_->halfStepLo, items_->halfStepHi}) l->setPen(QPen(c.theory, 1.2, Qt::DotLine));
    items_->halfStepText->setColor(c.theory);
    plot()->yAxis2->setLabelColor(plotPalette(theme()).text);
}

void TransferView::clear() {
    for (QCPGraph* g : {items_->identity, items_->edgesAfter, items_->edgesBefore, items_->zero, items_->knees})
        g->data()->clear();
    for (QCPGraph* g : {items_->curve, items_->error}) setPlotData(g, {}, {});
    edgeX_.clear();
    quantizer_.reset();
    for (QCPAbstractItem* item : std::initializer_list<QCPAbstractItem*>{
             items_->outputMinLine, items_->outputMaxLine, items_->outputMinText, items_->outputMaxText,
             items_->zeroText, items_->halfStepLo, items_->halfStepHi, items_->halfStepText})
        item->setVisible(false);
    items_->handles->setVisible(false);
    items_->title->setText(tr("No result"));
    plot()->legend->setVisible(false);
}

void TransferView::draw() {
    if (!result_) {
        clear();
        setStale(false);
        requestReplot();
        return;
    }
    const qs::analysis::ExplorerResult& r = *result_;
    const qs::TransferCurve& c = r.curve;
    const qs::QuantSpec& spec = r.spec;
    const size_t slice = std::min<size_t>(static_cast<size_t>(std::max<int64_t>(r.curve_channel, 0)),
                                          r.run.slices.empty() ? 0 : r.run.slices.size() - 1);
    const qs::SliceQuant q = r.run.slices.empty() ? qs::SliceQuant{} : r.run.slices[slice];

    QString title = specTitle(spec);
    if (r.run.slices.size() > 1) title += tr("  ·  channel %1 of %2").arg(r.curve_channel).arg(r.run.slices.size());
    items_->title->setText(title);

    // The read-out and zoomed-in resampling run the op itself on this slice's range.
    curveSpec_ = qs::sliceSpec(spec, q);
    zoomedCurve_ = false;
    drawCurve(c);
    items_->identity->setData(QVector<double>{c.x_first, c.x_last}, QVector<double>{c.x_first, c.x_last}, true);

    const auto k = qs::analysis::clipKnees(c);
    QVector<double> kx, ky;
    if (k.has_lower) {
        kx << k.lower_x;
        ky << k.lower_y;
    }
    if (k.has_upper) {
        kx << k.upper_x;
        ky << k.upper_y;
    }
    items_->knees->setData(kx, ky, true);
    if (kx.isEmpty())
        items_->knees->removeFromLegend();
    else
        items_->knees->addToLegend();

    const bool zeroInWindow = c.x_first <= 0 && 0 <= c.x_last;
    items_->zero->setData(zeroInWindow ? QVector<double>{0.0} : QVector<double>{},
                          zeroInWindow ? QVector<double>{double(q.zero_output)} : QVector<double>{}, true);
    items_->zeroText->position->setCoords(0.0, q.zero_output);
    items_->zeroText->setText(tr("x = 0 → code %1, Q(0) = %2").arg(q.zero_code).arg(floatText(q.zero_output)));
    items_->zeroText->setVisible(zeroInWindow);

    // The range the op used, with the requested one beside it when TF adjusted it.
    items_->rangeLegend->setName((qs::opDescriptor(spec.op).range.used_is_returned ? tr("%1 / %2 (returned)")
                                                                                   : tr("%1 / %2 (used)"))
                                     .arg(usedMinName(spec), usedMaxName(spec)));
    auto label = [&](const QString& name, float used, float requested) {
        QString s = name + QStringLiteral(" = ") + floatText(used);
        // On its own line: one long line ran under the legend in the bottom-right corner.
        if (used != requested) s += tr("\n(requested %1)").arg(floatText(requested));
        return s;
    };
    placeHorizontal(items_->outputMinLine, c.output_min);
    placeHorizontal(items_->outputMaxLine, c.output_max);
    items_->outputMinText->position->setCoords(0.0, c.output_min);
    items_->outputMaxText->position->setCoords(0.0, c.output_max);
    items_->outputMinText->setText(label(usedMinName(spec), c.output_min, q.requested_min));
    items_->outputMaxText->setText(label(usedMaxName(spec), c.output_max, q.requested_max));
    for (QCPAbstractItem* item : std::initializer_list<QCPAbstractItem*>{items_->outputMinLine, items_->outputMaxLine,
                                                                         items_->outputMinText, items_->outputMaxText})
        item->setVisible(true);

    // Handles on the requested range when it is an input the user sets.
    showRequestedRange(items_->handles, items_->handleLegend, spec, q.requested_min, q.requested_max);

    // ±Δ/2: where the error of a value inside the range stays.
    const double step = std::abs(q.step);
    const bool haveStep = step > 0 && std::isfinite(step);
    placeHorizontal(items_->halfStepLo, -step / 2);
    placeHorizontal(items_->halfStepHi, step / 2);
    items_->halfStepText->position->setCoords(0.0, step / 2);
    items_->halfStepText->setText(tr("±Δ/2, Δ = %1").arg(num(step)));
    for (QCPAbstractItem* item :
         std::initializer_list<QCPAbstractItem*>{items_->halfStepLo, items_->halfStepHi, items_->halfStepText})
        item->setVisible(haveStep);

    // The read-out runs the op on the exact float32 under the cursor.
    auto made = qs::SliceQuantizer::make(curveSpec_, q.requested_min, q.requested_max);
    quantizer_.reset();
    if (made) quantizer_.emplace(std::move(*made));

    plot()->yAxis2->setLabel(codeName(spec));
    outputPerCode_ = c.output_per_code;
    outputAtCodeZero_ = c.output_at_code_zero;
    plot()->legend->setVisible(true);

    // Home: the sampled window on both axes (y = x is the diagonal), widened to the outputs;
    // the error panel at ±Δ so the sawtooth fills its middle and clipping ramps run off.
    double ylo = c.x_first, yhi = c.x_last;
    if (!c.output.empty()) {
        const auto [mn, mx] = std::minmax_element(c.output.begin(), c.output.end());
        ylo = std::min(ylo, *mn);
        yhi = std::max(yhi, *mx);
    }
    const double pad = 0.03 * (yhi - ylo);
    setHomeRange(plot()->xAxis, c.x_first, c.x_last);
    setHomeRange(items_->errorRect->axis(QCPAxis::atBottom), c.x_first, c.x_last);
    setHomeRange(plot()->yAxis, ylo - pad, yhi + pad);
    double eSpan = haveStep ? step : 0;
    if (!(eSpan > 0)) {
        for (double e : qs::analysis::transferErrorCurve(c).y) eSpan = std::max(eSpan, std::abs(e));
        if (!(eSpan > 0)) eSpan = 1;
    }
    setHomeRange(items_->errorRect->axis(QCPAxis::atLeft), -eSpan, eSpan);
    commitHomeView();
    alignCodeAxis();  // rangeChanged does not fire when the range stays the same

    setStale(false);
    restyle();
}

void TransferView::drawCurve(const qs::TransferCurve& c) {
    // Left steps draw exactly what the op does between two points; with more codes than
    // samples a line through the exact samples is the honest picture.
    items_->curve->setName(curveName(result_->spec) + (c.steps_resolved ? QString() : tr("  (exact samples)")));
    items_->curve->setLineStyle(c.steps_resolved ? QCPGraph::lsStepLeft : QCPGraph::lsLine);
    // Decimated to the plot's width (every point once zoomed in to a few per pixel).
    setPlotData(items_->curve, c.x, c.output);
    auto err = qs::analysis::transferErrorCurve(c);
    setPlotData(items_->error, std::move(err.x), std::move(err.y));
    const auto edges = qs::analysis::stepEdges(c);
    QVector<double> ex, after, before;
    edgeX_.clear();
    for (const auto& e : edges) {
        ex << e.x;
        after << e.after;
        before << e.before;
        edgeX_.push_back(e.x);
    }
    items_->edgesAfter->setData(ex, after, true);
    items_->edgesBefore->setData(ex, before, true);
}

void TransferView::alignCodeAxis() {
    const QCPRange output = plot()->yAxis->range();
    if (outputPerCode_ > 0 && std::isfinite(outputPerCode_)) {
        plot()->yAxis2->setRange((output.lower - outputAtCodeZero_) / outputPerCode_,
                                 (output.upper - outputAtCodeZero_) / outputPerCode_);
    } else {
        plot()->yAxis2->setRange(output);  // one level: nothing to align
    }
}

void TransferView::viewRangesChanged() {
    const QCPRange xr = plot()->xAxis->range();
    // A curve with more codes than samples (qint16 and wider) only shows its steps when
    // resampled for the window in view; zooming back out restores the whole-range samples.
    if (result_ && !result_->curve.steps_resolved) {
        const qs::TransferCurve& full = result_->curve;
        if (xr.size() < 0.5 * (full.x_last - full.x_first)) {
            auto zoom = qs::sampleTransferCurve(curveSpec_, qs::TransferWindow{xr.lower, xr.upper}, 801);
            if (zoom) {
                drawCurve(*zoom);
                zoomedCurve_ = true;
            }
        } else if (zoomedCurve_) {
            drawCurve(full);
            zoomedCurve_ = false;
        }
    }
    const auto first = std::lower_bound(edgeX_.begin(), edgeX_.end(), xr.lower);
    const auto last = std::upper_bound(edgeX_.begin(), edgeX_.end(), xr.upper);
    const bool few = !edgeX_.empty() && last - first <= kMaxEdgesShown;
    items_->edgesAfter->setVisible(few && !isSeriesHidden(items_->edgesAfter));
    items_->edgesBefore->setVisible(few && !isSeriesHidden(items_->edgesAfter));
}

PlotFrame::Readout TransferView::readoutAt(const QPointF& pixel) const {
    Readout r;
    if (!result_ || !quantizer_) return PlotFrame::readoutAt(pixel);
    QCPAxisRect* rect = plot()->axisRectAt(pixel);
    if (rect != plot()->axisRect() && rect != items_->errorRect) return r;
    const QCPAxis* keyAxis = rect == items_->errorRect ? items_->errorRect->axis(QCPAxis::atBottom) : plot()->xAxis;
    const float x = static_cast<float>(keyAxis->pixelToCoord(pixel.x()));
    const qs::ValuePoint v = (*quantizer_)(x);
    const double error = static_cast<double>(x) - v.output;
    r.valid = true;
    r.x = x;
    if (rect == items_->errorRect) {
        r.xAxis = items_->errorRect->axis(QCPAxis::atBottom);
        r.yAxis = items_->errorRect->axis(QCPAxis::atLeft);
        r.y = error;
    } else {
        r.xAxis = plot()->xAxis;
        r.yAxis = plot()->yAxis;
        r.y = v.output;
    }
    r.text = tr("x = %1\ncode = %2\nQ(x) = %3\nerror = %4")
                 .arg(floatText(x), QString::number(v.code, 'f', 0),
                      floatText(static_cast<float>(v.output)), num(error, 7));
    return r;
}

data::NumberColumns TransferView::csvTable() const { return qs::analysis::transferColumns(result_.get()); }

}  // namespace qs::ui
