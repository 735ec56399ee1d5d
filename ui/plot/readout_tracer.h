// ReadoutTracer: the value read-out under the cursor of a PlotFrame — a circle on the point
// (QCPItemTracer) and a label beside it (QCPItemText), both on the "overlay" layer, which
// is buffered while they show so moving the mouse replots only that layer, not the data.
#pragma once

#include "ui/plot/qcp_fwd.h"

#include <QPointF>
#include <QString>

namespace qs::ui {

class PlotDecimation;
struct PlotPalette;

// What the read-out shows at a pixel: `x`,`y` in the axes given (the tracer moves there).
struct PlotReadout {
    bool valid = false;
    QCPAxis* xAxis = nullptr;
    QCPAxis* yAxis = nullptr;
    double x = 0, y = 0;
    QString text;
};

// The default read-out: the nearest point (by key) of the first visible, non-empty graph in
// the axis rect under `pixel`, labelled with the graph's name and x, y. Among all of a
// graph's points when `full` holds its full data (it is drawn decimated).
PlotReadout nearestGraphPoint(const QCustomPlot* plot, const QPointF& pixel, const PlotDecimation* full = nullptr);

class ReadoutTracer {
public:
    explicit ReadoutTracer(QCustomPlot* plot);

    QCPItemTracer* tracer() const { return tracer_; }
    QCPItemText* label() const { return label_; }
    bool isShown() const;

    // Moves the tracer to the read-out's point and the label beside it, on the side with
    // room (never under the cursor); replots the overlay layer.
    void show(const PlotReadout& readout);
    void hide();
    void setColors(const PlotPalette& palette);

    // Off-screen drawing (exports) leaves the read-out out: suspend() hides it without a
    // replot, resume() shows it again as it was.
    void suspend();
    void resume();

private:
    void replotOverlay();

    QCustomPlot* plot_;
    QCPItemTracer* tracer_ = nullptr;
    QCPItemText* label_ = nullptr;
    bool tracerWasShown_ = false, labelWasShown_ = false;
};

}  // namespace qs::ui
