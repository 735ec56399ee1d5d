#include "ui/model/explorer_model.h"

#include <QUndoCommand>
#include <algorithm>
#include <cmath>
#include <limits>

namespace qs::ui {

// One parameter edit. Commands of the same gesture merge (QUndoCommand::id/mergeWith), so a
// drag is one step; outside a gesture every edit stands alone.
class SetSpecCommand : public QUndoCommand {
public:
    SetSpecCommand(ExplorerModel* model, const qs::QuantSpec& before, const qs::QuantSpec& after,
                   const QString& text, int gesture)
        : QUndoCommand(text), model_(model), before_(before), after_(after), gesture_(gesture) {}
    void undo() override { model_->applySpec(before_); }
    void redo() override { model_->applySpec(after_); }
    int id() const override { return gesture_ ? 1 : -1; }
    bool mergeWith(const QUndoCommand* other) override {
        const auto* o = static_cast<const SetSpecCommand*>(other);
        if (o->gesture_ != gesture_) return false;
        after_ = o->after_;
        return true;
    }

private:
    ExplorerModel* model_;
    qs::QuantSpec before_, after_;
    int gesture_;
};

class SetDataSourceCommand : public QUndoCommand {
public:
    SetDataSourceCommand(ExplorerModel* model, const DataSource& before, const DataSource& after)
        : QUndoCommand(QObject::tr("Change data")), model_(model), before_(before), after_(after) {}
    void undo() override { model_->applyDataSource(before_); }
    void redo() override { model_->applyDataSource(after_); }

private:
    ExplorerModel* model_;
    DataSource before_, after_;
};

ExplorerModel::ExplorerModel(QObject* parent) : QObject(parent) {
    // The first launch teaches: a normal distribution through QuantizeV2 SCALED qint8.
    spec_.mode = qs::QuantizeMode::Scaled;
    spec_.min_range = -3.0f;
    spec_.max_range = 3.0f;
    spec_.round_mode = qs::defaultRoundMode(spec_.op);
}

namespace {

// A range input as the form can show it and a session can store it: a finite float32.
// Infinities (a handle dragged past the float range, "From data" on data holding inf)
// become the largest float; NaN keeps the value in use.
float finiteRangeValue(float requested, float current) {
    if (std::isnan(requested)) return current;
    const float big = std::numeric_limits<float>::max();
    return std::clamp(requested, -big, big);
}

}  // namespace

void ExplorerModel::editSpec(const qs::QuantSpec& requested, const QString& what) {
    qs::QuantSpec next = requested;
    next.min_range = finiteRangeValue(requested.min_range, spec_.min_range);
    next.max_range = finiteRangeValue(requested.max_range, spec_.max_range);
    if (next == spec_) return;
    undo_.push(new SetSpecCommand(this, spec_, next, what, gesture_));
}

void ExplorerModel::beginGesture() { gesture_ = nextGesture_++; }
void ExplorerModel::endGesture() { gesture_ = 0; }

void ExplorerModel::applySpec(const qs::QuantSpec& spec) {
    if (spec == spec_) return;
    spec_ = spec;
    emit specChanged();
    emit changed();
}

void ExplorerModel::applyDataSource(const DataSource& data) {
    if (data == data_) return;
    data_ = data;
    emit dataSourceChanged();
    emit changed();
}

void ExplorerModel::setOp(qs::QuantOp op) {
    qs::QuantSpec s = spec_;
    s.op = op;
    s.round_mode = qs::defaultRoundMode(op);
    editSpec(s, tr("Op: %1").arg(QString::fromUtf8(qs::quantOpName(op).data())));
}

#define QS_SETTER(Name, Field, Type, Text)  \
    void ExplorerModel::Name(Type value) {  \
        qs::QuantSpec s = spec_;            \
        s.Field = value;                    \
        editSpec(s, Text);                  \
    }
QS_SETTER(setType, T, qs::QType, tr("Type"))
QS_SETTER(setMode, mode, qs::QuantizeMode, tr("Mode"))
QS_SETTER(setRoundMode, round_mode, qs::RoundMode, tr("Round mode"))
QS_SETTER(setNarrowRange, narrow_range, bool, tr("Narrow range"))
QS_SETTER(setMinRange, min_range, float, tr("Range minimum"))
QS_SETTER(setMaxRange, max_range, float, tr("Range maximum"))
QS_SETTER(setAxis, axis, qint64, tr("Axis"))
QS_SETTER(setEnsureMinimumRange, ensure_minimum_range, float, tr("ensure_minimum_range"))
QS_SETTER(setSignedInput, signed_input, bool, tr("signed_input"))
QS_SETTER(setNumBits, num_bits, qint64, tr("num_bits"))
QS_SETTER(setRangeGiven, range_given, bool, tr("range_given"))
QS_SETTER(setNumBuckets, num_buckets, qint64, tr("num_buckets"))
QS_SETTER(setRangeSource, range_source, qs::RangeSource, tr("Range source"))
#undef QS_SETTER

void ExplorerModel::setRange(float minRange, float maxRange) {
    qs::QuantSpec s = spec_;
    s.min_range = minRange;
    s.max_range = maxRange;
    editSpec(s, tr("Range"));
}

void ExplorerModel::setDataSource(const DataSource& source) {
    if (source == data_) return;
    undo_.push(new SetDataSourceCommand(this, data_, source));
}

void ExplorerModel::reset(const qs::QuantSpec& spec, const DataSource& data,
                          const ViewState& view) {
    undo_.clear();
    const bool specDiffers = !(spec == spec_), dataDiffers = !(data == data_);
    spec_ = spec;
    data_ = data;
    if (specDiffers) emit specChanged();
    if (dataDiffers) emit dataSourceChanged();
    setViewState(view);
    if (specDiffers || dataDiffers) emit changed();
}

void ExplorerModel::setViewState(const ViewState& view) {
    if (view == view_) return;
    view_ = view;
    emit viewStateChanged();
}

}  // namespace qs::ui
