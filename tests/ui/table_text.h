// The tables of core/data/csv_writer.h as the Qt types the GUI tests compare with.
#pragma once

#include <string>
#include <vector>

#include <QByteArray>
#include <QStringList>

#include "core/data/csv_writer.h"

inline QStringList qStrings(const std::vector<std::string>& names) {
    QStringList list;
    for (const std::string& n : names) list << QString::fromStdString(n);
    return list;
}

template <typename Table>
QByteArray csvBytes(const Table& table) {
    return QByteArray::fromStdString(qs::data::csvText(table));
}
