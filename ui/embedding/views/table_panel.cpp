#include "ui/embedding/views/table_panel.h"

#include <QApplication>
#include <QClipboard>
#include <QFileDialog>
#include <QFileInfo>
#include <QHeaderView>
#include <QLabel>
#include <QMenu>
#include <QMessageBox>
#include <QTableWidget>
#include <QVBoxLayout>

#include "session/files/native_file.h"
#include "ui/plot/plot_export_dialogs.h"
#include "ui/views/panel_parts.h"
#include "ui/views/view_text.h"

namespace qs::ui {

using namespace qs::ui::text;

TablePanel::TablePanel(const QString& objectName, QWidget* parent) : QWidget(parent) {
    setObjectName(objectName);
    layout_ = new QVBoxLayout(this);
    layout_->setContentsMargins(6, 6, 6, 6);
    title_ = makePanelTitle(QStringLiteral("panelTitle"));
    staleLabel_ = makeStaleLabel();
    table_ = new QTableWidget;
    table_->setObjectName(objectName + QStringLiteral("Table"));
    makeReadOnlyTable(table_);
    layout_->addWidget(title_);
    layout_->addWidget(staleLabel_);
    layout_->addWidget(table_, 1);
    connect(table_, &QWidget::customContextMenuRequested, this, [this](const QPoint& pos) {
        auto* menu = new QMenu(this);
        menu->setAttribute(Qt::WA_DeleteOnClose);
        menu->addAction(tr("Copy table"), this, &TablePanel::copyToClipboard);
        menu->addAction(tr("Export CSV…"), this, &TablePanel::exportCsvDialog);
        menu->popup(table_->viewport()->mapToGlobal(pos));
    });
    refreshColors();
}

void TablePanel::setCell(int row, int column, const QString& text, const QString& tip) {
    QTableWidgetItem* item = table_->item(row, column);
    if (!item) {
        item = new QTableWidgetItem;
        table_->setItem(row, column, item);
    }
    item->setText(text);
    if (!tip.isEmpty()) item->setToolTip(tip);
}

QString TablePanel::cellText(int row, int column) const {
    const QTableWidgetItem* item = table_->item(row, column);
    return item ? item->text() : QString();
}

void TablePanel::setStale(bool stale, const QString& message) {
    stale_ = stale;
    staleLabel_->setText(message.isEmpty() ? tr("stale — the parameters are invalid; showing the last valid result")
                                           : tr("stale — %1").arg(message));
    staleLabel_->setVisible(stale);
    table_->setEnabled(!stale);  // greyed, still readable
    refreshColors();
}

void TablePanel::setTheme(Theme theme) {
    theme_ = theme;
    refreshColors();
    themeChanged();
}

void TablePanel::refreshColors() {
    const PlotPalette& p = plotPalette(theme_);
    staleLabel_->setStyleSheet(QStringLiteral("color: %1; font-weight: bold;").arg(p.range.name()));
}

bool TablePanel::exportCsv(const QString& path, QString* error) const {
    return exportFile(path, QByteArray::fromStdString(data::csvText(csvTable())), error);
}

void TablePanel::copyToClipboard() const {
    QStringList lines;
    QStringList header;
    for (int c = 0; c < table_->columnCount(); ++c) {
        const QTableWidgetItem* h = table_->horizontalHeaderItem(c);
        header << (h ? h->text() : QString());
    }
    lines << header.join(QLatin1Char('\t'));
    for (int r = 0; r < table_->rowCount(); ++r) {
        QStringList cells;
        for (int c = 0; c < table_->columnCount(); ++c) cells << cellText(r, c);
        lines << cells.join(QLatin1Char('\t'));
    }
    QApplication::clipboard()->setText(lines.join(QLatin1Char('\n')));
}

void TablePanel::exportCsvDialog() {
    exportDialog(this, tr("Export CSV"), tr("CSV (*.csv)"), QStringLiteral("csv"),
                 [this](const QString& path, QString* error) { return exportCsv(path, error); });
}

}  // namespace qs::ui
