#include "ui/analysis/comparison_view.h"

#include <algorithm>
#include <cmath>

#include <QBoxLayout>
#include <QHeaderView>
#include <QListWidget>
#include <QPixmap>
#include <QPushButton>
#include <QTableWidget>
#include <qcustomplot.h>

#include "session/explorer/explorer_model.h"
#include "ui/analysis/analysis_text.h"
#include "ui/plot/plot_items.h"
#include "ui/plot/theme.h"
#include "ui/status/job_status.h"

namespace qs::ui {

using namespace qs::ui::text;

// --- the plot ------------------------------------------------------------------------------

ComparisonPlot::ComparisonPlot(QWidget* parent) : ResultPlot(parent) {
    QCustomPlot* p = plot();
    title_ = items::titledPlot(this, p, QStringLiteral("comparisonPlot"), QStringLiteral("comparisonCustomPlot"));
    QCPAxisRect* main = p->axisRect();
    errorRect_ = items::rectBelow(p, QStringLiteral("comparisonErrorRect"));
    auto* margins = new QCPMarginGroup(p);
    for (QCPAxisRect* rect : {main, errorRect_}) {
        rect->setMarginGroup(QCP::msLeft | QCP::msRight, margins);
        rect->setRangeDrag(Qt::Horizontal | Qt::Vertical);
        rect->setRangeZoom(Qt::Horizontal | Qt::Vertical);
    }
    QCPAxis* ex = errorRect_->axis(QCPAxis::atBottom);
    QCPAxis* ey = errorRect_->axis(QCPAxis::atLeft);
    p->xAxis->setLabel(tr("input x"));
    p->yAxis->setLabel(tr("output Q(x)"));
    ex->setLabel(tr("error x − Q(x)"));
    ey->setLabel(tr("count per bin"));
    for (int i = 0; i < kMaxConfigs; ++i) {
        QCPGraph* c = p->addGraph(p->xAxis, p->yAxis);
        c->setObjectName(QStringLiteral("comparisonCurve%1").arg(i));
        curves_.push_back(c);
        QCPGraph* e = p->addGraph(ex, ey);
        e->setObjectName(QStringLiteral("comparisonError%1").arg(i));
        e->setLineStyle(QCPGraph::lsStepCenter);
        e->removeFromLegend();  // one legend entry per configuration: its curve's
        errors_.push_back(e);
    }
    showSmallLegend(2);
    p->plotLayout()->setRowStretchFactors({0.01, 0.01, 1.6, 1.0});
    setLogScaleAxes({ey});  // a fine quantizer's spike beside a coarse one's plateau
    p->plotLayout()->setRowSpacing(4);
    restyle();
    setResult(nullptr);
}

ComparisonPlot::~ComparisonPlot() = default;

void ComparisonPlot::applySeriesStyle(const PlotPalette& c) {
    const Qt::PenStyle styles[] = {Qt::SolidLine, Qt::DashLine, Qt::DashDotLine, Qt::DotLine};
    for (int i = 0; i < kMaxConfigs; ++i) {
        const QColor colour = isStale() ? c.secondary : categoryColor(i, theme());
        curves_[static_cast<size_t>(i)]->setPen(QPen(colour, 2.0, styles[i]));
        errors_[static_cast<size_t>(i)]->setPen(QPen(colour, 1.8, styles[i]));
    }
}

void ComparisonPlot::draw() {
    const size_t n = result_ ? result_->entries.size() : 0;
    double yLo = 1e300, yHi = -1e300, countHi = 1;
    for (size_t i = 0; i < curves_.size(); ++i) {
        QCPGraph* c = curves_[i];
        QCPGraph* e = errors_[i];
        const bool have = i < n && !result_->entries[i].failed() && !result_->entries[i].curve.x.empty();
        if (!have) {
            setPlotData(c, {}, {});
            e->data()->clear();
            // (An emptied legend would collapse the layout; with nothing to compare the
            // legend is hidden instead.)
            if (n > 0) c->removeFromLegend();
            else c->addToLegend();
            if (i < n) {  // a configuration the op rejected still gets its legend line
                c->setName(configName(result_->entries[i].spec) + tr(" — ") + qs(result_->entries[i].errorText()));
                c->addToLegend();
            }
            continue;
        }
        const ComparisonEntry& entry = result_->entries[i];
        const qs::TransferCurve& curve = entry.curve;
        c->setLineStyle(curve.steps_resolved ? QCPGraph::lsStepLeft : QCPGraph::lsLine);
        setPlotData(c, curve.x, curve.output);  // decimated to the plot's width
        for (double v : curve.output) yLo = std::min(yLo, v), yHi = std::max(yHi, v);
        c->setName(configName(entry.spec));
        c->addToLegend();
        const qs::analysis::Histogram& h = entry.error_hist;
        QVector<double> centers, counts;
        for (int b = 0; b < h.bins(); ++b) {
            centers << h.center(b);
            counts << static_cast<double>(h.counts[static_cast<size_t>(b)]);
            countHi = std::max(countHi, counts.back());
        }
        e->setData(centers, counts, true);
    }
    plot()->legend->setVisible(n > 0);
    title_->setText(n ? tr("Comparison  ·  %1 configurations on the same data  ·  transfer curves and errors").arg(n)
                      : tr("Comparison  ·  add configurations with “Add current”"));
    if (result_) {
        setHomeRange(plot()->xAxis, result_->window_first, result_->window_last);
        if (yHi < yLo) yLo = -1, yHi = 1;
        const double pad = 0.05 * std::max(yHi - yLo, 1e-12);
        setHomeRange(plot()->yAxis, yLo - pad, yHi + pad);
        setHomeRange(errorRect_->axis(QCPAxis::atBottom), -result_->error_span, result_->error_span);
        countHi_ = countHi;
        setErrorHomeY();
        commitHomeView();
        setStale(false);
    }
    restyle();
}

void ComparisonPlot::setErrorHomeY() {
    QCPAxis* y = errorRect_->axis(QCPAxis::atLeft);
    if (isLogScale()) setHomeRange(y, 0.5, countHi_ * 3);
    else setHomeRange(y, 0, countHi_ * 1.08);
}

void ComparisonPlot::logScaleChanged(bool) { setErrorHomeY(); }

// --- the view ------------------------------------------------------------------------------

// The child widgets the constructor makes; make_unique value-initializes them (null).
struct ComparisonView::Items {
    ComparisonPlot* plot;
    QListWidget* list;
    QTableWidget* table;
    QPushButton *add, *remove, *load;
    JobStatus* status;
};

ComparisonView::ComparisonView(ExplorerModel* model, QWidget* parent)
    : QWidget(parent), model_(model), items_(std::make_unique<Items>()) {
    setObjectName(QStringLiteral("comparisonView"));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    items_->plot = new ComparisonPlot;
    layout->addWidget(items_->plot, 3);

    auto* row = new QHBoxLayout;
    row->setContentsMargins(6, 2, 6, 0);
    auto* left = new QVBoxLayout;
    items_->list = new QListWidget;
    items_->list->setObjectName(QStringLiteral("comparisonList"));
    items_->list->setToolTip(tr("Up to four configurations, compared on the explorer's data"));
    auto* buttons = new QHBoxLayout;
    items_->add = new QPushButton(tr("Add current"));
    items_->add->setObjectName(QStringLiteral("addConfigButton"));
    items_->add->setToolTip(tr("Add the explorer's current configuration"));
    items_->remove = new QPushButton(tr("Remove"));
    items_->remove->setObjectName(QStringLiteral("removeConfigButton"));
    items_->load = new QPushButton(tr("Load into explorer"));
    items_->load->setObjectName(QStringLiteral("loadConfigButton"));
    items_->load->setToolTip(tr("Make the selected configuration the explorer's (undoable), to edit it"));
    for (QPushButton* b : {items_->add, items_->remove, items_->load}) buttons->addWidget(b);
    left->addWidget(items_->list, 1);
    left->addLayout(buttons);
    row->addLayout(left, 2);
    items_->table = new QTableWidget(5, 0);
    items_->table->setObjectName(QStringLiteral("comparisonTable"));
    items_->table->setVerticalHeaderLabels(
        {tr("MSE"), tr("SQNR (dB)"), tr("max |err|"), tr("levels used"), tr("range used")});
    items_->table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    items_->table->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
    row->addWidget(items_->table, 3);
    const int rowHeight = fontMetrics().height() + 6;
    items_->table->verticalHeader()->setDefaultSectionSize(rowHeight);
    const int height = 5 * rowHeight + fontMetrics().height() + 16;
    items_->table->setFixedHeight(height);
    items_->list->setFixedHeight(height - items_->add->sizeHint().height() - 6);
    layout->addLayout(row);
    items_->status = JobStatus::forAnalysis();
    layout->addWidget(items_->status);

    connect(items_->add, &QPushButton::clicked, this, &ComparisonView::addCurrentRequested);
    connect(items_->remove, &QPushButton::clicked, this, [this] { removeConfig(items_->list->currentRow()); });
    connect(items_->load, &QPushButton::clicked, this, [this] {
        const int i = items_->list->currentRow();
        if (i >= 0 && i < static_cast<int>(configs().size())) emit loadRequested(configs()[static_cast<size_t>(i)]);
    });
    connect(items_->list, &QListWidget::currentRowChanged, this, &ComparisonView::updateButtons);
    connect(model_, &ExplorerModel::comparedChanged, this, [this] {
        refreshList();
        emit configsChanged();
    });
    refreshList();
    setResult(nullptr);
}

const std::vector<qs::QuantSpec>& ComparisonView::configs() const { return model_->analysis().compared; }

ComparisonView::~ComparisonView() = default;

ComparisonPlot* ComparisonView::plotFrame() const { return items_->plot; }
QListWidget* ComparisonView::list() const { return items_->list; }
QTableWidget* ComparisonView::table() const { return items_->table; }
QPushButton* ComparisonView::addButton() const { return items_->add; }
QPushButton* ComparisonView::removeButton() const { return items_->remove; }
QPushButton* ComparisonView::loadButton() const { return items_->load; }
JobStatus* ComparisonView::status() const { return items_->status; }

bool ComparisonView::addConfig(const qs::QuantSpec& spec) {
    if (!model_->addCompared(spec)) return false;
    items_->list->setCurrentRow(static_cast<int>(configs().size()) - 1);
    return true;
}

void ComparisonView::removeConfig(int index) {
    if (index < 0 || index >= static_cast<int>(configs().size())) return;
    model_->removeCompared(index);
    items_->list->setCurrentRow(std::min(index, static_cast<int>(configs().size()) - 1));
}

void ComparisonView::setTheme(Theme theme) {
    theme_ = theme;
    refreshList();
}

void ComparisonView::refreshList() {
    const int current = items_->list->currentRow();
    items_->list->clear();
    const std::vector<qs::QuantSpec>& list = configs();
    for (size_t i = 0; i < list.size(); ++i) {
        QPixmap swatch(12, 12);
        swatch.fill(categoryColor(static_cast<int>(i), theme_));
        items_->list->addItem(
            new QListWidgetItem(QIcon(swatch), QStringLiteral("%1. %2").arg(i + 1).arg(configName(list[i]))));
    }
    items_->list->setCurrentRow(std::min(current, static_cast<int>(list.size()) - 1));
    updateButtons();
}

void ComparisonView::updateButtons() {
    const bool selected = items_->list->currentRow() >= 0;
    items_->add->setEnabled(static_cast<int>(configs().size()) < ComparisonPlot::kMaxConfigs);
    items_->remove->setEnabled(selected);
    items_->load->setEnabled(selected);
}

void ComparisonView::setResult(ComparisonPtr result) {
    result_ = std::move(result);
    items_->plot->setResult(result_);
    fillTable();
}

void ComparisonView::fillTable() {
    const int n = result_ ? static_cast<int>(result_->entries.size()) : 0;
    items_->table->setColumnCount(n);
    QStringList headers;
    for (int c = 0; c < n; ++c) {
        const ComparisonEntry& e = result_->entries[static_cast<size_t>(c)];
        headers << QStringLiteral("%1. %2").arg(c + 1).arg(opShortName(e.spec));
        QStringList cells;
        if (e.failed()) {
            cells = {QStringLiteral("—"), QStringLiteral("—"), QStringLiteral("—"), QStringLiteral("—"), qs(e.errorText())};
        } else {
            cells = {num(e.stats.mse, 4), QString::number(e.stats.sqnr_db, 'f', 2), num(e.stats.max_abs_error, 4),
                     QString::number(e.stats.distinct_levels),
                     QStringLiteral("[%1, %2]").arg(floatText(e.slice.output_min), floatText(e.slice.output_max))};
        }
        for (int r = 0; r < 5; ++r) {
            auto* item = new QTableWidgetItem(cells[r]);
            item->setTextAlignment(Qt::AlignCenter);
            item->setForeground(categoryColor(c, theme_));
            if (r == 4 && e.failed()) item->setToolTip(cells[r]);
            items_->table->setItem(r, c, item);
        }
    }
    items_->table->setHorizontalHeaderLabels(headers);
}

}  // namespace qs::ui
