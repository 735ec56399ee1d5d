// Typing into a line edit as a user replaces its text, for the GUI tests.
#pragma once

#include <QLineEdit>
#include <QString>
#include <QTest>

// Focus, select all, delete, then type `text` key by key (each key emits textEdited).
inline void retype(QLineEdit* edit, const QString& text) {
    edit->setFocus();
    edit->selectAll();
    QTest::keyClick(edit, Qt::Key_Backspace);
    QTest::keyClicks(edit, text);
}
