#include "ui/plot/plot_frame.h"

#include <algorithm>
#include <cmath>

#include <QAction>
#include <QMenu>
#include <QVBoxLayout>
#include <qcustomplot.h>

#include "ui/plot/layout_width.h"
#include "ui/plot/legend_placement.h"
#include "ui/plot/plot_export_dialogs.h"
#include "ui/plot/plot_overlay.h"
#include "ui/plot/presentation_scale.h"
#include "ui/plot/range_handles.h"
#include "ui/plot/title_wrap.h"

namespace qs::ui {

// ---------------------------------------------------------------------------------------
// PlotFrame

PlotFrame::PlotFrame(QWidget* parent)
    : QWidget(parent), plot_(new QCustomPlot(this)), palette_(plotPalette(Theme::Light)), readout_(plot_) {
    overlay_ = std::make_unique<PlotOverlay>(plot_, font());
    // Qt strokes wide antialiased polylines of thousands of points very slowly (the transfer
    // view's error sawtooth alone was too slow to drag); QCustomPlot's fast polylines draw
    // the same pixels for our plots many times faster.
    plot_->setPlottingHint(QCP::phFastPolylines, true);
    plot_->setObjectName(QStringLiteral("plot"));
    keepTitlesWrapped(plot_);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(plot_);

    plot_->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    plot_->setNoAntialiasingOnDrag(true);
    plot_->setSelectionRectMode(QCP::srmNone);
    plot_->setContextMenuPolicy(Qt::CustomContextMenu);
    plot_->installEventFilter(this);
    plot_->setMouseTracking(true);

    resetAction_ = new QAction(tr("Reset view"), this);
    resetAction_->setObjectName(QStringLiteral("resetViewAction"));
    resetAction_->setShortcut(QKeySequence(Qt::Key_Home));
    resetAction_->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    addAction(resetAction_);
    connect(resetAction_, &QAction::triggered, this, &PlotFrame::resetView);

    connect(plot_, &QCustomPlot::mousePress, this, &PlotFrame::onMousePress);
    connect(plot_, &QCustomPlot::mouseMove, this, &PlotFrame::onMouseMove);
    connect(plot_, &QCustomPlot::mouseDoubleClick, this, [this](QMouseEvent* event) {
        if (event->button() == Qt::LeftButton) resetView();
    });
    connect(plot_, &QCustomPlot::legendClick, this, &PlotFrame::onLegendClick);
    connect(plot_, &QCustomPlot::beforeReplot, this, [this] {
        replotPending_ = false;  // whoever replots (a resize on show does) draws what was held back
        viewRangesChanged();
    });
    // After the layout the axis rects have the width of the coming draw.
    connect(plot_, &QCustomPlot::afterLayout, this, [this] { decimation_.refresh(exporting_); });
    connect(plot_, &QWidget::customContextMenuRequested, this, [this](const QPoint& pos) {
        QMenu* menu = createContextMenu(this);
        menu->setAttribute(Qt::WA_DeleteOnClose);
        menu->popup(plot_->mapToGlobal(pos));
    });
}

PlotFrame::~PlotFrame() = default;

void PlotFrame::applySeriesStyle(const PlotPalette&) {}

void PlotFrame::restyle() {
    const PlotPalette& base = plotPalette(theme_);
    palette_ = isStale() ? stalePalette(base) : base;
    applyPlotPalette(plot_, base);  // frame colours stay readable when stale
    applySeriesStyle(palette_);
    for (RangeHandles* h : handles_) h->setColor(palette_.handle);
    readout_.setColors(base);
    overlay_->setColors(base);
    plot_->selectionRect()->setPen(QPen(base.text, 1, Qt::DashLine));
    QColor fill = base.curve;
    fill.setAlpha(40);
    plot_->selectionRect()->setBrush(fill);
    updateLegendColors();
    if (presentationUsed_)
        applyPresentationScale(plot_, presentationScale_, presentationFontScale_);
    requestReplot();
}

void PlotFrame::requestReplot() {
    if (plot_->isVisible()) {
        replotPending_ = false;
        plot_->replot();
    } else {
        // The layout still follows (the plot's size hint, which places it in splitters and
        // layouts, and the pixels of its axes); only the drawing waits.
        replotPending_ = true;
        for (auto phase : {QCPLayoutElement::upPreparation, QCPLayoutElement::upMargins, QCPLayoutElement::upLayout})
            plot_->plotLayout()->update(phase);
    }
}

void PlotFrame::setPlotData(QCPAbstractPlottable* plottable, std::vector<double> keys, std::vector<double> values) {
    decimation_.set(plottable, std::move(keys), std::move(values));
    followKeyAxis(plottable->keyAxis());
    decimation_.refresh(exporting_);  // now, for whoever reads the plot's data before a replot
}

void PlotFrame::setPlotData(QCPGraph* graph, QCPErrorBars* errors, std::vector<double> keys,
                            std::vector<double> values, std::vector<double> minus, std::vector<double> plus) {
    decimation_.set(graph, errors, std::move(keys), std::move(values), std::move(minus), std::move(plus));
    followKeyAxis(graph->keyAxis());
    decimation_.refresh(exporting_);
}

void PlotFrame::followKeyAxis(QCPAxis* axis) {
    // Zoom, pan and new home ranges re-decimate at once (a hidden plot's data follows its
    // ranges too); a resize does after the next layout.
    if (!axis || decimatedAxes_.contains(axis)) return;
    decimatedAxes_.insert(axis);
    connect(axis, qOverload<const QCPRange&>(&QCPAxis::rangeChanged), this,
            [this] { decimation_.refresh(exporting_); });
}

void PlotFrame::setPresentationScale(double lineFactor, double fontFactor) {
    if (!(lineFactor > 0) || !(fontFactor > 0)) return;
    if (lineFactor == presentationScale_ && fontFactor == presentationFontScale_) return;
    presentationScale_ = lineFactor;
    presentationFontScale_ = fontFactor;
    presentationUsed_ = true;
    restyle();
}

void PlotFrame::updateLegendColors() {
    const PlotPalette& base = plotPalette(theme_);
    for (QCPLegend* legend : plot_->findChildren<QCPLegend*>()) {
        for (int i = 0; i < legend->itemCount(); ++i) {
            auto* item = qobject_cast<QCPPlottableLegendItem*>(legend->item(i));
            if (!item) continue;
            item->setTextColor(hidden_.contains(item->plottable()) ? base.legendHiddenText
                                                                   : base.text);
        }
    }
}

void PlotFrame::setTheme(Theme theme) {
    const bool changed = theme != theme_;
    theme_ = theme;
    restyle();
    if (changed) emit themeChanged(theme);
}

bool PlotFrame::isStale() const { return overlay_->isStale(); }
QString PlotFrame::staleMessage() const { return overlay_->staleMessage(); }
QCPItemText* PlotFrame::staleText() const { return overlay_->staleText(); }
QCPItemText* PlotFrame::messageText() const { return overlay_->messageText(); }

void PlotFrame::setStale(bool stale, const QString& message) {
    if (overlay_->setStale(stale, message)) {
        restyle();
        emit staleChanged(stale);
    }
}

// --- home view, log scale ---------------------------------------------------------------

void PlotFrame::setHomeRange(QCPAxis* axis, double lower, double upper) {
    if (!(upper > lower) || !std::isfinite(lower) || !std::isfinite(upper)) {
        const double c = std::isfinite(lower) ? lower : 0.0;
        const double w = std::max(std::abs(c) * 1e-3, 1e-6);
        lower = c - w;
        upper = c + w;
    }
    pending_[axis] = Range{lower, upper};
}

void PlotFrame::applyHome(QCPAxis* axis) {
    const Range r = home_.value(axis);
    axis->setRange(r.lower, r.upper);
    lastSet_[axis] = Range{axis->range().lower, axis->range().upper};  // as QCP stored it
}

void PlotFrame::commitHomeView() {
    const bool frozen = anyHandleDragging();
    for (auto it = pending_.constBegin(); it != pending_.constEnd(); ++it) {
        QCPAxis* axis = it.key();
        home_[axis] = it.value();
        // Follow the new result only where the user has not zoomed or panned since.
        const auto last = lastSet_.constFind(axis);
        const bool untouched = last == lastSet_.constEnd() ||
                               (axis->range().lower == last->lower &&
                                axis->range().upper == last->upper);
        if (untouched && !frozen) applyHome(axis);
    }
    pending_.clear();
}

void PlotFrame::finishDraw() {
    commitHomeView();
    setStale(false);
    restyle();
}

void PlotFrame::resetView() {
    for (auto it = home_.constBegin(); it != home_.constEnd(); ++it) applyHome(it.key());
    plot_->replot();
}

void PlotFrame::setLogScaleAxes(const QList<QCPAxis*>& axes) {
    logAxes_ = axes;
    if (!logAction_) {
        logAction_ = new QAction(tr("Log scale"), this);
        logAction_->setObjectName(QStringLiteral("logScaleAction"));
        logAction_->setCheckable(true);
        logAction_->setShortcut(QKeySequence(Qt::Key_L));
        logAction_->setShortcutContext(Qt::WidgetWithChildrenShortcut);
        addAction(logAction_);
        connect(logAction_, &QAction::toggled, this, &PlotFrame::setLogScale);
    }
}

bool PlotFrame::isLogScale() const {
    return !logAxes_.isEmpty() && logAxes_.front()->scaleType() == QCPAxis::stLogarithmic;
}

void PlotFrame::setLogScale(bool on) {
    if (logAxes_.isEmpty() || on == isLogScale()) {
        if (logAction_ && logAction_->isChecked() != on) logAction_->setChecked(on);
        return;
    }
    for (QCPAxis* axis : logAxes_) {
        axis->setScaleType(on ? QCPAxis::stLogarithmic : QCPAxis::stLinear);
        if (on) {
            QSharedPointer<QCPAxisTickerLog> ticker(new QCPAxisTickerLog);
            axis->setTicker(ticker);
            axis->setNumberFormat(QStringLiteral("eb"));
            axis->setNumberPrecision(0);
        } else {
            axis->setTicker(QSharedPointer<QCPAxisTicker>(new QCPAxisTicker));
            axis->setNumberFormat(QStringLiteral("gb"));
            axis->setNumberPrecision(6);
        }
    }
    if (logAction_ && logAction_->isChecked() != on) logAction_->setChecked(on);
    logScaleChanged(on);  // the view registers new home ranges for these axes
    if (countHeadroom_ > 0) registerCountHome();
    for (auto it = pending_.constBegin(); it != pending_.constEnd(); ++it)
        home_[it.key()] = it.value();
    pending_.clear();
    for (QCPAxis* axis : logAxes_)
        if (home_.contains(axis)) applyHome(axis);
    requestReplot();
}

// --- handles, messages -----------------------------------------------------------------

RangeHandles* PlotFrame::addRangeHandles(QCPAxis* xAxis, QCPAxis* yAxis) {
    auto* handles = new RangeHandles(plot_, xAxis, yAxis, this);
    handles_ << handles;
    connect(handles, &RangeHandles::rangeDragged, this, &PlotFrame::rangeDragged);
    connect(handles, &RangeHandles::dragStarted, this, &PlotFrame::hideReadout);
    handles->setColor(palette_.handle);
    return handles;
}

void PlotFrame::placeLegendOnTop(int columns) {
    QCPLegend* legend = plot_->legend;
    QCPLayoutGrid* grid = plot_->plotLayout();
    int row = 0;  // the row of the main axis rect
    for (int r = 0; r < grid->rowCount(); ++r)
        if (grid->element(r, 0) == plot_->axisRect()) row = r;
    if (auto* inset = qobject_cast<QCPLayoutInset*>(legend->layout())) inset->take(legend);
    grid->insertRow(row);
    grid->addElement(row, 0, legend);
    // One column until a replot knows the plot's width: a fixed two made the legend's two
    // widest entries the plot's minimum width (650 pixels for the model report's bars,
    // which pushed a 1280-pixel window past the screen's edge).
    legend->setWrap(1);
    legend->setFillOrder(QCPLayoutGrid::foColumnsFirst, true);  // re-flows existing items
    keepLegendColumnsFitting(plot_, columns);
    legend->setMargins(QMargins(4, 0, 4, 0));
    legend->setColumnSpacing(14);
    legend->setRowSpacing(0);
    grid->setRowStretchFactor(row, 0.001);
}

void PlotFrame::showSmallLegend(int columnsOnTop) {
    plot_->legend->setVisible(true);
    QFont legendFont = font();
    legendFont.setPointSizeF(legendFont.pointSizeF() * 0.9);
    plot_->legend->setFont(legendFont);
    if (columnsOnTop > 0) placeLegendOnTop(columnsOnTop);
}

void PlotFrame::dragAndZoomBothAxes() {
    plot_->axisRect()->setRangeDrag(Qt::Horizontal | Qt::Vertical);
    plot_->axisRect()->setRangeZoom(Qt::Horizontal | Qt::Vertical);
}

void PlotFrame::useCountAxis(double headroom) {
    countHeadroom_ = headroom;
    setLogScaleAxes({plot_->yAxis});
}

void PlotFrame::setMaxCount(double maxCount) {
    maxCount_ = maxCount;
    registerCountHome();
}

void PlotFrame::registerCountHome() {
    if (isLogScale())
        setHomeRange(plot_->yAxis, 0.5, maxCount_ * 3);
    else
        setHomeRange(plot_->yAxis, 0, maxCount_ * countHeadroom_);
}

bool PlotFrame::anyHandleDragging() const {
    return std::any_of(handles_.begin(), handles_.end(),
                       [](const RangeHandles* h) { return h->isDragging(); });
}

void PlotFrame::setMessage(const QString& message) { overlay_->setMessage(message); }

// --- series visibility -------------------------------------------------------------------

void PlotFrame::setSeriesHidden(QCPAbstractPlottable* plottable, bool hidden) {
    if (!plottable) return;
    if (hidden)
        hidden_.insert(plottable);
    else
        hidden_.remove(plottable);
    plottable->setVisible(!hidden);
    updateLegendColors();
    requestReplot();
}

bool PlotFrame::isSeriesHidden(QCPAbstractPlottable* plottable) const {
    return hidden_.contains(plottable);
}

void PlotFrame::onLegendClick(QCPLegend*, QCPAbstractLegendItem* item, QMouseEvent* event) {
    if (event->button() != Qt::LeftButton) return;
    auto* pli = qobject_cast<QCPPlottableLegendItem*>(item);
    if (!pli || !pli->plottable()) return;
    setSeriesHidden(pli->plottable(), !isSeriesHidden(pli->plottable()));
}

// --- mouse: rubber band, read-out --------------------------------------------------------

void PlotFrame::onMousePress(QMouseEvent* event) {
    // QCustomPlot emits mousePress before it decides between selection rect and panning.
    const bool box = event->button() == Qt::LeftButton &&
                     (event->modifiers() & (Qt::ControlModifier | Qt::ShiftModifier));
    plot_->setSelectionRectMode(box ? QCP::srmZoom : QCP::srmNone);
    hideReadout();
}

void PlotFrame::hideReadout() { readout_.hide(); }

PlotFrame::Readout PlotFrame::readoutAt(const QPointF& pixel) const {
    return nearestGraphPoint(plot_, pixel, &decimation_);
}

void PlotFrame::onMouseMove(QMouseEvent* event) {
    if (event->buttons() != Qt::NoButton || anyHandleDragging()) {
        hideReadout();
        return;
    }
    const Readout r = readoutAt(event->position());
    if (!r.valid || r.text.isEmpty()) {
        hideReadout();
        return;
    }
    readout_.show(r);
}

bool PlotFrame::eventFilter(QObject* watched, QEvent* event) {
    if (watched == plot_ && event->type() == QEvent::Leave) hideReadout();
    // A replot held back while hidden: before the plot shows (or is grabbed) its buffers.
    if (watched == plot_ && replotPending_ && (event->type() == QEvent::Show || event->type() == QEvent::Paint)) {
        replotPending_ = false;
        plot_->replot(QCustomPlot::rpQueuedRefresh);
    }
    return QWidget::eventFilter(watched, event);
}

// --- CSV of the series ------------------------------------------------------------------

data::NumberColumns PlotFrame::csvTable() const { return seriesTable(); }

data::NumberColumns PlotFrame::seriesTable() const {
    data::NumberColumns table;
    for (int i = 0; i < plot_->plottableCount(); ++i) {
        QCPAbstractPlottable* p = plot_->plottable(i);
        if (!p->realVisibility()) continue;
        std::vector<double> x, y;
        auto collect = [&](const auto& data) {
            for (auto it = data->constBegin(); it != data->constEnd(); ++it) {
                x.push_back(it->key);
                y.push_back(it->value);
            }
        };
        if (const PlotDecimation::Series* full = decimation_.full(p)) {
            x = full->keys;
            y = full->values;
        } else if (auto* g = qobject_cast<QCPGraph*>(p))
            collect(g->data());
        else if (auto* b = qobject_cast<QCPBars*>(p))
            collect(b->data());
        else
            continue;
        if (x.empty()) continue;
        const std::string name = (p->name().isEmpty() ? p->objectName() : p->name()).toStdString();
        table.header.push_back(name + " x");
        table.header.push_back(name + " y");
        table.columns.push_back(std::move(x));
        table.columns.push_back(std::move(y));
    }
    return table;
}

// --- export ------------------------------------------------------------------------------

void PlotFrame::beginExport(QSize size) const {
    readout_.suspend();
    // Drawn at another size: every point (the on-screen decimation is for this width).
    exporting_ = true;
    decimation_.refresh(true);
    beginExportLayout(plot_, size);
    // toPainter() does not emit beforeReplot: bring zoom-dependent details up to date.
    const_cast<PlotFrame*>(this)->viewRangesChanged();
}

void PlotFrame::endExport() const {
    readout_.resume();
    exporting_ = false;
    endExportLayout(plot_);
    decimation_.refresh(false);  // back to what the screen's width shows
    const_cast<PlotFrame*>(this)->requestReplot();  // toPainter left the layout at the export size
}

void PlotFrame::copyToClipboard() const { exporter().copyToClipboard(); }

// --- menu and dialogs --------------------------------------------------------------------

QMenu* PlotFrame::createContextMenu(QWidget* parent) {
    auto* menu = new QMenu(parent);
    menu->addAction(resetAction_);
    if (logAction_) menu->addAction(logAction_);
    contextMenu(menu);
    menu->addSeparator();
    menu->addAction(tr("Copy image"), this, &PlotFrame::copyToClipboard);
    menu->addAction(tr("Export image (PNG)…"), this, &PlotFrame::exportImageDialog);
    menu->addAction(tr("Export SVG…"), this, &PlotFrame::exportSvgDialog);
    menu->addAction(tr("Export PDF…"), this, &PlotFrame::exportPdfDialog);
    menu->addAction(tr("Export CSV…"), this, &PlotFrame::exportCsvDialog);
    QMenu* theme = menu->addMenu(tr("Plot theme"));
    QAction* light = theme->addAction(tr("Light"), this, [this] { setTheme(Theme::Light); });
    QAction* dark = theme->addAction(tr("Dark"), this, [this] { setTheme(Theme::Dark); });
    light->setCheckable(true);
    dark->setCheckable(true);
    light->setChecked(theme_ == Theme::Light);
    dark->setChecked(theme_ == Theme::Dark);
    return menu;
}

void PlotFrame::exportImageDialog() { qs::ui::exportImageDialog(this, exporter()); }
void PlotFrame::exportSvgDialog() { qs::ui::exportSvgDialog(this, exporter()); }
void PlotFrame::exportPdfDialog() { qs::ui::exportPdfDialog(this, exporter()); }
void PlotFrame::exportCsvDialog() { qs::ui::exportCsvDialog(this, exporter()); }

}  // namespace qs::ui
