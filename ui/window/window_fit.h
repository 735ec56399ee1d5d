// Opening a window inside the screen: a preferred size is a wish, the screen's available
// geometry (without panels and task bars) the limit. Both windows open at their preferred
// size on a large screen and at the whole available area on a 1280×800 one.
#pragma once

#include <QSize>

class QWidget;

namespace qs::ui {

// Resizes `window` to `preferred`, bounded by its screen's available geometry less the
// window frame, and moves it so that it lies inside that geometry.
void fitToAvailableScreen(QWidget* window, QSize preferred);

}  // namespace qs::ui
