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
//   * export: PNG/JPG/BMP at a chosen pixel size and DPI, SVG, PDF, clipboard image, and the
//     view's CSV table; a context menu offers them with file dialogs.
//
// Views derive from it, build their series in the constructor, draw in setResult(), colour
// their series in applySeriesStyle() and say what the CSV and the read-out are.
#pragma once

#include <QByteArray>
#include <QHash>
#include <QImage>
#include <QList>
#include <QPointF>
#include <QSet>
#include <QString>
#include <QStringList>
#include <QWidget>
#include <vector>

#include "ui/plot/theme.h"

class QAction;
class QCustomPlot;
class QCPAbstractPlottable;
class QCPAxis;
class QCPItemText;
class QCPItemTracer;
class QCPLegend;
class QCPAbstractLegendItem;
class QMenu;
class QMouseEvent;

namespace qs::ui {

class RangeHandles;

// A table for CSV export: header[i] names columns[i]. Columns may differ in length; a row
// past a column's end leaves that cell empty.
struct CsvTable {
    QStringList header;
    std::vector<std::vector<double>> columns;
    qsizetype rowCount() const;
};

// One number as CSV text: the shortest text that reads back as the same float32 when the
// value is a float32 (so 0.1f prints as 0.1, not 0.100000001490116), else the shortest
// round-trip double; "nan", "inf", "-inf" for non-finite values.
QString csvNumber(double value);
// One text field as CSV: quoted (with doubled quotes) only when it holds a comma, quote or
// line break.
QString csvField(const QString& s);
// The whole table: header line, then one line per row, '\n' line ends, fields quoted only
// when they contain a comma, quote or line break.
QByteArray csvText(const CsvTable& table);
// A save dialog; a name typed without a suffix gets `.suffix` ("" when cancelled).
QString askSavePath(QWidget* parent, const QString& title, const QString& filter, const QString& suffix);

// Writes csvText atomically (native_file.h: the old file stays until the new one is complete
// and stays as it was when the write fails). `error`: "Could not write PATH: <reason>".
bool writeCsv(const QString& path, const CsvTable& table, QString* error = nullptr);

class PlotFrame : public QWidget {
    Q_OBJECT
public:
    explicit PlotFrame(QWidget* parent = nullptr);
    ~PlotFrame() override;

    QCustomPlot* plot() const { return plot_; }
    Theme theme() const { return theme_; }
    bool isStale() const { return stale_; }
    QString staleMessage() const { return staleMessage_; }
    QCPItemText* staleText() const { return staleText_; }
    QCPItemText* messageText() const { return message_; }  // see setMessage()
    QCPItemTracer* tracer() const { return tracer_; }
    QCPItemText* readoutText() const { return readout_; }

    // --- CSV ---------------------------------------------------------------------------
    // The view's table (what `Export CSV` writes). Default: seriesTable().
    virtual CsvTable csvTable() const;
    // Every visible graph/bars series as drawn, wide format: for each series in legend
    // order two columns "<name> x" and "<name> y" (one row per data point).
    CsvTable seriesTable() const;
    bool exportCsv(const QString& path, QString* error = nullptr) const;

    // --- Images ------------------------------------------------------------------------
    // `width` x `height` are pixels of the output image; `dpi` sets how big the plot's
    // fonts and lines are in those pixels: the plot is laid out at width·96/dpi x
    // height·96/dpi logical pixels and scaled by dpi/96 (so 1920x1200 at 192 dpi looks like
    // a 960x600 window on a 2x screen). The DPI is also written into the file. The format
    // follows the suffix (png, jpg, bmp; png when unknown). The read-out tracer is left out.
    QImage renderImage(int width, int height, double dpi = 96) const;
    bool exportImage(const QString& path, int width, int height, double dpi = 96,
                     QString* error = nullptr) const;
    // Vector formats at width x height points/pixels (0 = the widget's size).
    // Every export is written atomically (native_file.h); `error` names the file and the
    // reason ("Could not write PATH: No space left on device"), the previous file is kept.
    bool exportSvg(const QString& path, int width = 0, int height = 0,
                   QString* error = nullptr) const;
    bool exportPdf(const QString& path, int width = 0, int height = 0,
                   QString* error = nullptr) const;
    // The bytes the exports write (empty with `error` set when drawing fails), for callers
    // that write them to a name QString cannot hold (native_file.h).
    static QByteArray imageFormat(const QString& path);  // by suffix: png, jpg, bmp; png otherwise
    QByteArray imageBytes(const QByteArray& format, int width, int height, double dpi = 96,
                          QString* error = nullptr) const;
    QByteArray svgBytes(int width = 0, int height = 0, QString* error = nullptr) const;
    QByteArray pdfBytes(int width = 0, int height = 0, QString* error = nullptr) const;
    // The plot as shown (widget size, screen DPI) as an image on the clipboard.
    void copyToClipboard() const;

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

    // What the read-out shows at a pixel. `x`,`y` are in the axes given (the tracer moves
    // there). Default: the nearest point (by key) of the first visible, non-empty graph in
    // the axis rect under the cursor, labelled with its name.
    struct Readout {
        bool valid = false;
        QCPAxis* xAxis = nullptr;
        QCPAxis* yAxis = nullptr;
        double x = 0, y = 0;
        QString text;
    };
    virtual Readout readoutAt(const QPointF& pixel) const;
    // Called when the visible x/y ranges change (zoom, pan, reset), for views that show
    // details only when zoomed in.
    virtual void viewRangesChanged() {}

    // Home view: views register the ranges they want for a result, then commitHomeView().
    void setHomeRange(QCPAxis* axis, double lower, double upper);
    void commitHomeView();
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
    // Moves plot()->legend out of the axis rect into a strip above it (under the title),
    // `columns` entries per row: a legend that never covers data.
    void placeLegendOnTop(int columns);
    // After the log toggle switched the axes: register new home ranges for them.
    virtual void logScaleChanged(bool /*on*/) {}
    virtual void contextMenu(QMenu* /*menu*/) {}

    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void onMousePress(QMouseEvent* event);
    void onMouseMove(QMouseEvent* event);
    void onLegendClick(QCPLegend* legend, QCPAbstractLegendItem* item, QMouseEvent* event);
    void hideReadout();
    void prepareExport() const;  // hide the tracer, update range-dependent details
    // svgBytes / pdfBytes: the plot at width x height (0: the widget's size) as SVG or PDF.
    QByteArray vectorBytes(bool pdf, int width, int height, QString* error) const;
    void updateLegendColors();

    QCustomPlot* plot_ = nullptr;
    Theme theme_ = Theme::Light;
    PlotPalette palette_;
    double presentationScale_ = 1.0;
    double presentationFontScale_ = 1.0;
    bool presentationUsed_ = false;  // once scaled, restyles re-apply (1 restores the base)
    bool stale_ = false;
    QString staleMessage_;
    QCPItemText* staleText_ = nullptr;
    QCPItemText* message_ = nullptr;
    QCPItemTracer* tracer_ = nullptr;
    QCPItemText* readout_ = nullptr;
    QAction* resetAction_ = nullptr;
    QAction* logAction_ = nullptr;
    QList<QCPAxis*> logAxes_;
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
