// Calibration: the ranges min-max, percentile (chosen in the spin box, kept by the model:
// undoable and saved in sessions), MSE-optimal and KL
// (TensorRT's entropy calibration) computed from the data, each drawn on the data histogram
// as a pair of vertical lines in its own colour, and a table of each method's range and the
// error statistics of the current op fed that range, with an "Apply" button per row that
// sets the explorer's range (one undo step, through the model).
#pragma once

#include <memory>

#include <QWidget>

#include "session/explorer/analysis_service.h"
#include "ui/plot/plot_frame.h"
#include "ui/plot/qcp_fwd.h"

class QDoubleSpinBox;
class QPushButton;
class QTableWidget;

namespace qs::ui {

class JobStatus;
class ExplorerModel;

// The data histogram with the methods' ranges.
class CalibrationPlot : public PlotFrame {
    Q_OBJECT
public:
    explicit CalibrationPlot(QWidget* parent = nullptr);
    ~CalibrationPlot() override;

    void setResult(CalibrationPtr result);
    // bin_lo,bin_hi,count, then one row per method in columns method_index,range_min,range_max.
    data::NumberColumns csvTable() const override;

    QCPBars* bars() const { return bars_; }
    // The two lines of method i (in calibrate()'s order), or null.
    QCPItemStraightLine* rangeLine(int method, bool upper) const;

protected:
    void applySeriesStyle(const PlotPalette& palette) override;

private:
    CalibrationPtr result_;
    QCPTextElement* title_ = nullptr;
    QCPBars* bars_ = nullptr;
    std::vector<QCPGraph*> legend_;           // one legend entry per method
    std::vector<QCPItemStraightLine*> lines_;  // lo, hi per method
};

class CalibrationPanel : public QWidget {
    Q_OBJECT
public:
    explicit CalibrationPanel(ExplorerModel* model, QWidget* parent = nullptr);
    ~CalibrationPanel() override;

    void setResult(CalibrationPtr result);
    CalibrationPtr result() const { return result_; }
    qs::analysis::CalibrationOptions options() const;  // the model's

    CalibrationPlot* plotFrame() const;
    QTableWidget* table() const;
    QDoubleSpinBox* percentileSpin() const;
    QPushButton* applyButton(int row) const;  // the row's "Apply", or null
    JobStatus* status() const;

public slots:
    void setTheme(qs::ui::Theme theme);

signals:
    void applyRequested(float min, float max, const QString& method);
    void optionsChanged();  // the model's options changed (an edit, undo, a session): calibrate again

private:
    void fillTable();
    void fillCurrentRow(int row);  // the "current (explorer)" row, after the methods
    // Columns 1..5 of a row: the range, MSE, SQNR, clipped %, levels used.
    void setNumberCells(int row, const QString& range, const qs::analysis::ErrorStats& stats);
    void showOptions();

    ExplorerModel* model_;
    CalibrationPtr result_;
    struct Items;  // the child widgets, defined in the .cpp
    std::unique_ptr<Items> items_;
    Theme theme_ = Theme::Light;
};

}  // namespace qs::ui
