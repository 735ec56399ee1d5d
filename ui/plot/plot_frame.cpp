#include "ui/plot/plot_frame.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <memory>

#include <QAction>
#include <QBuffer>
#include <QClipboard>
#include <QDialog>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QGuiApplication>
#include <QImageWriter>
#include <QMenu>
#include <QMessageBox>
#include <QPageLayout>
#include <QPageSize>
#include <QPdfWriter>
#include <QSpinBox>
#include <QSvgGenerator>
#include <QVBoxLayout>
#include <qcustomplot.h>

#include "ui/model/native_file.h"
#include "ui/plot/presentation_scale.h"
#include "ui/plot/range_handles.h"

namespace qs::ui {

// ---------------------------------------------------------------------------------------
// CSV

qsizetype CsvTable::rowCount() const {
    size_t rows = 0;
    for (const auto& c : columns) rows = std::max(rows, c.size());
    return static_cast<qsizetype>(rows);
}

QString csvNumber(double value) {
    if (std::isnan(value)) return QStringLiteral("nan");
    if (std::isinf(value)) return value > 0 ? QStringLiteral("inf") : QStringLiteral("-inf");
    char buffer[64];
    std::to_chars_result r;
    const float f = static_cast<float>(value);
    if (static_cast<double>(f) == value)
        r = std::to_chars(buffer, buffer + sizeof buffer, f);
    else
        r = std::to_chars(buffer, buffer + sizeof buffer, value);
    return QString::fromLatin1(buffer, r.ptr - buffer);
}

QString csvField(const QString& s) {
    if (!s.contains(QLatin1Char(',')) && !s.contains(QLatin1Char('"')) &&
        !s.contains(QLatin1Char('\n')) && !s.contains(QLatin1Char('\r')))
        return s;
    QString quoted = s;
    quoted.replace(QLatin1String("\""), QLatin1String("\"\""));
    return QLatin1Char('"') + quoted + QLatin1Char('"');
}

QByteArray csvText(const CsvTable& table) {
    QByteArray out;
    QStringList header;
    for (const QString& h : table.header) header << csvField(h);
    out += header.join(QLatin1Char(',')).toUtf8();
    out += '\n';
    const qsizetype rows = table.rowCount();
    for (qsizetype r = 0; r < rows; ++r) {
        QString line;
        for (size_t c = 0; c < table.columns.size(); ++c) {
            if (c) line += QLatin1Char(',');
            const auto& column = table.columns[c];
            if (static_cast<size_t>(r) < column.size()) line += csvNumber(column[r]);
        }
        out += line.toLatin1();
        out += '\n';
    }
    return out;
}

bool writeCsv(const QString& path, const CsvTable& table, QString* error) {
    return exportFile(path, csvText(table), error);
}

// ---------------------------------------------------------------------------------------
// PlotFrame

PlotFrame::PlotFrame(QWidget* parent) : QWidget(parent), palette_(plotPalette(Theme::Light)) {
    plot_ = new QCustomPlot(this);
    // Qt strokes wide antialiased polylines of thousands of points very slowly (the transfer
    // view's error sawtooth alone took 170 ms per replot); QCustomPlot's fast polylines draw
    // the same pixels for our plots in a few milliseconds.
    plot_->setPlottingHint(QCP::phFastPolylines, true);
    plot_->setObjectName(QStringLiteral("plot"));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(plot_);

    plot_->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    plot_->setNoAntialiasingOnDrag(true);
    plot_->setSelectionRectMode(QCP::srmNone);
    plot_->setContextMenuPolicy(Qt::CustomContextMenu);
    plot_->installEventFilter(this);
    plot_->setMouseTracking(true);

    // Tracer and read-out on the buffered overlay layer: a mouse move replots only it.
    QCPLayer* overlay = plot_->layer(QStringLiteral("overlay"));
    overlay->setMode(QCPLayer::lmBuffered);
    tracer_ = new QCPItemTracer(plot_);
    tracer_->setObjectName(QStringLiteral("tracer"));
    tracer_->setLayer(overlay);
    tracer_->setStyle(QCPItemTracer::tsCircle);
    tracer_->setSize(9);
    tracer_->setSelectable(false);
    tracer_->setVisible(false);
    readout_ = new QCPItemText(plot_);
    readout_->setObjectName(QStringLiteral("readout"));
    readout_->setLayer(overlay);
    readout_->setClipToAxisRect(false);
    readout_->position->setType(QCPItemPosition::ptAbsolute);
    readout_->setTextAlignment(Qt::AlignLeft);
    readout_->setPadding(QMargins(6, 4, 6, 4));
    readout_->setSelectable(false);
    readout_->setVisible(false);

    message_ = new QCPItemText(plot_);
    message_->setObjectName(QStringLiteral("frameMessage"));
    message_->setLayer(overlay);
    message_->position->setType(QCPItemPosition::ptAxisRectRatio);
    message_->position->setCoords(0.5, 0.5);
    message_->setPositionAlignment(Qt::AlignCenter);
    message_->setTextAlignment(Qt::AlignCenter);
    message_->setPadding(QMargins(12, 8, 12, 8));
    message_->setSelectable(false);
    message_->setVisible(false);

    staleText_ = new QCPItemText(plot_);
    staleText_->setObjectName(QStringLiteral("staleText"));
    staleText_->setLayer(overlay);
    staleText_->position->setType(QCPItemPosition::ptAxisRectRatio);
    staleText_->position->setCoords(0.5, 0.12);
    staleText_->setPositionAlignment(Qt::AlignHCenter | Qt::AlignTop);
    staleText_->setTextAlignment(Qt::AlignCenter);
    staleText_->setPadding(QMargins(12, 8, 12, 8));
    staleText_->setSelectable(false);
    staleText_->setVisible(false);
    QFont staleFont = font();
    staleFont.setBold(true);
    staleText_->setFont(staleFont);

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
    connect(plot_, &QCustomPlot::beforeReplot, this, [this] { viewRangesChanged(); });
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
    palette_ = stale_ ? stalePalette(base) : base;
    applyPlotPalette(plot_, base);  // frame colours stay readable when stale
    applySeriesStyle(palette_);
    for (RangeHandles* h : handles_) h->setColor(palette_.handle);
    tracer_->setPen(QPen(base.tracer, 1.5));
    tracer_->setBrush(Qt::NoBrush);
    for (QCPItemText* box : {readout_, message_, staleText_}) {
        box->setBrush(base.overlayBackground);
        box->setPen(QPen(base.legendBorder));
        box->setColor(base.overlayText);
    }
    staleText_->setColor(base.range);
    staleText_->setPen(QPen(base.range));
    plot_->selectionRect()->setPen(QPen(base.text, 1, Qt::DashLine));
    QColor fill = base.curve;
    fill.setAlpha(40);
    plot_->selectionRect()->setBrush(fill);
    updateLegendColors();
    if (presentationUsed_)
        applyPresentationScale(plot_, presentationScale_, presentationFontScale_);
    plot_->replot();
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

void PlotFrame::setStale(bool stale, const QString& message) {
    const bool changed = stale != stale_ || message != staleMessage_;
    stale_ = stale;
    staleMessage_ = stale ? message : QString();
    staleText_->setText(message.isEmpty() ? tr("stale") : tr("stale — %1").arg(message));
    staleText_->setVisible(stale);
    if (changed) {
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
    for (auto it = pending_.constBegin(); it != pending_.constEnd(); ++it)
        home_[it.key()] = it.value();
    pending_.clear();
    for (QCPAxis* axis : logAxes_)
        if (home_.contains(axis)) applyHome(axis);
    plot_->replot();
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
    legend->setWrap(columns);
    legend->setFillOrder(QCPLayoutGrid::foColumnsFirst, true);  // re-flows existing items
    legend->setMargins(QMargins(4, 0, 4, 0));
    legend->setColumnSpacing(14);
    legend->setRowSpacing(0);
    grid->setRowStretchFactor(row, 0.001);
}

bool PlotFrame::anyHandleDragging() const {
    return std::any_of(handles_.begin(), handles_.end(),
                       [](const RangeHandles* h) { return h->isDragging(); });
}

void PlotFrame::setMessage(const QString& message) {
    message_->setText(message);
    message_->setVisible(!message.isEmpty());
}

// --- series visibility -------------------------------------------------------------------

void PlotFrame::setSeriesHidden(QCPAbstractPlottable* plottable, bool hidden) {
    if (!plottable) return;
    if (hidden)
        hidden_.insert(plottable);
    else
        hidden_.remove(plottable);
    plottable->setVisible(!hidden);
    updateLegendColors();
    plot_->replot();
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

void PlotFrame::hideReadout() {
    if (!tracer_->visible() && !readout_->visible()) return;
    tracer_->setVisible(false);
    readout_->setVisible(false);
    plot_->layer(QStringLiteral("overlay"))->replot();
}

PlotFrame::Readout PlotFrame::readoutAt(const QPointF& pixel) const {
    Readout r;
    QCPAxisRect* rect = plot_->axisRectAt(pixel);
    if (!rect) return r;
    for (int i = 0; i < plot_->graphCount(); ++i) {
        QCPGraph* graph = plot_->graph(i);
        if (!graph->realVisibility() || graph->data()->isEmpty() ||
            graph->keyAxis()->axisRect() != rect)
            continue;
        const double key = graph->keyAxis()->pixelToCoord(pixel.x());
        auto it = graph->data()->findBegin(key, false);
        if (it == graph->data()->constEnd()) --it;
        if (it != graph->data()->constBegin()) {
            auto prev = it - 1;
            if (std::abs(prev->key - key) < std::abs(it->key - key)) it = prev;
        }
        r.valid = true;
        r.xAxis = graph->keyAxis();
        r.yAxis = graph->valueAxis();
        r.x = it->key;
        r.y = it->value;
        r.text = QStringLiteral("%1\nx = %2\ny = %3")
                     .arg(graph->name(), QString::number(r.x, 'g', 7),
                          QString::number(r.y, 'g', 7));
        return r;
    }
    return r;
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
    tracer_->setGraph(nullptr);
    tracer_->position->setAxes(r.xAxis, r.yAxis);
    tracer_->position->setAxisRect(r.xAxis->axisRect());
    tracer_->setClipAxisRect(r.xAxis->axisRect());
    tracer_->position->setCoords(r.x, r.y);
    tracer_->setVisible(true);

    // The label sits beside the tracer, on the side with room, never under the cursor.
    const QPointF at(r.xAxis->coordToPixel(r.x), r.yAxis->coordToPixel(r.y));
    const QRect area = r.xAxis->axisRect()->rect();
    const bool right = at.x() < area.center().x();
    const bool below = at.y() < area.center().y();
    readout_->setText(r.text);
    readout_->setPositionAlignment((right ? Qt::AlignLeft : Qt::AlignRight) |
                                   (below ? Qt::AlignTop : Qt::AlignBottom));
    const QPointF offset(right ? 14 : -14, below ? 14 : -14);
    QPointF pos = at + offset;
    pos.setY(std::clamp(pos.y(), double(area.top()), double(area.bottom())));
    readout_->position->setCoords(pos);
    readout_->setVisible(true);
    plot_->layer(QStringLiteral("overlay"))->replot();
}

bool PlotFrame::eventFilter(QObject* watched, QEvent* event) {
    if (watched == plot_ && event->type() == QEvent::Leave) hideReadout();
    return QWidget::eventFilter(watched, event);
}

// --- CSV of the series ------------------------------------------------------------------

CsvTable PlotFrame::csvTable() const { return seriesTable(); }

CsvTable PlotFrame::seriesTable() const {
    CsvTable table;
    auto add = [&](const QString& name, std::vector<double> x, std::vector<double> y) {
        table.header << name + QStringLiteral(" x") << name + QStringLiteral(" y");
        table.columns.push_back(std::move(x));
        table.columns.push_back(std::move(y));
    };
    for (int i = 0; i < plot_->plottableCount(); ++i) {
        QCPAbstractPlottable* p = plot_->plottable(i);
        if (!p->realVisibility()) continue;
        const QString name = p->name().isEmpty() ? p->objectName() : p->name();
        std::vector<double> x, y;
        if (auto* g = qobject_cast<QCPGraph*>(p)) {
            for (auto it = g->data()->constBegin(); it != g->data()->constEnd(); ++it) {
                x.push_back(it->key);
                y.push_back(it->value);
            }
        } else if (auto* b = qobject_cast<QCPBars*>(p)) {
            for (auto it = b->data()->constBegin(); it != b->data()->constEnd(); ++it) {
                x.push_back(it->key);
                y.push_back(it->value);
            }
        } else {
            continue;
        }
        if (!x.empty()) add(name, std::move(x), std::move(y));
    }
    return table;
}

bool PlotFrame::exportCsv(const QString& path, QString* error) const {
    return writeCsv(path, csvTable(), error);
}

// --- images ------------------------------------------------------------------------------

void PlotFrame::prepareExport() const {
    tracer_->setVisible(false);
    readout_->setVisible(false);
    // toPainter() does not emit beforeReplot: bring zoom-dependent details up to date.
    const_cast<PlotFrame*>(this)->viewRangesChanged();
}

QImage PlotFrame::renderImage(int width, int height, double dpi) const {
    if (width <= 0 || height <= 0) return {};
    if (!(dpi > 0)) dpi = 96;
    const double scale = dpi / 96.0;
    const int logicalW = std::max(1, static_cast<int>(std::lround(width / scale)));
    const int logicalH = std::max(1, static_cast<int>(std::lround(height / scale)));

    QImage image(width, height, QImage::Format_ARGB32_Premultiplied);
    const int dotsPerMeter = static_cast<int>(std::lround(dpi / 0.0254));
    image.setDotsPerMeterX(dotsPerMeter);
    image.setDotsPerMeterY(dotsPerMeter);
    image.fill(Qt::transparent);

    const bool tracerShown = tracer_->visible(), readoutShown = readout_->visible();
    prepareExport();
    {
        QCPPainter painter(&image);
        painter.setRenderHint(QPainter::Antialiasing);
        painter.setRenderHint(QPainter::TextAntialiasing);
        if (scale > 1.0) painter.setMode(QCPPainter::pmNonCosmetic);
        painter.scale(double(width) / logicalW, double(height) / logicalH);
        plot_->toPainter(&painter, logicalW, logicalH);
        painter.end();
    }
    tracer_->setVisible(tracerShown);
    readout_->setVisible(readoutShown);
    plot_->replot();  // toPainter left the layout at the export size
    return image;
}

QByteArray PlotFrame::imageFormat(const QString& path) {
    QByteArray format = QFileInfo(path).suffix().toLower().toLatin1();
    return QImageWriter::supportedImageFormats().contains(format) ? format : QByteArray("png");
}

QByteArray PlotFrame::imageBytes(const QByteArray& format, int width, int height, double dpi,
                                 QString* error) const {
    const QImage image = renderImage(width, height, dpi);
    if (image.isNull()) {
        if (error) *error = tr("Invalid image size %1 x %2").arg(width).arg(height);
        return {};
    }
    QImage out = image;
    if (format == "jpg" || format == "jpeg" || format == "bmp")
        out = image.convertToFormat(QImage::Format_RGB32);
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    if (!out.save(&buffer, format.constData())) {
        if (error) *error = tr("Could not encode the image as %1").arg(QString::fromLatin1(format));
        return {};
    }
    return bytes;
}

QByteArray PlotFrame::vectorBytes(bool pdf, int width, int height, QString* error) const {
    if (width <= 0 || height <= 0) {
        width = plot_->width();
        height = plot_->height();
    }
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    std::unique_ptr<QPaintDevice> device;
    if (pdf) {
        // What QCustomPlot::savePdf draws (one page of width x height points), but into
        // memory: savePdf writes the named file itself and reports success whatever the disk
        // did, so the bytes are written and checked by the caller.
        auto writer = std::make_unique<QPdfWriter>(&buffer);
        writer->setCreator(QStringLiteral("QuantScope"));
        writer->setTitle(QStringLiteral("QuantScope plot"));
        // Fonts sized as on screen, as savePdf's QPrinter(ScreenResolution) sizes them.
        writer->setResolution(plot_->logicalDpiX());
        QPageLayout layout(QPageSize(QSizeF(width, height), QPageSize::Point, QString(), QPageSize::ExactMatch),
                           QPageLayout::Portrait, QMarginsF(0, 0, 0, 0));
        layout.setMode(QPageLayout::FullPageMode);
        writer->setPageLayout(layout);
        device = std::move(writer);
    } else {
        auto generator = std::make_unique<QSvgGenerator>();
        generator->setOutputDevice(&buffer);
        generator->setSize(QSize(width, height));
        generator->setViewBox(QRect(0, 0, width, height));
        generator->setResolution(96);
        generator->setTitle(QStringLiteral("QuantScope"));
        device = std::move(generator);
    }

    const bool tracerShown = tracer_->visible(), readoutShown = readout_->visible();
    prepareExport();
    bool ok = false;
    {
        QCPPainter painter;
        if (painter.begin(device.get())) {
            if (pdf) {  // savePdf's modes: vector, no cosmetic pens
                painter.setMode(QCPPainter::pmVectorized);
                painter.setMode(QCPPainter::pmNoCaching);
                painter.setMode(QCPPainter::pmNonCosmetic);
                painter.setWindow(0, 0, width, height);
            }
            plot_->toPainter(&painter, width, height);
            ok = painter.end();
        }
    }
    device.reset();  // a PDF writer finishes the file when it goes
    tracer_->setVisible(tracerShown);
    readout_->setVisible(readoutShown);
    plot_->replot();
    if (!ok || !bytes.startsWith(pdf ? "%PDF" : "<?xml")) {
        if (error) *error = pdf ? tr("Could not draw the plot as PDF") : tr("Could not draw the plot as SVG");
        return {};
    }
    return bytes;
}

QByteArray PlotFrame::svgBytes(int width, int height, QString* error) const {
    return vectorBytes(false, width, height, error);
}

QByteArray PlotFrame::pdfBytes(int width, int height, QString* error) const {
    return vectorBytes(true, width, height, error);
}

bool PlotFrame::exportImage(const QString& path, int width, int height, double dpi,
                            QString* error) const {
    const QByteArray bytes = imageBytes(imageFormat(path), width, height, dpi, error);
    return !bytes.isEmpty() && exportFile(path, bytes, error);
}

bool PlotFrame::exportSvg(const QString& path, int width, int height, QString* error) const {
    const QByteArray bytes = svgBytes(width, height, error);
    return !bytes.isEmpty() && exportFile(path, bytes, error);
}

bool PlotFrame::exportPdf(const QString& path, int width, int height, QString* error) const {
    const QByteArray bytes = pdfBytes(width, height, error);
    return !bytes.isEmpty() && exportFile(path, bytes, error);
}

void PlotFrame::copyToClipboard() const {
    const double ratio = plot_->devicePixelRatioF();
    const QImage image = renderImage(static_cast<int>(std::lround(plot_->width() * ratio)),
                                     static_cast<int>(std::lround(plot_->height() * ratio)),
                                     96 * ratio);
    QGuiApplication::clipboard()->setImage(image);
}

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

QString askSavePath(QWidget* parent, const QString& title, const QString& filter, const QString& suffix) {
    QString path = QFileDialog::getSaveFileName(parent, title, QString(), filter);
    if (!path.isEmpty() && QFileInfo(path).suffix().isEmpty()) path += QLatin1Char('.') + suffix;
    return path;
}

namespace {
struct ImageExportSettings {
    int width = 1600, height = 1000;
    double dpi = 144;
};
ImageExportSettings& lastImageSettings() {
    static ImageExportSettings s;
    return s;
}
}  // namespace

void PlotFrame::exportImageDialog() {
    ImageExportSettings& s = lastImageSettings();
    QDialog dialog(this);
    dialog.setWindowTitle(tr("Export image"));
    auto* form = new QFormLayout(&dialog);
    auto* w = new QSpinBox;
    auto* h = new QSpinBox;
    for (QSpinBox* box : {w, h}) {
        box->setRange(16, 16384);
        box->setSuffix(tr(" px"));
    }
    w->setValue(s.width);
    h->setValue(s.height);
    auto* dpi = new QDoubleSpinBox;
    dpi->setRange(24, 1200);
    dpi->setDecimals(0);
    dpi->setValue(s.dpi);
    dpi->setToolTip(tr("Fonts and lines are drawn at this resolution: 96 is a normal screen, "
                       "192 twice as large in pixels"));
    form->addRow(tr("Width"), w);
    form->addRow(tr("Height"), h);
    form->addRow(tr("DPI"), dpi);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
    form->addRow(buttons);
    connect(buttons, &QDialogButtonBox::accepted, &dialog, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
    if (dialog.exec() != QDialog::Accepted) return;
    s = {w->value(), h->value(), dpi->value()};
    const QString path =
        askSavePath(this, tr("Export image"), tr("PNG image (*.png);;JPEG image (*.jpg)"), QStringLiteral("png"));
    if (path.isEmpty()) return;
    QString error;
    if (!exportImage(path, s.width, s.height, s.dpi, &error))
        QMessageBox::warning(this, tr("Export image"), error);
}

void PlotFrame::exportSvgDialog() {
    const QString path = askSavePath(this, tr("Export SVG"), tr("SVG (*.svg)"), QStringLiteral("svg"));
    QString error;
    if (!path.isEmpty() && !exportSvg(path, 0, 0, &error))
        QMessageBox::warning(this, tr("Export SVG"), error);
}

void PlotFrame::exportPdfDialog() {
    const QString path = askSavePath(this, tr("Export PDF"), tr("PDF (*.pdf)"), QStringLiteral("pdf"));
    QString error;
    if (!path.isEmpty() && !exportPdf(path, 0, 0, &error))
        QMessageBox::warning(this, tr("Export PDF"), error);
}

void PlotFrame::exportCsvDialog() {
    const QString path = askSavePath(this, tr("Export CSV"), tr("CSV (*.csv)"), QStringLiteral("csv"));
    QString error;
    if (!path.isEmpty() && !exportCsv(path, &error))
        QMessageBox::warning(this, tr("Export CSV"), error);
}

}  // namespace qs::ui
