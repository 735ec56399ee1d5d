#include "ui/plot/plot_export_dialogs.h"

#include <QCoreApplication>
#include <QDialog>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QMessageBox>
#include <QSpinBox>

#include "ui/plot/plot_exporter.h"

namespace qs::ui {

namespace {

QString tr(const char* text) { return QCoreApplication::translate("qs::ui::PlotFrame", text); }

struct ImageExportSettings {
    int width = 1600, height = 1000;
    double dpi = 144;
};

ImageExportSettings& lastImageSettings() {
    static ImageExportSettings s;
    return s;
}

// The size dialog; false when cancelled.
bool askImageSettings(QWidget* parent, ImageExportSettings& s) {
    QDialog dialog(parent);
    dialog.setWindowTitle(tr("Export image"));
    auto* form = new QFormLayout(&dialog);
    auto* w = new QSpinBox;
    auto* h = new QSpinBox;
    for (QSpinBox* box : {w, h}) {
        box->setRange(16, 16384);
        box->setSuffix(tr(" px"));
    }
    w->setValue(s.width);
    h->setValue(s.height);
    auto* dpi = new QDoubleSpinBox;
    dpi->setRange(24, 1200);
    dpi->setDecimals(0);
    dpi->setValue(s.dpi);
    dpi->setToolTip(tr("Fonts and lines are drawn at this resolution: 96 is a normal screen, "
                       "192 twice as large in pixels"));
    form->addRow(tr("Width"), w);
    form->addRow(tr("Height"), h);
    form->addRow(tr("DPI"), dpi);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
    form->addRow(buttons);
    QObject::connect(buttons, &QDialogButtonBox::accepted, &dialog, &QDialog::accept);
    QObject::connect(buttons, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
    if (dialog.exec() != QDialog::Accepted) return false;
    s = {w->value(), h->value(), dpi->value()};
    return true;
}

}  // namespace

QString askSavePath(QWidget* parent, const QString& title, const QString& filter, const QString& suffix) {
    QString path = QFileDialog::getSaveFileName(parent, title, QString(), filter);
    if (!path.isEmpty() && QFileInfo(path).suffix().isEmpty()) path += QLatin1Char('.') + suffix;
    return path;
}

void exportDialog(QWidget* parent, const QString& title, const QString& filter, const QString& suffix,
                  const WriteToPath& write) {
    const QString path = askSavePath(parent, title, filter, suffix);
    if (path.isEmpty()) return;
    QString error;
    if (!write(path, &error)) QMessageBox::warning(parent, title, error);
}

void exportImageDialog(QWidget* parent, const PlotExporter& exporter) {
    ImageExportSettings& s = lastImageSettings();
    if (!askImageSettings(parent, s)) return;
    exportDialog(parent, tr("Export image"), tr("PNG image (*.png);;JPEG image (*.jpg)"), QStringLiteral("png"),
                 [&](const QString& path, QString* error) {
                     return exporter.exportImage(path, s.width, s.height, s.dpi, error);
                 });
}

void exportSvgDialog(QWidget* parent, const PlotExporter& exporter) {
    exportDialog(parent, tr("Export SVG"), tr("SVG (*.svg)"), QStringLiteral("svg"),
                 [&](const QString& path, QString* error) { return exporter.exportSvg(path, 0, 0, error); });
}

void exportPdfDialog(QWidget* parent, const PlotExporter& exporter) {
    exportDialog(parent, tr("Export PDF"), tr("PDF (*.pdf)"), QStringLiteral("pdf"),
                 [&](const QString& path, QString* error) { return exporter.exportPdf(path, 0, 0, error); });
}

void exportCsvDialog(QWidget* parent, const PlotExporter& exporter) {
    exportDialog(parent, tr("Export CSV"), tr("CSV (*.csv)"), QStringLiteral("csv"),
                 [&](const QString& path, QString* error) { return exporter.exportCsv(path, error); });
}

}  // namespace qs::ui
