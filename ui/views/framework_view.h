// The "Frameworks" tab: the explorer's data through TF's op and through the affine schemes
// met elsewhere (PyTorch fake_quantize, ONNX QuantizeLinear, TFLite int8 and symmetric;
// optionally SCALED "as documented in r1.4", clearly labelled and off by default), all on
// the same range and bit width (core/analysis/framework_schemes.h, docs/frameworks.md).
// Shows the overlaid transfer curves (resampled for the visible window, so zooming in shows
// the individual steps where schemes part), a table of per-pair differing-element counts by
// reason, and example elements with explainDifference's sentence; clicking one zooms the
// curves onto it. The comparison runs off the UI thread, only while the tab is visible.
#pragma once

#include <memory>
#include <optional>
#include <vector>

#include "core/analysis/explorer.h"
#include "core/analysis/framework_compare.h"
#include "core/data/dataset.h"
#include "ui/plot/plot_frame.h"

class QCheckBox;
class QLabel;
class QListWidget;
class QTableWidget;
class QCPAxisRect;
class QCPGraph;

namespace qs::ui {

class JobStatus;
class FrameworkService;

// What the comparison runs: the schemes on one range and bit width (core's).
using FrameworkInput = qs::analysis::FrameworkSetup;

// A PlotFrame (the curves; export, zoom and themes as every view) with the table, the
// examples and the r1.4 switch laid out around its plot.
class FrameworkView : public PlotFrame {
    Q_OBJECT
public:
    // Without a service the view makes its own (until a controller hands it one).
    explicit FrameworkView(FrameworkService* service = nullptr, QWidget* parent = nullptr);
    ~FrameworkView() override;

    // The explorer's latest result and the data it ran on; compared when visible.
    void setInput(std::shared_ptr<const qs::analysis::ExplorerResult> result,
                  std::shared_ptr<const qs::data::Dataset> data);

    QList<QCPGraph*> graphs() const { return graphs_; }
    // Below the curves: each other scheme's output minus TF's at the same inputs (the
    // curves lie on top of each other; this panel shows what differs). Empty graphs when
    // there is no TF scheme.
    QCPAxisRect* differenceRect() const { return diffRect_; }
    QList<QCPGraph*> differenceGraphs() const { return diffGraphs_; }
    // input x, then each scheme's output at the plotted samples (labels without commas).
    data::NumberColumns csvTable() const override;
    void zoomTo(double x, double halfWidth);  // x window; y follows the curves
    QTableWidget* table() const { return table_; }
    QListWidget* examples() const { return examples_; }
    QCheckBox* r14Box() const { return r14_; }
    const FrameworkInput& input() const { return input_; }
    const std::optional<qs::analysis::SchemeComparison>& comparison() const { return comparison_; }
    bool busy() const;
    // The comparison's progress bar with Cancel (Esc) and, after a cancel, Run again.
    JobStatus* status() const { return status_; }
    FrameworkService* service() const { return service_; }

signals:
    void comparisonShown();

protected:
    void showEvent(QShowEvent* event) override;
    void applySeriesStyle(const PlotPalette& palette) override;
    void viewRangesChanged() override;

private:
    void start();
    void showComparison(const qs::analysis::FrameworkComparison& result);
    void showError(const QString& message);
    // Cancel stopped the comparison: the previous table and examples stay, greyed.
    void showCancelled();
    void setPreviousGreyed(bool greyed);
    void setSchemes(std::vector<qs::analysis::PreparedScheme> schemes, float min, float max);
    void resample();
    void drawCurves();
    FrameworkInput currentInput() const;

    void resampleDifferences(const QVector<double>& xs, const QVector<QVector<double>>& ys);
    void hideEmptyReasonColumns();

    std::vector<qs::analysis::PreparedScheme> schemes_;
    QList<QCPGraph*> graphs_;
    QCPAxisRect* diffRect_ = nullptr;
    QList<QCPGraph*> diffGraphs_;  // one per scheme (TF's own stays empty)
    bool resampling_ = false;
    QTableWidget* table_ = nullptr;
    QListWidget* examples_ = nullptr;
    QCheckBox* r14_ = nullptr;
    QLabel* note_ = nullptr;
    JobStatus* status_ = nullptr;
    FrameworkService* service_ = nullptr;
    std::shared_ptr<const qs::analysis::ExplorerResult> result_;
    std::shared_ptr<const qs::data::Dataset> data_;
    bool dirty_ = false;
    FrameworkInput input_;
    std::optional<qs::analysis::SchemeComparison> comparison_;
};

}  // namespace qs::ui
