// Light and dark themes: one palette for the widgets (QPalette, for QApplication::setPalette
// with the Fusion style) and one for the plots, applied to a QCustomPlot by applyTheme().
// Views take their series colours from PlotPalette roles, so a theme switch (or the stale
// state, which greys the series) recolours everything from one place.
#pragma once

#include "ui/plot/qcp_fwd.h"

#include <QColor>
#include <QPalette>
#include <QString>

namespace qs::ui {

enum class Theme { Light, Dark };

QString themeName(Theme theme);  // "light", "dark" (settings keys, file names)

struct PlotPalette {
    // Frame
    QColor background;          // outside the axis rects
    QColor axisRectBackground;  // inside
    QColor text, axis, grid, subGrid, zeroLine;
    QColor legendBackground, legendBorder, legendHiddenText;
    QColor overlayBackground, overlayText;  // stale / message boxes, tracer read-out
    // Series roles
    QColor curve;      // the op's output (transfer curve, histogram bars in range)
    QColor identity;   // y = x, reference lines
    QColor code;       // the code axis
    QColor error;      // error curves and error bars
    QColor range;      // the range the op used (output_min / output_max, clip points)
    QColor handle;     // draggable requested-range handles
    QColor clipped;    // clipped mass
    QColor theory;     // closed-form overlays (uniform error model)
    QColor marker;     // zero point, knees, step edges
    QColor secondary;  // a second data series (per-channel scale, max |error|)
    QColor highlight;  // the selected channel
    QColor tracer;
};

const PlotPalette& plotPalette(Theme theme);
// The palette with every series role replaced by greys: what a stale result is drawn with.
PlotPalette stalePalette(const PlotPalette& palette);

// `colour` at `alpha` (0..255) laid over `background`, as one opaque colour. Large fills use
// it instead of translucency: Qt's raster engine hands a translucent fill taller than about
// 96 pixel rows to its GUI thread pool in pieces and waits for them, which made a 200-bar
// histogram's redraw several times slower while the explorer's workers kept the cores busy;
// an opaque fill is written directly.
QColor opaqueTint(const QColor& colour, int alpha, const QColor& background);

// The widget palette (Fusion-style roles) of the theme.
QPalette widgetPalette(Theme theme);

// Backgrounds, axes (every axis rect's), grids, legends and text elements of `plot`. Series
// colours are the views' business (they know which role each series has).
void applyPlotPalette(QCustomPlot* plot, const PlotPalette& palette);
void applyTheme(QCustomPlot* plot, Theme theme);

// Colours for series that are one of several of a kind (methods, configurations): distinct
// in both themes and for the common colour-vision deficiencies (Okabe–Ito).
QColor categoryColor(int index, Theme theme);

}  // namespace qs::ui
