#include "ui/status/job_status.h"

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

JobStatus::JobStatus(const QString& name, QWidget* parent) : QWidget(parent) {
    setObjectName(name + QStringLiteral("Status"));
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(6, 2, 6, 2);
    label_ = new QLabel;
    label_->setObjectName(name + QStringLiteral("StatusLabel"));
    label_->setWordWrap(true);
    label_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    bar_ = new QProgressBar;
    bar_->setObjectName(name + QStringLiteral("Progress"));
    bar_->setFixedWidth(160);  // room for the percentage it prints
    bar_->setMaximumHeight(18);
    cancel_ = new QPushButton(tr("Cancel"));
    cancel_->setObjectName(name + QStringLiteral("Cancel"));
    rerun_ = new QPushButton(tr("Run again"));
    rerun_->setObjectName(name + QStringLiteral("Rerun"));
    connect(cancel_, &QPushButton::clicked, this, &JobStatus::cancelRequested);
    connect(rerun_, &QPushButton::clicked, this, &JobStatus::rerunRequested);
    layout->addWidget(bar_);
    layout->addWidget(label_, 1);
    layout->addWidget(cancel_);
    layout->addWidget(rerun_);
    clear();
}

JobStatus* JobStatus::forAnalysis(QWidget* parent) {
    auto* status = new JobStatus(QStringLiteral("analysis"), parent);
    status->cancel_->setShortcut(QKeySequence(Qt::Key_Escape));
    status->cancel_->setToolTip(tr("Stop this analysis (Esc); the previous result stays, marked out of date"));
    return status;
}

void JobStatus::present(const QString& text, const QString& style, bool bar, bool cancel, bool rerun) {
    label_->setStyleSheet(style);
    label_->setText(text);
    bar_->setVisible(bar);
    cancel_->setVisible(cancel);
    rerun_->setVisible(rerun && rerunOffered_);
    setVisible(!hideWhenEmpty_ || !text.isEmpty() || bar);
}

void JobStatus::setBusy(const QString& text) {
    bar_->setRange(0, 0);  // no fraction: an indeterminate bar
    bar_->setTextVisible(false);
    present(text, QString(), true, false, false);
}

void JobStatus::setRunning(const QString& text) {
    bar_->setRange(0, kPermille);
    bar_->setValue(0);
    bar_->setTextVisible(true);
    present(text, QString(), true, true, false);
}

void JobStatus::setProgress(double fraction) {
    if (!isRunning()) return;  // a report that arrived after the run was stopped
    bar_->setValue(static_cast<int>(std::lround(std::clamp(fraction, 0.0, 1.0) * kPermille)));
}

void JobStatus::setCancelled(const QString& text) { present(text, QString(), false, false, true); }

void JobStatus::setError(const QString& text) {
    present(text, QStringLiteral("color: #c62828;"), false, false, false);
}

void JobStatus::setInfo(const QString& text) { present(text, QString(), false, false, false); }

void JobStatus::setText(const QString& text) {
    label_->setStyleSheet(QString());
    label_->setText(text);
    setVisible(!hideWhenEmpty_ || !text.isEmpty() || isBusy());
}

void JobStatus::finish() { present(label_->text(), label_->styleSheet(), false, false, false); }

void JobStatus::setSingleLine(bool single) {
    label_->setWordWrap(!single);
    // A long message ("QuantizeV2 → Dequantize · 1,000,000 values · SQNR …") is clipped at
    // the edge instead of holding the window wider than a 1280-pixel screen.
    label_->setSizePolicy(single ? QSizePolicy::Ignored : QSizePolicy::Preferred, QSizePolicy::Preferred);
}

bool JobStatus::isBusy() const { return !bar_->isHidden(); }
bool JobStatus::isRunning() const { return !cancel_->isHidden(); }
int JobStatus::progressPermille() const { return isRunning() ? bar_->value() : -1; }
QString JobStatus::text() const { return label_->text(); }

}  // namespace qs::ui
