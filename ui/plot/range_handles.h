// Two draggable vertical lines on a QCustomPlot axis rect: the requested min and max of the
// quantization range. Pressing the left button within a few pixels of a line grabs it
// (panning is suspended for that press); every move emits rangeDragged(min, max, false) and
// the release emits rangeDragged(min, max, true) once — the receiver (the model, with undo)
// turns the intermediate values into a live preview and the final one into one undo step.
// Values snap to a round number at the plot's current resolution (about a pixel) and min
// stays below max. While a drag is on, setRange() from a recompute does not move the lines.
#pragma once

#include "ui/plot/qcp_fwd.h"

#include <QColor>
#include <QObject>
#include <QString>

class QMouseEvent;

namespace qs::ui {

class RangeHandles : public QObject {
    Q_OBJECT
public:
    // Lines live in the axis rect of `xAxis`/`yAxis` (the y axis only anchors the items).
    RangeHandles(QCustomPlot* plot, QCPAxis* xAxis, QCPAxis* yAxis, QObject* parent = nullptr);

    void setRange(double min, double max);
    double min() const { return min_; }
    double max() const { return max_; }
    void setNames(const QString& minName, const QString& maxName);  // "min_range", ...
    void setColor(const QColor& color);
    void setVisible(bool visible);
    bool isVisible() const { return visible_; }
    // Not draggable (e.g. the range comes from the data): drawn, but presses pass through.
    void setDraggable(bool draggable);
    bool isDraggable() const { return draggable_; }
    bool isDragging() const { return grabbed_ != Grab::None; }

    QCPItemStraightLine* minLine() const { return minLine_; }
    QCPItemStraightLine* maxLine() const { return maxLine_; }
    // The pixel x of a handle (for tests and tooltips).
    double minPixel() const;
    double maxPixel() const;

signals:
    void rangeDragged(float min, float max, bool finished);
    void dragStarted();

private:
    enum class Grab { None, Min, Max };
    void onPress(QMouseEvent* event);
    void onMove(QMouseEvent* event);
    void onRelease(QMouseEvent* event);
    Grab hit(const QPointF& pos) const;
    void place();
    void staggerLabels();
    double snapped(double x) const;

    QCustomPlot* plot_;
    QCPAxis* xAxis_;
    QCPAxis* yAxis_;
    QCPItemStraightLine* minLine_;
    QCPItemStraightLine* maxLine_;
    QCPItemText* minLabel_;
    QCPItemText* maxLabel_;
    QString minName_ = QStringLiteral("min"), maxName_ = QStringLiteral("max");
    double min_ = 0, max_ = 1;
    bool visible_ = true, draggable_ = true;
    Grab grabbed_ = Grab::None;
    bool moved_ = false;
    bool dragWasEnabled_ = false;
    bool cursorSet_ = false;
};

}  // namespace qs::ui
