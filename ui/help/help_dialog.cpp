#include "ui/help/help_dialog.h"

#include <QDialogButtonBox>
#include <QFile>
#include <QHeaderView>
#include <QTabWidget>
#include <QTableWidget>
#include <QTextBrowser>
#include <QVBoxLayout>

#include "ui/help/shortcut_list.h"
#include "ui/window/presentation_mode.h"

namespace qs::ui {

HelpDialog::HelpDialog(const QMenuBar* menuBar, QWidget* parent) : QDialog(parent), menuBar_(menuBar) {
    setObjectName(QStringLiteral("helpDialog"));
    setWindowTitle(tr("QuantScope help"));
    manual_ = new QTextBrowser;
    manual_->setObjectName(QStringLiteral("helpManual"));
    manual_->setOpenExternalLinks(true);
    QFile page(QStringLiteral(":/help/manual.html"));
    manual_->setHtml(page.open(QIODevice::ReadOnly)
                         ? QString::fromUtf8(page.readAll())
                         : tr("<p>The manual is not part of this build. docs/ and README.md in the source "
                              "tree describe every view.</p>"));
    shortcuts_ = new QTableWidget(0, 3);
    shortcuts_->setObjectName(QStringLiteral("helpShortcuts"));
    shortcuts_->setHorizontalHeaderLabels({tr("Keys"), tr("Action"), tr("Menu")});
    shortcuts_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    shortcuts_->setSelectionBehavior(QAbstractItemView::SelectRows);
    shortcuts_->verticalHeader()->hide();
    shortcuts_->verticalHeader()->setDefaultSectionSize(shortcuts_->fontMetrics().height() + 8);
    shortcuts_->setAlternatingRowColors(true);
    shortcuts_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    shortcuts_->horizontalHeader()->setStretchLastSection(true);
    tabs_ = new QTabWidget;
    tabs_->addTab(manual_, tr("Manual"));
    tabs_->addTab(shortcuts_, tr("Keyboard shortcuts"));
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(tabs_);
    layout->addWidget(buttons);
    resize(760, 600);
    refreshShortcuts();
}

void HelpDialog::showTab(int tab) {
    if (tab == 1) refreshShortcuts();
    tabs_->setCurrentIndex(tab);
}

void HelpDialog::refreshShortcuts() {
    QList<ShortcutRow> rows = shortcutRows(menuBar_);
    for (const auto& [keys, what] : PresentationMode::keys()) rows.append({tr("Presentation mode"), what, keys});
    shortcuts_->setRowCount(static_cast<int>(rows.size()));
    for (int r = 0; r < rows.size(); ++r) {
        shortcuts_->setItem(r, 0, new QTableWidgetItem(rows[r].keys));
        shortcuts_->setItem(r, 1, new QTableWidgetItem(rows[r].action));
        shortcuts_->setItem(r, 2, new QTableWidgetItem(rows[r].menu));
    }
}

}  // namespace qs::ui
