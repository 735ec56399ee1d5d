// Fuzz target: the Python literals typed into the workbench's fields ("(-1.0, 1.0)",
// "None", "'abc'", ...; session/workbench/py_json.h). Every text is representable: the value
// it becomes prints back to a text that becomes the same value.
#include <QJsonArray>
#include <QJsonDocument>
#include <QString>

#include "session/workbench/py_json.h"
#include "tests/fuzz/fuzz_input.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const QString text = QString::fromUtf8(reinterpret_cast<const char*>(data), static_cast<qsizetype>(size));
    const QJsonValue value = qs::ui::jsonFromPyLiteral(text);
    const QString printed = qs::ui::pyLiteralFromJson(value);
    if (qs::ui::jsonFromPyLiteral(printed) != value)
        qs::fuzz::propertyFailed("'" + text.toStdString() + "' became " +
                                 QJsonDocument(QJsonArray{value}).toJson(QJsonDocument::Compact).toStdString() +
                                 ", which prints as '" + printed.toStdString() + "' and reads back differently");
    return 0;
}
