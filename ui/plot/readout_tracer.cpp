#include "ui/plot/readout_tracer.h"

#include <algorithm>
#include <cmath>

#include <qcustomplot.h>

#include "ui/plot/plot_decimation.h"
#include "ui/plot/plot_overlay.h"
#include "ui/plot/theme.h"

namespace qs::ui {

PlotReadout nearestGraphPoint(const QCustomPlot* plot, const QPointF& pixel, const PlotDecimation* full) {
    PlotReadout r;
    QCPAxisRect* rect = plot->axisRectAt(pixel);
    if (!rect) return r;
    for (int i = 0; i < plot->graphCount(); ++i) {
        QCPGraph* graph = plot->graph(i);
        if (!graph->realVisibility() || graph->data()->isEmpty() ||
            graph->keyAxis()->axisRect() != rect)
            continue;
        const double key = graph->keyAxis()->pixelToCoord(pixel.x());
        r.valid = true;
        r.xAxis = graph->keyAxis();
        r.yAxis = graph->valueAxis();
        if (const PlotDecimation::Series* s = full ? full->full(graph) : nullptr; s && !s->keys.empty()) {
            auto it = std::lower_bound(s->keys.begin(), s->keys.end(), key);
            if (it == s->keys.end()) --it;
            if (it != s->keys.begin() && std::abs(*(it - 1) - key) < std::abs(*it - key)) --it;
            r.x = *it;
            r.y = s->values[static_cast<size_t>(it - s->keys.begin())];
        } else {
            auto it = graph->data()->findBegin(key, false);
            if (it == graph->data()->constEnd()) --it;
            if (it != graph->data()->constBegin()) {
                auto prev = it - 1;
                if (std::abs(prev->key - key) < std::abs(it->key - key)) it = prev;
            }
            r.x = it->key;
            r.y = it->value;
        }
        r.text = QStringLiteral("%1\nx = %2\ny = %3")
                     .arg(graph->name(), QString::number(r.x, 'g', 7),
                          QString::number(r.y, 'g', 7));
        return r;
    }
    return r;
}

ReadoutTracer::ReadoutTracer(QCustomPlot* plot) : plot_(plot) {
    QCPLayer* overlay = overlayLayer(plot);
    tracer_ = new QCPItemTracer(plot);
    tracer_->setObjectName(QStringLiteral("tracer"));
    tracer_->setLayer(overlay);
    tracer_->setStyle(QCPItemTracer::tsCircle);
    tracer_->setSize(9);
    tracer_->setSelectable(false);
    tracer_->setVisible(false);
    label_ = overlayText(plot, QStringLiteral("readout"), QMargins(6, 4, 6, 4));
    label_->setClipToAxisRect(false);
    label_->position->setType(QCPItemPosition::ptAbsolute);
    label_->setTextAlignment(Qt::AlignLeft);
}

bool ReadoutTracer::isShown() const { return tracer_->visible() || label_->visible(); }

void ReadoutTracer::replotOverlay() {
    // The overlay has its own paint buffer only while the read-out shows: then moving the
    // mouse replots that layer alone. Otherwise it shares the data's buffer, and every
    // replot (each edit) saves clearing and blending a second full-size buffer on the UI
    // thread. Becoming buffered costs one full replot, when the
    // read-out appears; the layer goes back to sharing at the next full replot after it hides.
    QCPLayer* overlay = overlayLayer(plot_);
    const bool shown = isShown();
    if (shown && overlay->mode() != QCPLayer::lmBuffered) overlay->setMode(QCPLayer::lmBuffered);
    overlay->replot();  // a full replot when the layer's buffer is new
    if (!shown) overlay->setMode(QCPLayer::lmLogical);
}

void ReadoutTracer::show(const PlotReadout& r) {
    tracer_->setGraph(nullptr);
    tracer_->position->setAxes(r.xAxis, r.yAxis);
    tracer_->position->setAxisRect(r.xAxis->axisRect());
    tracer_->setClipAxisRect(r.xAxis->axisRect());
    tracer_->position->setCoords(r.x, r.y);
    tracer_->setVisible(true);

    const QPointF at(r.xAxis->coordToPixel(r.x), r.yAxis->coordToPixel(r.y));
    const QRect area = r.xAxis->axisRect()->rect();
    const bool right = at.x() < area.center().x();
    const bool below = at.y() < area.center().y();
    label_->setText(r.text);
    label_->setPositionAlignment((right ? Qt::AlignLeft : Qt::AlignRight) |
                                 (below ? Qt::AlignTop : Qt::AlignBottom));
    const QPointF offset(right ? 14 : -14, below ? 14 : -14);
    QPointF pos = at + offset;
    pos.setY(std::clamp(pos.y(), double(area.top()), double(area.bottom())));
    label_->position->setCoords(pos);
    label_->setVisible(true);
    replotOverlay();
}

void ReadoutTracer::hide() {
    if (!isShown()) return;
    tracer_->setVisible(false);
    label_->setVisible(false);
    replotOverlay();
}

void ReadoutTracer::setColors(const PlotPalette& palette) {
    tracer_->setPen(QPen(palette.tracer, 1.5));
    tracer_->setBrush(Qt::NoBrush);
    setOverlayTextColors(label_, palette);
}

void ReadoutTracer::suspend() {
    tracerWasShown_ = tracer_->visible();
    labelWasShown_ = label_->visible();
    tracer_->setVisible(false);
    label_->setVisible(false);
}

void ReadoutTracer::resume() {
    tracer_->setVisible(tracerWasShown_);
    label_->setVisible(labelWasShown_);
}

}  // namespace qs::ui
