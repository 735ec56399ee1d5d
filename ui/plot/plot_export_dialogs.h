// The export dialogs of the plots and tables: ask for a file name (a name typed without a
// suffix gets the format's), write, and show the error in a message box when the write fails.
#pragma once

#include <functional>

#include <QString>

class QWidget;

namespace qs::ui {

class PlotExporter;

// A save dialog; a name typed without a suffix gets `.suffix` ("" when cancelled).
QString askSavePath(QWidget* parent, const QString& title, const QString& filter, const QString& suffix);

// Asks for a path and calls `write(path, &error)`; a failure is shown under `title`.
using WriteToPath = std::function<bool(const QString& path, QString* error)>;
void exportDialog(QWidget* parent, const QString& title, const QString& filter, const QString& suffix,
                  const WriteToPath& write);

// Asks for the pixel size and DPI (remembered for the next export), then the file.
void exportImageDialog(QWidget* parent, const PlotExporter& exporter);
void exportSvgDialog(QWidget* parent, const PlotExporter& exporter);
void exportPdfDialog(QWidget* parent, const PlotExporter& exporter);
void exportCsvDialog(QWidget* parent, const PlotExporter& exporter);

}  // namespace qs::ui
