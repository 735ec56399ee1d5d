// The boxes a PlotFrame draws over its data, on the "overlay" layer: a message in
// the middle of the main axis rect (e.g. "no per-channel data") and the "stale — <TF error>"
// box shown while the last valid result is drawn in greys. Plus the helpers the read-out
// label shares with them.
#pragma once

#include "ui/plot/qcp_fwd.h"

#include <QFont>
#include <QMargins>
#include <QString>

namespace qs::ui {

struct PlotPalette;

QCPLayer* overlayLayer(const QCustomPlot* plot);  // buffered while a read-out shows
// A hidden, unselectable text box named `name` on the overlay layer.
QCPItemText* overlayText(QCustomPlot* plot, const QString& name, const QMargins& padding);
void setOverlayTextColors(QCPItemText* box, const PlotPalette& palette);

class PlotOverlay {
public:
    // The stale box's text is `font` in bold.
    PlotOverlay(QCustomPlot* plot, const QFont& font);

    QCPItemText* messageText() const { return message_; }
    QCPItemText* staleText() const { return stale_; }
    bool isStale() const { return isStale_; }
    QString staleMessage() const { return staleMessage_; }

    // Empty hides the message box.
    void setMessage(const QString& message);
    // Returns whether the state or the message changed.
    bool setStale(bool stale, const QString& message);
    void setColors(const PlotPalette& palette);

private:
    QCPItemText* message_ = nullptr;
    QCPItemText* stale_ = nullptr;
    bool isStale_ = false;
    QString staleMessage_;
};

}  // namespace qs::ui
