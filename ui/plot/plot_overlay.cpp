#include "ui/plot/plot_overlay.h"

#include <QCoreApplication>
#include <qcustomplot.h>

#include "ui/plot/theme.h"
#include "ui/plot/title_wrap.h"

namespace qs::ui {

QCPLayer* overlayLayer(const QCustomPlot* plot) { return plot->layer(QStringLiteral("overlay")); }

QCPItemText* overlayText(QCustomPlot* plot, const QString& name, const QMargins& padding) {
    auto* box = new QCPItemText(plot);
    box->setObjectName(name);
    box->setLayer(overlayLayer(plot));
    box->setPadding(padding);
    box->setSelectable(false);
    box->setVisible(false);
    return box;
}

void setOverlayTextColors(QCPItemText* box, const PlotPalette& palette) {
    box->setBrush(palette.overlayBackground);
    box->setPen(QPen(palette.legendBorder));
    box->setColor(palette.overlayText);
}

// A box centred at (x, y) of the main axis rect, as fractions of its size.
static QCPItemText* centredBox(QCustomPlot* plot, const QString& name, double y, Qt::Alignment alignment) {
    QCPItemText* box = overlayText(plot, name, QMargins(12, 8, 12, 8));
    box->position->setType(QCPItemPosition::ptAxisRectRatio);
    box->position->setCoords(0.5, y);
    box->setPositionAlignment(alignment);
    box->setTextAlignment(Qt::AlignCenter);
    return box;
}

PlotOverlay::PlotOverlay(QCustomPlot* plot, const QFont& font) {
    // Tracer, read-out and these boxes on the overlay layer, above the data. QCustomPlot
    // buffers that layer on its own; here it shares the data's paint buffer but while the
    // read-out shows (ReadoutTracer::replotOverlay). A rubber-band zoom, also drawn there,
    // then replots the whole plot as the mouse moves.
    overlayLayer(plot)->setMode(QCPLayer::lmLogical);
    message_ = centredBox(plot, QStringLiteral("frameMessage"), 0.5, Qt::AlignCenter);
    stale_ = centredBox(plot, QStringLiteral("staleText"), 0.12, Qt::AlignHCenter | Qt::AlignTop);
    QFont bold = font;
    bold.setBold(true);
    stale_->setFont(bold);
    // A long TF error or note breaks into lines inside the axis rect instead of running past
    // both of its ends.
    keepBoxWrapped(plot, message_);
    keepBoxWrapped(plot, stale_);
}

void PlotOverlay::setMessage(const QString& message) {
    message_->setText(message);
    message_->setVisible(!message.isEmpty());
}

bool PlotOverlay::setStale(bool stale, const QString& message) {
    const bool changed = stale != isStale_ || message != staleMessage_;
    isStale_ = stale;
    staleMessage_ = stale ? message : QString();
    stale_->setText(message.isEmpty() ? QCoreApplication::translate("qs::ui::PlotFrame", "stale")
                                      : QCoreApplication::translate("qs::ui::PlotFrame", "stale — %1").arg(message));
    stale_->setVisible(stale);
    return changed;
}

void PlotOverlay::setColors(const PlotPalette& palette) {
    setOverlayTextColors(message_, palette);
    stale_->setBrush(palette.overlayBackground);
    stale_->setColor(palette.range);
    stale_->setPen(QPen(palette.range));
}

}  // namespace qs::ui
