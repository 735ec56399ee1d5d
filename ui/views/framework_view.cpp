#include "ui/views/framework_view.h"

#include <QCheckBox>
#include <QHeaderView>
#include <QLabel>
#include <QListWidget>
#include <QSplitter>
#include <QTableWidget>
#include <QVBoxLayout>
#include <algorithm>
#include <array>
#include <cmath>

#include <qcustomplot.h>

#include "session/explorer/analysis_data.h"
#include "session/explorer/framework_service.h"
#include "ui/plot/plot_items.h"
#include "ui/status/job_status.h"

namespace qs::ui {

using qs::analysis::DiffReason;
using qs::analysis::PreparedScheme;
using qs::analysis::SchemeKind;

namespace {

constexpr int kCurvePoints = 1600;  // samples of the visible window per curve
constexpr int kFirstReasonColumn = 4;

// How the range and bits were chosen, above the curves: "…, 4 bits (int4 codes)."
QString noteFor(const FrameworkInput& in) {
    return QObject::tr("All schemes on [%1, %2] (%3), %4 bits (%5 codes)%6.")
        .arg(in.min).arg(in.max)
        .arg(in.range_given ? QObject::tr("the requested range") : QObject::tr("the data's range"))
        .arg(in.bits)
        .arg(QString::fromStdString(qs::analysis::codeTypeName(in.bits, in.is_signed)))
        .arg(in.op_bits != in.bits ? QObject::tr(" (the op's %1 bits are outside 2–16)").arg(in.op_bits) : QString());
}

// The table's name for a scheme (its label is the legend's): enough to tell the five apart.
QString shortSchemeName(const QString& label) {
    static const std::array<std::pair<const char*, const char*>, 6> prefixes{{
        {"TF ", "TF"},
        {"PyTorch", "PyTorch"},
        {"ONNX", "ONNX"},
        {"TFLite asymmetric", "TFLite asym."},
        {"TFLite symmetric", "TFLite sym."},
        {qs::analysis::kScaledR14Label, "SCALED r1.4"},
    }};
    for (const auto& [prefix, name] : prefixes)
        if (label.startsWith(QLatin1String(prefix))) return QObject::tr(name);
    return label;
}

// `first` and `second` in a splitter, sharing its space 3 : 2.
QSplitter* splitThreeToTwo(Qt::Orientation orientation, QWidget* first, QWidget* second) {
    auto* split = new QSplitter(orientation);
    split->addWidget(first);
    split->addWidget(second);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    return split;
}

}  // namespace

void FrameworkView::setSchemes(std::vector<PreparedScheme> schemes, float min, float max) {
    schemes_ = std::move(schemes);
    while (graphs_.size() < static_cast<qsizetype>(schemes_.size())) {
        QCPGraph* g = plot()->addGraph();
        g->setObjectName(QStringLiteral("schemeCurve%1").arg(graphs_.size()));
        g->setLineStyle(QCPGraph::lsStepLeft);
        graphs_ << g;
    }
    while (graphs_.size() > static_cast<qsizetype>(schemes_.size())) plot()->removeGraph(graphs_.takeLast());
    QCPAxis* dx = diffRect_->axis(QCPAxis::atBottom);
    QCPAxis* dy = diffRect_->axis(QCPAxis::atLeft);
    while (diffGraphs_.size() < static_cast<qsizetype>(schemes_.size())) {
        QCPGraph* g = plot()->addGraph(dx, dy);
        g->setObjectName(QStringLiteral("schemeDifference%1").arg(diffGraphs_.size()));
        g->setLineStyle(QCPGraph::lsStepLeft);
        g->removeFromLegend();  // coloured as its curve above, whose legend entry names it
        diffGraphs_ << g;
    }
    while (diffGraphs_.size() > static_cast<qsizetype>(schemes_.size())) plot()->removeGraph(diffGraphs_.takeLast());
    for (size_t i = 0; i < schemes_.size(); ++i) {
        const QString name = QString::fromStdString(schemes_[i].label());
        graphs_[static_cast<qsizetype>(i)]->setName(name);
        diffGraphs_[static_cast<qsizetype>(i)]->setName(tr("%1 − TF").arg(name));
    }
    const double pad = 0.08 * std::max(1e-6, double(max) - double(min));
    setHomeRange(plot()->xAxis, min - pad, max + pad);
    setHomeRange(plot()->yAxis, min - pad, max + pad);
    commitHomeView();
    resample();
    restyle();
}

void FrameworkView::zoomTo(double x, double halfWidth) {
    plot()->xAxis->setRange(x - halfWidth, x + halfWidth);
    double lo = std::numeric_limits<double>::max(), hi = std::numeric_limits<double>::lowest();
    for (const PreparedScheme& s : schemes_)
        for (double xi : {x - halfWidth, x + halfWidth}) {
            const double y = s(static_cast<float>(xi));
            if (std::isfinite(y)) {
                lo = std::min(lo, y);
                hi = std::max(hi, y);
            }
        }
    if (lo <= hi) plot()->yAxis->setRange(lo - 0.2 * halfWidth, hi + 0.2 * halfWidth);
    resample();
    plot()->replot();
}

void FrameworkView::viewRangesChanged() {
    if (!resampling_) resample();
}

void FrameworkView::resample() {
    resampling_ = true;
    const QCPRange r = plot()->xAxis->range();
    QVector<double> xs(kCurvePoints);
    for (int i = 0; i < kCurvePoints; ++i) xs[i] = r.lower + (r.upper - r.lower) * i / (kCurvePoints - 1);
    QVector<QVector<double>> outputs;
    for (size_t s = 0; s < schemes_.size(); ++s) {
        QVector<double> ys(kCurvePoints);
        for (int i = 0; i < kCurvePoints; ++i) ys[i] = schemes_[s](static_cast<float>(xs[i]));
        graphs_[static_cast<qsizetype>(s)]->setData(xs, ys, true);
        outputs << ys;
    }
    resampleDifferences(xs, outputs);
    resampling_ = false;
}

void FrameworkView::resampleDifferences(const QVector<double>& xs, const QVector<QVector<double>>& ys) {
    const auto tf = std::find_if(schemes_.begin(), schemes_.end(),
                                 [](const PreparedScheme& s) { return s.scheme().kind == SchemeKind::Tf; });
    double largest = 0;
    for (qsizetype s = 0; s < diffGraphs_.size(); ++s) {
        QVector<double> d;
        if (tf != schemes_.end() && s != tf - schemes_.begin()) {
            const QVector<double>& base = ys[tf - schemes_.begin()];
            d.resize(xs.size());
            for (qsizetype i = 0; i < xs.size(); ++i) {
                d[i] = ys[s][i] - base[i];
                if (std::isfinite(d[i])) largest = std::max(largest, std::fabs(d[i]));
            }
        }
        diffGraphs_[s]->setData(d.isEmpty() ? QVector<double>() : xs, d, true);
    }
    // Symmetric around 0 and fitted to the visible window, so a one-step difference is as
    // visible as a clamp; a window where every scheme agrees with TF shows ±1 around 0.
    const double half = largest > 0 ? largest * 1.15 : 1.0;
    diffRect_->axis(QCPAxis::atLeft)->setRange(-half, half);
    diffRect_->axis(QCPAxis::atLeft)->setLabel(largest > 0 ? tr("output − TF") : tr("output − TF\n(all equal here)"));
}

data::NumberColumns FrameworkView::csvTable() const {
    data::NumberColumns t;
    t.header.push_back("input x");
    for (QCPGraph* g : graphs_) {
        QString name = g->name();
        t.header.push_back(name.replace(QLatin1Char(','), QLatin1Char(';')).toStdString());
        std::vector<double> ys;
        std::vector<double> xs;
        for (auto it = g->data()->constBegin(); it != g->data()->constEnd(); ++it) {
            xs.push_back(it->key);
            ys.push_back(it->value);
        }
        if (t.columns.empty()) t.columns.push_back(std::move(xs));
        t.columns.push_back(std::move(ys));
    }
    if (t.columns.empty()) t.columns.emplace_back();
    return t;
}

void FrameworkView::applySeriesStyle(const PlotPalette& c) {
    // Thick to thin, so curves lying on top of each other all stay visible.
    const QColor colors[] = {c.curve, c.secondary, c.error, c.range, c.theory, c.marker, c.highlight};
    for (qsizetype i = 0; i < graphs_.size(); ++i) {
        const bool r14 = i < static_cast<qsizetype>(schemes_.size()) &&
                         schemes_[static_cast<size_t>(i)].scheme().kind == SchemeKind::ScaledR14;
        QPen pen(colors[i % 7], std::max(1.0, 4.0 - 0.6 * static_cast<double>(i)));
        if (r14) pen.setStyle(Qt::DashLine);
        graphs_[i]->setPen(pen);
        if (i < diffGraphs_.size()) diffGraphs_[i]->setPen(QPen(pen.color(), 1.6, pen.style()));
    }
}

// --- FrameworkView -------------------------------------------------------------------

FrameworkView::FrameworkView(FrameworkService* service, QWidget* parent)
    : PlotFrame(parent), service_(service ? service : new FrameworkService(this)) {
    setObjectName(QStringLiteral("frameworkView"));
    plot()->setObjectName(QStringLiteral("frameworkPlot"));
    plot()->yAxis->setLabel(tr("dequantized output"));
    plot()->axisRect()->setRangeDrag(Qt::Horizontal | Qt::Vertical);
    plot()->axisRect()->setRangeZoom(Qt::Horizontal | Qt::Vertical);
    // The legend above the curves (inside, it lay over them), then the difference panel
    // below them on the same x.
    showSmallLegend(3);
    diffRect_ = items::rectBelow(plot(), QStringLiteral("frameworkDifferenceRect"));
    plot()->plotLayout()->setRowStretchFactor(plot()->plotLayout()->rowCount() - 1, 0.6);
    auto* margins = new QCPMarginGroup(plot());
    plot()->axisRect()->setMarginGroup(QCP::msLeft | QCP::msRight, margins);
    diffRect_->setMarginGroup(QCP::msLeft | QCP::msRight, margins);
    diffRect_->setRangeDrag(Qt::Horizontal);
    diffRect_->setRangeZoom(Qt::Horizontal);
    diffRect_->axis(QCPAxis::atBottom)->setLabel(tr("input x (float32)"));
    connect(plot()->xAxis, qOverload<const QCPRange&>(&QCPAxis::rangeChanged), diffRect_->axis(QCPAxis::atBottom),
            qOverload<const QCPRange&>(&QCPAxis::setRange));
    connect(diffRect_->axis(QCPAxis::atBottom), qOverload<const QCPRange&>(&QCPAxis::rangeChanged), plot()->xAxis,
            qOverload<const QCPRange&>(&QCPAxis::setRange));
    connect(service_, &FrameworkService::compared, this,
            [this](FrameworkComparisonPtr result) { showComparison(*result); });
    connect(service_, &FrameworkService::failed, this, &FrameworkView::showError);

    r14_ = new QCheckBox(tr("Also show SCALED as documented in r1.4 (not what the kernel does)"));
    r14_->setObjectName(QStringLiteral("frameworkR14"));
    r14_->setToolTip(r14_->text());
    r14_->setMinimumWidth(0);  // a narrow view clips the long text (the tooltip has it) rather than the window
    r14_->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Fixed);
    connect(r14_, &QCheckBox::toggled, this, [this] {
        drawCurves();
        dirty_ = true;
        if (isVisible()) start();
    });
    note_ = new QLabel;
    note_->setObjectName(QStringLiteral("frameworkNote"));
    note_->setWordWrap(true);
    status_ = JobStatus::forAnalysis();
    connect(service_, &FrameworkService::progress, status_, &JobStatus::setProgress);
    connect(service_, &FrameworkService::cancelled, this, &FrameworkView::showCancelled);
    connect(status_, &JobStatus::cancelRequested, this, [this] {
        service_->cancelRunning();
        status_->setBusy(tr("Cancelling the comparison…"));
    });
    connect(status_, &JobStatus::rerunRequested, this, &FrameworkView::start);

    table_ = new QTableWidget;
    table_->setObjectName(QStringLiteral("frameworkTable"));
    QStringList header{tr("scheme A"), tr("scheme B"), tr("differing"), tr("max |A − B|")};
    for (int r = 1; r < qs::analysis::kDiffReasonCount; ++r)
        header << QString::fromUtf8(diffReasonName(static_cast<DiffReason>(r)).data());
    table_->setColumnCount(static_cast<int>(header.size()));
    table_->setHorizontalHeaderLabels(header);
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->verticalHeader()->hide();
    // Short scheme names ("PyTorch", "TFLite asym.") keep a row on one line and every column
    // in view; the full name is the cell's tooltip and the legend's entry.
    table_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    table_->horizontalHeader()->setStretchLastSection(true);
    table_->setWordWrap(false);

    examples_ = new QListWidget;
    examples_->setObjectName(QStringLiteral("frameworkExamples"));
    examples_->setWordWrap(true);
    examples_->setToolTip(tr("Click an example to zoom the curves onto it."));
    connect(examples_, &QListWidget::itemClicked, this, [this](QListWidgetItem* item) {
        zoomTo(item->data(Qt::UserRole).toDouble(), 4 * item->data(Qt::UserRole + 1).toDouble());
    });

    auto* layout = static_cast<QVBoxLayout*>(this->layout());  // PlotFrame's: the plot alone
    layout->removeWidget(plot());
    // One column: the table and the examples below the curves, each the view's full width
    // (side by side, at 1280 pixels the table's last columns were cut and the examples wrapped
    // into a wall of text).
    auto* split = splitThreeToTwo(Qt::Vertical, plot(), splitThreeToTwo(Qt::Vertical, table_, examples_));
    split->setStretchFactor(0, 2);  // the curves, their legend and the difference panel: 2/3
    split->setStretchFactor(1, 1);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(note_);
    layout->addWidget(status_);
    layout->addWidget(split, 1);
    layout->addWidget(r14_);
    restyle();
}

FrameworkView::~FrameworkView() = default;

bool FrameworkView::busy() const { return service_->busy() || (dirty_ && isVisible()); }

void FrameworkView::setInput(std::shared_ptr<const qs::analysis::ExplorerResult> result,
                             std::shared_ptr<const qs::data::Dataset> data) {
    result_ = std::move(result);
    data_ = std::move(data);
    dirty_ = true;
    setStale(false);  // a valid result again (the comparison follows when visible)
    drawCurves();
    if (isVisible()) start();
}

FrameworkInput FrameworkView::currentInput() const {
    return qs::analysis::frameworkSetupFor(result_->spec, result_->data_min, result_->data_max, r14_->isChecked());
}

void FrameworkView::drawCurves() {
    // The curves are cheap (a few thousand single values): drawn at once, also while hidden,
    // so the tab is never empty; only the per-element comparison waits for the thread pool.
    if (!result_) return;
    const FrameworkInput in = currentInput();
    auto prepared = qs::analysis::prepareSchemes(in);
    setSchemes(prepared ? std::move(prepared).value() : std::vector<PreparedScheme>{}, in.min, in.max);
}

void FrameworkView::showEvent(QShowEvent* event) {
    PlotFrame::showEvent(event);
    if (dirty_) start();
}

void FrameworkView::start() {
    if (!result_ || !data_) return;
    dirty_ = false;
    const FrameworkInput in = currentInput();
    note_->setText(noteFor(in));
    status_->setRunning(tr("Comparing the schemes over every value…"));
    service_->request(in, data_);
}

void FrameworkView::showComparison(const qs::analysis::FrameworkComparison& result) {
    input_ = result.setup;
    const QString sample = data_ ? sampleNote(*data_) : QString();  // a streamed data set's
    note_->setText(sample.isEmpty() ? noteFor(input_) : noteFor(input_) + QStringLiteral("  ") + sample + QLatin1Char('.'));
    const qs::analysis::SchemeComparison& cmp = result.comparison;
    table_->setRowCount(static_cast<int>(cmp.diffs.size()));
    auto cell = [this](int row, int column, const QString& text, bool number) {
        auto* item = new QTableWidgetItem(number ? text : shortSchemeName(text));
        if (number) item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
        else item->setToolTip(text);
        table_->setItem(row, column, item);
    };
    for (int row = 0; row < static_cast<int>(cmp.diffs.size()); ++row) {
        const qs::analysis::PairDiff& d = cmp.diffs[static_cast<size_t>(row)];
        cell(row, 0, QString::fromStdString(cmp.outputs[static_cast<size_t>(d.a)].label), false);
        cell(row, 1, QString::fromStdString(cmp.outputs[static_cast<size_t>(d.b)].label), false);
        cell(row, 2, QString::number(d.differing), true);
        cell(row, 3, QString::number(d.max_abs_diff, 'g', 6), true);
        for (int r = 1; r < qs::analysis::kDiffReasonCount; ++r)
            cell(row, kFirstReasonColumn + r - 1, QString::number(d.by_reason[static_cast<size_t>(r)]), true);
    }
    hideEmptyReasonColumns();
    examples_->clear();
    for (const qs::analysis::DiffExample& e : result.examples) {
        auto* item = new QListWidgetItem(QString::fromStdString(e.text), examples_);
        item->setData(Qt::UserRole, e.x);
        item->setData(Qt::UserRole + 1, e.step);
    }
    if (result.examples.empty()) examples_->addItem(tr("Every scheme gives the same output for every element."));
    comparison_ = cmp;
    status_->clear();
    setPreviousGreyed(false);
    emit comparisonShown();
}

void FrameworkView::hideEmptyReasonColumns() {
    // A reason no pair differs by is a column of zeros: hidden, so the ones that apply fit.
    for (int column = kFirstReasonColumn; column < table_->columnCount(); ++column) {
        bool any = false;
        for (int row = 0; row < table_->rowCount() && !any; ++row)
            any = table_->item(row, column) && table_->item(row, column)->text() != QLatin1String("0");
        table_->setColumnHidden(column, !any);
    }
}

void FrameworkView::showError(const QString& message) {
    note_->setText(tr("Cannot compare: %1").arg(message));
    table_->setRowCount(0);
    examples_->clear();
    comparison_.reset();
    status_->clear();
    setPreviousGreyed(false);
    emit comparisonShown();
}

void FrameworkView::showCancelled() {
    // The curves are drawn for the current settings already; only the per-element table and
    // examples are the previous comparison's, so those are what goes grey.
    if (comparison_) {
        status_->setCancelled(tr("Cancelled. The table and examples are the previous comparison, for other settings."));
        setPreviousGreyed(true);
    } else {
        status_->setCancelled(tr("Cancelled. Nothing compared for the current settings."));
    }
}

void FrameworkView::setPreviousGreyed(bool greyed) {
    table_->setEnabled(!greyed);
    examples_->setEnabled(!greyed);
}

}  // namespace qs::ui
