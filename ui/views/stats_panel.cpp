#include "ui/views/stats_panel.h"

#include <algorithm>
#include <cmath>

#include <QApplication>
#include <QClipboard>
#include <QEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QMenu>
#include <QMessageBox>
#include <QStyle>
#include <QTableWidget>
#include <QVBoxLayout>

#include "core/analysis/view_data.h"
#include "session/files/native_file.h"
#include "ui/plot/plot_export_dialogs.h"
#include "ui/views/panel_parts.h"
#include "ui/views/view_text.h"

namespace qs::ui {

using namespace qs::ui::text;

namespace {

// Display order; keys are those of qs::analysis::statisticsRows (some rows show two).
constexpr RowSpec kRows[] = {
    {"count", QT_TRANSLATE_NOOP("qs::ui::StatsPanel", "Elements"), "Values compared (NaN pairs are skipped)"},
    {"mse", QT_TRANSLATE_NOOP("qs::ui::StatsPanel", "MSE"), "Mean of (x − Q(x))²"},
    {"rmse", QT_TRANSLATE_NOOP("qs::ui::StatsPanel", "RMSE"), "√MSE"},
    {"max_abs_error", QT_TRANSLATE_NOOP("qs::ui::StatsPanel", "Max |error|"), "Largest |x − Q(x)|"},
    {"bias", QT_TRANSLATE_NOOP("qs::ui::StatsPanel", "Bias (mean error)"), "Mean of x − Q(x); 0 for an unbiased quantizer"},
    {"sqnr_db", QT_TRANSLATE_NOOP("qs::ui::StatsPanel", "SQNR"), "10·log10(Σx² / Σ(x − Q(x))²)"},
    {"cosine", QT_TRANSLATE_NOOP("qs::ui::StatsPanel", "Cosine similarity"), "Σ x·Q(x) / (|x|·|Q(x)|)"},
    {"clip_fraction", QT_TRANSLATE_NOOP("qs::ui::StatsPanel", "Clipped"), "Share of values outside the range the op used (each against its own channel's range)"},
    {"levels_used", QT_TRANSLATE_NOOP("qs::ui::StatsPanel", "Levels used"), "Distinct outputs among all the codes the op can produce"},
    {"step", QT_TRANSLATE_NOOP("qs::ui::StatsPanel", "Step Δ (PyTorch/ONNX scale)"), "Output change per code: what PyTorch and ONNX call the scale (x ≈ (code − zero point) · scale)"},
    {"rmse_over_step", QT_TRANSLATE_NOOP("qs::ui::StatsPanel", "RMSE / Δ"), "0.2887 = 1/√12 when the error is uniform on ±Δ/2"},
    {"scale", QT_TRANSLATE_NOOP("qs::ui::StatsPanel", "TF scale (codes per unit)"), "TensorFlow's scale: code ≈ x · scale (+ offset), the inverse of the step Δ"},
    {"zero_point", QT_TRANSLATE_NOOP("qs::ui::StatsPanel", "Zero point"), "The code of x = 0 and what 0 comes back as"},
    {"output_min", QT_TRANSLATE_NOOP("qs::ui::StatsPanel", "Range used"), "QuantizeV2: output_min / output_max as TF returns them; QDQ: the effective range; TPU: lower / upper"},
    {"requested_min", QT_TRANSLATE_NOOP("qs::ui::StatsPanel", "Requested range"), "The range fed to the op (or the data's, when the op takes it from the data)"},
    {"data_min", QT_TRANSLATE_NOOP("qs::ui::StatsPanel", "Data range"), "Smallest and largest finite input"},
};

}  // namespace

StatsPanel::StatsPanel(QWidget* parent) : QWidget(parent) {
    setObjectName(QStringLiteral("statsPanel"));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6);
    title_ = makePanelTitle(QStringLiteral("statsTitle"));
    staleLabel_ = makeStaleLabel();
    table_ = new QTableWidget(static_cast<int>(std::size(kRows)), 2);
    table_->setObjectName(QStringLiteral("statsTable"));
    table_->setHorizontalHeaderLabels({tr("Quantity"), tr("Value")});
    makeReadOnlyTable(table_);
    table_->horizontalHeader()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    for (int i = 0; i < static_cast<int>(std::size(kRows)); ++i) {
        auto* label = new QTableWidgetItem(tr(kRows[i].label));
        label->setToolTip(QString::fromUtf8(kRows[i].tip));
        table_->setItem(i, 0, label);
        auto* value = new QTableWidgetItem(QStringLiteral("—"));
        value->setToolTip(QString::fromUtf8(kRows[i].tip));
        table_->setItem(i, 1, value);
        rowOfKey_.insert(QString::fromLatin1(kRows[i].key), i);
    }
    table_->resizeRowsToContents();
    lineRowHeight_ = table_->rowHeight(0);
    table_->setWordWrap(true);
    table_->setTextElideMode(Qt::ElideNone);
    table_->setFocusPolicy(Qt::NoFocus);
    table_->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    table_->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    table_->viewport()->installEventFilter(this);
    fitRows();
    formula_ = new QLabel;
    formula_->setObjectName(QStringLiteral("formulaLabel"));
    formula_->setWordWrap(true);
    // Not selectable by mouse: a selectable label lays its text out as a text document, and
    // each edit's new numbers then cost a large share of the UI thread's time in relayout
    // (quantscope-gui-bench's ui_thread_cpu_median_ms shows it), time the worker computing
    // the next result shares the cores with. Its context menu copies it instead.
    formula_->setTextFormat(Qt::PlainText);
    formula_->setContextMenuPolicy(Qt::CustomContextMenu);
    layout->addWidget(title_);
    layout->addWidget(staleLabel_);
    layout->addWidget(table_);
    layout->addWidget(formula_);
    layout->addStretch(1);
    connect(table_, &QWidget::customContextMenuRequested, this,
            [this](const QPoint& pos) { contextMenu(table_->viewport()->mapToGlobal(pos)); });
    connect(formula_, &QWidget::customContextMenuRequested, this,
            [this](const QPoint& pos) { contextMenu(formula_->mapToGlobal(pos)); });
    setResult(nullptr);
}

void StatsPanel::setResult(std::shared_ptr<const qs::analysis::ExplorerResult> result) {
    result_ = std::move(result);
    if (!result_) {
        title_->setText(tr("Statistics"));
        for (int i = 0; i < table_->rowCount(); ++i) table_->item(i, 1)->setText(QStringLiteral("—"));
        formula_->clear();
        fitRows();
        setStale(false);
        return;
    }
    const auto& r = *result_;
    QHash<QString, double> v;
    for (const auto& row : qs::analysis::statisticsRows(r)) v.insert(QString::fromStdString(row.key), row.value);
    const bool perChannel = r.run.slices.size() > 1;
    const QString perChannelText = tr("per channel (see the channel view)");
    auto set = [&](const char* key, const QString& text) {
        const int row = rowOfKey_.value(QString::fromLatin1(key), -1);
        if (row >= 0) table_->item(row, 1)->setText(text);
    };
    QString count = countText(v["count"]);
    if (v["nan_pairs"] > 0) count += tr("   (%1 NaN pairs skipped)").arg(countText(v["nan_pairs"]));
    set("count", count);
    set("mse", statText(v["mse"]));
    set("rmse", statText(v["rmse"]));
    set("max_abs_error", statText(v["max_abs_error"]));
    set("bias", statText(v["bias"]));
    set("sqnr_db", std::isfinite(v["sqnr_db"]) ? tr("%1 dB").arg(v["sqnr_db"], 0, 'f', 2) : statText(v["sqnr_db"]));
    set("cosine", statText(v["cosine"], 9));
    set("clip_fraction", tr("%1 %   (%2 below, %3 above)")
                             .arg(statText(100.0 * v["clip_fraction"], 4), countText(v["clipped_below"]),
                                  countText(v["clipped_above"])));
    // Per channel every slice has its own grid, so distinct outputs can exceed one slice's codes.
    set("levels_used", perChannel ? tr("%1 distinct outputs (%2 codes per channel)")
                                        .arg(countText(v["levels_used"]), countText(v["levels_total"]))
                                  : tr("%1 of %2").arg(countText(v["levels_used"]), countText(v["levels_total"])));
    if (perChannel) {
        for (const char* key : {"step", "rmse_over_step", "scale", "zero_point", "output_min", "requested_min"})
            set(key, perChannelText);
    } else {
        set("step", statText(v["step"], 7));
        set("rmse_over_step", tr("%1   (uniform: %2)").arg(statText(v["rmse_over_step"], 4), statText(qs::analysis::kUniformRmseOverStep, 4)));
        set("scale", floatText(static_cast<float>(v["scale"])));
        set("zero_point", tr("code %1 → Q(0) = %2").arg(countText(v["zero_point"]), floatText(static_cast<float>(v["zero_output"]))));
        set("output_min", QStringLiteral("[%1, %2]").arg(floatText(static_cast<float>(v["output_min"])),
                                                        floatText(static_cast<float>(v["output_max"]))));
        set("requested_min", QStringLiteral("[%1, %2]").arg(floatText(static_cast<float>(v["requested_min"])),
                                                           floatText(static_cast<float>(v["requested_max"]))));
    }
    set("data_min", dataRangeText(r));
    title_->setText(specTitle(r.spec) + (perChannel ? tr("  ·  %1 channels").arg(r.run.slices.size()) : QString()));
    formula_->setText(formulaText(r));
    fitRows();
    setStale(false);
}

bool StatsPanel::eventFilter(QObject* watched, QEvent* event) {
    if (watched == table_->viewport() && event->type() == QEvent::Resize) fitRows();
    return QWidget::eventFilter(watched, event);
}

void StatsPanel::fitRows() {
    // Measured with font metrics rather than resizeRowsToContents(), which lays out every
    // cell's text on each edit: this runs on the UI thread after every result.
    const QFontMetrics metrics(table_->font());
    const int room = table_->columnWidth(1) - 2 * (table_->style()->pixelMetric(QStyle::PM_FocusFrameHMargin, nullptr, table_) + 1);
    int height = table_->horizontalHeader()->sizeHint().height() + 2 * table_->frameWidth();
    for (int i = 0; i < table_->rowCount(); ++i) {
        const QString text = table_->item(i, 1)->text();
        int lines = 1;
        if (room > 0 && metrics.horizontalAdvance(text) > room)
            lines = metrics.boundingRect(QRect(0, 0, room, 1 << 16), Qt::TextWordWrap, text).height() / metrics.lineSpacing();
        const int rowHeight = lineRowHeight_ + (std::max(lines, 1) - 1) * metrics.lineSpacing();
        if (table_->rowHeight(i) != rowHeight) table_->setRowHeight(i, rowHeight);
        height += rowHeight;
    }
    if (table_->height() != height) table_->setFixedHeight(height);
}

QString StatsPanel::dataRangeText(const qs::analysis::ExplorerResult& r) {
    if (r.finite_count == 0)
        return r.stats.count == 0 ? tr("no finite value (every value is NaN)") : tr("no finite value (only NaN and ±inf)");
    const QString range = QStringLiteral("[%1, %2]").arg(floatText(r.data_min), floatText(r.data_max));
    if (std::isfinite(r.data_min) && std::isfinite(r.data_max)) return range;
    return tr("%1; finite values in [%2, %3]").arg(range, floatText(r.finite_min), floatText(r.finite_max));
}

QString StatsPanel::formulaText(const qs::analysis::ExplorerResult& r) {
    const qs::QuantSpec& s = r.spec;
    const bool perChannel = r.run.slices.size() > 1;
    const qs::SliceQuant q = r.run.slices.empty() ? qs::SliceQuant{} : r.run.slices.front();
    QString text;
    QString numbers;
    const qs::OpFamily family = qs::opDescriptor(s.op).family;
    if (family == qs::OpFamily::QuantizeV2) {
        const auto info = qs::qtypeInfo(s.T);
        const long long range = static_cast<long long>(info.highest - info.lowest);  // range(T)
        const long long half = info.isSigned ? (range + 1) / 2 : 0;
        switch (s.mode) {
            case qs::QuantizeMode::MinCombined:
                text = tr("QuantizeV2 MIN_COMBINED: code = round((clamp(x) − min) · %1/(max − min))%2\n"
                          "Dequantize: y = min + (code%3) · (max − min)/%1")
                           .arg(range)
                           .arg(half ? QStringLiteral(" − %1").arg(half) : QString())
                           .arg(half ? QStringLiteral(" + %1").arg(half) : QString());
                break;
            case qs::QuantizeMode::MinFirst:
                text = tr("QuantizeV2 MIN_FIRST: code = clamp(round(x · s) − round(min · s) + %1),\n"
                          "    s = %2/(max − min)\n"
                          "Dequantize: y = round(min/Δ)·Δ + (code − %1) · Δ, Δ = (max − min)/%2")
                           .arg(info.lowest)
                           .arg(range);
                break;
            case qs::QuantizeMode::Scaled:
                text = tr("QuantizeV2 SCALED: code = round(clamp(x) · s),\n"
                          "    s = min(lo/min, hi/max), lo…hi = %1…%2\n"
                          "Dequantize: y = code · max(output_min/lo, output_max/hi)")
                           .arg(info.lowest + (s.narrow_range ? 1 : 0))
                           .arg(info.highest);
                break;
        }
        text += tr("\nmin, max: the range after TF's adjustment (returned as output_min, output_max)");
    } else if (family == qs::OpFamily::Qdq) {
        const long long bits = s.num_bits;
        long long lo = 0, hi = 0;
        if (s.signed_input) {
            lo = -(1LL << (bits - 1)) + (s.narrow_range ? 1 : 0);
            hi = (1LL << (bits - 1)) - 1;
        } else {
            hi = (1LL << bits) - 1;
        }
        text = tr("%1: y = round(clamp(x) · s) · (range/q),\n"
                  "    s = min(qmin/min, qmax/max), qmin…qmax = %2…%3,\n"
                  "    range/q = min/qmin or max/qmax (the side that set s);\n"
                  "    clamp to the effective range%4")
                   .arg(qs(qs::quantOpName(s.op)))
                   .arg(lo)
                   .arg(hi)
                   .arg(s.range_given ? QString() : tr(" (min, max from the data)"));
    } else {
        text = tr("TPU simulated quantization: q = floor((clip(x) − lower)/quantum + 0.5),\n"
                  "    y = q · quantum + lower,\n"
                  "    quantum = (upper − lower)/(num_buckets − 1) = (upper − lower)/%1, in float32")
                   .arg(s.num_buckets - 1);
    }
    if (!perChannel && !r.run.slices.empty()) {
        numbers = tr("This run: min = %1, max = %2, TF scale = %3 codes per unit, Δ = %4 (the PyTorch/ONNX "
                     "scale), zero point = code %5")
                      .arg(floatText(q.output_min), floatText(q.output_max), floatText(q.scale),
                           QString::number(q.step, 'g', 7))
                      .arg(q.zero_code);
    } else if (perChannel) {
        numbers = tr("Each of the %1 channels has its own min, max and scale.").arg(r.run.slices.size());
    }
    return numbers.isEmpty() ? text : text + QStringLiteral("\n") + numbers;
}

void StatsPanel::setStale(bool stale, const QString& message) {
    stale_ = stale;
    staleLabel_->setText(message.isEmpty() ? tr("stale — the parameters are invalid; showing the last valid result")
                                           : tr("stale — %1").arg(message));
    staleLabel_->setVisible(stale);
    table_->setEnabled(!stale);  // greyed, still readable
    formula_->setEnabled(!stale);
    refreshColors();
}

void StatsPanel::setTheme(Theme theme) {
    theme_ = theme;
    refreshColors();
}

void StatsPanel::refreshColors() {
    const PlotPalette& p = plotPalette(theme_);
    staleLabel_->setStyleSheet(QStringLiteral("color: %1; font-weight: bold;").arg(p.range.name()));
}

QString StatsPanel::valueText(const QString& key) const {
    const int row = rowOfKey_.value(key, -1);
    return row >= 0 ? table_->item(row, 1)->text() : QString();
}

data::TextTable StatsPanel::csvTable() const {
    data::TextTable t;
    if (!result_) return t;
    const qs::analysis::StatisticsTable s = qs::analysis::statisticsTable(*result_);
    t.header = s.header;
    for (size_t i = 0; i < s.rows.size(); ++i) {
        std::vector<std::string> row{s.scopes[i], s.scopes[i] == "channel" ? std::to_string(i - 1) : std::string()};
        for (double v : s.rows[i]) row.push_back(std::isnan(v) ? std::string() : data::csvNumber(v));
        t.rows.push_back(std::move(row));
    }
    return t;
}

bool StatsPanel::exportCsv(const QString& path, QString* error) const {
    return exportFile(path, QByteArray::fromStdString(data::csvText(csvTable())), error);
}

void StatsPanel::copyToClipboard() const {
    QStringList lines;
    for (int i = 0; i < table_->rowCount(); ++i)
        lines << table_->item(i, 0)->text() + QLatin1Char('\t') + table_->item(i, 1)->text();
    lines << formula_->text();
    QApplication::clipboard()->setText(lines.join(QLatin1Char('\n')));
}

void StatsPanel::copyFormula() const { QApplication::clipboard()->setText(formula_->text()); }

void StatsPanel::contextMenu(const QPoint& globalPos) {
    auto* menu = new QMenu(this);
    menu->setAttribute(Qt::WA_DeleteOnClose);
    menu->addAction(tr("Copy formula"), this, &StatsPanel::copyFormula)->setEnabled(!formula_->text().isEmpty());
    menu->addAction(tr("Copy table"), this, &StatsPanel::copyToClipboard);
    menu->addAction(tr("Export statistics CSV…"), this, &StatsPanel::exportCsvDialog);
    menu->popup(globalPos);
}

void StatsPanel::exportCsvDialog() {
    exportDialog(this, tr("Export statistics"), tr("CSV (*.csv)"), QStringLiteral("csv"),
                 [this](const QString& path, QString* error) { return exportCsv(path, error); });
}

}  // namespace qs::ui
