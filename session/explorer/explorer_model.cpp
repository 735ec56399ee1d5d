#include "session/explorer/explorer_model.h"

#include <QUndoCommand>
#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

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

class SetDataAndSpecCommand : public QUndoCommand {
public:
    SetDataAndSpecCommand(ExplorerModel* model, const DataSource& dataBefore, const qs::QuantSpec& specBefore,
                          const DataSource& dataAfter, const qs::QuantSpec& specAfter, const QString& text)
        : QUndoCommand(text), model_(model), dataBefore_(dataBefore), dataAfter_(dataAfter),
          specBefore_(specBefore), specAfter_(specAfter) {}
    void undo() override {
        model_->applyDataSource(dataBefore_);
        model_->applySpec(specBefore_);
    }
    void redo() override {
        model_->applyDataSource(dataAfter_);
        model_->applySpec(specAfter_);
    }

private:
    ExplorerModel* model_;
    DataSource dataBefore_, dataAfter_;
    qs::QuantSpec specBefore_, specAfter_;
};

class SetAnalysisCommand : public QUndoCommand {
public:
    SetAnalysisCommand(ExplorerModel* model, const AnalysisState& before, const AnalysisState& after,
                       const QString& text)
        : QUndoCommand(text), model_(model), before_(before), after_(after) {}
    void undo() override { model_->applyAnalysis(before_); }
    void redo() override { model_->applyAnalysis(after_); }

private:
    ExplorerModel* model_;
    AnalysisState before_, after_;
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

void ExplorerModel::setAttribute(const qs::OpAttribute& attribute, const qs::AttrValue& value) {
    qs::QuantSpec s = spec_;
    attribute.set(s, value);
    editSpec(s, QString::fromUtf8(attribute.name.data(), static_cast<qsizetype>(attribute.name.size())));
}

void ExplorerModel::setAttribute(std::string_view name, const qs::AttrValue& value) {
    const qs::OpAttribute* a = qs::findOpAttribute(name);
    Q_ASSERT_X(a, "ExplorerModel::setAttribute", "no such attribute in the table");
    if (a) setAttribute(*a, value);
}

void ExplorerModel::setMinRange(float minRange) {
    qs::QuantSpec s = spec_;
    s.min_range = minRange;
    editSpec(s, tr("Range minimum"));
}

void ExplorerModel::setMaxRange(float maxRange) {
    qs::QuantSpec s = spec_;
    s.max_range = maxRange;
    editSpec(s, tr("Range maximum"));
}

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

void ExplorerModel::setDataSourceAndSpec(const DataSource& source, const qs::QuantSpec& spec,
                                         const QString& what) {
    if (spec == spec_) return setDataSource(source);
    if (source == data_) return editSpec(spec, what);
    undo_.push(new SetDataAndSpecCommand(this, data_, spec_, source, spec, what));
}

void ExplorerModel::applyAnalysis(const AnalysisState& next) {
    const AnalysisState before = std::exchange(analysis_, next);
    if (before.compared != next.compared) emit comparedChanged();
    if (!(before.calibration == next.calibration)) emit calibrationOptionsChanged();
    if (before.scaledR14 != next.scaledR14) emit scaledR14Changed();
}

void ExplorerModel::editAnalysis(const AnalysisState& next, const QString& what) {
    if (next == analysis_) return;
    undo_.push(new SetAnalysisCommand(this, analysis_, next, what));
}

bool ExplorerModel::addCompared(const qs::QuantSpec& spec) {
    const auto& list = analysis_.compared;
    if (static_cast<int>(list.size()) >= AnalysisState::kMaxCompared) return false;
    if (std::find(list.begin(), list.end(), spec) != list.end()) return false;
    AnalysisState next = analysis_;
    next.compared.push_back(spec);
    editAnalysis(next, tr("Add configuration"));
    return true;
}

void ExplorerModel::removeCompared(int index) {
    if (index < 0 || index >= static_cast<int>(analysis_.compared.size())) return;
    AnalysisState next = analysis_;
    next.compared.erase(next.compared.begin() + index);
    editAnalysis(next, tr("Remove configuration"));
}

void ExplorerModel::setCalibrationOptions(const qs::analysis::CalibrationOptions& options) {
    AnalysisState next = analysis_;
    next.calibration = options;
    editAnalysis(next, tr("Calibration options"));
}

void ExplorerModel::setScaledR14(bool on) {
    AnalysisState next = analysis_;
    next.scaledR14 = on;
    editAnalysis(next, tr("SCALED as documented in r1.4"));
}

void ExplorerModel::reset(const qs::QuantSpec& spec, const DataSource& data, const ViewState& view,
                          const AnalysisState& analysis) {
    reset(spec, data, view);
    applyAnalysis(analysis);
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
