// The explorer's state: every TF attribute and range input of the chosen op (a QuantSpec),
// the data source, and the view state. Widgets, the CLI's --session, undo and session files
// all go through this one object. Parameter edits are QUndoCommands on its stack, so each
// edit (and each slider or handle drag, as one gesture) is one undo step. Holds no maths.
#pragma once

#include <QObject>
#include <QString>
#include <QUndoStack>
#include <limits>

#include "core/analysis/quant_spec.h"

namespace qs::ui {

// The values the explorer's controls can hold (ParameterPanel's ranges). Sessions and
// lessons outside them are refused with the field's name, so the form always shows the
// values the op runs with. Wider than TF accepts where TF's own error is worth showing
// (num_bits 0 or 64, num_buckets 0).
namespace limits {
inline constexpr int kMinNumBits = 0, kMaxNumBits = 64;
inline constexpr int kMinAxis = -1, kMaxAxis = 7;
inline constexpr int kMinNumBuckets = 0, kMaxNumBuckets = 2147483647;
inline constexpr double kMaxEnsureMinimumRange = 10;
// min_range / max_range: any finite float32. "From data" and the range handles can set
// ranges far beyond what one types (data of magnitude 1e10), and the form must show them.
inline constexpr double kMaxRangeMagnitude = std::numeric_limits<float>::max();
inline constexpr int kMaxChannel = 2147483647;
}  // namespace limits

// Where the samples come from: a generator spec ("normal:n=100000,seed=1", the CLI's
// syntax) or a data file, which wins when set.
struct DataSource {
    QString generator = QStringLiteral("normal:n=1000000,seed=1");
    QString path;
    bool isFile() const { return !path.isEmpty(); }
    bool operator==(const DataSource&) const = default;
};

// What the user looks at; saved in sessions, not part of undo.
struct ViewState {
    int tab = 0;                  // the central view shown
    bool errorLogScale = false;   // error histogram's y axis
    bool dark = false;            // theme
    qint64 channel = 0;           // the slice whose transfer curve is drawn
    bool operator==(const ViewState&) const = default;
};

class ExplorerModel : public QObject {
    Q_OBJECT
public:
    explicit ExplorerModel(QObject* parent = nullptr);

    const qs::QuantSpec& spec() const { return spec_; }
    const DataSource& dataSource() const { return data_; }
    const ViewState& viewState() const { return view_; }
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

    // Typed setters, each one editSpec call. Switching op also resets the round mode to the
    // new op's default: the ops accept different modes (QuantizeV2 has no HALF_UP, QDQ no
    // HALF_AWAY_FROM_ZERO), and a carried-over mode would only produce TF's error.
    void setOp(qs::QuantOp op);
    void setType(qs::QType type);
    void setMode(qs::QuantizeMode mode);
    void setRoundMode(qs::RoundMode roundMode);
    void setNarrowRange(bool narrowRange);
    void setMinRange(float minRange);
    void setMaxRange(float maxRange);
    void setRange(float minRange, float maxRange);
    void setAxis(qint64 axis);
    void setEnsureMinimumRange(float value);
    void setSignedInput(bool value);
    void setNumBits(qint64 bits);
    void setRangeGiven(bool value);
    void setNumBuckets(qint64 buckets);
    void setRangeSource(qs::RangeSource source);
    void setDataSource(const DataSource& source);  // undoable too

    // Replaces everything at once (opening a session): clears the undo history.
    void reset(const qs::QuantSpec& spec, const DataSource& data, const ViewState& view);
    void setViewState(const ViewState& view);

signals:
    void specChanged();
    void dataSourceChanged();
    void viewStateChanged();
    void changed();  // after specChanged or dataSourceChanged: "recompute"

private:
    friend class SetSpecCommand;
    friend class SetDataSourceCommand;
    void applySpec(const qs::QuantSpec& spec);  // no undo: commands call this
    void applyDataSource(const DataSource& data);

    qs::QuantSpec spec_;
    DataSource data_;
    ViewState view_;
    QUndoStack undo_;
    int gesture_ = 0;         // id of the open gesture, 0 when none
    int nextGesture_ = 1;
};

}  // namespace qs::ui
