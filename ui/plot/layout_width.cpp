#include "ui/plot/layout_width.h"

#include <QVariant>
#include <qcustomplot.h>

namespace qs::ui {

namespace {
constexpr char kExportWidth[] = "qsExportLayoutWidth";
}  // namespace

void beginExportLayout(QCustomPlot* plot, QSize size) {
    if (size.width() <= 0 || size.height() <= 0) return;
    plot->setProperty(kExportWidth, size.width());
    plot->setViewport(QRect(QPoint(0, 0), size));
    emit plot->beforeReplot();  // the hooks that fit texts to the width run before a replot
}

void endExportLayout(QCustomPlot* plot) {
    if (!plot->property(kExportWidth).isValid()) return;
    plot->setProperty(kExportWidth, QVariant());
    plot->setViewport(plot->rect());
}

int layoutWidth(const QCustomPlot* plot) {
    const QVariant exportWidth = plot->property(kExportWidth);
    if (exportWidth.isValid()) return exportWidth.toInt();
    return plot->isVisible() ? plot->width() : 0;
}

}  // namespace qs::ui
