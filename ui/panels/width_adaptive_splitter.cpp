#include "ui/panels/width_adaptive_splitter.h"

#include <algorithm>

namespace qs::ui {

WidthAdaptiveSplitter::WidthAdaptiveSplitter(QWidget* parent) : QSplitter(Qt::Horizontal, parent) {}

void WidthAdaptiveSplitter::resizeEvent(QResizeEvent* event) {
    QSplitter::resizeEvent(event);
    reconsider();
}

void WidthAdaptiveSplitter::reconsider() {
    // Not while hidden behind another tab, whose placeholder size says nothing of the room.
    if (!isVisible() || count() != 2) return;
    const QSize wanted = widget(0)->sizeHint();
    const bool wide = width() >= wanted.width() + handleWidth() + widget(1)->minimumSizeHint().width();
    const Qt::Orientation orientation = wide ? Qt::Horizontal : Qt::Vertical;
    const bool turned = orientation != this->orientation();
    setOrientation(orientation);
    // The first pane what it asks for (at most half of a column), the second the rest; what
    // the user made of the handle stays unless it leaves the first pane short of its width.
    const int length = wide ? width() : height();
    const int first = wide ? wanted.width() : std::min(wanted.height(), length / 2);
    if (turned || (wide && sizes().value(0) < first)) setSizes({first, std::max(0, length - handleWidth() - first)});
}

}  // namespace qs::ui
