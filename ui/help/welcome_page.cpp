#include "ui/help/welcome_page.h"

#include <algorithm>

#include <QEvent>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>

#include "core/modelfile/model_formats.h"

namespace qs::ui {

namespace {
QPushButton* choice(const QString& text, const QString& detail, const char* name) {
    auto* b = new QPushButton(text);
    b->setObjectName(QLatin1String(name));
    b->setToolTip(detail);
    b->setMinimumHeight(b->sizeHint().height() * 3 / 2);
    return b;
}
}  // namespace

WelcomePage::WelcomePage(QWidget* over) : QFrame(over) {
    setObjectName(QStringLiteral("welcomePage"));
    setAutoFillBackground(true);
    auto* card = card_ = new QFrame;
    card->setObjectName(QStringLiteral("welcomeCard"));
    card->setFrameShape(QFrame::StyledPanel);
    // A set width (fitCard): word-wrapped labels in a layout of no set width get too little
    // height.
    auto* title = new QLabel(tr("<h2>Welcome to QuantScope</h2>"));
    auto* text = new QLabel(
        tr("<p>See what quantization does to numbers, exactly as TensorFlow's kernels compute it. "
           "The views behind this page already show a generated data set under QuantizeV2; every "
           "parameter is in the <b>Parameters</b> dock on the left, the data source in the "
           "<b>Data</b> dock beside it.</p><p>Where to start:</p>"));
    text->setWordWrap(true);
    text->setTextFormat(Qt::RichText);
    lesson_ = choice(tr("Try the first lesson: the staircase and its step"),
                     tr("Thirteen short lessons, each with a live check (Lessons menu)"), "welcomeLesson");
    // The formats on a second line: on one the button was wider than the views between the
    // docks of a 1280-pixel window.
    model_ = choice(tr("Open a model file…\n(%1)").arg(QString::fromStdString(qs::modelfile::modelFormatNames())),
                    tr("Explore its tensors and compare the stored codes with TF's rules"), "welcomeModel");
    data_ = choice(tr("Open a data file… (.npy, CSV, fastText .vec)"), tr("Quantize your own numbers"),
                   "welcomeData");
    explore_ = choice(tr("Explore the generated data"), tr("Close this page"), "welcomeExplore");
    auto* hint = new QLabel(tr("Help › Manual describes every view; Help › Welcome brings this page back."));
    hint->setWordWrap(true);
    auto* layout = new QVBoxLayout(card);
    layout->setContentsMargins(24, 16, 24, 20);
    layout->setSpacing(10);
    for (QWidget* w : std::initializer_list<QWidget*>{title, text, lesson_, model_, data_, explore_, hint})
        layout->addWidget(w);
    auto* outer = new QVBoxLayout(this);
    outer->addStretch(1);
    outer->addWidget(card, 0, Qt::AlignHCenter);
    outer->addStretch(2);

    auto choose = [this](void (WelcomePage::*signal)()) {
        return [this, signal] {
            hide();
            if (signal) emit(this->*signal)();
            emit dismissed();
        };
    };
    connect(lesson_, &QPushButton::clicked, this, choose(&WelcomePage::lessonRequested));
    connect(model_, &QPushButton::clicked, this, choose(&WelcomePage::openModelRequested));
    connect(data_, &QPushButton::clicked, this, choose(&WelcomePage::openDataRequested));
    connect(explore_, &QPushButton::clicked, this, choose(nullptr));
    over->installEventFilter(this);
    setGeometry(over->rect());
    fitCard();
    hide();
}

void WelcomePage::fitCard() {
    // 600 pixels where there is room, down to what its buttons need between the docks of a
    // 1280-pixel window (a fixed 600 ran under the Statistics dock there).
    int least = 0;
    for (QPushButton* b : {lesson_, model_, data_, explore_}) least = std::max(least, b->sizeHint().width());
    const QMargins m = card_->layout()->contentsMargins();
    least += m.left() + m.right() + 2 * card_->frameWidth();
    card_->setFixedWidth(std::max(least, std::min(600, width() - 16)));
}

bool WelcomePage::eventFilter(QObject* watched, QEvent* event) {
    if (watched == parentWidget() && event->type() == QEvent::Resize) {
        setGeometry(parentWidget()->rect());
        fitCard();
    }
    return QFrame::eventFilter(watched, event);
}

}  // namespace qs::ui
