// Replaces a line edit's text the way a user does: focus, select all, erase, type the new
// text key by key (each key an edit, as the workbench's editor sees typing).
#pragma once

#include <QLineEdit>
#include <QtTest>

inline void retype(QLineEdit* edit, const QString& text) {
    edit->setFocus();
    edit->selectAll();
    QTest::keyClick(edit, Qt::Key_Backspace);
    QTest::keyClicks(edit, text);
}
