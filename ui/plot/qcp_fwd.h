// Forward declarations of the QCustomPlot classes the plot headers name, so that headers
// hold pointers to plot items without including qcustomplot.h (only .cpp files include it).
#pragma once

class QCustomPlot;
class QCPAbstractItem;
class QCPAbstractLegendItem;
class QCPAbstractPlottable;
class QCPAxis;
class QCPAxisRect;
class QCPBars;
class QCPBarsGroup;
class QCPColorMap;
class QCPColorScale;
class QCPErrorBars;
class QCPGraph;
class QCPItemRect;
class QCPItemStraightLine;
class QCPItemText;
class QCPItemTracer;
class QCPLayer;
class QCPLegend;
class QCPTextElement;
