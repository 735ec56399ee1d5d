// The requested range of the explorer's views: draggable handles on input_min/input_max (or
// the op's names for them) shown only when the range is an input the user sets, and their
// legend entry. Includes qcustomplot.h: include from view .cpp files only.
#pragma once

#include <QCoreApplication>
#include <qcustomplot.h>

#include "core/analysis/quant_spec.h"
#include "ui/plot/range_handles.h"
#include "ui/views/view_text.h"

namespace qs::ui {

inline void showRequestedRange(RangeHandles* handles, QCPGraph* legendEntry, const qs::QuantSpec& spec,
                               double requestedMin, double requestedMax) {
    const bool given = text::rangeIsGiven(spec);
    handles->setNames(text::requestedMinName(spec), text::requestedMaxName(spec));
    handles->setRange(requestedMin, requestedMax);
    handles->setVisible(given);
    legendEntry->setName(QCoreApplication::translate("qs::ui::RequestedRange", "%1 / %2  ↔ drag")
                             .arg(text::requestedMinName(spec), text::requestedMaxName(spec)));
    if (given)
        legendEntry->addToLegend();
    else
        legendEntry->removeFromLegend();
}

}  // namespace qs::ui
