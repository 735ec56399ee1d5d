#include "ui/panels/range_checked_spin_box.h"

#include <QLocale>
#include <QToolTip>
#include <utility>

namespace qs::ui {

std::optional<double> RangeNoticeSource::outOfRange(const QAbstractSpinBox* box, QString text, double min,
                                                    double max) {
    text = text.trimmed();
    if (const auto* spin = qobject_cast<const QSpinBox*>(box)) {
        if (text.startsWith(spin->prefix())) text.remove(0, spin->prefix().size());
        if (text.endsWith(spin->suffix())) text.chop(spin->suffix().size());
    } else if (const auto* dspin = qobject_cast<const QDoubleSpinBox*>(box)) {
        if (text.startsWith(dspin->prefix())) text.remove(0, dspin->prefix().size());
        if (text.endsWith(dspin->suffix())) text.chop(dspin->suffix().size());
    }
    text = text.trimmed();
    if (text.isEmpty()) return std::nullopt;
    // The locale reads its group separators ("9,999,999") as the spin box writes them.
    bool ok = false;
    const double value = box->locale().toDouble(text, &ok);
    if (!ok || (value >= min && value <= max)) return std::nullopt;
    return value;
}

QString RangeNoticeSource::noticeText(const QString& typed, double value, double min, const QString& shownBound) {
    return value < min ? QObject::tr("%1 is below the minimum, %2: set to %2.").arg(typed, shownBound)
                       : QObject::tr("%1 is above the maximum, %2: set to %2.").arg(typed, shownBound);
}

void RangeNoticeSource::markTyped(QAbstractSpinBox* box, QLineEdit* edit, bool outside, const QString& allowed) {
    QPalette palette = box->palette();
    if (outside) palette.setColor(QPalette::Text, QColor(0xc6, 0x28, 0x28));
    edit->setPalette(palette);
    if (outside) QToolTip::showText(box->mapToGlobal(QPoint(0, box->height())), allowed, box);
    else QToolTip::hideText();
}

void RangeNoticeSource::finishEdit(QAbstractSpinBox* box, QLineEdit* edit) {
    markTyped(box, edit, false, QString());
    const QString notice = std::exchange(pending_, QString());
    if (!notice.isEmpty() && handler_) handler_(notice);
}

QLabel* makeRangeNoticeLabel(const QString& objectName) {
    auto* label = new QLabel;
    label->setObjectName(objectName);
    label->setWordWrap(true);
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    label->setStyleSheet(QStringLiteral("QLabel { color: #7a4b00; background: #fff4d6; border: 1px solid #f0d48a;"
                                        " border-radius: 4px; padding: 6px; }"));
    label->hide();
    return label;
}

void watchRanges(QWidget* panel, QFormLayout* form, QLabel* label) {
    const auto hide = [label] { label->hide(); };
    for (QAbstractSpinBox* box : panel->findChildren<QAbstractSpinBox*>()) {
        auto* source = dynamic_cast<RangeNoticeSource*>(box);
        if (!source) continue;
        source->setRangeNoticeHandler([form, label, box](const QString& notice) {
            const auto* name = qobject_cast<QLabel*>(form->labelForField(box));
            label->setText(name && !name->text().isEmpty() ? QStringLiteral("%1: %2").arg(name->text(), notice)
                                                           : notice);
            label->show();
        });
        if (auto* spin = qobject_cast<QSpinBox*>(box)) QObject::connect(spin, &QSpinBox::valueChanged, label, hide);
        if (auto* spin = qobject_cast<QDoubleSpinBox*>(box))
            QObject::connect(spin, &QDoubleSpinBox::valueChanged, label, hide);
    }
}

}  // namespace qs::ui
