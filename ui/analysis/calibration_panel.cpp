#include "ui/analysis/calibration_panel.h"

#include <algorithm>
#include <cmath>

#include <QBoxLayout>
#include <QDoubleSpinBox>
#include <QHeaderView>
#include <QLabel>
#include <QPixmap>
#include <QPushButton>
#include <QSignalBlocker>
#include <QTableWidget>
#include <qcustomplot.h>

#include "session/explorer/explorer_model.h"
#include "ui/analysis/analysis_text.h"
#include "ui/plot/plot_items.h"
#include "ui/plot/theme.h"
#include "ui/status/job_status.h"

namespace qs::ui {

using namespace qs::ui::text;
using qs::analysis::Calibration;

namespace {

constexpr int kMethods = 4;  // CalibrationMethod's values

QString methodName(const Calibration& c) {
    QString name = qs(qs::analysis::calibrationMethodName(c.method));
    return name;
}

QString rangeText(const Calibration& c) {
    return QStringLiteral("[%1, %2]").arg(floatText(c.min), floatText(c.max));
}

}  // namespace

// --- the plot ------------------------------------------------------------------------------

CalibrationPlot::CalibrationPlot(QWidget* parent) : PlotFrame(parent) {
    QCustomPlot* p = plot();
    title_ = items::frame(this, p, QStringLiteral("calibrationPlot"), QStringLiteral("calibrationCustomPlot"),
                          tr("input x (float32)"), tr("count per bin"));
    QCPAxis* x = p->xAxis;
    QCPAxis* y = p->yAxis;
    bars_ = items::bars(x, y, QStringLiteral("calibrationBars"), tr("data"));
    for (int m = 0; m < kMethods; ++m) {
        legend_.push_back(items::legendEntry(p, x, y, QStringLiteral("methodLegend%1").arg(m)));
        lines_.push_back(items::line(p, x, y, QStringLiteral("method%1Lo").arg(m)));
        lines_.push_back(items::line(p, x, y, QStringLiteral("method%1Hi").arg(m)));
    }
    dragAndZoomBothAxes();
    showSmallLegend(2);
    useCountAxis(1.08);
    restyle();
    setResult(nullptr);
}

CalibrationPlot::~CalibrationPlot() = default;

QCPItemStraightLine* CalibrationPlot::rangeLine(int method, bool upper) const {
    const size_t i = static_cast<size_t>(2 * method + (upper ? 1 : 0));
    return method >= 0 && i < lines_.size() ? lines_[i] : nullptr;
}

void CalibrationPlot::applySeriesStyle(const PlotPalette& c) {
    QColor fill = c.curve;
    fill.setAlpha(110);
    bars_->setBrush(fill);
    bars_->setPen(QPen(fill, 1));
    // Dash patterns apart from the colours, so coinciding ranges stay distinguishable.
    const Qt::PenStyle styles[] = {Qt::SolidLine, Qt::DashLine, Qt::DashDotLine, Qt::DotLine};
    for (int m = 0; m < kMethods; ++m) {
        const QColor colour = isStale() ? c.secondary : categoryColor(m + 1, theme());
        const QPen pen(colour, 2.2, styles[m]);
        legend_[static_cast<size_t>(m)]->setPen(pen);
        lines_[static_cast<size_t>(2 * m)]->setPen(pen);
        lines_[static_cast<size_t>(2 * m + 1)]->setPen(pen);
    }
}

void CalibrationPlot::setResult(CalibrationPtr result) {
    result_ = std::move(result);
    const bool have = result_ && result_->histogram.bins() > 0;
    plot()->legend->setVisible(have);
    for (QCPItemStraightLine* l : lines_) l->setVisible(false);
    if (!have) {
        bars_->data()->clear();
        title_->setText(tr("Calibration"));
        plot()->replot();
        return;
    }
    const qs::analysis::Histogram& h = result_->histogram;
    QVector<double> centers, counts;
    double maxCount = 1;
    for (int i = 0; i < h.bins(); ++i) {
        centers << h.center(i);
        counts << static_cast<double>(h.counts[static_cast<size_t>(i)]);
        maxCount = std::max(maxCount, counts.back());
    }
    bars_->setWidth(h.binWidth());
    bars_->setData(centers, counts, true);
    for (size_t m = 0; m < result_->methods.size() && m < legend_.size(); ++m) {
        const Calibration& c = result_->methods[m];
        items::placeVertical(lines_[2 * m], c.min);
        items::placeVertical(lines_[2 * m + 1], c.max);
        lines_[2 * m]->setVisible(true);
        lines_[2 * m + 1]->setVisible(true);
        legend_[m]->setName(QStringLiteral("%1 %2").arg(methodName(c), rangeText(c)));
    }
    const qs::QuantSpec& spec = result_->methods.empty() ? qs::QuantSpec{} : result_->methods.front().spec;
    title_->setText(tr("Calibration  ·  %1  ·  each method's range on the data histogram").arg(opShortName(spec)));
    setHomeRange(plot()->xAxis, h.lo, h.hi);
    setMaxCount(maxCount);
    finishDraw();
}


data::NumberColumns CalibrationPlot::csvTable() const {
    data::NumberColumns t;
    t.header = {"bin_lo", "bin_hi", "count",
                           "method_index", "range_min", "range_max"};
    t.columns.resize(6);
    if (!result_) return t;
    const qs::analysis::Histogram& h = result_->histogram;
    for (int i = 0; i < h.bins(); ++i) {
        t.columns[0].push_back(h.edge(i));
        t.columns[1].push_back(h.edge(i + 1));
        t.columns[2].push_back(static_cast<double>(h.counts[static_cast<size_t>(i)]));
    }
    for (const Calibration& c : result_->methods) {
        t.columns[3].push_back(static_cast<double>(c.method));
        t.columns[4].push_back(c.min);
        t.columns[5].push_back(c.max);
    }
    return t;
}

// --- the panel -----------------------------------------------------------------------------

// The child widgets the constructor makes; make_unique value-initializes them (null).
struct CalibrationPanel::Items {
    CalibrationPlot* plot;
    QTableWidget* table;
    QDoubleSpinBox* percentile;
    JobStatus* status;
};

CalibrationPanel::CalibrationPanel(ExplorerModel* model, QWidget* parent)
    : QWidget(parent), model_(model), items_(std::make_unique<Items>()) {
    setObjectName(QStringLiteral("calibrationPanel"));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    items_->plot = new CalibrationPlot;
    layout->addWidget(items_->plot, 3);

    auto* controls = new QHBoxLayout;
    controls->setContentsMargins(6, 2, 6, 0);
    auto* label = new QLabel(tr("&Percentile:"));
    items_->percentile = new QDoubleSpinBox;
    items_->percentile->setObjectName(QStringLiteral("percentileSpin"));
    items_->percentile->setRange(50.0, 100.0);
    items_->percentile->setDecimals(3);
    items_->percentile->setSingleStep(0.01);
    items_->percentile->setSuffix(QStringLiteral(" %"));
    items_->percentile->setKeyboardTracking(false);  // one calibration per committed value
    items_->percentile->setToolTip(tr("The percentile method's range: [−a, a], a = this percentile of |x|"));
    label->setBuddy(items_->percentile);
    showOptions();
    connect(items_->percentile, &QDoubleSpinBox::valueChanged, this, [this](double percentile) {
        qs::analysis::CalibrationOptions o = model_->analysis().calibration;
        o.percentile = percentile;
        model_->setCalibrationOptions(o);
    });
    connect(model_, &ExplorerModel::calibrationOptionsChanged, this, [this] {
        showOptions();
        emit optionsChanged();
    });
    controls->addWidget(label);
    controls->addWidget(items_->percentile);
    // Wrapped: on one line this note alone held the window 780 pixels wide.
    auto* note = new QLabel(tr("KL: 2048-bin histogram of |x| (TensorRT); MSE-optimal: "
                               "least measured MSE over symmetric ranges."));
    note->setWordWrap(true);
    controls->addWidget(note, 1);
    layout->addLayout(controls);

    items_->table = new QTableWidget(0, 7);
    items_->table->setObjectName(QStringLiteral("calibrationTable"));
    items_->table->setHorizontalHeaderLabels(
        {tr("method"), tr("range"), tr("MSE"), tr("SQNR (dB)"), tr("clipped %"), tr("levels used"), QString()});
    items_->table->verticalHeader()->hide();
    items_->table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    items_->table->setSelectionMode(QAbstractItemView::NoSelection);
    items_->table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    items_->table->horizontalHeader()->setSectionResizeMode(1, QHeaderView::Stretch);
    const int rowHeight = fontMetrics().height() + 14;
    items_->table->verticalHeader()->setDefaultSectionSize(rowHeight);
    items_->table->setFixedHeight((kMethods + 1) * rowHeight + fontMetrics().height() + 14);
    layout->addWidget(items_->table);
    items_->status = JobStatus::forAnalysis();
    layout->addWidget(items_->status);
    setResult(nullptr);
}

CalibrationPanel::~CalibrationPanel() = default;

CalibrationPlot* CalibrationPanel::plotFrame() const { return items_->plot; }
QTableWidget* CalibrationPanel::table() const { return items_->table; }
QDoubleSpinBox* CalibrationPanel::percentileSpin() const { return items_->percentile; }
JobStatus* CalibrationPanel::status() const { return items_->status; }

qs::analysis::CalibrationOptions CalibrationPanel::options() const { return model_->analysis().calibration; }

void CalibrationPanel::showOptions() {
    const QSignalBlocker block(items_->percentile);
    items_->percentile->setValue(model_->analysis().calibration.percentile);
}

void CalibrationPanel::setTheme(Theme theme) {
    theme_ = theme;
    if (result_) fillTable();  // the colour swatches
}

QPushButton* CalibrationPanel::applyButton(int row) const {
    return qobject_cast<QPushButton*>(items_->table->cellWidget(row, 6));
}

void CalibrationPanel::setResult(CalibrationPtr result) {
    result_ = std::move(result);
    items_->plot->setResult(result_);
    fillTable();
}

void CalibrationPanel::fillTable() {
    const int rows = result_ ? static_cast<int>(result_->methods.size()) : 0;
    items_->table->setRowCount(rows);
    for (int r = 0; r < rows; ++r) {
        const Calibration& c = result_->methods[static_cast<size_t>(r)];
        QPixmap swatch(12, 12);
        swatch.fill(categoryColor(r + 1, theme_));
        auto* name = new QTableWidgetItem(QIcon(swatch), methodName(c) + (c.note.empty() ? QString() : QStringLiteral(" *")));
        if (!c.note.empty()) name->setToolTip(qs(c.note));
        items_->table->setItem(r, 0, name);
        setNumberCells(r, rangeText(c), c.stats);
        auto* apply = new QPushButton(tr("Apply"));
        apply->setObjectName(QStringLiteral("applyCalibration%1").arg(r));
        apply->setToolTip(tr("Set the explorer's range to %1 (undoable)").arg(rangeText(c)));
        const float lo = c.min, hi = c.max;
        const QString method = methodName(c);
        connect(apply, &QPushButton::clicked, this, [this, lo, hi, method] { emit applyRequested(lo, hi, method); });
        items_->table->setCellWidget(r, 6, apply);
    }
    if (result_) fillCurrentRow(rows);
}

void CalibrationPanel::fillCurrentRow(int row) {
    // The explorer's own settings, measured as the Statistics dock measures them.
    const CalibrationAnalysis& a = *result_;
    items_->table->setRowCount(row + 1);
    auto* name = new QTableWidgetItem(tr("current (explorer)"));
    name->setToolTip(tr("The explorer's settings as they are (per channel included): the same numbers as the "
                        "Statistics dock"));
    items_->table->setItem(row, 0, name);
    const QString range = a.current_per_slice ? tr("per channel / from the data")
                                              : QStringLiteral("[%1, %2]").arg(floatText(a.current_min),
                                                                               floatText(a.current_max));
    setNumberCells(row, range, a.current);
    items_->table->removeCellWidget(row, 6);
}

void CalibrationPanel::setNumberCells(int row, const QString& range, const qs::analysis::ErrorStats& stats) {
    const QString cells[] = {range, num(stats.mse, 4), QString::number(stats.sqnr_db, 'f', 2),
                             QString::number(100.0 * stats.fraction_clipped, 'g', 3),
                             QString::number(stats.distinct_levels)};
    for (int col = 1; col <= 5; ++col) {
        auto* item = new QTableWidgetItem(cells[col - 1]);
        item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
        items_->table->setItem(row, col, item);
    }
}

}  // namespace qs::ui
