// The whole-model report panel: a sortable table (one row per tensor, worst SQNR first; a
// per-channel report's channels as child rows, expandable, or all at once with "Channels")
// beside a horizontal bar chart of SQNR per tensor (SqnrBarChart), with progress, cancel and
// CSV/JSON export (the chart's own menu exports PNG/SVG/PDF). Clicking a row or a bar emits
// tensorActivated(name, spec, channel) with the exact spec the row was computed with (so the
// explorer shows the row's numbers); a channel's row names its channel, others -1. The key columns (SQNR, best calibration) come first; the int32
// biases int8 schemes keep at 32 bits rank after the other tensors (said in the status line).
// It runs nothing itself: the ModelReportService it is given (ModelFileController's)
// computes off the UI thread and follows the ExplorerModel's op settings.
//
//   auto* view = new ModelReportView(controller->reportService());
//   view->setModel(modelFile);               // starts the report
//   connect(view, &ModelReportView::tensorActivated, ...);
#pragma once

#include <QString>
#include <QWidget>
#include <memory>

#include "core/modelfile/model_file.h"
#include "session/modelfile/model_report_service.h"

class QCheckBox;
class QSplitter;
class QTreeWidget;
class QTreeWidgetItem;

namespace qs::ui {

class JobStatus;
class SqnrBarChart;

class ModelReportView : public QWidget {
    Q_OBJECT
public:
    // The table's columns, in order.
    enum Column {
        ColName, ColSqnr, ColCalibrationSqnr, ColCalibration, ColClipped, ColLevels, ColAxis, ColShape, ColDtype,
        ColElements, ColMin, ColMax, ColMse, ColumnCount
    };
    // The widest the tensor column starts (long names are elided in the middle).
    static constexpr int kNameColumnWidth = 240;

    // Draws what `service` (not owned; it outlives the view) delivers.
    explicit ModelReportView(ModelReportService* service, QWidget* parent = nullptr);
    ~ModelReportView() override;

    void setModel(std::shared_ptr<const qs::modelfile::ModelFile> model);

    ModelReportService* service() const { return service_; }
    SqnrBarChart* chart() const { return chart_; }
    QTreeWidget* table() const { return table_; }
    ModelReportPtr report() const { return shown_; }  // the report shown (null: none)

    // The report's CSV (core's modelReportTable) / JSON, written atomically; false with
    // `error` naming the file and the reason (or that there is no report yet).
    bool exportCsv(const QString& path, QString* error = nullptr) const;
    bool exportJson(const QString& path, QString* error = nullptr) const;

signals:
    // `spec`: reportRowSpec of the row (per tensor or along the row's axis, its range);
    // `channel`: the channel of a per-channel child row, -1 for the tensor's row or a bar.
    void tensorActivated(const QString& name, const qs::QuantSpec& spec, qint64 channel);

protected:
    void resizeEvent(QResizeEvent* event) override;

private:
    void showReport(ModelReportPtr report);
    void fillTable();
    void exportDialog(bool json);
    void activate(const QString& name, qint64 channel = -1);

    ModelReportService* service_ = nullptr;
    SqnrBarChart* chart_ = nullptr;
    QTreeWidget* table_ = nullptr;
    JobStatus* status_ = nullptr;
    QCheckBox* channels_ = nullptr;
    QSplitter* split_ = nullptr;
    ModelReportPtr shown_;
};

}  // namespace qs::ui
