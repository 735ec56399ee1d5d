#include "ui/modelfile/stored_quant_view.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QSpinBox>
#include <QSplitter>
#include <QTableWidget>
#include <QVBoxLayout>
#include <algorithm>

#include <qcustomplot.h>


namespace qs::ui {

namespace {

constexpr size_t kMaxPoints = 20000;  // points of one channel in the scatter
enum Column { kRule, kDiffering, kChannels, kMaxDiff, kExact, kColumns };

QTableWidgetItem* cell(const QString& text, Qt::Alignment align = Qt::AlignRight | Qt::AlignVCenter) {
    auto* item = new QTableWidgetItem(text);
    item->setTextAlignment(align);
    return item;
}

}  // namespace

StoredQuantView::StoredQuantView(StoredQuantService* service, QWidget* parent) : PlotFrame(parent), service_(service) {
    setObjectName(QStringLiteral("storedQuantView"));
    plot()->setObjectName(QStringLiteral("storedQuantPlot"));
    plot()->xAxis->setLabel(tr("input value (float32)"));
    plot()->yAxis->setLabel(tr("stored code"));
    plot()->yAxis2->setLabel(tr("dequantized − input"));
    plot()->yAxis2->setVisible(true);
    plot()->axisRect()->setRangeDrag(Qt::Horizontal | Qt::Vertical);
    plot()->axisRect()->setRangeZoom(Qt::Horizontal | Qt::Vertical);
    // Above the plot: inside, it covered the lowest codes.
    showSmallLegend(2);
    // The error first, so the codes are drawn over its cloud.
    error_ = plot()->addGraph(plot()->xAxis, plot()->yAxis2);
    error_->setName(tr("dequantized − input (right axis)"));
    error_->setLineStyle(QCPGraph::lsNone);
    codes_ = plot()->addGraph();
    codes_->setName(tr("stored code"));
    codes_->setLineStyle(QCPGraph::lsNone);

    summary_ = new QLabel;
    summary_->setObjectName(QStringLiteral("storedQuantSummary"));
    summary_->setWordWrap(true);
    summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    source_ = new QLabel;
    source_->setObjectName(QStringLiteral("storedQuantSource"));
    source_->setWordWrap(true);
    channelBox_ = new QSpinBox;
    channelBox_->setObjectName(QStringLiteral("storedQuantChannel"));
    channelBox_->setRange(0, 0);
    channelBox_->setToolTip(tr("The channel (slice along the stored quantization axis) the plot shows."));
    connect(channelBox_, &QSpinBox::valueChanged, this, [this] { drawChannel(); });

    table_ = new QTableWidget(0, kColumns);
    table_->setObjectName(QStringLiteral("storedQuantRules"));
    // The figures' headers on two lines: on one they took the rules' names' width in a side
    // dock ("TF Qu… SC… qint8").
    table_->setHorizontalHeaderLabels({tr("rule"), tr("differing\ncodes"), tr("channels\ndiffering"),
                                       tr("largest code\ndifference"), tr("exact")});
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->verticalHeader()->hide();
    table_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    table_->horizontalHeader()->setSectionResizeMode(kRule, QHeaderView::Stretch);
    table_->setWordWrap(true);

    apply_ = new QPushButton(tr("Apply to explorer"));
    apply_->setObjectName(QStringLiteral("storedQuantApply"));
    apply_->setToolTip(tr("Set the explorer to the selected rule (a TF op) on the floats it quantized: "
                          "the same codes, in every view (one undo step)."));
    connect(apply_, &QPushButton::clicked, this, [this] {
        if (selectedRule() >= 0) emit applyRequested(selectedRule());
    });
    connect(table_, &QTableWidget::itemSelectionChanged, this, &StoredQuantView::updateApply);

    auto* channelRow = new QHBoxLayout;
    channelRow->addWidget(new QLabel(tr("Channel:")));
    channelRow->addWidget(channelBox_);
    channelRow->addStretch(1);
    channelRow->addWidget(apply_);
    // The plot, and beside or under it the texts, the channel and the rules table.
    auto* side = new QWidget;
    auto* sideLayout = new QVBoxLayout(side);
    sideLayout->setContentsMargins(0, 0, 0, 0);
    sideLayout->addWidget(summary_);
    sideLayout->addWidget(source_);
    sideLayout->addLayout(channelRow);
    sideLayout->addWidget(table_, 1);
    auto* layout = static_cast<QVBoxLayout*>(this->layout());  // PlotFrame's: the plot alone
    layout->removeWidget(plot());
    auto* split = split_ = new QSplitter(Qt::Vertical);
    split->addWidget(plot());
    split->addWidget(side);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    split->setChildrenCollapsible(false);
    // Below these the plot has no readable axis and the table no second rule.
    plot()->setMinimumSize(280, 160);
    table_->setMinimumSize(260, 80);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(split, 1);
    connect(service_, &StoredQuantService::failed, this, &StoredQuantView::showError);
    connect(service_, &StoredQuantService::comparisonReady, this, &StoredQuantView::showComparison);
    clear();
}

StoredQuantView::~StoredQuantView() = default;

void StoredQuantView::resizeEvent(QResizeEvent* event) {
    PlotFrame::resizeEvent(event);
    // In the bottom dock area the view is wide and low: the plot beside the texts and the
    // table keeps the whole height (above them, it got 80 pixels and the table one row).
    const Qt::Orientation wanted = width() > 2 * height() ? Qt::Horizontal : Qt::Vertical;
    if (split_->orientation() != wanted) split_->setOrientation(wanted);
}

void StoredQuantView::setTensor(std::shared_ptr<const qs::modelfile::ModelFile> model, int index,
                                std::shared_ptr<const qs::modelfile::ModelFile> original) {
    if (!model || index < 0 || index >= static_cast<int>(model->tensors().size())) {
        clear();
        return;
    }
    summary_->setText(tr("Comparing the stored codes of '%1'…").arg(QString::fromStdString(model->tensors()[static_cast<size_t>(index)].name)));
    service_->compare(std::move(model), index, std::move(original));
}

void StoredQuantView::clear(const QString& reason) {
    service_->discard();
    comparison_.reset();
    table_->setRowCount(0);
    summary_->setText(reason.isEmpty() ? tr("Select a tensor stored as integer codes (int8, uint8, int16).") : reason);
    source_->clear();
    channelBox_->setRange(0, 0);
    points_ = {};
    codes_->data()->clear();
    error_->data()->clear();
    setStale(false);
    updateApply();
    plot()->replot();
}

int StoredQuantView::selectedRule() const {
    const QList<QTableWidgetSelectionRange> ranges = table_->selectedRanges();
    return comparison_ && !ranges.isEmpty() ? ranges.first().topRow() : -1;
}

void StoredQuantView::updateApply() {
    apply_->setEnabled(comparison_ && qs::analysis::explorerSpecOf(*comparison_, selectedRule()).has_value());
}

bool StoredQuantView::busy() const { return service_->busy(); }
int StoredQuantView::channel() const { return channelBox_->value(); }
void StoredQuantView::setChannel(int channel) { channelBox_->setValue(channel); }

void StoredQuantView::showComparison(StoredQuantPtr result) {
    comparison_ = std::move(result);
    const auto& c = *comparison_;
    setStale(false);
    summary_->setText(QString::fromStdString(c.summary));
    source_->setText(tr("Tensor '%1' %2 %3, %4. Rules quantized %5; values: %6.")
                         .arg(QString::fromStdString(c.tensor), QString::fromStdString(shapeString(c.shape)),
                              QString::fromStdString(c.dtype),
                              c.axis >= 0 ? tr("%1 channels on axis %2").arg(c.channels).arg(c.axis) : tr("per tensor"),
                              QString::fromStdString(c.input_source), QString::fromStdString(c.dequantization)));
    {
        const QSignalBlocker block(channelBox_);
        channelBox_->setRange(0, static_cast<int>(std::max<int64_t>(0, c.channels - 1)));
        channelBox_->setValue(0);
    }
    fillTable();
    updateApply();
    drawChannel();
    emit comparisonShown();
}

void StoredQuantView::showError(const QString& message) {
    comparison_.reset();
    table_->setRowCount(0);
    summary_->setText(message);
    source_->clear();
    points_ = {};
    codes_->data()->clear();
    error_->data()->clear();
    updateApply();
    plot()->replot();
    emit failed(message);
}

void StoredQuantView::fillTable() {
    const auto& c = *comparison_;
    table_->setRowCount(static_cast<int>(c.rules.size()));
    for (int r = 0; r < static_cast<int>(c.rules.size()); ++r) {
        const auto& rule = c.rules[static_cast<size_t>(r)];
        auto* name = cell(QString::fromStdString(rule.label), Qt::AlignLeft | Qt::AlignVCenter);
        if (!rule.error.empty()) name->setToolTip(QString::fromStdString(rule.error));
        table_->setItem(r, kRule, name);
        if (!rule.error.empty()) {
            table_->setItem(r, kDiffering, cell(tr("cannot run")));
            table_->setItem(r, kChannels, cell(QString()));
            table_->setItem(r, kMaxDiff, cell(QString()));
            table_->setItem(r, kExact, cell(tr("—"), Qt::AlignCenter));
            continue;
        }
        table_->setItem(r, kDiffering, cell(QString::number(rule.differing)));
        table_->setItem(r, kChannels, cell(tr("%1 of %2").arg(rule.channels_differing).arg(c.channels)));
        table_->setItem(r, kMaxDiff, cell(QString::number(rule.max_code_diff)));
        auto* exact = cell(rule.exact() ? tr("yes") : tr("no"), Qt::AlignCenter);
        if (r == c.exact_rule) {
            QFont f = exact->font();
            f.setBold(true);
            exact->setFont(f);
            name->setFont(f);
        }
        table_->setItem(r, kExact, exact);
    }
    table_->resizeRowsToContents();
    if (c.best_rule >= 0) table_->selectRow(c.best_rule);
}

void StoredQuantView::drawChannel() {
    if (!comparison_) return;
    const auto& c = *comparison_;
    points_ = qs::analysis::channelCodePoints(c, channelBox_->value(), kMaxPoints);
    const QVector<double> xs(points_.x.begin(), points_.x.end()), codes(points_.code.begin(), points_.code.end()),
        errors(points_.error.begin(), points_.error.end());
    codes_->setData(xs, codes, false);
    error_->setData(xs, errors, false);
    codes_->rescaleAxes();
    error_->rescaleValueAxis();
    auto pad = [](QCPRange r) {
        const double p = 0.05 * std::max(1e-12, r.size());
        return QCPRange(r.lower - p, r.upper + p);
    };
    setHomeRange(plot()->xAxis, pad(plot()->xAxis->range()).lower, pad(plot()->xAxis->range()).upper);
    setHomeRange(plot()->yAxis, pad(plot()->yAxis->range()).lower, pad(plot()->yAxis->range()).upper);
    setHomeRange(plot()->yAxis2, pad(plot()->yAxis2->range()).lower, pad(plot()->yAxis2->range()).upper);
    commitHomeView();
    restyle();
}

data::NumberColumns StoredQuantView::csvTable() const {
    data::NumberColumns t;
    t.header = {"input x", "stored code", "dequantized value", "dequantized - input"};
    t.columns = {points_.x, points_.code, points_.value, points_.error};
    return t;
}

void StoredQuantView::applySeriesStyle(const PlotPalette& p) {
    codes_->setPen(QPen(p.code));
    codes_->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, p.code, p.code, 4));
    error_->setPen(QPen(p.error));
    error_->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCross, p.error, 3));
}

}  // namespace qs::ui
