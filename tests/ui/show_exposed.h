// Shows a widget as a test needs it on screen: at a size (an empty one: its own), shown, and
// exposed by the platform, so that its layout and plots have their real geometry.
#pragma once

#include <QSize>
#include <QTest>
#include <QWidget>

[[nodiscard]] inline bool showExposed(QWidget* widget, QSize size = QSize()) {
    if (!size.isEmpty()) widget->resize(size);
    widget->show();
    return QTest::qWaitForWindowExposed(widget);
}
