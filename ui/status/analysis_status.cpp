#include "ui/status/analysis_status.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <algorithm>
#include <cmath>

namespace qs::ui {

namespace {
constexpr int kPermille = 1000;
}  // namespace

AnalysisStatus::AnalysisStatus(QWidget* parent) : QWidget(parent) {
    setObjectName(QStringLiteral("analysisStatus"));
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(6, 2, 6, 2);
    label_ = new QLabel;
    label_->setObjectName(QStringLiteral("analysisStatusLabel"));
    label_->setWordWrap(true);
    label_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    bar_ = new QProgressBar;
    bar_->setObjectName(QStringLiteral("analysisProgress"));
    bar_->setFixedWidth(160);  // room for the percentage it prints
    bar_->setMaximumHeight(18);
    cancel_ = new QPushButton(tr("Cancel"));
    cancel_->setObjectName(QStringLiteral("analysisCancel"));
    // Esc reaches only the visible tab's button: a hidden button's shortcut is inactive.
    cancel_->setShortcut(QKeySequence(Qt::Key_Escape));
    cancel_->setToolTip(tr("Stop this analysis (Esc); the previous result stays, marked out of date"));
    rerun_ = new QPushButton(tr("Run again"));
    rerun_->setObjectName(QStringLiteral("analysisRerun"));
    connect(cancel_, &QPushButton::clicked, this, &AnalysisStatus::cancelRequested);
    connect(rerun_, &QPushButton::clicked, this, &AnalysisStatus::rerunRequested);
    layout->addWidget(bar_);
    layout->addWidget(label_, 1);
    layout->addWidget(cancel_);
    layout->addWidget(rerun_);
    clear();
}

void AnalysisStatus::present(const QString& text, const QString& style, bool bar, bool cancel, bool rerun) {
    label_->setStyleSheet(style);
    label_->setText(text);
    bar_->setVisible(bar);
    cancel_->setVisible(cancel);
    rerun_->setVisible(rerun);
    setVisible(!text.isEmpty() || bar);
}

void AnalysisStatus::setBusy(const QString& text) {
    bar_->setRange(0, 0);  // no fraction: an indeterminate bar
    bar_->setTextVisible(false);
    present(text, QString(), true, false, false);
}

void AnalysisStatus::setRunning(const QString& text) {
    bar_->setRange(0, kPermille);
    bar_->setValue(0);
    bar_->setTextVisible(true);
    present(text, QString(), true, true, false);
}

void AnalysisStatus::setProgress(double fraction) {
    if (!isRunning()) return;  // a report that arrived after the run was stopped
    bar_->setValue(static_cast<int>(std::lround(std::clamp(fraction, 0.0, 1.0) * kPermille)));
}

void AnalysisStatus::setCancelled(const QString& text) { present(text, QString(), false, false, true); }

void AnalysisStatus::setError(const QString& text) {
    present(text, QStringLiteral("color: #c62828;"), false, false, false);
}

void AnalysisStatus::setInfo(const QString& text) { present(text, QString(), false, false, false); }

bool AnalysisStatus::isBusy() const { return !bar_->isHidden(); }
bool AnalysisStatus::isRunning() const { return !cancel_->isHidden(); }
int AnalysisStatus::progressPermille() const { return isRunning() ? bar_->value() : -1; }
QString AnalysisStatus::text() const { return label_->text(); }

QColor categoryColor(int index, Theme theme) {
    static const QColor light[] = {QColor(0, 114, 178), QColor(213, 94, 0), QColor(0, 158, 115),
                                   QColor(204, 121, 167), QColor(230, 159, 0), QColor(86, 180, 233)};
    static const QColor dark[] = {QColor(86, 180, 233), QColor(255, 140, 60), QColor(60, 220, 160),
                                  QColor(230, 150, 200), QColor(240, 228, 66), QColor(150, 200, 255)};
    const int n = static_cast<int>(std::size(light));
    const int i = ((index % n) + n) % n;
    return theme == Theme::Dark ? dark[i] : light[i];
}

}  // namespace qs::ui
