// PlotExporter: a PlotFrame written out — PNG/JPG/BMP at a chosen pixel size and DPI, SVG,
// PDF, the clipboard image and the view's CSV table (core/data/csv_writer.h). The *Bytes
// functions draw into memory; the export* functions write those bytes atomically
// (native_file.h: the previous file stays when a write fails, `error` names the file and
// the reason). The read-out tracer is never drawn into an export.
// The dialogs that ask for a file name and report errors are in plot_export_dialogs.h.
#pragma once

#include <QByteArray>
#include <QCoreApplication>
#include <QImage>
#include <QString>

namespace qs::ui {

class PlotFrame;

class PlotExporter {
    Q_DECLARE_TR_FUNCTIONS(PlotExporter)
public:
    explicit PlotExporter(const PlotFrame& frame) : frame_(frame) {}

    // The image format by suffix: png, jpg, bmp; png when unknown.
    static QByteArray imageFormat(const QString& path);

    // `width` x `height` are pixels of the output image; `dpi` sets how big the plot's
    // fonts and lines are in those pixels: the plot is laid out at width·96/dpi x
    // height·96/dpi logical pixels and scaled by dpi/96 (so 1920x1200 at 192 dpi looks like
    // a 960x600 window on a 2x screen). The DPI is also written into the file.
    QImage renderImage(int width, int height, double dpi = 96) const;
    // Empty with `error` set when drawing or encoding fails.
    QByteArray imageBytes(const QByteArray& format, int width, int height, double dpi = 96,
                          QString* error = nullptr) const;
    // Vector formats at width x height points/pixels (0 = the widget's size). The SVG keeps
    // every axis rect's clipping (clipped_svg.h).
    QByteArray svgBytes(int width = 0, int height = 0, QString* error = nullptr) const;
    QByteArray pdfBytes(int width = 0, int height = 0, QString* error = nullptr) const;
    QByteArray csvBytes() const;  // the view's csvTable()

    bool exportImage(const QString& path, int width, int height, double dpi = 96,
                     QString* error = nullptr) const;
    bool exportSvg(const QString& path, int width = 0, int height = 0, QString* error = nullptr) const;
    bool exportPdf(const QString& path, int width = 0, int height = 0, QString* error = nullptr) const;
    bool exportCsv(const QString& path, QString* error = nullptr) const;

    // The plot as shown (widget size, screen DPI) as an image on the clipboard.
    void copyToClipboard() const;

private:
    const PlotFrame& frame_;
};

}  // namespace qs::ui
