#include "ui/plot/legend_placement.h"

#include <algorithm>
#include <vector>

#include <qcustomplot.h>

#include "ui/plot/layout_width.h"

namespace qs::ui {

namespace {

// The most columns (up to `most`) whose widths, each that of its widest entry when the
// entries fill the rows left to right, fit `room` with `spacing` between columns.
int fittingColumns(const std::vector<int>& widths, int room, int spacing, int most) {
    for (int columns = std::min<int>(most, static_cast<int>(widths.size())); columns > 1; --columns) {
        std::vector<int> column(static_cast<size_t>(columns), 0);
        for (size_t i = 0; i < widths.size(); ++i)
            column[i % static_cast<size_t>(columns)] = std::max(column[i % static_cast<size_t>(columns)], widths[i]);
        int total = spacing * (columns - 1);
        for (int w : column) total += w;
        if (total <= room) return columns;
    }
    return 1;
}

}  // namespace

void keepLegendColumnsFitting(QCustomPlot* plot, int maxColumns) {
    QObject::connect(plot, &QCustomPlot::beforeReplot, plot, [plot, maxColumns] {
        QCPLegend* legend = plot->legend;
        if (!legend->visible() || legend->itemCount() == 0) return;
        std::vector<int> widths;
        for (int i = 0; i < legend->itemCount(); ++i)
            if (QCPAbstractLegendItem* item = legend->item(i)) widths.push_back(item->minimumOuterSizeHint().width());
        // A hidden plot's legend keeps the columns it has until it is shown or exported.
        const int width = layoutWidth(plot);
        if (width <= 0) return;
        const int room = width - legend->margins().left() - legend->margins().right() - 8;
        const int columns = fittingColumns(widths, room, legend->columnSpacing(), maxColumns);
        if (legend->wrap() == columns) return;
        legend->setWrap(columns);
        legend->setFillOrder(QCPLayoutGrid::foColumnsFirst, true);  // re-flows the items
    });
}

}  // namespace qs::ui
