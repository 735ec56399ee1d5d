#include "ui/panels/parameter_panel.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QLabel>
#include <QPushButton>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QVBoxLayout>
#include <algorithm>
#include <limits>

#include "session/explorer/explorer_model.h"
#include "ui/panels/range_checked_spin_box.h"

namespace qs::ui {

namespace {

QString toQString(std::string_view s) {
    return QString::fromUtf8(s.data(), static_cast<qsizetype>(s.size()));
}

// Combo items carry the core enum as an int (the attributes' combos too, see showValue).
template <typename Enum>
void addEnumItem(QComboBox* combo, std::string_view text, Enum value) {
    combo->addItem(toQString(text), static_cast<int>(value));
}

template <typename Enum>
Enum currentEnum(const QComboBox* combo) {
    return static_cast<Enum>(combo->currentData().toInt());
}

template <typename Enum>
void selectEnum(QComboBox* combo, Enum value) {
    combo->setCurrentIndex(combo->findData(static_cast<int>(value)));
}

QDoubleSpinBox* makeDoubleSpin(const QString& objectName, double lo, double hi, int decimals) {
    auto* spin = new RangeCheckedDoubleSpinBox;
    spin->setObjectName(objectName);
    spin->setRange(lo, hi);
    spin->setDecimals(decimals);
    spin->setSingleStep(0.1);
    spin->setAccelerated(true);
    // Commit on Enter or focus loss, not per keystroke: typing "-0.5" would otherwise pass
    // through "0" and flash a range error (and an undo step) for an intermediate value.
    spin->setKeyboardTracking(false);
    return spin;
}

// "narrow_range" -> "narrowRange" (or the row's own id), plus the widget's kind.
QString fieldName(const OpAttribute& a) {
    if (!a.id.empty()) return toQString(a.id);
    QString camel;
    bool upper = false;
    for (char c : a.name) {
        if (c == '_') {
            upper = true;
            continue;
        }
        camel += upper ? QChar::fromLatin1(c).toUpper() : QChar::fromLatin1(c);
        upper = false;
    }
    return camel;
}

QString fieldSuffix(AttrKind kind) {
    switch (kind) {
        case AttrKind::Bool: return QStringLiteral("Check");
        case AttrKind::Int:
        case AttrKind::Float: return QStringLiteral("Spin");
        case AttrKind::Enum: break;
    }
    return QStringLiteral("Combo");
}

int clampToInt(double v) { return static_cast<int>(std::clamp(v, double(INT32_MIN), double(INT32_MAX))); }

QSpinBox* makeIntSpin(const QString& objectName, int lo, int hi) {
    auto* spin = new RangeCheckedSpinBox;
    spin->setObjectName(objectName);
    spin->setRange(lo, hi);
    spin->setKeyboardTracking(false);
    return spin;
}

}  // namespace

ParameterPanel::ParameterPanel(ExplorerModel* model, QWidget* parent)
    : QWidget(parent), model_(model) {
    buildForm();
    refreshFromModel();
    connectWidgetsToModel();
    // One refresh for every change keeps the two directions symmetric and cheap; the
    // QSignalBlockers inside stop the echo back into the model.
    connect(model_, &ExplorerModel::specChanged, this, &ParameterPanel::refreshFromModel);
    connect(model_, &ExplorerModel::viewStateChanged, this, &ParameterPanel::refreshChannel);
}

void ParameterPanel::refreshChannel() {
    const QSignalBlocker block(channelSpin_);
    channelSpin_->setValue(static_cast<int>(model_->viewState().channel));
}

QWidget* ParameterPanel::makeField(const OpAttribute& a) {
    const QString name = fieldName(a) + fieldSuffix(a.kind);
    QWidget* field = nullptr;
    switch (a.kind) {
        case AttrKind::Bool: {
            auto* check = new QCheckBox(toQString(a.label.empty() ? a.name : a.label));
            connect(check, &QCheckBox::toggled, this, [this, &a](bool on) { model_->setAttribute(a, on); });
            field = check;
            break;
        }
        case AttrKind::Int: {
            auto* spin = makeIntSpin(name, clampToInt(a.min), clampToInt(a.max));
            if (!a.min_text.empty()) spin->setSpecialValueText(toQString(a.min_text));
            connect(spin, &QSpinBox::valueChanged, this,
                    [this, &a](int v) { model_->setAttribute(a, static_cast<int64_t>(v)); });
            field = spin;
            break;
        }
        case AttrKind::Float: {
            auto* spin = makeDoubleSpin(name, a.min, a.max, a.decimals);
            spin->setSingleStep(a.step);
            // The model holds float32. A typed value the float cannot hold (999999999.9)
            // becomes the nearest float; when that float is the value already in use nothing
            // changes and no specChanged comes, so the form is refreshed here to show it.
            connect(spin, &QDoubleSpinBox::valueChanged, this, [this, &a](double v) {
                model_->setAttribute(a, static_cast<double>(static_cast<float>(v)));
                refreshFromModel();
            });
            field = spin;
            break;
        }
        case AttrKind::Enum: {
            auto* combo = new QComboBox;
            connect(combo, &QComboBox::currentIndexChanged, this, [this, &a, combo] {
                model_->setAttribute(a, static_cast<int64_t>(combo->currentData().toInt()));
            });
            field = combo;
            break;
        }
    }
    field->setObjectName(name);
    field->setToolTip(toQString(a.tooltip));
    return field;
}

void ParameterPanel::buildForm() {
    opCombo_ = new QComboBox;
    opCombo_->setObjectName("opCombo");
    for (QuantOp op : kAllQuantOps) addEnumItem(opCombo_, quantOpName(op), op);
    opCombo_->setToolTip(tr(
        "<p>The TensorFlow op applied to the data.</p>"
        "<p><b>QuantizeV2 → Dequantize</b>: tf.quantization.quantize, then dequantize with the "
        "output_min/output_max it returns.<br><b>QuantizeAndDequantizeV2/V3/V4</b>: fake "
        "quantization in one op (V3 takes num_bits as a tensor and always rounds half to "
        "even; V4 is V2 with a clipped gradient).<br><b>TPU simulated quantization</b>: "
        "QuantizationConfig(num_buckets, lower, upper), applied to looked-up rows.</p>"));

    channelSpin_ = makeIntSpin("channelSpin", 0, limits::kMaxChannel);
    channelSpin_->setToolTip(tr("<p>The channel whose transfer curve and read-out are drawn "
                                "(the other views show every channel).</p>"));

    minRangeSpin_ = makeDoubleSpin("minRangeSpin", -limits::kMaxRangeMagnitude, limits::kMaxRangeMagnitude, 6);
    maxRangeSpin_ = makeDoubleSpin("maxRangeSpin", -limits::kMaxRangeMagnitude, limits::kMaxRangeMagnitude, 6);
    minRangeSpin_->setToolTip(tr(
        "<p>The low end of the range, passed to the op as float32: QuantizeV2 "
        "<b>min_range</b>, QDQ <b>input_min</b>, TPU <b>lower</b>. Drag the handles on the "
        "plots to change it with the mouse.</p>"));
    maxRangeSpin_->setToolTip(tr(
        "<p>The high end of the range: QuantizeV2 <b>max_range</b>, QDQ <b>input_max</b>, "
        "TPU <b>upper</b>. Below the low end is an error in TensorFlow, and shown as one.</p>"));

    fromDataButton_ = new QPushButton(tr("From data"));
    fromDataButton_->setObjectName("fromDataButton");
    fromDataButton_->setToolTip(tr("Set the range to the minimum and maximum of the data."));

    errorLabel_ = new QLabel;
    errorLabel_->setObjectName("errorLabel");
    errorLabel_->setWordWrap(true);
    errorLabel_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    errorLabel_->setStyleSheet(
        "QLabel { color: #8a1c1c; background: #fdecea; border: 1px solid #f0b4b4;"
        " border-radius: 4px; padding: 6px; }");
    errorLabel_->hide();

    form_ = new QFormLayout;
    form_->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    form_->addRow(tr("Op"), opCombo_);
    for (const OpAttribute& a : opAttributes()) {
        QWidget* field = makeField(a);
        fields_.push_back({&a, field});
        // A check box carries its name; other fields are labelled with it.
        form_->addRow(a.kind == AttrKind::Bool ? QString() : toQString(a.label.empty() ? a.name : a.label), field);
        // The channel whose curve is drawn goes with the per-channel ranges.
        if (a.name == "range_source") form_->addRow(tr("Curve of channel"), channelSpin_);
    }
    form_->addRow(QStringLiteral("min_range"), minRangeSpin_);
    form_->addRow(QStringLiteral("max_range"), maxRangeSpin_);
    form_->addRow(QString(), fromDataButton_);

    rangeNotice_ = makeRangeNoticeLabel(QStringLiteral("parameterRangeNotice"));

    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form_);
    layout->addWidget(rangeNotice_);
    layout->addWidget(errorLabel_);
    layout->addStretch(1);
    watchRanges(this, form_, rangeNotice_);  // once the fields are the panel's children
}

void ParameterPanel::connectWidgetsToModel() {
    // The attributes' fields are connected where they are made (makeField).
    connect(opCombo_, &QComboBox::currentIndexChanged, this,
            [this] { model_->setOp(currentEnum<QuantOp>(opCombo_)); });
    connect(minRangeSpin_, &QDoubleSpinBox::valueChanged, this, [this](double v) {
        model_->setMinRange(static_cast<float>(v));
        refreshFromModel();
    });
    connect(maxRangeSpin_, &QDoubleSpinBox::valueChanged, this, [this](double v) {
        model_->setMaxRange(static_cast<float>(v));
        refreshFromModel();
    });
    connect(fromDataButton_, &QPushButton::clicked, this,
            &ParameterPanel::rangeFromDataRequested);
    connect(channelSpin_, &QSpinBox::valueChanged, this, [this](int channel) {
        ViewState v = model_->viewState();
        v.channel = channel;
        model_->setViewState(v);
    });
}

void ParameterPanel::setRowVisible(QWidget* field, bool visible) {
    if (!shownOnly_.isEmpty()) {
        QString name = field == opCombo_ ? QStringLiteral("op")
                       : field == minRangeSpin_ || field == fromDataButton_ ? QStringLiteral("min_range")
                       : field == maxRangeSpin_ ? QStringLiteral("max_range")
                                                : QString();
        for (const AttributeField& f : fields_)
            if (f.widget == field) name = toQString(f.attribute->name);
        visible = visible && shownOnly_.contains(name);
    }
    form_->setRowVisible(field, visible);
}

void ParameterPanel::showOnly(const QStringList& names) {
    shownOnly_ = names;
    setRowVisible(opCombo_, true);
    refreshFromModel();
}

void ParameterPanel::showValue(const AttributeField& field, const QuantSpec& spec) {
    const OpAttribute& a = *field.attribute;
    const AttrValue v = a.get(spec);
    switch (a.kind) {
        case AttrKind::Bool: static_cast<QCheckBox*>(field.widget)->setChecked(std::get<bool>(v)); break;
        case AttrKind::Int:
            static_cast<QSpinBox*>(field.widget)->setValue(clampToInt(static_cast<double>(std::get<int64_t>(v))));
            break;
        case AttrKind::Float: static_cast<QDoubleSpinBox*>(field.widget)->setValue(std::get<double>(v)); break;
        case AttrKind::Enum: {
            // The values TF accepts for this op (QuantizeV2 and QDQ round differently).
            auto* combo = static_cast<QComboBox*>(field.widget);
            combo->clear();
            for (const AttrChoice& c : a.values())
                if (a.parse(c.name, spec.op))
                    combo->addItem(toQString(c.label.empty() ? c.name : c.label), static_cast<int>(c.value));
            combo->setCurrentIndex(combo->findData(static_cast<int>(std::get<int64_t>(v))));
            break;
        }
    }
}

void ParameterPanel::refreshFromModel() {
    const QuantSpec& s = model_->spec();
    QList<std::shared_ptr<QSignalBlocker>> blockers;
    for (QWidget* w : {static_cast<QWidget*>(opCombo_), static_cast<QWidget*>(minRangeSpin_),
                       static_cast<QWidget*>(maxRangeSpin_)})
        blockers.append(std::make_shared<QSignalBlocker>(w));
    for (const AttributeField& f : fields_) blockers.append(std::make_shared<QSignalBlocker>(f.widget));

    selectEnum(opCombo_, s.op);
    for (const AttributeField& f : fields_) {
        showValue(f, s);
        const OpAttribute& a = *f.attribute;
        const AttrUse use = a.use(s.op);  // V3's num_bits is an input, set here all the same
        setRowVisible(f.widget, (use == AttrUse::Attr || use == AttrUse::Input) && (!a.shown || a.shown(s)));
    }
    minRangeSpin_->setValue(s.min_range);
    maxRangeSpin_->setValue(s.max_range);
    for (QWidget* w : {static_cast<QWidget*>(minRangeSpin_), static_cast<QWidget*>(maxRangeSpin_),
                       static_cast<QWidget*>(fromDataButton_)})
        setRowVisible(w, true);  // all ops have a range; showOnly may leave it out

    const bool qdq = isQdq(s.op), takesRangeSource = opDescriptor(s.op).uses.range_source != AttrUse::None;
    setRowVisible(channelSpin_, usesAxis(s.op) && s.axis >= 0);
    refreshChannel();
    // The range fields mean nothing when the op takes its range from the data.
    const bool rangeUsed = !(qdq && !s.range_given) &&
                           !(takesRangeSource && s.axis >= 0 && s.range_source == RangeSource::FromData);
    minRangeSpin_->setEnabled(rangeUsed);
    maxRangeSpin_->setEnabled(rangeUsed);
    const RangeInputNames names = rangeInputNames(s.op);
    if (auto* l = qobject_cast<QLabel*>(form_->labelForField(minRangeSpin_))) l->setText(toQString(names.tf_min));
    if (auto* l = qobject_cast<QLabel*>(form_->labelForField(maxRangeSpin_))) l->setText(toQString(names.tf_max));
}

void ParameterPanel::setError(const QString& message) {
    errorLabel_->setText(message);
    errorLabel_->setVisible(!message.isEmpty());
}

}  // namespace qs::ui
