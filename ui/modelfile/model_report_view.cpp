#include "ui/modelfile/model_report_view.h"

#include <QCheckBox>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QMenu>
#include <QToolButton>
#include <QHeaderView>
#include <QLabel>
#include <QMessageBox>
#include <QSplitter>
#include <QTreeWidget>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>
#include <limits>

#include "core/data/csv_writer.h"
#include "session/files/native_file.h"
#include "ui/modelfile/sqnr_bar_chart.h"
#include "ui/status/job_status.h"

namespace qs::ui {
namespace {

constexpr int kSortRole = Qt::UserRole;      // the number a column sorts by
constexpr int kTensorRole = Qt::UserRole + 1;   // the tensor a row belongs to
constexpr int kChannelRole = Qt::UserRole + 2;  // a channel row's channel
constexpr int kInt32Role = Qt::UserRole + 2;   // a tensor of int32 codes (set on ColName)

// Sorts by the number in kSortRole when both have one (NaN after every number), else by text.
// By an SQNR column, int32 codes (biases kept at 32 bits) come after the other tensors in
// either direction: their 8-bit SQNR is not a weight's.
class ReportItem : public QTreeWidgetItem {
public:
    using QTreeWidgetItem::QTreeWidgetItem;
    bool operator<(const QTreeWidgetItem& other) const override {
        const int column = treeWidget() ? treeWidget()->sortColumn() : 0;
        if (column == ModelReportView::ColSqnr || column == ModelReportView::ColCalibrationSqnr) {
            const bool mine = data(ModelReportView::ColName, kInt32Role).toBool();
            const bool theirs = other.data(ModelReportView::ColName, kInt32Role).toBool();
            if (mine != theirs) {
                const bool ascending = treeWidget()->header()->sortIndicatorOrder() == Qt::AscendingOrder;
                return ascending ? theirs : mine;
            }
        }
        const QVariant a = data(column, kSortRole), b = other.data(column, kSortRole);
        if (!a.isValid() || !b.isValid()) return text(column) < other.text(column);
        const double x = a.toDouble(), y = b.toDouble();
        if (std::isnan(x) || std::isnan(y)) return !std::isnan(x) && std::isnan(y);
        return x < y;
    }
};

QString number(double v, char format = 'g', int precision = 5) {
    if (std::isnan(v)) return QStringLiteral("nan");
    if (std::isinf(v)) return v > 0 ? QObject::tr("∞ (lossless)") : QStringLiteral("−∞");
    return QString::number(v, format, precision);
}

void setNumber(QTreeWidgetItem* item, int column, double value, const QString& text) {
    item->setText(column, text);
    item->setData(column, kSortRole, value);
    item->setTextAlignment(column, Qt::AlignRight | Qt::AlignVCenter);
}

void setStats(QTreeWidgetItem* item, const qs::analysis::ReportStats& s) {
    setNumber(item, ModelReportView::ColElements, static_cast<double>(s.elements), QString::number(s.elements));
    setNumber(item, ModelReportView::ColMin, s.min, number(s.min));
    setNumber(item, ModelReportView::ColMax, s.max, number(s.max));
    setNumber(item, ModelReportView::ColMse, s.mse, number(s.mse, 'g', 4));
    setNumber(item, ModelReportView::ColSqnr, s.sqnr_db, number(s.sqnr_db, 'f', 2));
    setNumber(item, ModelReportView::ColClipped, s.clipped_fraction, number(100 * s.clipped_fraction, 'g', 3) + '%');
    const QString levels = s.levels_used < 0 ? QObject::tr("> 65536") : number(s.levels_used, 'g', 6);
    setNumber(item, ModelReportView::ColLevels, s.levels_used < 0 ? std::numeric_limits<double>::infinity() : s.levels_used,
              QObject::tr("%1 of %2").arg(levels).arg(s.levels_available));
}

QString shapeText(const Shape& shape) {
    QStringList dims;
    for (int64_t d : shape) dims << QString::number(d);
    return QStringLiteral("[") + dims.join(QStringLiteral(", ")) + QStringLiteral("]");
}

}  // namespace

ModelReportView::ModelReportView(ModelReportService* service, QWidget* parent) : QWidget(parent), service_(service) {
    setObjectName(QStringLiteral("modelReportView"));

    status_ = new JobStatus(QStringLiteral("modelReport"), this);
    status_->setHideWhenEmpty(false);
    // A wrapped label's own minimum is its text at its narrowest (nine lines here), which
    // made the bottom dock 320 pixels high at the least; the layout still gives it the
    // lines its width needs.
    status_->label()->setMinimumSize(1, status_->label()->fontMetrics().lineSpacing());
    status_->setInfo(tr("Open a model to report on its weight tensors."));
    channels_ = new QCheckBox(tr("Channels"), this);
    channels_->setObjectName(QStringLiteral("modelReportChannels"));
    channels_->setToolTip(tr("Expand every tensor's per-channel rows (per-channel reports only)"));
    // One button for both formats keeps the row narrow enough for a side dock.
    auto* exportButton = new QToolButton(this);
    exportButton->setObjectName(QStringLiteral("modelReportExport"));
    exportButton->setText(tr("Export"));
    exportButton->setToolButtonStyle(Qt::ToolButtonTextOnly);
    exportButton->setPopupMode(QToolButton::InstantPopup);
    auto* exportMenu = new QMenu(exportButton);
    QAction* csv = exportMenu->addAction(tr("Report as CSV…"));
    csv->setObjectName(QStringLiteral("modelReportExportCsv"));
    QAction* json = exportMenu->addAction(tr("Report as JSON…"));
    json->setObjectName(QStringLiteral("modelReportExportJson"));
    exportButton->setMenu(exportMenu);

    table_ = new QTreeWidget(this);
    table_->setObjectName(QStringLiteral("modelReportTable"));
    table_->setColumnCount(ColumnCount);
    // The figures people compare first, next to the name; the tensor's facts after them.
    table_->setHeaderLabels({tr("Tensor"), tr("SQNR (dB)"), tr("Best SQNR (dB)"), tr("Best calibration"), tr("Clipped"),
                             tr("Levels used"), tr("Axis"), tr("Shape"), tr("dtype"), tr("Elements"), tr("Min"),
                             tr("Max"), tr("MSE")});
    table_->headerItem()->setToolTip(ColSqnr, tr("SQNR under the op, each tensor's range from its own data "
                                                 "(per channel: each channel's own)"));
    table_->headerItem()->setToolTip(ColCalibrationSqnr, tr("The SQNR of the best calibration's range over the whole "
                                                            "tensor: min-max, the row's own quantizer, is one of the "
                                                            "candidates, so it is never below the row's SQNR"));
    table_->setTextElideMode(Qt::ElideMiddle);
    table_->setRootIsDecorated(true);
    table_->setUniformRowHeights(true);
    table_->setSortingEnabled(true);
    table_->sortByColumn(ColSqnr, Qt::AscendingOrder);  // worst first
    table_->header()->setSectionResizeMode(QHeaderView::Interactive);

    chart_ = new SqnrBarChart(this);

    // The status on a line of its own: beside the buttons, its text made the view 550
    // pixels wide at the least, too wide for a side dock on a 1280-pixel screen.
    auto* bar = new QHBoxLayout;
    bar->addWidget(channels_);
    bar->addStretch();
    bar->addWidget(exportButton);
    auto* split = split_ = new QSplitter(Qt::Horizontal, this);  // resizeEvent turns it
    split->addWidget(table_);
    split->addWidget(chart_);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    split->setSizes({600, 400});  // the table's key columns in view from the start
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(status_);
    layout->addLayout(bar);
    layout->addWidget(split, 1);

    connect(service_, &ModelReportService::started, this, [this] {
        status_->label()->setToolTip(QString());
        status_->setRunning(tr("Reporting…"));
        if (shown_) chart_->setStale(true, tr("updating for the new settings…"));
    });
    connect(service_, &ModelReportService::progress, status_, &JobStatus::setProgress);
    connect(service_, &ModelReportService::reportReady, this, [this](ModelReportPtr r) {
        status_->finish();
        showReport(std::move(r));
    });
    connect(service_, &ModelReportService::failed, this,
            [this](const QString& message) { status_->setError(tr("The report failed: %1").arg(message)); });
    connect(service_, &ModelReportService::cancelled, this, [this] {
        status_->setCancelled(shown_ ? tr("Cancelled: the report shown is for the previous settings.") : tr("Cancelled."));
    });
    connect(status_, &JobStatus::cancelRequested, service_, &ModelReportService::cancel);
    connect(status_, &JobStatus::rerunRequested, service_, &ModelReportService::recompute);
    connect(channels_, &QCheckBox::toggled, this, [this](bool on) { on ? table_->expandAll() : table_->collapseAll(); });
    connect(csv, &QAction::triggered, this, [this] { exportDialog(false); });
    connect(json, &QAction::triggered, this, [this] { exportDialog(true); });
    connect(table_, &QTreeWidget::itemClicked, this, [this](QTreeWidgetItem* item) {
        if (!item) return;
        const QVariant channel = item->data(ColName, kChannelRole);
        activate(item->data(ColName, kTensorRole).toString(), channel.isValid() ? channel.toLongLong() : -1);
    });
    connect(chart_, &SqnrBarChart::tensorClicked, this, [this](const QString& name) { activate(name); });
}

void ModelReportView::resizeEvent(QResizeEvent* event) {
    QWidget::resizeEvent(event);
    // Wide (the bottom dock area): the bars beside the table. Narrow (tabbed with the
    // Statistics dock on a short screen): the bars below it, each the view's whole width.
    // Not while hidden behind another tab: its placeholder size would turn it upright, and
    // upright its minimum height raised the whole bottom dock area.
    if (!isVisible()) return;
    const Qt::Orientation wanted = width() >= 720 ? Qt::Horizontal : Qt::Vertical;
    if (split_->orientation() != wanted) split_->setOrientation(wanted);
}

void ModelReportView::activate(const QString& name, qint64 channel) {
    if (!shown_) return;
    for (const auto& row : shown_->rows)
        if (QString::fromStdString(row.name) == name)
            return emit tensorActivated(name, qs::analysis::reportRowSpec(shown_->spec, row), channel);
}

ModelReportView::~ModelReportView() = default;

void ModelReportView::setModel(std::shared_ptr<const qs::modelfile::ModelFile> model) {
    service_->setModel(std::move(model));
}


void ModelReportView::showReport(ModelReportPtr report) {
    shown_ = std::move(report);
    chart_->setResult(shown_);
    fillTable();
    if (!shown_) {
        status_->setInfo(tr("Open a model to report on its weight tensors."));
        status_->label()->setToolTip(QString());
        return;
    }
    const auto& r = *shown_;
    QString text = tr("%1 tensors, %2 float32 values (%3 MB)%4")
                       .arg(r.rows.size())
                       .arg(r.elements)
                       .arg(static_cast<double>(r.bytes_float32) / 1e6, 0, 'f', 1)
                       .arg(r.per_channel ? tr(", per channel") : QString());
    QString tip;
    const auto int32Rows = std::count_if(r.rows.begin(), r.rows.end(), [](const auto& row) { return row.int32_codes; });
    if (int32Rows > 0)
        text += tr("; %n int32 bias tensor(s) listed last", nullptr, static_cast<int>(int32Rows));
    if (!r.skipped.empty()) {
        text += tr("; %1 skipped").arg(r.skipped.size());
        for (size_t i = 0; i < r.skipped.size() && i < 50; ++i)
            tip += QString::fromStdString(r.skipped[i].name + ": " + r.skipped[i].reason) + '\n';
        if (r.skipped.size() > 50) tip += tr("… and %1 more").arg(r.skipped.size() - 50);
    }
    if (int32Rows > 0)
        tip = tr("Tensors stored as int32 codes are the biases that int8 schemes keep at 32 bits: their SQNR "
                 "under this op says little about the model, so they rank after the other tensors.") +
              (tip.isEmpty() ? QString() : QStringLiteral("\n\n") + tip);
    status_->setInfo(text);
    status_->label()->setToolTip(tip.trimmed());
}

void ModelReportView::fillTable() {
    table_->setSortingEnabled(false);
    table_->clear();
    if (shown_) {
        QList<QTreeWidgetItem*> items;
        for (size_t i = 0; i < shown_->rows.size(); ++i) {
            const auto& row = shown_->rows[i];
            const QString name = QString::fromStdString(row.name);
            auto* item = new ReportItem;
            item->setText(ColName, name);
            item->setData(ColName, kTensorRole, name);
            item->setToolTip(ColName, name);
            item->setText(ColShape, shapeText(row.shape));
            item->setText(ColDtype, QString::fromStdString(row.dtype) + (row.dequantized ? tr(" (dequantized)") : QString()));
            if (row.int32_codes) {
                item->setData(ColName, kInt32Role, true);
                item->setText(ColName, name + tr("  (int32 bias)"));
                item->setToolTip(ColName, tr("%1\nint32 codes: a bias int8 schemes keep at 32 bits, ranked after "
                                             "the other tensors").arg(name));
            }
            setNumber(item, ColAxis, row.axis, row.axis < 0 ? tr("per tensor") : QString::number(row.axis));
            setStats(item, row.stats);
            if (row.calibration) {
                item->setText(ColCalibration, QString::fromStdString(qs::analysis::bestCalibrationName(*row.calibration)));
                item->setToolTip(ColCalibration,
                                 row.calibration->per_channel
                                     ? tr("each channel's own min/max: the row's own quantizer")
                                     : tr("range [%1, %2], searched on %3 values")
                                           .arg(row.calibration->min)
                                           .arg(row.calibration->max)
                                           .arg(row.calibration->sample));
                setNumber(item, ColCalibrationSqnr, row.calibration->sqnr_db, number(row.calibration->sqnr_db, 'f', 2));
            } else if (!row.calibration_note.empty()) {
                item->setText(ColCalibration, tr("none"));
                item->setToolTip(ColCalibration, QString::fromStdString(row.calibration_note));
            }
            for (const auto& ch : row.channels) {
                auto* child = new ReportItem(item);
                child->setText(ColName, tr("channel %1").arg(ch.channel));
                child->setData(ColName, kTensorRole, name);
                child->setData(ColName, kChannelRole, static_cast<qlonglong>(ch.channel));
                setNumber(child, ColAxis, row.axis, QString::number(row.axis));
                setStats(child, ch.stats);
            }
            items << item;
        }
        table_->addTopLevelItems(items);
        if (channels_->isChecked()) table_->expandAll();
    }
    table_->setSortingEnabled(true);
    // Every column sized to its contents, the names at most kNameColumnWidth (elided in the
    // middle, whole in the tooltip): the SQNR beside them stays in view.
    for (int c = 0; c < ColumnCount; ++c) table_->resizeColumnToContents(c);
    if (table_->columnWidth(ColName) > kNameColumnWidth) table_->setColumnWidth(ColName, kNameColumnWidth);
}

bool ModelReportView::exportCsv(const QString& path, QString* error) const {
    if (!shown_) {
        if (error) *error = tr("There is no report to export yet.");
        return false;
    }
    const std::string text = data::csvText(qs::analysis::modelReportTable(*shown_));
    return exportFile(path, QByteArray::fromStdString(text), error);
}

bool ModelReportView::exportJson(const QString& path, QString* error) const {
    if (!shown_) {
        if (error) *error = tr("There is no report to export yet.");
        return false;
    }
    return exportFile(path, QByteArray::fromStdString(qs::analysis::modelReportJson(*shown_)), error);
}

void ModelReportView::exportDialog(bool json) {
    const QString path = QFileDialog::getSaveFileName(this, json ? tr("Export the report as JSON") : tr("Export the report as CSV"),
                                                      json ? QStringLiteral("model-report.json") : QStringLiteral("model-report.csv"),
                                                      json ? tr("JSON (*.json)") : tr("CSV (*.csv)"));
    if (path.isEmpty()) return;
    QString error;
    if (!(json ? exportJson(path, &error) : exportCsv(path, &error)))
        QMessageBox::warning(this, tr("Export failed"), error);
}

}  // namespace qs::ui
