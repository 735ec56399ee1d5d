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
#include <limits>

#include "ui/model/explorer_model.h"

namespace qs::ui {

namespace {

QString toQString(std::string_view s) {
    return QString::fromUtf8(s.data(), static_cast<qsizetype>(s.size()));
}

// Combo items carry the core enum as an int; these helpers are the only place that knows it.
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
    auto* spin = new QDoubleSpinBox;
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

QSpinBox* makeIntSpin(const QString& objectName, int lo, int hi) {
    auto* spin = new QSpinBox;
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

    typeCombo_ = new QComboBox;
    typeCombo_->setObjectName("typeCombo");
    for (QType t : kAllQTypes) addEnumItem(typeCombo_, qtypeInfo(t).name, t);
    typeCombo_->setToolTip(tr("<p><b>T</b>: the quantized type, and so the number of codes "
                              "(qint8: −128…127, quint16: 0…65535, …).</p>"));

    modeCombo_ = new QComboBox;
    modeCombo_->setObjectName("modeCombo");
    for (QuantizeMode m : {QuantizeMode::MinCombined, QuantizeMode::MinFirst, QuantizeMode::Scaled})
        addEnumItem(modeCombo_, modeName(m), m);
    modeCombo_->setToolTip(tr(
        "<p><b>mode</b>: <b>MIN_COMBINED</b> maps [min, max] affinely onto the codes (signed "
        "types shifted by half the range); <b>MIN_FIRST</b> rounds min·scale first so the "
        "offset is an integer; <b>SCALED</b> is scale-only: 0.0 is code 0 and TF recomputes "
        "the bound on the looser side. Every mode first widens the range to include 0.</p>"));

    roundModeCombo_ = new QComboBox;
    roundModeCombo_->setObjectName("roundModeCombo");
    roundModeCombo_->setToolTip(tr(
        "<p><b>round_mode</b>: how ties (x.5) round. QuantizeV2: HALF_AWAY_FROM_ZERO "
        "(default) or HALF_TO_EVEN, which TF allows in SCALED mode only. QDQ V2/V4: "
        "HALF_TO_EVEN (default) or HALF_UP (floor(x + 0.5)).</p>"));

    narrowRangeCheck_ = new QCheckBox(tr("narrow_range"));
    narrowRangeCheck_->setObjectName("narrowRangeCheck");
    narrowRangeCheck_->setToolTip(tr(
        "<p><b>narrow_range</b>: drop the lowest code so the signed range is symmetric "
        "(qint8: −127…127). QuantizeV2 honours it in SCALED mode only; for quint8 it makes "
        "1 the smallest code, so 0.0 quantizes to 1.</p>"));

    signedInputCheck_ = new QCheckBox(tr("signed_input"));
    signedInputCheck_->setObjectName("signedInputCheck");
    signedInputCheck_->setToolTip(tr(
        "<p><b>signed_input</b>: codes −2^(b−1)…2^(b−1)−1 when true, 0…2^b−1 when false. "
        "Unsigned does not clamp negatives unless the range is given.</p>"));

    numBitsSpin_ = makeIntSpin("numBitsSpin", limits::kMinNumBits, limits::kMaxNumBits);
    numBitsSpin_->setToolTip(tr("<p><b>num_bits</b>: the bit width of the fake quantizer; TF "
                                "accepts 1…61 (signed) or 1…62 (unsigned).</p>"));

    rangeGivenCheck_ = new QCheckBox(tr("range_given"));
    rangeGivenCheck_->setObjectName("rangeGivenCheck");
    rangeGivenCheck_->setToolTip(tr(
        "<p><b>range_given</b>: use input_min/input_max (and clamp to them); when false, TF "
        "takes the min and max of the data (per channel with an axis) and does not clamp.</p>"));

    numBucketsSpin_ = makeIntSpin("numBucketsSpin", limits::kMinNumBuckets, limits::kMaxNumBuckets);
    numBucketsSpin_->setToolTip(tr(
        "<p><b>num_buckets</b>: the number of levels between lower and upper (inclusive). "
        "TF raises ValueError below 2.</p>"));

    axisSpin_ = makeIntSpin("axisSpin", limits::kMinAxis, limits::kMaxAxis);
    axisSpin_->setSpecialValueText(tr("−1 (per tensor)"));
    axisSpin_->setToolTip(tr(
        "<p><b>axis</b>: quantize each slice along this dimension with its own range "
        "(per-channel). −1 quantizes the whole tensor with one range.</p>"));

    rangeSourceCombo_ = new QComboBox;
    rangeSourceCombo_->setObjectName("rangeSourceCombo");
    rangeSourceCombo_->addItem(tr("the range below, for every channel"),
                               static_cast<int>(RangeSource::Given));
    rangeSourceCombo_->addItem(tr("each channel's own min/max"),
                               static_cast<int>(RangeSource::FromData));
    rangeSourceCombo_->setToolTip(tr(
        "<p>With an axis, QuantizeV2 takes one min_range/max_range per channel: either the "
        "range below repeated, or each channel's min and max (per-channel calibration).</p>"));

    channelSpin_ = makeIntSpin("channelSpin", 0, limits::kMaxChannel);
    channelSpin_->setToolTip(tr("<p>The channel whose transfer curve and read-out are drawn "
                                "(the other views show every channel).</p>"));

    ensureMinimumRangeSpin_ = makeDoubleSpin("ensureMinimumRangeSpin", 0, limits::kMaxEnsureMinimumRange, 4);
    ensureMinimumRangeSpin_->setSingleStep(0.01);
    ensureMinimumRangeSpin_->setToolTip(tr(
        "<p><b>ensure_minimum_range</b> (default 0.01): the range is widened to at least this "
        "fraction of max(1, |min|, |max|). TF suggests 0 for new uses.</p>"));

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
    form_->addRow(QStringLiteral("T"), typeCombo_);
    form_->addRow(QStringLiteral("mode"), modeCombo_);
    form_->addRow(QStringLiteral("round_mode"), roundModeCombo_);
    form_->addRow(QString(), narrowRangeCheck_);
    form_->addRow(QString(), signedInputCheck_);
    form_->addRow(QStringLiteral("num_bits"), numBitsSpin_);
    form_->addRow(QString(), rangeGivenCheck_);
    form_->addRow(QStringLiteral("num_buckets"), numBucketsSpin_);
    form_->addRow(QStringLiteral("axis"), axisSpin_);
    form_->addRow(tr("Channel ranges"), rangeSourceCombo_);
    form_->addRow(tr("Curve of channel"), channelSpin_);
    form_->addRow(QStringLiteral("ensure_minimum_range"), ensureMinimumRangeSpin_);
    form_->addRow(QStringLiteral("min_range"), minRangeSpin_);
    form_->addRow(QStringLiteral("max_range"), maxRangeSpin_);
    form_->addRow(QString(), fromDataButton_);

    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form_);
    layout->addWidget(errorLabel_);
    layout->addStretch(1);
}

void ParameterPanel::connectWidgetsToModel() {
    connect(opCombo_, &QComboBox::currentIndexChanged, this,
            [this] { model_->setOp(currentEnum<QuantOp>(opCombo_)); });
    connect(typeCombo_, &QComboBox::currentIndexChanged, this,
            [this] { model_->setType(currentEnum<QType>(typeCombo_)); });
    connect(modeCombo_, &QComboBox::currentIndexChanged, this,
            [this] { model_->setMode(currentEnum<QuantizeMode>(modeCombo_)); });
    connect(roundModeCombo_, &QComboBox::currentIndexChanged, this,
            [this] { model_->setRoundMode(currentEnum<RoundMode>(roundModeCombo_)); });
    connect(rangeSourceCombo_, &QComboBox::currentIndexChanged, this,
            [this] { model_->setRangeSource(currentEnum<RangeSource>(rangeSourceCombo_)); });
    connect(narrowRangeCheck_, &QCheckBox::toggled, model_, &ExplorerModel::setNarrowRange);
    connect(signedInputCheck_, &QCheckBox::toggled, model_, &ExplorerModel::setSignedInput);
    connect(rangeGivenCheck_, &QCheckBox::toggled, model_, &ExplorerModel::setRangeGiven);
    connect(numBitsSpin_, &QSpinBox::valueChanged, model_, &ExplorerModel::setNumBits);
    connect(numBucketsSpin_, &QSpinBox::valueChanged, model_, &ExplorerModel::setNumBuckets);
    connect(axisSpin_, &QSpinBox::valueChanged, model_, &ExplorerModel::setAxis);
    // The model holds float32. A typed value the float cannot hold (999999999.9) becomes
    // the nearest float; when that float is the value already in use nothing changes and
    // no specChanged comes, so the form is refreshed here to show the value in use.
    connect(ensureMinimumRangeSpin_, &QDoubleSpinBox::valueChanged, this, [this](double v) {
        model_->setEnsureMinimumRange(static_cast<float>(v));
        refreshFromModel();
    });
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
    form_->setRowVisible(field, visible);
}

void ParameterPanel::refreshFromModel() {
    const QuantSpec& s = model_->spec();
    const QList<QWidget*> all{opCombo_,         typeCombo_,       modeCombo_,
                              roundModeCombo_,  narrowRangeCheck_, signedInputCheck_,
                              numBitsSpin_,     rangeGivenCheck_, numBucketsSpin_,
                              axisSpin_,        rangeSourceCombo_, ensureMinimumRangeSpin_,
                              minRangeSpin_,    maxRangeSpin_};
    QList<std::shared_ptr<QSignalBlocker>> blockers;
    for (QWidget* w : all) blockers.append(std::make_shared<QSignalBlocker>(w));

    selectEnum(opCombo_, s.op);
    selectEnum(typeCombo_, s.T);
    selectEnum(modeCombo_, s.mode);
    roundModeCombo_->clear();
    for (RoundMode r : roundModesFor(s.op)) addEnumItem(roundModeCombo_, roundModeName(r), r);
    selectEnum(roundModeCombo_, s.round_mode);
    narrowRangeCheck_->setChecked(s.narrow_range);
    signedInputCheck_->setChecked(s.signed_input);
    numBitsSpin_->setValue(static_cast<int>(s.num_bits));
    rangeGivenCheck_->setChecked(s.range_given);
    numBucketsSpin_->setValue(static_cast<int>(std::min<qint64>(s.num_buckets, INT32_MAX)));
    axisSpin_->setValue(static_cast<int>(s.axis));
    selectEnum(rangeSourceCombo_, s.range_source);
    ensureMinimumRangeSpin_->setValue(s.ensure_minimum_range);
    minRangeSpin_->setValue(s.min_range);
    maxRangeSpin_->setValue(s.max_range);

    const bool v2 = s.op == QuantOp::QuantizeV2, qdq = isQdq(s.op);
    setRowVisible(typeCombo_, v2);
    setRowVisible(modeCombo_, v2);
    setRowVisible(roundModeCombo_, !roundModesFor(s.op).empty());
    setRowVisible(narrowRangeCheck_, usesNarrowRange(s.op));
    setRowVisible(signedInputCheck_, qdq);
    setRowVisible(numBitsSpin_, qdq);
    setRowVisible(rangeGivenCheck_, qdq);
    setRowVisible(numBucketsSpin_, s.op == QuantOp::TpuSimulatedQuantization);
    setRowVisible(axisSpin_, usesAxis(s.op));
    setRowVisible(rangeSourceCombo_, v2 && s.axis >= 0);
    setRowVisible(channelSpin_, usesAxis(s.op) && s.axis >= 0);
    refreshChannel();
    setRowVisible(ensureMinimumRangeSpin_, v2);
    // The range fields mean nothing when the op takes its range from the data.
    const bool rangeUsed = !(qdq && !s.range_given) &&
                           !(v2 && s.axis >= 0 && s.range_source == RangeSource::FromData);
    minRangeSpin_->setEnabled(rangeUsed);
    maxRangeSpin_->setEnabled(rangeUsed);
    const char* lo = v2 ? "min_range" : qdq ? "input_min" : "lower";
    const char* hi = v2 ? "max_range" : qdq ? "input_max" : "upper";
    if (auto* l = qobject_cast<QLabel*>(form_->labelForField(minRangeSpin_)))
        l->setText(QString::fromLatin1(lo));
    if (auto* l = qobject_cast<QLabel*>(form_->labelForField(maxRangeSpin_)))
        l->setText(QString::fromLatin1(hi));
}

void ParameterPanel::setError(const QString& message) {
    errorLabel_->setText(message);
    errorLabel_->setVisible(!message.isEmpty());
}

}  // namespace qs::ui
