// Presentation mode for plots: every pen width, scatter size and font of a QCustomPlot
// multiplied by a factor, so a lecture-hall projector shows thick lines and large text
// without each view knowing about it.
//
// Views keep styling their series as usual (applySeriesStyle sets 1.4-px pens and so on);
// this runs after them and scales what they set. Each object remembers the value it was
// given ("base") and the value it was scaled to, so scaling again — after a restyle that
// did or did not reset a pen — never compounds, and factor 1 restores the base exactly.
#pragma once

#include "ui/plot/qcp_fwd.h"

namespace qs::ui {

// Pens and markers grow by `lineFactor`, text by `fontFactor` (text needs less: at the same
// factor legends crowd out the data).
void applyPresentationScale(QCustomPlot* plot, double lineFactor, double fontFactor);

}  // namespace qs::ui
