// PlotFrame: the base of every plot view. A QWidget around one QCustomPlot that adds what
// users expect of a plot (see shared/guides/anchors-and-ux.md §4):
//   * wheel zoom, drag pan, Ctrl+drag (or Shift+drag) rubber-band zoom;
//   * double-click or the "Reset view" action restores the home view (the ranges the view
//     chose for the current result). A new result moves an axis to its new home only if the
//     user has not zoomed or panned it since, and never during a handle drag;
//   * a tracer with a value read-out under the cursor (QCPItemTracer + text, on the buffered
//     "overlay" layer so moving the mouse does not re-render the data);
//   * clicking a legend entry hides/shows its series (the entry greys out);
//   * light/dark theme (setTheme) and the stale state (setStale): the last valid result
//     stays, drawn in greys, under a "stale — <TF error>" box;
//   * export (PlotExporter, plot_exporter.h): PNG/JPG/BMP at a chosen pixel size and DPI,
//     SVG, PDF, clipboard image, and the view's CSV table; a context menu offers them with
//     file dialogs (plot_export_dialogs.h).
// The read-out is a ReadoutTracer, the message and stale boxes a PlotOverlay.
//
// Views derive from it, build their series in the constructor, draw in setResult(), colour
// their series in applySeriesStyle() and say what the CSV and the read-out are.
#pragma once

#include <memory>

#include <QHash>
#include <QImage>
#include <QList>
#include <QPointF>
#include <QSet>
#include <QString>
#include <QWidget>

#include "core/data/csv_writer.h"
#include "ui/plot/plot_decimation.h"
#include "ui/plot/plot_exporter.h"
#include "ui/plot/qcp_fwd.h"
#include "ui/plot/readout_tracer.h"
#include "ui/plot/theme.h"

class QAction;
class QMenu;
class QMouseEvent;

namespace qs::ui {

class PlotOverlay;
class RangeHandles;

class PlotFrame : public QWidget {
    Q_OBJECT
public:
    explicit PlotFrame(QWidget* parent = nullptr);
    ~PlotFrame() override;

    QCustomPlot* plot() const { return plot_; }
    Theme theme() const { return theme_; }
    bool isStale() const;
    QString staleMessage() const;
    QCPItemText* staleText() const;
    QCPItemText* messageText() const;  // see setMessage()
    QCPItemTracer* tracer() const { return readout_.tracer(); }
    QCPItemText* readoutText() const { return readout_.label(); }

    // --- CSV ---------------------------------------------------------------------------
    // The view's table (what `Export CSV` writes). Default: seriesTable().
    virtual data::NumberColumns csvTable() const;
    // Every visible graph/bars series, wide format: for each series in legend order two
    // columns "<name> x" and "<name> y" (one row per data point; all of a decimated series'
    // points, not only those drawn).
    data::NumberColumns seriesTable() const;
    // The full data of a series the view hands QCustomPlot decimated (setPlotData), or null.
    const PlotDecimation::Series* fullSeries(const QCPAbstractPlottable* plottable) const {
        return decimation_.full(plottable);
    }

    // --- Export ------------------------------------------------------------------------
    // Images, SVG, PDF, CSV and the clipboard: plot_exporter.h.
    PlotExporter exporter() const { return PlotExporter(*this); }
    // Drawing off screen (PlotExporter) at `size` (logical pixels): hides the read-out, lays
    // the texts out for that size (layout_width.h) and brings zoom-dependent details up to
    // date; endExport() shows the read-out again and replots on screen.
    void beginExport(QSize size) const;
    void endExport() const;

    // --- View --------------------------------------------------------------------------
    QAction* resetViewAction() const { return resetAction_; }
    QAction* logScaleAction() const { return logAction_; }  // null unless the view has one
    bool isLogScale() const;
    // Presentation mode: pens and markers multiplied by `lineFactor`, fonts by `fontFactor`
    // (1, 1 = normal); kept across restyles and theme switches (presentation_scale.h).
    void setPresentationScale(double lineFactor, double fontFactor);
    double presentationScale() const { return presentationScale_; }  // the line factor
    // Shows/hides a series as a legend click does (the legend entry greys when hidden).
    void setSeriesHidden(QCPAbstractPlottable* plottable, bool hidden);
    bool isSeriesHidden(QCPAbstractPlottable* plottable) const;
    // The context menu of the plot (views may add to it in contextMenu()).
    QMenu* createContextMenu(QWidget* parent);

public slots:
    void setTheme(qs::ui::Theme theme);
    // A new valid result makes the view fresh again by itself (setResult clears it).
    void setStale(bool stale, const QString& message = QString());
    void resetView();
    void setLogScale(bool on);
    void exportImageDialog();
    void exportSvgDialog();
    void exportPdfDialog();
    void exportCsvDialog();
    void copyToClipboard() const;  // the plot as shown, as an image

signals:
    // From the view's range handles (if any): many with finished = false while dragging,
    // then one with finished = true on release.
    void rangeDragged(float min, float max, bool finished);
    void themeChanged(qs::ui::Theme theme);
    void staleChanged(bool stale);

protected:
    // Views colour their series from the palette (greyed already when stale).
    virtual void applySeriesStyle(const PlotPalette& palette);
    const PlotPalette& currentPalette() const { return palette_; }
    // Re-applies theme/stale colours and replots. Call after building or changing series.
    void restyle();
    // Replots now when the plot is on screen; a hidden one (another tab, a window not shown
    // yet) replots when it is shown or painted, so an edit does not draw what nobody sees.
    void requestReplot();
    // Hands a graph's or bars' data (keys ascending) to QCustomPlot as the plot's width shows
    // it (plot_decimation.h), again after every zoom, pan or resize; exports, the CSV and the
    // default read-out use all of it.
    void setPlotData(QCPAbstractPlottable* plottable, std::vector<double> keys, std::vector<double> values);
    // A graph with error bars on it (whiskers value − minus … value + plus).
    void setPlotData(QCPGraph* graph, QCPErrorBars* errors, std::vector<double> keys, std::vector<double> values,
                     std::vector<double> minus, std::vector<double> plus);

    // What the read-out shows at a pixel. `x`,`y` are in the axes given (the tracer moves
    // there). Default: the nearest point (by key) of the first visible, non-empty graph in
    // the axis rect under the cursor, labelled with its name.
    using Readout = PlotReadout;
    virtual Readout readoutAt(const QPointF& pixel) const;
    // Called when the visible x/y ranges change (zoom, pan, reset), for views that show
    // details only when zoomed in.
    virtual void viewRangesChanged() {}

    // Home view: views register the ranges they want for a result, then commitHomeView().
    void setHomeRange(QCPAxis* axis, double lower, double upper);
    void commitHomeView();
    // The end of drawing a new result: commitHomeView(), the stale mark off, the theme's
    // styles on the new items.
    void finishDraw();
    // Moves an axis to its home range.
    void applyHome(QCPAxis* axis);
    // Axes that setLogScale() switches (and a "Log scale" action appears in the menu).
    void setLogScaleAxes(const QList<QCPAxis*>& axes);
    // Range handles on an axis rect; their rangeDragged is forwarded by this frame's.
    RangeHandles* addRangeHandles(QCPAxis* xAxis, QCPAxis* yAxis);
    bool anyHandleDragging() const;
    // Message box in the middle of the main axis rect (e.g. "no per-channel data"); empty
    // hides it. Separate from the stale box.
    void setMessage(const QString& message);
    // Moves plot()->legend out of the axis rect into a strip above it (under the title), in
    // as many columns as the plot's width holds, at most `columns`: a legend that never
    // covers data and never decides the plot's minimum width.
    void placeLegendOnTop(int columns);
    // Shows plot()->legend in a font 0.9 times the frame's; above the axis rect with
    // `columnsOnTop` > 0 (placeLegendOnTop), else where it is.
    void showSmallLegend(int columnsOnTop);
    // Drag and wheel zoom move both axes of the main axis rect (not only x).
    void dragAndZoomBothAxes();
    // plot()->yAxis shows counts and the "Log scale" action switches it. Its home for the
    // largest count (setMaxCount) is 0.5 .. 3·max on a log scale and 0 .. headroom·max on a
    // linear one (headroom leaves room for boxes over the bars); a switch re-homes it.
    void useCountAxis(double headroom);
    void setMaxCount(double maxCount);
    // After the log toggle switched the axes: register new home ranges for them.
    virtual void logScaleChanged(bool /*on*/) {}
    virtual void contextMenu(QMenu* /*menu*/) {}

    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void onMousePress(QMouseEvent* event);
    void onMouseMove(QMouseEvent* event);
    void onLegendClick(QCPLegend* legend, QCPAbstractLegendItem* item, QMouseEvent* event);
    void hideReadout();
    void updateLegendColors();
    void registerCountHome();
    void followKeyAxis(QCPAxis* axis);

    QCustomPlot* plot_ = nullptr;
    Theme theme_ = Theme::Light;
    PlotPalette palette_;
    double presentationScale_ = 1.0;
    double presentationFontScale_ = 1.0;
    bool presentationUsed_ = false;  // once scaled, restyles re-apply (1 restores the base)
    mutable ReadoutTracer readout_;  // exports hide it for a moment
    mutable PlotDecimation decimation_;
    mutable bool exporting_ = false;  // between beginExport and endExport: full data
    bool replotPending_ = false;      // requestReplot while hidden
    QSet<QCPAxis*> decimatedAxes_;    // key axes whose range changes re-decimate
    std::unique_ptr<PlotOverlay> overlay_;
    QAction* resetAction_ = nullptr;
    QAction* logAction_ = nullptr;
    QList<QCPAxis*> logAxes_;
    double countHeadroom_ = 0;  // > 0: plot()->yAxis is a count axis (useCountAxis)
    double maxCount_ = 1;
    QList<RangeHandles*> handles_;
    QSet<QCPAbstractPlottable*> hidden_;
    struct Range {
        double lower = 0, upper = 0;
    };
    QHash<QCPAxis*, Range> home_;     // the home view (what reset restores)
    QHash<QCPAxis*, Range> lastSet_;  // what this frame last set each axis to
    QHash<QCPAxis*, Range> pending_;  // registered since the last commit
};

}  // namespace qs::ui
