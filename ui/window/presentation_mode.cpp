#include "ui/window/presentation_mode.h"

#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QDockWidget>
#include <QKeyEvent>
#include <QKeySequence>
#include <QMainWindow>

#include "ui/plot/plot_frame.h"

namespace qs::ui {

PresentationMode::PresentationMode(QMainWindow* window) : QObject(window), window_(window) {
    action_ = new QAction(tr("&Presentation mode"), this);
    action_->setObjectName("presentationModeAction");
    action_->setCheckable(true);
    action_->setShortcut(QKeySequence(Qt::Key_F5));
    action_->setToolTip(tr("Full screen, large text and thick lines; arrow keys step through "
                           "a lesson, Esc leaves"));
    connect(action_, &QAction::toggled, this, &PresentationMode::setOn);
    // The application sees the keys first, so focus inside a spin box or table does not
    // swallow the lesson steps.
    qApp->installEventFilter(this);
}

void PresentationMode::setOn(bool on) {
    if (on == on_) return;
    on_ = on;
    action_->setChecked(on);
    if (on) {
        wasMaximized_ = window_->isMaximized();
        baseFontSize_ = window_->font().pointSizeF();
        savedLayout_ = window_->saveState();
        for (QDockWidget* d : window_->findChildren<QDockWidget*>())
            if (!d->property("qsShowInPresentation").toBool()) d->hide();
        scaleWidgets(kFontScale, kPlotScale, kPlotFontScale);
        window_->showFullScreen();
    } else {
        scaleWidgets(1.0, 1.0, 1.0);
        window_->restoreState(savedLayout_);
        if (wasMaximized_) window_->showMaximized(); else window_->showNormal();
    }
    emit toggled(on);
}

void PresentationMode::scaleWidgets(double fontScale, double plotScale, double plotFontScale) {
    QFont f = window_->font();
    if (baseFontSize_ > 0) f.setPointSizeF(baseFontSize_ * fontScale);
    window_->setFont(f);  // propagates to every child widget that has no font of its own
    for (PlotFrame* p : window_->findChildren<PlotFrame*>()) p->setPresentationScale(plotScale, plotFontScale);
}

namespace {
// The keys of eventFilter, one list for it and for the help.
const QList<int> kNextKeys{Qt::Key_Right, Qt::Key_PageDown, Qt::Key_Space};
const QList<int> kPreviousKeys{Qt::Key_Left, Qt::Key_PageUp};

// A field the audience is asked to change (a "Try these" spin box, a text field, a slider)
// keeps the arrows, Space and Page keys while it has the focus: they move its cursor or its
// value, and stepping the lesson under the typing hand lost the edit.
bool takesItsOwnKeys(const QWidget* widget) {
    for (const QWidget* w = widget; w && !w->isWindow(); w = w->parentWidget()) {
        if (w->inherits("QLineEdit") || w->inherits("QAbstractSpinBox") || w->inherits("QAbstractSlider") ||
            w->inherits("QTextEdit") || w->inherits("QPlainTextEdit"))
            return true;
        if (const auto* combo = qobject_cast<const QComboBox*>(w); combo && combo->isEditable()) return true;
    }
    return false;
}

QString keyNames(const QList<int>& keys) {
    QStringList names;
    for (int k : keys) names << QKeySequence(k).toString(QKeySequence::NativeText);
    return names.join(QStringLiteral(", "));
}
}  // namespace

QList<std::pair<QString, QString>> PresentationMode::keys() {
    return {{keyNames(kNextKeys), tr("Next lesson")},
            {keyNames(kPreviousKeys), tr("Previous lesson")},
            {keyNames({Qt::Key_Escape}), tr("Leave presentation mode")}};
}

bool PresentationMode::eventFilter(QObject* watched, QEvent* event) {
    if (!on_ || event->type() != QEvent::KeyPress) return QObject::eventFilter(watched, event);
    // Only keys aimed at this window (not at a dialog it opened).
    auto* widget = qobject_cast<QWidget*>(watched);
    if (!widget || widget->window() != window_) return QObject::eventFilter(watched, event);
    const int key = static_cast<QKeyEvent*>(event)->key();
    if (key == Qt::Key_Escape) {
        // From a field: back to stepping first (the window takes the focus), then out.
        if (takesItsOwnKeys(widget)) window_->setFocus(Qt::ShortcutFocusReason);
        else setOn(false);
        return true;
    }
    const int delta = kNextKeys.contains(key) ? +1 : kPreviousKeys.contains(key) ? -1 : 0;
    if (delta == 0 || takesItsOwnKeys(widget)) return QObject::eventFilter(watched, event);
    emit stepRequested(delta);
    return true;
}

}  // namespace qs::ui
