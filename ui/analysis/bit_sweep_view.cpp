#include "ui/analysis/bit_sweep_view.h"

#include <algorithm>
#include <cmath>

#include <QBoxLayout>
#include <qcustomplot.h>

#include "core/analysis/bit_sweep_view_data.h"
#include "ui/analysis/analysis_text.h"
#include "ui/plot/plot_items.h"
#include "ui/status/job_status.h"

namespace qs::ui {

using namespace qs::ui::text;
using qs::analysis::BitSweep;
using qs::analysis::DataKind;

QString BitSweepView::theoryName(const BitSweep& s) {
    const int k = qs::analysis::theoryLevelOffset(s);
    if (k < 0)
        return tr("theory: 10·log10(P/(Δ²/12)), Δ = the op's step, P = %1")
            .arg(s.kind == DataKind::Other ? tr("mean x² of the data") : tr("the signal power"));
    const QString op = opShortName(s.rows.front().spec);
    QString formula = k == 0 ? QStringLiteral("20·log10(2^b)") : QStringLiteral("20·log10(2^b − %1)").arg(k);
    if (s.kind == DataKind::Sine) formula += QStringLiteral(" + 1.76");
    return tr("theory: %1 (%2, %3)").arg(formula, op, s.kind == DataKind::Sine ? tr("full-scale sine") : tr("uniform data"));
}

QString BitSweepView::levelsCaption(const BitSweep& s) {
    if (s.rows.empty()) return {};
    const auto& r = qs::analysis::exampleRow(s);
    const qs::QuantSpec& spec = r.spec;
    QString what;
    if (qs::opDescriptor(spec.op).family == qs::OpFamily::TpuSimulated)
        what = tr("TPU: b bits = 2^b buckets (x = log2(num_buckets)), all 2^b levels inside [lower, upper]");
    else if (qs::isQdq(spec.op) && spec.signed_input)
        what = tr("signed QDQ scales by the positive side: 2^b codes, 2^b − %1 of them inside the range")
                   .arg((int64_t{1} << r.bits) - r.levels_in_range);
    else
        what = tr("%1: %2 codes, %3 inside the range").arg(opShortName(spec)).arg(r.levels).arg(r.levels_in_range);
    QString line = tr("Levels: %1.\nAt b = %2: %3 codes, %4 inside the range, Δ = %5, %6 used by the data.")
                       .arg(what)
                       .arg(r.bits)
                       .arg(r.levels)
                       .arg(r.levels_in_range)
                       .arg(num(r.step, 4))
                       .arg(r.levels_used);
    if (!s.note.empty()) line += QStringLiteral("\n") + qs(s.note);
    if (r.spec.axis >= 0 && qs::usesAxis(r.spec.op))
        line += tr("\nPer channel along axis %1, each channel with its own Δ (the theory uses their RMS).")
                    .arg(r.spec.axis);
    if (!s.gap_note.empty()) line += QStringLiteral("\n") + qs(s.gap_note);
    return line;
}

BitSweepView::BitSweepView(QWidget* parent) : ResultPlot(parent) {
    QCustomPlot* p = plot();
    title_ = items::titledPlot(this, p, QStringLiteral("bitSweepView"), QStringLiteral("bitSweepPlot"));
    QCPAxisRect* main = p->axisRect();
    mseRect_ = items::rectBelow(p, QStringLiteral("mseRect"));
    QFont small = font();
    small.setPointSizeF(small.pointSizeF() * 0.9);
    caption_ = new QCPTextElement(p, QString(), small);
    caption_->setObjectName(QStringLiteral("levelsCaption"));
    caption_->setTextFlags(Qt::AlignLeft | Qt::TextWordWrap);
    p->plotLayout()->addElement(3, 0, caption_);
    auto* margins = new QCPMarginGroup(p);
    for (QCPAxisRect* rect : {main, mseRect_}) {
        rect->setMarginGroup(QCP::msLeft | QCP::msRight, margins);
        rect->setRangeDrag(Qt::Horizontal | Qt::Vertical);
        rect->setRangeZoom(Qt::Horizontal | Qt::Vertical);
    }
    QCPAxis* x = p->xAxis;
    QCPAxis* y = p->yAxis;
    QCPAxis* mx = mseRect_->axis(QCPAxis::atBottom);
    QCPAxis* my = mseRect_->axis(QCPAxis::atLeft);
    QSharedPointer<QCPAxisTickerFixed> integers(new QCPAxisTickerFixed);
    integers->setTickStep(1.0);
    integers->setScaleStrategy(QCPAxisTickerFixed::ssMultiples);
    for (QCPAxis* a : {x, mx}) a->setTicker(integers);
    connect(x, qOverload<const QCPRange&>(&QCPAxis::rangeChanged), mx, qOverload<const QCPRange&>(&QCPAxis::setRange));
    connect(mx, qOverload<const QCPRange&>(&QCPAxis::rangeChanged), x, qOverload<const QCPRange&>(&QCPAxis::setRange));
    y->setLabel(tr("SQNR (dB)"));
    my->setLabel(tr("MSE"));
    my->setScaleType(QCPAxis::stLogarithmic);
    my->setTicker(QSharedPointer<QCPAxisTicker>(new QCPAxisTickerLog));
    my->setNumberFormat(QStringLiteral("eb"));
    my->setNumberPrecision(0);

    auto graph = [p](QCPAxis* gx, QCPAxis* gy, const char* name, const QString& legend) {
        QCPGraph* g = p->addGraph(gx, gy);
        g->setObjectName(QLatin1String(name));
        g->setName(legend);
        return g;
    };
    // Measured first: the dashed theory lines stay visible where they agree with it.
    sqnr_ = graph(x, y, "measuredSqnr", tr("measured SQNR"));
    theory_ = graph(x, y, "theorySqnr", tr("theory"));
    textbook_ = graph(x, y, "textbookSqnr", tr("textbook"));
    mse_ = graph(mx, my, "measuredMse", tr("measured MSE"));
    theoryMse_ = graph(mx, my, "theoryMse", tr("theory MSE: Δ²/12"));
    for (QCPGraph* g : {sqnr_, mse_}) g->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, 7));

    showSmallLegend(2);
    p->plotLayout()->setRowStretchFactors({0.01, 0.01, 2.2, 1.3, 0.01});
    p->plotLayout()->setRowSpacing(4);

    status_ = JobStatus::forAnalysis();
    static_cast<QBoxLayout*>(layout())->addWidget(status_);
    restyle();
    setResult(nullptr);
}

BitSweepView::~BitSweepView() = default;

void BitSweepView::applySeriesStyle(const PlotPalette& c) {
    sqnr_->setPen(QPen(c.curve, 2.0));
    sqnr_->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, QPen(c.curve, 1.5), c.curve, 7));
    theory_->setPen(QPen(c.theory, 2.2, Qt::DashLine));
    textbook_->setPen(QPen(c.marker, 1.4, Qt::DotLine));
    mse_->setPen(QPen(c.error, 2.0));
    mse_->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, QPen(c.error, 1.5), c.error, 7));
    theoryMse_->setPen(QPen(c.theory, 2.0, Qt::DashLine));
}

void BitSweepView::draw() {
    const bool have = result_ && !result_->rows.empty();
    plot()->legend->setVisible(have);
    if (!have) {
        for (QCPGraph* g : {sqnr_, theory_, textbook_, mse_, theoryMse_}) g->data()->clear();
        title_->setText(tr("Bit-width sweep"));
        caption_->setText(QString());
        plot()->replot();
        return;
    }
    const BitSweep& s = *result_;
    const qs::analysis::BitSweepCurves c = qs::analysis::bitSweepCurves(s);
    using items::qvec;
    const QVector<double> bits = qvec(c.bits);
    sqnr_->setData(bits, qvec(c.sqnr_db), true);
    theory_->setData(bits, qvec(c.theory_sqnr_db), true);
    theory_->setName(theoryName(s));
    const bool showTextbook = s.kind != DataKind::Other;
    textbook_->setData(showTextbook ? bits : QVector<double>{}, showTextbook ? qvec(c.textbook_sqnr_db) : QVector<double>{},
                       true);
    textbook_->setName(s.kind == DataKind::Sine ? tr("textbook: 6.02·b + 1.76 (2^b levels)")
                                                : tr("textbook: 6.02·b (2^b levels)"));
    if (showTextbook) textbook_->addToLegend(); else textbook_->removeFromLegend();
    mse_->setData(bits, qvec(c.mse), true);
    theoryMse_->setData(bits, qvec(c.theory_mse), true);

    const bool tpu = qs::analysis::isTpuSweep(s);
    const QString xLabel = tpu ? tr("bits = log2(num_buckets)") : tr("bits b");
    mseRect_->axis(QCPAxis::atBottom)->setLabel(xLabel);
    plot()->xAxis->setLabel(QString());
    plot()->xAxis->setTickLabels(false);
    title_->setText(tr("Bit-width sweep  ·  %1  ·  SQNR and MSE against %2")
                        .arg(opShortName(s.rows.front().spec), tpu ? tr("log2(num_buckets)") : tr("bits")));
    caption_->setText(levelsCaption(s));

    setHomeRange(plot()->xAxis, bits.front() - 0.5, bits.back() + 0.5);
    setHomeRange(mseRect_->axis(QCPAxis::atBottom), bits.front() - 0.5, bits.back() + 0.5);
    double yLo = c.sqnr_lo, yHi = c.sqnr_hi, mLo = c.mse_lo, mHi = c.mse_hi;
    if (yHi < yLo) yLo = 0, yHi = 1;
    const double pad = std::max(1.0, 0.06 * (yHi - yLo));
    setHomeRange(plot()->yAxis, yLo - pad, yHi + pad);
    if (mHi <= 0) mLo = 1e-6, mHi = 1;
    setHomeRange(mseRect_->axis(QCPAxis::atLeft), mLo / 3, mHi * 3);
    finishDraw();
}

QString BitSweepView::caption() const { return caption_->text(); }

data::NumberColumns BitSweepView::csvTable() const {
    auto t = data::NumberColumns::named(
        {"bits", "levels", "levels_in_range", "levels_used", "step", "mse", "sqnr_db", "theory_sqnr_db", "clipped"});
    if (!result_) return t;
    for (const auto& r : result_->rows)
        t.addRow({double(r.bits), double(r.levels), double(r.levels_in_range), double(r.levels_used), r.step, r.mse,
                  r.sqnr_db, r.theory_sqnr_db, double(r.clipped)});
    return t;
}

}  // namespace qs::ui
