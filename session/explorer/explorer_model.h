// The explorer's state: every TF attribute and range input of the chosen op (a QuantSpec),
// the data source, and the view state. Widgets, the CLI's --session, undo and session files
// all go through this one object. Parameter edits are QUndoCommands on its stack, so each
// edit (and each slider or handle drag, as one gesture) is one undo step. Holds no maths.
#pragma once

#include <QObject>
#include <QString>
#include <QUndoStack>
#include <vector>

#include "core/analysis/op_attributes.h"
#include "core/analysis/quant_spec.h"
#include "session/explorer/state.h"

namespace qs::ui {

class ExplorerModel : public QObject {
    Q_OBJECT
public:
    explicit ExplorerModel(QObject* parent = nullptr);

    const qs::QuantSpec& spec() const { return spec_; }
    const DataSource& dataSource() const { return data_; }
    const ViewState& viewState() const { return view_; }
    const AnalysisState& analysis() const { return analysis_; }
    QUndoStack* undoStack() { return &undo_; }

    // Convenience getters (the form and the tests read these).
    qs::QuantOp op() const { return spec_.op; }
    qs::QType type() const { return spec_.T; }
    qs::QuantizeMode mode() const { return spec_.mode; }
    qs::RoundMode roundMode() const { return spec_.round_mode; }
    bool narrowRange() const { return spec_.narrow_range; }
    float minRange() const { return spec_.min_range; }
    float maxRange() const { return spec_.max_range; }

    // Every parameter edit: pushes an undoable command named `what` when `next` differs.
    // The range inputs are kept finite (see limits::kMaxRangeMagnitude).
    // Edits inside one gesture (beginGesture … endGesture, e.g. dragging a range handle)
    // merge into a single undo step.
    void editSpec(const qs::QuantSpec& requested, const QString& what);
    void beginGesture();
    void endGesture();

    // One attribute of the table (core/analysis/op_attributes.h), one editSpec call named
    // after it. Switching op also resets the round mode to the new op's default: the ops
    // accept different modes (QuantizeV2 has no HALF_UP, QDQ no HALF_AWAY_FROM_ZERO), and a
    // carried-over mode would only produce TF's error.
    void setAttribute(const qs::OpAttribute& attribute, const qs::AttrValue& value);
    void setAttribute(std::string_view name, const qs::AttrValue& value);  // a row's name
    void setOp(qs::QuantOp op);
    void setMinRange(float minRange);
    void setMaxRange(float maxRange);
    void setRange(float minRange, float maxRange);
    // Named forms the tests, the benchmark and the mode-cycling key use.
    void setType(qs::QType type) { setAttribute("T", qs::enumValue(type)); }
    void setMode(qs::QuantizeMode mode) { setAttribute("mode", qs::enumValue(mode)); }
    void setRoundMode(qs::RoundMode mode) { setAttribute("round_mode", qs::enumValue(mode)); }
    void setNarrowRange(bool value) { setAttribute("narrow_range", value); }
    void setAxis(qint64 axis) { setAttribute("axis", static_cast<int64_t>(axis)); }
    void setNumBits(qint64 bits) { setAttribute("num_bits", static_cast<int64_t>(bits)); }
    void setNumBuckets(qint64 buckets) { setAttribute("num_buckets", static_cast<int64_t>(buckets)); }
    void setDataSource(const DataSource& source);  // undoable too
    // A new data source and the spec that goes with it (a model tensor and its channel
    // axis) as one undo step; undo and redo both apply the source first, then the spec, so
    // the spec never meets the data it was not made for (the controller computes once the
    // new data has loaded).
    void setDataSourceAndSpec(const DataSource& source, const qs::QuantSpec& spec, const QString& what);

    // Analysis edits, one undo step each. addCompared is false (and nothing changes) when
    // four are there already or the spec is in the list.
    bool addCompared(const qs::QuantSpec& spec);
    void removeCompared(int index);
    void setCalibrationOptions(const qs::analysis::CalibrationOptions& options);
    void setScaledR14(bool on);

    // Replaces everything at once (opening a session or a lesson): clears the undo history.
    // The first form keeps the analysis state.
    void reset(const qs::QuantSpec& spec, const DataSource& data, const ViewState& view);
    void reset(const qs::QuantSpec& spec, const DataSource& data, const ViewState& view,
               const AnalysisState& analysis);
    void setViewState(const ViewState& view);

signals:
    void specChanged();
    void dataSourceChanged();
    void viewStateChanged();
    void changed();  // after specChanged or dataSourceChanged: "recompute"
    // One per part of AnalysisState that changed (an edit, undo, redo or reset).
    void comparedChanged();
    void calibrationOptionsChanged();
    void scaledR14Changed();

private:
    friend class SetSpecCommand;
    friend class SetDataSourceCommand;
    friend class SetAnalysisCommand;
    friend class SetDataAndSpecCommand;
    void applySpec(const qs::QuantSpec& spec);  // no undo: commands call this
    void applyDataSource(const DataSource& data);
    void applyAnalysis(const AnalysisState& analysis);
    void editAnalysis(const AnalysisState& next, const QString& what);

    qs::QuantSpec spec_;
    DataSource data_;
    ViewState view_;
    AnalysisState analysis_;
    QUndoStack undo_;
    int gesture_ = 0;         // id of the open gesture, 0 when none
    int nextGesture_ = 1;
};

}  // namespace qs::ui
