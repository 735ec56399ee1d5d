// Spin boxes that refuse an out-of-range value visibly. Qt's own drop the keystroke that
// would leave the range without a word: 99 typed into a 1..16 field reads 9, 999999999999
// samples read 9,999,999. These keep the text as typed, mark it (red text, the allowed range
// as a tooltip at the field) and, when the edit ends (Enter, focus leaves), put the nearest
// allowed value in and say so through the notice handler: "99 is above the maximum, 16:
// set to 16." (the panel showing it clears it on the next change of a value).
#pragma once

#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QSpinBox>
#include <QValidator>
#include <functional>
#include <optional>

namespace qs::ui {

// The part every range-checked spin box shares, reached through dynamic_cast from a
// QAbstractSpinBox.
class RangeNoticeSource {
public:
    using Handler = std::function<void(const QString& notice)>;
    virtual ~RangeNoticeSource() = default;
    void setRangeNoticeHandler(Handler handler) { handler_ = std::move(handler); }

protected:
    // The typed number when it parses and lies outside [min, max]; nothing otherwise.
    static std::optional<double> outOfRange(const QAbstractSpinBox* box, QString text, double min, double max);
    // "99 is above the maximum, 16: set to 16."; `shown` is how the box writes the bound.
    static QString noticeText(const QString& typed, double value, double min, const QString& shownBound);
    // Red text and the tooltip while `text` is out of range; back to normal otherwise.
    static void markTyped(QAbstractSpinBox* box, QLineEdit* edit, bool outside, const QString& allowed);
    void finishEdit(QAbstractSpinBox* box, QLineEdit* edit);

    mutable QString pending_;  // set by fixup() (const in Qt), reported when the edit ends
    Handler handler_;
};

template <typename Spin>
class RangeChecked : public Spin, public RangeNoticeSource {
public:
    explicit RangeChecked(QWidget* parent = nullptr) : Spin(parent) {
        QObject::connect(this->lineEdit(), &QLineEdit::textEdited, this, [this](const QString& text) {
            markTyped(this, this->lineEdit(), outOfRange(this, text, this->minimum(), this->maximum()).has_value(),
                      allowedText());
        });
        QObject::connect(this, &QAbstractSpinBox::editingFinished, this,
                         [this] { finishEdit(this, this->lineEdit()); });
    }

protected:
    QValidator::State validate(QString& text, int& pos) const override {
        const QValidator::State state = Spin::validate(text, pos);
        // Out of range is not a wrong keystroke: the text stays, the commit says what it does.
        if (state == QValidator::Invalid && outOfRange(this, text, this->minimum(), this->maximum()))
            return QValidator::Intermediate;
        return state;
    }

    void fixup(QString& text) const override {
        const auto typed = outOfRange(this, text, this->minimum(), this->maximum());
        if (!typed) return Spin::fixup(text);
        const auto bound = *typed < this->minimum() ? this->minimum() : this->maximum();
        QString shown = this->textFromValue(bound);
        if (bound == this->minimum() && !this->specialValueText().isEmpty())
            shown += QStringLiteral(" (%1)").arg(this->specialValueText());
        pending_ = noticeText(text.trimmed(), *typed, this->minimum(), shown);
        text = this->prefix() + this->textFromValue(bound) + this->suffix();
    }

private:
    QString allowedText() const {
        return QObject::tr("From %1 to %2").arg(this->textFromValue(this->minimum()), this->textFromValue(this->maximum()));
    }
};

using RangeCheckedSpinBox = RangeChecked<QSpinBox>;
using RangeCheckedDoubleSpinBox = RangeChecked<QDoubleSpinBox>;

// The label under a form that shows the notices, hidden until one comes.
QLabel* makeRangeNoticeLabel(const QString& objectName);
// Every range-checked spin box of `panel` reports to `label` as "FIELD: notice", FIELD being
// its row's label in `form`; the next change of any of their values hides the notice.
void watchRanges(QWidget* panel, QFormLayout* form, QLabel* label);

}  // namespace qs::ui
