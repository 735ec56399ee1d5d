#include "ui/plot/range_handles.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include <qcustomplot.h>

namespace qs::ui {

namespace {

constexpr double kGrabPixels = 6.0;

QCPLayer* handleLayer(QCustomPlot* plot) {
    // Above the series ("main"), below axes, legend and the tracer ("overlay").
    if (QCPLayer* layer = plot->layer(QStringLiteral("handles"))) return layer;
    plot->addLayer(QStringLiteral("handles"), plot->layer(QStringLiteral("main")),
                   QCustomPlot::limAbove);
    return plot->layer(QStringLiteral("handles"));
}

QCPItemStraightLine* makeLine(QCustomPlot* plot, QCPAxis* x, QCPAxis* y, const QString& name) {
    auto* line = new QCPItemStraightLine(plot);
    line->setObjectName(name);
    line->setLayer(handleLayer(plot));
    line->setClipAxisRect(x->axisRect());
    line->setSelectable(false);
    for (QCPItemPosition* p : {line->point1, line->point2}) {
        p->setAxes(x, y);
        p->setAxisRect(x->axisRect());
    }
    return line;
}

QCPItemText* makeLabel(QCustomPlot* plot, QCPAxis* x, QCPAxis* y, const QString& name,
                       Qt::Alignment alignment) {
    auto* text = new QCPItemText(plot);
    text->setObjectName(name);
    text->setLayer(handleLayer(plot));
    text->setClipAxisRect(x->axisRect());
    text->setSelectable(false);
    text->position->setAxes(x, y);
    text->position->setAxisRect(x->axisRect());
    text->position->setTypeX(QCPItemPosition::ptPlotCoords);
    text->position->setTypeY(QCPItemPosition::ptAxisRectRatio);
    text->setPositionAlignment(alignment | Qt::AlignTop);
    text->setPadding(QMargins(5, 3, 5, 2));
    return text;
}

// The handles stand for float32 inputs: a plot zoomed far out can put them past the float
// range, where converting the double is undefined.
float asFloat(double x) {
    const double big = std::numeric_limits<float>::max();
    return static_cast<float>(std::clamp(x, -big, big));
}

}  // namespace

RangeHandles::RangeHandles(QCustomPlot* plot, QCPAxis* xAxis, QCPAxis* yAxis, QObject* parent)
    : QObject(parent ? parent : plot), plot_(plot), xAxis_(xAxis), yAxis_(yAxis) {
    minLine_ = makeLine(plot, xAxis, yAxis, QStringLiteral("rangeHandleMin"));
    maxLine_ = makeLine(plot, xAxis, yAxis, QStringLiteral("rangeHandleMax"));
    minLabel_ = makeLabel(plot, xAxis, yAxis, QStringLiteral("rangeHandleMinLabel"),
                          Qt::AlignLeft);
    maxLabel_ = makeLabel(plot, xAxis, yAxis, QStringLiteral("rangeHandleMaxLabel"),
                          Qt::AlignRight);
    setColor(QColor(230, 120, 0));
    // The two labels face each other between the lines; when the lines are close on screen
    // (a narrow plot, a zoomed-out axis) the max label drops a line instead of covering the
    // min label. Decided once the layout knows the pixels, on screen and in every export.
    connect(plot, &QCustomPlot::afterLayout, this, &RangeHandles::staggerLabels);
    connect(plot, &QCustomPlot::mousePress, this, &RangeHandles::onPress);
    connect(plot, &QCustomPlot::mouseMove, this, &RangeHandles::onMove);
    connect(plot, &QCustomPlot::mouseRelease, this, &RangeHandles::onRelease);
    place();
}

void RangeHandles::setRange(double min, double max) {
    if (isDragging()) return;  // the user's hand wins over a recompute in flight
    min_ = min;
    max_ = max;
    place();
}

void RangeHandles::setNames(const QString& minName, const QString& maxName) {
    minName_ = minName;
    maxName_ = maxName;
    place();
}

void RangeHandles::setColor(const QColor& color) {
    for (QCPItemStraightLine* line : {minLine_, maxLine_})
        line->setPen(QPen(color, 2.0, Qt::SolidLine, Qt::FlatCap));
    for (QCPItemText* label : {minLabel_, maxLabel_}) label->setColor(color);
}

void RangeHandles::setVisible(bool visible) {
    visible_ = visible;
    for (QCPAbstractItem* item : std::initializer_list<QCPAbstractItem*>{minLine_, maxLine_,
                                                                          minLabel_, maxLabel_})
        item->setVisible(visible);
}

void RangeHandles::setDraggable(bool draggable) { draggable_ = draggable; }

double RangeHandles::minPixel() const { return xAxis_->coordToPixel(min_); }
double RangeHandles::maxPixel() const { return xAxis_->coordToPixel(max_); }

void RangeHandles::place() {
    minLine_->point1->setCoords(min_, 0);
    minLine_->point2->setCoords(min_, 1);
    maxLine_->point1->setCoords(max_, 0);
    maxLine_->point2->setCoords(max_, 1);
    minLabel_->position->setCoords(min_, 0.0);
    maxLabel_->position->setCoords(max_, 0.0);
    const QString grip = draggable_ ? QStringLiteral("↔ ") : QString();
    minLabel_->setText(grip + minName_ + QStringLiteral(" = ") + QString::number(min_, 'g', 6));
    maxLabel_->setText(maxName_ + QStringLiteral(" = ") + QString::number(max_, 'g', 6) +
                       (draggable_ ? QStringLiteral(" ↔") : QString()));
}

void RangeHandles::staggerLabels() {
    auto width = [](const QCPItemText* label) {
        const QMargins pad = label->padding();
        return QFontMetricsF(label->font()).horizontalAdvance(label->text()) + pad.left() + pad.right();
    };
    const double gap = maxPixel() - minPixel();
    const bool collide = gap < width(minLabel_) + width(maxLabel_) + 4;
    const double rectHeight = std::max(1, xAxis_->axisRect()->height());
    const QMargins pad = maxLabel_->padding();
    const double lineHeight = QFontMetricsF(maxLabel_->font()).height() + pad.top() + pad.bottom() + 2;
    maxLabel_->position->setCoords(max_, collide ? lineHeight / rectHeight : 0.0);
}

RangeHandles::Grab RangeHandles::hit(const QPointF& pos) const {
    if (!visible_ || !draggable_) return Grab::None;
    if (!xAxis_->axisRect()->rect().contains(pos.toPoint())) return Grab::None;
    const double dMin = std::abs(minPixel() - pos.x());
    const double dMax = std::abs(maxPixel() - pos.x());
    if (std::min(dMin, dMax) > kGrabPixels) return Grab::None;
    return dMin <= dMax ? Grab::Min : Grab::Max;
}

double RangeHandles::snapped(double x) const {
    const double width = std::max(1, xAxis_->axisRect()->width());
    const double perPixel = xAxis_->range().size() / width;
    if (!(perPixel > 0) || !std::isfinite(perPixel)) return x;
    const double step = std::pow(10.0, std::floor(std::log10(perPixel)));
    return std::round(x / step) * step;
}

void RangeHandles::onPress(QMouseEvent* event) {
    if (event->button() != Qt::LeftButton) return;
    if (event->modifiers() & (Qt::ControlModifier | Qt::ShiftModifier)) return;  // box zoom
    grabbed_ = hit(event->position());
    if (grabbed_ == Grab::None) return;
    moved_ = false;
    // Suspend panning for this press: QCPAxisRect reads the flag after this signal.
    dragWasEnabled_ = plot_->interactions().testFlag(QCP::iRangeDrag);
    plot_->setInteraction(QCP::iRangeDrag, false);
    emit dragStarted();
}

void RangeHandles::onMove(QMouseEvent* event) {
    if (grabbed_ == Grab::None) {
        const bool over = hit(event->position()) != Grab::None;
        if (over && !cursorSet_) {
            plot_->setCursor(Qt::SizeHorCursor);
            cursorSet_ = true;
        } else if (!over && cursorSet_) {
            plot_->unsetCursor();
            cursorSet_ = false;
        }
        return;
    }
    const double width = std::max(1, xAxis_->axisRect()->width());
    const double minGap = std::max(xAxis_->range().size() / width, 1e-30);
    double x = snapped(xAxis_->pixelToCoord(event->position().x()));
    if (grabbed_ == Grab::Min) {
        x = std::min(x, max_ - minGap);
        if (x == min_) return;
        min_ = x;
    } else {
        x = std::max(x, min_ + minGap);
        if (x == max_) return;
        max_ = x;
    }
    moved_ = true;
    place();
    plot_->replot(QCustomPlot::rpQueuedReplot);
    emit rangeDragged(asFloat(min_), asFloat(max_), false);
}

void RangeHandles::onRelease(QMouseEvent*) {
    if (grabbed_ == Grab::None) return;
    grabbed_ = Grab::None;
    plot_->setInteraction(QCP::iRangeDrag, dragWasEnabled_);
    if (moved_) emit rangeDragged(asFloat(min_), asFloat(max_), true);
    moved_ = false;
}

}  // namespace qs::ui
