#include "ui/views/panel_parts.h"

#include <QHeaderView>
#include <QLabel>
#include <QTableWidget>

namespace qs::ui {

QLabel* makePanelTitle(const QString& objectName) {
    auto* title = new QLabel;
    title->setObjectName(objectName);
    title->setWordWrap(true);
    QFont bold = title->font();
    bold.setBold(true);
    title->setFont(bold);
    return title;
}

QLabel* makeStaleLabel() {
    auto* stale = new QLabel;
    stale->setObjectName(QStringLiteral("staleLabel"));
    stale->setWordWrap(true);
    stale->setVisible(false);
    return stale;
}

void makeReadOnlyTable(QTableWidget* table) {
    table->verticalHeader()->setVisible(false);
    table->horizontalHeader()->setStretchLastSection(true);
    table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table->setSelectionBehavior(QAbstractItemView::SelectRows);
    table->setAlternatingRowColors(true);
    table->setWordWrap(false);
    table->setContextMenuPolicy(Qt::CustomContextMenu);
}

}  // namespace qs::ui
