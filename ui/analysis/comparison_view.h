// Side-by-side comparison: up to four configurations (any op, mode, bits, range) on the same
// data: their transfer curves overlaid over one input window, their error histograms
// overlaid over one span, and a statistics table with one column per configuration. The
// list adds the explorer's current spec ("Add current"), removes one, or loads one back into
// the explorer for editing ("Load into explorer"). The list is the model's (undoable, saved
// in sessions); the view shows it and edits it through the model.
#pragma once

#include <memory>
#include <vector>

#include <QWidget>

#include "session/explorer/analysis_service.h"
#include "session/explorer/explorer_model.h"
#include "ui/plot/qcp_fwd.h"
#include "ui/plot/result_plot.h"

class QListWidget;
class QPushButton;
class QTableWidget;

namespace qs::ui {

class JobStatus;

// The two overlays: transfer curves above, error histograms below.
class ComparisonPlot : public ResultPlot<ComparisonPtr::element_type> {
    Q_OBJECT
public:
    static constexpr int kMaxConfigs = AnalysisState::kMaxCompared;

    explicit ComparisonPlot(QWidget* parent = nullptr);
    ~ComparisonPlot() override;

    QCPGraph* curveGraph(int i) const { return curves_[static_cast<size_t>(i)]; }
    QCPGraph* errorGraph(int i) const { return errors_[static_cast<size_t>(i)]; }
    QCPAxisRect* errorRect() const { return errorRect_; }

protected:
    void draw() override;
    void applySeriesStyle(const PlotPalette& palette) override;
    void logScaleChanged(bool on) override;

private:
    void setErrorHomeY();

    double countHi_ = 1;
    QCPTextElement* title_ = nullptr;
    QCPAxisRect* errorRect_ = nullptr;
    std::vector<QCPGraph*> curves_, errors_;
};

class ComparisonView : public QWidget {
    Q_OBJECT
public:
    explicit ComparisonView(ExplorerModel* model, QWidget* parent = nullptr);
    ~ComparisonView() override;

    const std::vector<qs::QuantSpec>& configs() const;  // the model's
    // False (and nothing changes) when four are there already or the spec is in the list.
    bool addConfig(const qs::QuantSpec& spec);
    void removeConfig(int index);

    void setResult(ComparisonPtr result);
    ComparisonPtr result() const { return result_; }

    ComparisonPlot* plotFrame() const;
    QListWidget* list() const;
    QTableWidget* table() const;
    QPushButton* addButton() const;
    QPushButton* removeButton() const;
    QPushButton* loadButton() const;
    JobStatus* status() const;

public slots:
    void setTheme(qs::ui::Theme theme);

signals:
    void addCurrentRequested();
    void loadRequested(const qs::QuantSpec& spec);
    void configsChanged();  // the model's list changed (an edit, undo, a session)

private:
    void refreshList();
    void fillTable();
    void updateButtons();

    ExplorerModel* model_;
    ComparisonPtr result_;
    struct Items;  // the child widgets, defined in the .cpp
    std::unique_ptr<Items> items_;
    Theme theme_ = Theme::Light;
};

}  // namespace qs::ui
