#include "ui/lessons/lesson_panel.h"

#include <QEvent>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QTextBrowser>
#include <QVBoxLayout>

#include "session/lessons/lesson_file.h"

namespace qs::ui {

namespace {

// Fixed colours that read on both themes (white text on a saturated box).
const char* kPassedStyle = "background:#1e7d32; color:white; border-radius:4px; padding:6px;";
const char* kFailedStyle = "background:#c62828; color:white; border-radius:4px; padding:6px;";
const char* kNeutralStyle = "border:1px solid palette(mid); border-radius:4px; padding:6px;";

}  // namespace

// The child widgets the constructor makes; make_unique value-initializes them (null).
struct LessonPanel::Items {
    QLabel *title, *check, *position;
    QTextBrowser* explanation;
    QPushButton *previous, *next;
    QGroupBox* strip;
};

LessonPanel::LessonPanel(QWidget* parent) : QWidget(parent), items_(std::make_unique<Items>()) {
    setObjectName(QStringLiteral("lessonPanel"));
    items_->title = new QLabel;
    items_->title->setObjectName(QStringLiteral("lessonTitle"));
    items_->title->setWordWrap(true);

    items_->explanation = new QTextBrowser;
    items_->explanation->setObjectName(QStringLiteral("lessonExplanation"));
    items_->explanation->setOpenExternalLinks(true);
    items_->explanation->setFrameShape(QFrame::NoFrame);

    items_->check = new QLabel;
    items_->check->setObjectName(QStringLiteral("lessonCheck"));
    items_->check->setWordWrap(true);
    items_->check->setTextFormat(Qt::RichText);

    items_->previous = new QPushButton(tr("◀ Previous"));
    items_->previous->setObjectName(QStringLiteral("lessonPrevious"));
    items_->next = new QPushButton(tr("Next ▶"));
    items_->next->setObjectName(QStringLiteral("lessonNext"));
    items_->position = new QLabel;
    items_->position->setObjectName(QStringLiteral("lessonPosition"));
    items_->position->setAlignment(Qt::AlignCenter);
    connect(items_->previous, &QPushButton::clicked, this, [this] { emit stepRequested(-1); });
    connect(items_->next, &QPushButton::clicked, this, [this] { emit stepRequested(+1); });

    auto* nav = new QHBoxLayout;
    nav->addWidget(items_->previous);
    nav->addWidget(items_->position, 1);
    nav->addWidget(items_->next);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(items_->title);
    layout->addWidget(items_->explanation, 1);
    items_->strip = new QGroupBox(tr("Try these"));
    items_->strip->setObjectName(QStringLiteral("lessonParameters"));
    new QVBoxLayout(items_->strip);
    items_->strip->hide();
    layout->addWidget(items_->strip);
    layout->addWidget(items_->check);
    layout->addLayout(nav);
    updateFonts();
    showNoLesson();
}

void LessonPanel::showNoLesson() {
    items_->title->setText(tr("No lesson"));
    items_->explanation->clear();
    items_->position->clear();
    items_->previous->setEnabled(false);
    items_->next->setEnabled(true);  // starts the first lesson
    setState(CheckState::None, tr("No lesson"), tr("Choose one from the Lessons menu."));
}

LessonPanel::~LessonPanel() = default;

QPushButton* LessonPanel::previousButton() const { return items_->previous; }
QPushButton* LessonPanel::nextButton() const { return items_->next; }

void LessonPanel::showLesson(const Lesson& lesson, int index, int count) {
    items_->title->setText(lesson.title);
    items_->explanation->setHtml(lesson.explanation);
    items_->position->setText(tr("Lesson %1 of %2").arg(index + 1).arg(count));
    items_->previous->setEnabled(index > 0);
    items_->next->setEnabled(index + 1 < count);
    showCheckRunning();
}

void LessonPanel::setParameterStrip(QWidget* strip) {
    items_->strip->layout()->setContentsMargins(4, 4, 4, 4);
    items_->strip->layout()->addWidget(strip);
}

void LessonPanel::setParameterStripVisible(bool visible) { items_->strip->setVisible(visible); }

void LessonPanel::showCheckRunning() {
    setState(CheckState::Running, tr("Checking…"), tr("measuring on the current data"));
}

void LessonPanel::showCheckResult(const qs::analysis::LessonCheckResult& r) {
    const QString detail = QString::fromStdString(r.text).toHtmlEscaped();
    if (r.passed) setState(CheckState::Passed, tr("✔ Measurement agrees with the theory"), detail);
    else setState(CheckState::Failed, tr("✘ Measurement differs from the theory"), detail);
}

void LessonPanel::showCheckError(const QString& message) {
    setState(CheckState::Error, tr("Cannot check"), message.toHtmlEscaped());
}

void LessonPanel::setState(CheckState state, const QString& verdict, const QString& detail) {
    state_ = state;
    items_->check->setStyleSheet(QLatin1String(state == CheckState::Passed   ? kPassedStyle
                                               : state == CheckState::Failed ? kFailedStyle
                                                                             : kNeutralStyle));
    items_->check->setText(QStringLiteral("<b>%1</b><br>%2").arg(verdict.toHtmlEscaped(), detail));
}

void LessonPanel::changeEvent(QEvent* event) {
    if (event->type() == QEvent::FontChange) updateFonts();
    QWidget::changeEvent(event);
}

// The title's own font and the check box's style sheet stop the panel's font from reaching
// them, so a bigger window font (presentation mode) would leave both at their old size:
// both are derived from the panel's font whenever it changes.
void LessonPanel::updateFonts() {
    QFont big = font();
    if (big.pointSizeF() > 0) big.setPointSizeF(big.pointSizeF() * 1.25);
    big.setBold(true);
    items_->title->setFont(big);
    items_->check->setFont(font());
}

QString LessonPanel::checkText() const { return items_->check->text(); }
QString LessonPanel::title() const { return items_->title->text(); }
QString LessonPanel::position() const { return items_->position->text(); }

}  // namespace qs::ui
