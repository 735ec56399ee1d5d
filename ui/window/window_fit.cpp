#include "ui/window/window_fit.h"

#include <algorithm>

#include <QGuiApplication>
#include <QScreen>
#include <QWidget>

namespace qs::ui {

void fitToAvailableScreen(QWidget* window, QSize preferred) {
    QScreen* screen = window->screen() ? window->screen() : QGuiApplication::primaryScreen();
    if (!screen) {
        window->resize(preferred);
        return;
    }
    const QRect available = screen->availableGeometry();
    // The frame (title bar, borders) is not known before the first show: leave room for a
    // common one so the title bar is on screen too.
    const QSize frame(16, 40);
    const QSize room = (available.size() - frame).expandedTo(QSize(320, 240));
    const QSize size = preferred.boundedTo(room);
    window->resize(size);
    const int x = available.x() + std::max(0, (available.width() - size.width() - frame.width()) / 2);
    const int y = available.y() + std::max(0, (available.height() - size.height() - frame.height()) / 2);
    window->move(x, y);
}

}  // namespace qs::ui
