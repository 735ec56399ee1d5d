#include "ui/analysis/clip_sweep_view.h"

#include <algorithm>
#include <cmath>

#include <QBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QTableWidget>
#include <qcustomplot.h>

#include "ui/analysis/analysis_text.h"
#include "ui/plot/plot_items.h"
#include "ui/status/job_status.h"

namespace qs::ui {

using namespace qs::ui::text;

namespace {

QString ratio(double v) { return std::isfinite(v) ? QString::number(v, 'f', 3) : QStringLiteral("—"); }

}  // namespace

ClipSweepView::ClipSweepView(QWidget* parent) : ResultPlot(parent) {
    QCustomPlot* p = plot();
    title_ = items::frame(this, p, QStringLiteral("clipSweepView"), QStringLiteral("clipSweepPlot"),
                          tr("clipping bound α (the op fed [−α, α])"), tr("MSE"));
    QCPAxis* x = p->xAxis;
    QCPAxis* y = p->yAxis;

    auto graph = [p, x, y](const char* name, const QString& legend) {
        QCPGraph* g = p->addGraph(x, y);
        g->setObjectName(QLatin1String(name));
        g->setName(legend);
        return g;
    };
    // The measured curve first: the dashed closed forms stay visible where they agree.
    measured_ = graph("measuredMse", tr("measured MSE"));
    gaussian_ = graph("gaussianMse", tr("closed form, Gaussian σ"));
    laplace_ = graph("laplaceMse", tr("closed form, Laplace b"));
    optimum_ = graph("measuredOptimum", tr("measured minimum α*"));
    optimum_->setLineStyle(QCPGraph::lsNone);
    current_ = graph("currentSettings", tr("current settings"));
    optimumText_ = items::label(p, x, y, QStringLiteral("optimumLabel"), QCPItemPosition::ptPlotCoords,
                                QCPItemPosition::ptPlotCoords, Qt::AlignHCenter | Qt::AlignBottom);
    optimumText_->setPadding(QMargins(6, 2, 6, 12));  // above the marker: the curve rises on both sides

    dragAndZoomBothAxes();
    showSmallLegend(2);
    setLogScaleAxes({y});
    setLogScale(true);  // the MSE spans decades between α → 0 and the minimum

    // Under the plot: the optimum table, the fit and the apply button.
    auto* below = new QWidget;
    auto* row = new QHBoxLayout(below);
    row->setContentsMargins(6, 0, 6, 0);
    table_ = new QTableWidget(0, 7);
    table_->setObjectName(QStringLiteral("optimalClipTable"));
    table_->setHorizontalHeaderLabels({tr("bits"), tr("α*/σ\ntextbook"), tr("α*/σ\nthis op"), tr("α*/σ\nmeasured"),
                                       tr("α*/b\ntextbook"), tr("α*/b\nthis op"), tr("α*/b\nmeasured")});
    table_->verticalHeader()->hide();
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
    table_->horizontalHeader()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    table_->verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 6);
    table_->setMinimumHeight(9 * (fontMetrics().height() + 6) + 2 * fontMetrics().height() + 12);
    table_->setToolTip(tr("Optimal clipping bound over the fitted σ (Gaussian) and b (Laplace).\n"
                          "textbook: 2^b levels spread over [−α, α] (ACIQ);\n"
                          "this op: the levels the op actually has at that width;\n"
                          "measured: the minimum of the measured MSE, current width only."));
    row->addWidget(table_, 3);
    auto* side = new QVBoxLayout;
    fit_ = new QLabel;
    fit_->setObjectName(QStringLiteral("clipFitLabel"));
    fit_->setWordWrap(true);
    fit_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    apply_ = new QPushButton(tr("Apply α*"));
    apply_->setObjectName(QStringLiteral("applyAlphaButton"));
    apply_->setToolTip(tr("Set the explorer's range to [−α*, α*] (undoable)"));
    connect(apply_, &QPushButton::clicked, this, [this] {
        if (!result_) return;
        const float a = static_cast<float>(result_->sweep.best_alpha);
        emit applyRequested(-a, a);
    });
    side->addWidget(fit_, 1);
    side->addWidget(apply_);
    row->addLayout(side, 2);
    auto* box = static_cast<QBoxLayout*>(layout());
    box->setStretch(0, 3);
    box->addWidget(below, 0);
    status_ = JobStatus::forAnalysis();
    box->addWidget(status_);
    restyle();
    setResult(nullptr);
}

ClipSweepView::~ClipSweepView() = default;

void ClipSweepView::applySeriesStyle(const PlotPalette& c) {
    measured_->setPen(QPen(c.curve, 3.0));
    gaussian_->setPen(QPen(c.theory, 1.8, Qt::DashLine));
    laplace_->setPen(QPen(c.secondary, 1.8, Qt::DashDotLine));
    optimum_->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDiamond, QPen(c.range, 2), c.range, 12));
    optimumText_->setColor(c.range);
    current_->setPen(QPen(c.marker, 1.6, Qt::DotLine));
    current_->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssSquare, QPen(c.marker, 2), c.marker, 10));
}

void ClipSweepView::draw() {
    const bool have = result_ && !result_->sweep.points.empty();
    plot()->legend->setVisible(have);
    optimumText_->setVisible(have);
    apply_->setEnabled(have);
    if (!have) {
        for (QCPGraph* g : {measured_, gaussian_, laplace_, optimum_, current_}) g->data()->clear();
        title_->setText(tr("Clipping sweep"));
        fit_->clear();
        table_->setRowCount(0);
        plot()->replot();
        return;
    }
    const qs::analysis::ClipSweep& s = result_->sweep;
    QVector<double> a, m, g, l;
    yLo_ = 1e300;
    yHi_ = 0;
    for (const auto& pt : s.points) {
        a << pt.alpha;
        m << pt.mse;
        g << pt.gaussian_mse;
        l << pt.laplace_mse;
        for (double v : {pt.mse, pt.gaussian_mse, pt.laplace_mse})
            if (v > 0 && std::isfinite(v)) yLo_ = std::min(yLo_, v), yHi_ = std::max(yHi_, v);
    }
    measured_->setData(a, m, true);
    gaussian_->setData(a, g, true);
    laplace_->setData(a, l, true);
    optimum_->setData({s.best_alpha}, {s.best_mse}, true);
    // The explorer's own settings, measured as the Statistics dock measures them.
    const qs::analysis::CurrentSettings& cur = result_->current;
    const QString curText = tr("current settings: MSE = %1, SQNR = %2 dB, %3 clipped")
                                .arg(num(cur.mse, 4), num(cur.sqnr_db, 4), QLocale().toString(static_cast<qlonglong>(cur.clipped)));
    if (std::isfinite(cur.alpha)) {
        current_->setLineStyle(QCPGraph::lsNone);
        current_->setData({cur.alpha}, {cur.mse}, true);
        current_->setName(tr("%1 (α = %2)").arg(curText, num(cur.alpha, 5)));
    } else {
        current_->setLineStyle(QCPGraph::lsLine);
        current_->setData({0.0, s.max_abs * 1.02}, {cur.mse, cur.mse}, true);
        current_->setName(tr("%1 (per-channel / data ranges: a level, not a point)").arg(curText));
    }
    if (cur.mse > 0 && std::isfinite(cur.mse)) yLo_ = std::min(yLo_, cur.mse), yHi_ = std::max(yHi_, cur.mse);
    gaussian_->setName(tr("closed form, Gaussian σ = %1 (α* = %2)").arg(num(s.sigma, 4), num(s.gaussian_alpha, 4)));
    laplace_->setName(tr("closed form, Laplace b = %1 (α* = %2)").arg(num(s.laplace_b, 4), num(s.laplace_alpha, 4)));
    optimumText_->position->setCoords(s.best_alpha, s.best_mse);
    optimumText_->setText(tr("α* = %1\nMSE = %2").arg(num(s.best_alpha, 5), num(s.best_mse, 4)));
    title_->setText(tr("Clipping sweep  ·  %1  ·  MSE against α, closed forms for this quantizer")
                        .arg(opShortName(s.spec)));
    fit_->setText(tr("<b>Fits</b> (zero-mean, the range is symmetric about 0):<br>σ = √(mean x²) = %1<br>"
                     "b = mean |x| = %2<br><br><b>Measured α*</b> = %3 (MSE %4)<br>"
                     "closed form α*: Gaussian %5, Laplace %6<br><br>"
                     "Curves use this op's levels: Δ = %7·α, top level %8·α, bottom −%9·α.")
                      .arg(num(s.sigma, 5), num(s.laplace_b, 5), num(s.best_alpha, 5), num(s.best_mse, 4),
                           num(s.gaussian_alpha, 4), num(s.laplace_alpha, 4), num(s.grid.step, 4),
                           num(s.grid.upper, 4), num(s.grid.lower, 4)));
    apply_->setText(tr("Apply α* → range [−%1, %1]").arg(floatText(static_cast<float>(s.best_alpha))));
    fillTable();

    setHomeRange(plot()->xAxis, 0, s.max_abs * 1.02);
    setHomeY();
    finishDraw();
}

void ClipSweepView::setHomeY() {
    if (isLogScale()) setHomeRange(plot()->yAxis, yLo_ / 2, yHi_ * 2);
    else setHomeRange(plot()->yAxis, 0, std::min(yHi_, yLo_ * 20) * 1.05);  // the minimum's region
}

void ClipSweepView::logScaleChanged(bool) { setHomeY(); }

void ClipSweepView::fillTable() {
    const ClipAnalysis& r = *result_;
    const qs::analysis::ClipSweep& s = r.sweep;
    const double bits = specBits(s.spec);
    const double measuredSigma = s.sigma > 0 ? s.best_alpha / s.sigma : NAN;
    const double measuredB = s.laplace_b > 0 ? s.best_alpha / s.laplace_b : NAN;
    table_->setRowCount(static_cast<int>(r.table.size()));
    int row = 0;
    bool currentShown = false;
    auto set = [this](int row, int col, const QString& text, bool bold) {
        auto* item = new QTableWidgetItem(text);
        item->setTextAlignment(Qt::AlignCenter);
        QFont f = item->font();
        f.setBold(bold);
        item->setFont(f);
        table_->setItem(row, col, item);
    };
    for (const auto& t : r.table) {
        const bool current = t.bits == bits;
        currentShown |= current;
        set(row, 0, current ? tr("%1 (shown)").arg(t.bits) : QString::number(t.bits), current);
        set(row, 1, ratio(t.textbook_gaussian), current);
        set(row, 2, ratio(t.op_gaussian), current);
        set(row, 3, current ? ratio(measuredSigma) : QString(), current);
        set(row, 4, ratio(t.textbook_laplace), current);
        set(row, 5, ratio(t.op_laplace), current);
        set(row, 6, current ? ratio(measuredB) : QString(), current);
        ++row;
    }
    if (!currentShown) {  // the width shown is outside 2..8: its measured row alone
        table_->setRowCount(row + 1);
        set(row, 0, tr("%1 (shown)").arg(num(bits, 4)), true);
        set(row, 2, ratio(s.sigma > 0 ? s.gaussian_alpha / s.sigma : NAN), true);
        set(row, 3, ratio(measuredSigma), true);
        set(row, 5, ratio(s.laplace_b > 0 ? s.laplace_alpha / s.laplace_b : NAN), true);
        set(row, 6, ratio(measuredB), true);
    }
}

data::NumberColumns ClipSweepView::csvTable() const {
    auto t = data::NumberColumns::named({"alpha", "mse", "gaussian_mse", "laplace_mse"});
    if (!result_) return t;
    for (const auto& pt : result_->sweep.points) t.addRow({pt.alpha, pt.mse, pt.gaussian_mse, pt.laplace_mse});
    return t;
}

}  // namespace qs::ui
