#include "ui/plot/legend_placement.h"

#include <algorithm>

#include <qcustomplot.h>

namespace qs::ui {

void keepLegendColumnsFitting(QCustomPlot* plot, int maxColumns) {
    QObject::connect(plot, &QCustomPlot::beforeReplot, plot, [plot, maxColumns] {
        QCPLegend* legend = plot->legend;
        if (!legend->visible() || legend->itemCount() == 0) return;
        int widest = 1;
        for (int i = 0; i < legend->itemCount(); ++i)
            if (QCPAbstractLegendItem* item = legend->item(i); item && item->realVisibility())
                widest = std::max(widest, item->minimumOuterSizeHint().width());
        const int room = plot->width() - legend->margins().left() - legend->margins().right() - 8;
        const int columns = std::clamp((room + legend->columnSpacing()) / (widest + legend->columnSpacing()), 1,
                                       maxColumns);
        if (legend->wrap() == columns) return;
        legend->setWrap(columns);
        legend->setFillOrder(QCPLayoutGrid::foColumnsFirst, true);  // re-flows the items
    });
}

}  // namespace qs::ui
