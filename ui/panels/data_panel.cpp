#include "ui/panels/data_panel.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QPushButton>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QVBoxLayout>

#include "core/data/generator_spec.h"
#include "session/explorer/explorer_model.h"
#include "ui/panels/range_checked_spin_box.h"

namespace qs::ui {

namespace {

// The parameters of each generator kind beyond n and seed, with their defaults (the same
// keys and defaults as core/data/generator_spec).
struct KindParams {
    const char* kind;
    bool seeded;
    const char* keys[3];
    double defaults[3];
};
constexpr KindParams kKinds[] = {
    {"normal", true, {"mean", "std", nullptr}, {0, 1, 0}},
    {"uniform", true, {"low", "high", nullptr}, {-1, 1, 0}},
    {"laplace", true, {"loc", "scale", nullptr}, {0, 1, 0}},
    {"sine", false, {"amplitude", nullptr, nullptr}, {1, 0, 0}},
    {"mixture", true, {"std", "outlier_fraction", "outlier_scale"}, {1, 0.01, 20}},
};

const KindParams& paramsOf(const QString& kind) {
    for (const KindParams& k : kKinds)
        if (kind == QLatin1String(k.kind)) return k;
    return kKinds[0];
}

}  // namespace

DataPanel::DataPanel(ExplorerModel* model, QWidget* parent) : QWidget(parent), model_(model) {
    buildForm();
    refreshFromModel();
    connect(model_, &ExplorerModel::dataSourceChanged, this, &DataPanel::refreshFromModel);
}

void DataPanel::buildForm() {
    kindCombo_ = new QComboBox;
    kindCombo_->setObjectName("generatorCombo");
    for (const KindParams& k : kKinds) kindCombo_->addItem(QString::fromLatin1(k.kind));
    kindCombo_->setToolTip(tr(
        "<p>The distribution of generated samples: <b>normal</b> and <b>laplace</b> (the "
        "weights and activations of trained networks look like these), <b>uniform</b> (the "
        "textbook case: error uniform on ±Δ/2), a full-scale <b>sine</b> (the 6.02·b + "
        "1.76 dB rule), and a normal <b>mixture</b> with rare large outliers.</p>"));

    countSpin_ = new RangeCheckedSpinBox;
    countSpin_->setObjectName("countSpin");
    countSpin_->setRange(1, 10'000'000);
    countSpin_->setGroupSeparatorShown(true);
    countSpin_->setSingleStep(100'000);
    countSpin_->setKeyboardTracking(false);
    countSpin_->setToolTip(tr("Number of samples (up to 10,000,000)."));

    shapeEdit_ = new QLineEdit;
    shapeEdit_->setObjectName("generatorShape");
    shapeEdit_->setPlaceholderText(tr("1-D (e.g. 64x1024)"));
    shapeEdit_->setClearButtonEnabled(true);
    shapeEdit_->setToolTip(tr(
        "<p>Lay the samples out as an N-d array, dimensions joined by 'x': <b>64x1024</b> gives "
        "64 channels of 1024 values on axis 0 (set the op's <i>axis</i> to see them in the Per "
        "channel view), as a .npy file of that shape would. The sample count is then the "
        "product of the dimensions (at most 10,000,000). Empty: one dimension of <i>Samples</i> "
        "values.</p>"));

    seedSpin_ = new RangeCheckedSpinBox;
    seedSpin_->setObjectName("seedSpin");
    seedSpin_->setRange(0, std::numeric_limits<int>::max());
    seedSpin_->setKeyboardTracking(false);
    seedSpin_->setToolTip(tr("Seed of the generator: the same seed gives the same samples on "
                             "every machine."));

    auto* form = new QFormLayout;
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    form->addRow(tr("Generator"), kindCombo_);
    form->addRow(tr("Samples"), countSpin_);
    form->addRow(tr("Shape"), shapeEdit_);
    form->addRow(tr("Seed"), seedSpin_);
    for (int i = 0; i < 3; ++i) {
        paramLabels_[i] = new QLabel;
        paramSpins_[i] = new RangeCheckedDoubleSpinBox;
        paramSpins_[i]->setObjectName(QStringLiteral("generatorParam%1").arg(i));
        paramSpins_[i]->setRange(-1e9, 1e9);
        paramSpins_[i]->setDecimals(4);
        paramSpins_[i]->setKeyboardTracking(false);
        form->addRow(paramLabels_[i], paramSpins_[i]);
        connect(paramSpins_[i], &QDoubleSpinBox::valueChanged, this, &DataPanel::applyGenerator);
    }
    connect(kindCombo_, &QComboBox::currentTextChanged, this, [this](const QString& kind) {
        relabelParameters(kind);
        const KindParams& k = paramsOf(kind);
        for (int i = 0; i < 3; ++i) {
            const QSignalBlocker block(paramSpins_[i]);
            paramSpins_[i]->setValue(k.defaults[i]);
        }
        applyGenerator();
    });
    connect(countSpin_, &QSpinBox::valueChanged, this, &DataPanel::applyGenerator);
    connect(shapeEdit_, &QLineEdit::editingFinished, this, [this] {
        if (shapeEdit_->isModified()) applyGenerator();
        shapeEdit_->setModified(false);
    });
    connect(seedSpin_, &QSpinBox::valueChanged, this, &DataPanel::applyGenerator);

    openButton_ = new QPushButton(tr("Open data file…"));
    openButton_->setObjectName("openDataButton");
    openButton_->setToolTip(tr("Load samples from .npy (float32/float64, any shape), CSV "
                               "(numeric columns, optional header) or word2vec/fastText .vec."));
    connect(openButton_, &QPushButton::clicked, this, &DataPanel::openFileRequested);

    errorLabel_ = new QLabel;
    errorLabel_->setObjectName("generatorError");
    errorLabel_->setWordWrap(true);
    errorLabel_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    errorLabel_->setStyleSheet(QStringLiteral("color: #c62828;"));
    errorLabel_->hide();

    infoLabel_ = new QLabel;
    infoLabel_->setObjectName("dataInfoLabel");
    infoLabel_->setWordWrap(true);
    infoLabel_->setTextInteractionFlags(Qt::TextSelectableByMouse);

    QLabel* rangeNotice = makeRangeNoticeLabel(QStringLiteral("dataRangeNotice"));

    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(rangeNotice);
    layout->addWidget(errorLabel_);
    layout->addWidget(openButton_);
    layout->addWidget(infoLabel_);
    layout->addStretch(1);
    watchRanges(this, form, rangeNotice);  // once the fields are the panel's children
}

void DataPanel::relabelParameters(const QString& kind) {
    const KindParams& k = paramsOf(kind);
    seedSpin_->setEnabled(k.seeded);
    for (int i = 0; i < 3; ++i) {
        const bool used = k.keys[i] != nullptr;
        paramLabels_[i]->setText(used ? QString::fromLatin1(k.keys[i]) : QString());
        paramLabels_[i]->setVisible(used);
        paramSpins_[i]->setVisible(used);
    }
}

void DataPanel::applyGenerator() {
    const KindParams& k = paramsOf(kindCombo_->currentText());
    // With a shape the count is its product: n is left out of the spec.
    const QString shape = shapeEdit_->text().trimmed();
    QString spec = shape.isEmpty() ? QStringLiteral("%1:n=%2").arg(QLatin1String(k.kind)).arg(countSpin_->value())
                                   : QStringLiteral("%1:shape=%2").arg(QLatin1String(k.kind), shape);
    if (k.seeded) spec += QStringLiteral(",seed=%1").arg(seedSpin_->value());
    for (int i = 0; i < 3 && k.keys[i]; ++i)
        spec += QStringLiteral(",%1=%2").arg(QLatin1String(k.keys[i])).arg(paramSpins_[i]->value(), 0, 'g', 10);
    // A spec the core refuses (a bad shape) changes nothing: its message stays under the form.
    const auto parsed = qs::data::parseGeneratorSpec(spec.toStdString());
    QString error = parsed ? QString() : QString::fromStdString(parsed.error().message);
    // The core names the whole spec first; the panel's fields are the spec, so the rest
    // (which names the field) says it all without an unbreakable line widening the dock.
    const QString specPrefix = QStringLiteral("generator \"%1\": ").arg(spec);
    if (error.startsWith(specPrefix)) error.remove(0, specPrefix.size());
    errorLabel_->setText(error);
    errorLabel_->setVisible(!parsed);
    if (!parsed) return;
    DataSource source;  // a generator replaces a file
    source.generator = spec;
    model_->setDataSource(source);
}

void DataPanel::refreshFromModel() {
    const DataSource& source = model_->dataSource();
    auto parsed = qs::data::parseGeneratorSpec(source.generator.toStdString());
    if (!parsed) return;
    const QString kind = QString::fromStdString(parsed->kind);
    const KindParams& k = paramsOf(kind);
    const QSignalBlocker b1(kindCombo_), b2(countSpin_), b3(seedSpin_);
    const QSignalBlocker p0(paramSpins_[0]), p1(paramSpins_[1]), p2(paramSpins_[2]);
    kindCombo_->setCurrentText(kind);
    relabelParameters(kind);
    auto value = [&](const char* key, double def) {
        const auto it = parsed->params.find(key);
        return it == parsed->params.end() ? def : it->second;
    };
    countSpin_->setValue(static_cast<int>(value("n", 100000)));
    countSpin_->setEnabled(parsed->shape.empty());  // else the shape's product
    shapeEdit_->setText(QString::fromStdString(qs::data::generatorShapeText(parsed->shape)));
    shapeEdit_->setModified(false);
    errorLabel_->clear();
    errorLabel_->hide();
    seedSpin_->setValue(static_cast<int>(value("seed", 1)));
    for (int i = 0; i < 3 && k.keys[i]; ++i) paramSpins_[i]->setValue(value(k.keys[i], k.defaults[i]));
}

void DataPanel::setDatasetInfo(const QString& text) { infoLabel_->setText(text); }

}  // namespace qs::ui
