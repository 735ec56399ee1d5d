#include "session/explorer/explorer_controller.h"

#include <algorithm>
#include <utility>

#include "session/explorer/analysis_service.h"
#include "session/explorer/data_service.h"
#include "session/explorer/explorer_model.h"
#include "session/explorer/explorer_on_dataset.h"
#include "session/explorer/framework_service.h"

namespace qs::ui {

namespace {

// TF's words say what is wrong, not what to change in this window: a hint for the failures a
// user gets to by following the window's own suggestions.
QString whatToDo(const qs::QuantSpec& spec, const QString& message) {
    // QuantizeAndDequantizeV2/V4 with an axis and range_given want one range per channel,
    // which the window does not give them: each channel's own range needs range_given off.
    if (qs::opDescriptor(spec.op).range.given_range_scalar_only && spec.axis >= 0 && spec.range_given &&
        (message.contains(QLatin1String("input_min must be a scalar")) ||
         message.contains(QLatin1String("input_max must be a scalar"))))
        return QObject::tr(" — per channel, untick range_given so that each channel uses its own data's "
                           "range (or set axis to −1 for one range for the whole tensor).");
    return QString();
}

}  // namespace

ExplorerController::ExplorerController(ExplorerModel* model, QObject* parent)
    : QObject(parent),
      model_(model),
      data_(new DataService(this)),
      compute_(new ComputeService(this)),
      analysis_(new AnalysisService(this)),
      frameworks_(new FrameworkService(this)) {
    connect(model_, &ExplorerModel::specChanged, this, &ExplorerController::requestCompute);
    connect(model_, &ExplorerModel::dataSourceChanged, this, [this] { data_->load(model_->dataSource()); });
    connect(model_, &ExplorerModel::viewStateChanged, this, &ExplorerController::onViewStateChanged);
    connect(data_, &DataService::loaded, this, [this] {
        computeDeferred_ = false;
        compute_->cancelRunning();  // its data is gone
        requestCompute();
    });
    // A spec edited together with the data (a model tensor and its axis) waits for that data;
    // when the loads end without new data (failed, cancelled, discarded) the old data stays,
    // and the spec runs on it.
    connect(data_, &DataService::idle, this, [this] {
        if (std::exchange(computeDeferred_, false)) requestCompute();
    });
    connect(compute_, &ComputeService::resultReady, this, &ExplorerController::showResult);
    connect(compute_, &ComputeService::curveReady, this, [this](ExplorerResultPtr partial, quint64 serial) {
        if (serial == latestSerial_) emit curveChanged(std::move(partial), serial);  // else superseded
    });
    connect(compute_, &ComputeService::cancelled, this, [this](quint64 serial) {
        if (serial != latestSerial_) return;  // replaced by a newer request (new data, an edit)
        stale_ = true;  // the last result stays on show, behind the model
        emit computeCancelled();
    });
    connect(compute_, &ComputeService::failed, this, [this](const QString& kind, const QString& message) {
        stale_ = true;  // the last valid result stays on show, behind the model
        emit computeFailed(QStringLiteral("%1: %2").arg(kind, message) + whatToDo(model_->spec(), message));
    });
}

ExplorerController::~ExplorerController() = default;

void ExplorerController::start() { data_->load(model_->dataSource()); }

void ExplorerController::requestCompute() {
    DatasetPtr data = data_->dataset();
    if (!data) return;  // the first load will ask again
    if (data_->loading()) {  // the data it would run on is being replaced: loaded() asks again
        computeDeferred_ = true;
        return;
    }
    computeDeferred_ = false;
    latestSerial_ = compute_->request(model_->spec(), std::move(data), viewExplorerOptions(model_->viewState().channel));
}

void ExplorerController::showResult(ExplorerResultPtr result, quint64 serial, double milliseconds) {
    lastResult_ = result;
    stale_ = serial != latestSerial_;  // an older request's result while a newer one runs
    emit resultChanged(std::move(result), serial, milliseconds);
}

void ExplorerController::onViewStateChanged() {
    // The curve's channel is an input of the computation; the rest of the view state is
    // presentation.
    if (lastResult_ && lastResult_->curve_channel != model_->viewState().channel &&
        lastResult_->run.slices.size() > 1)
        requestCompute();
}

void ExplorerController::dragRange(float min, float max, bool finished) {
    if (!dragging_) {
        model_->beginGesture();
        dragging_ = true;
    }
    model_->setRange(min, max);
    if (finished) {
        model_->endGesture();
        dragging_ = false;
    }
}

void ExplorerController::stepMode(int delta) {
    // QuantizeV2 cycles its modes, the other ops their round modes: quick comparisons.
    const qs::QuantSpec& s = model_->spec();
    if (qs::usesMode(s.op)) {
        const int m = (static_cast<int>(s.mode) + delta + 3) % 3;
        qs::QuantSpec next = s;
        next.mode = static_cast<qs::QuantizeMode>(m);
        if (next.mode != qs::QuantizeMode::Scaled) next.round_mode = qs::RoundMode::HalfAwayFromZero;
        model_->editSpec(next, tr("Mode: %1").arg(QString::fromUtf8(qs::modeName(next.mode).data())));
        return;
    }
    const auto modes = qs::roundModesFor(s.op);
    if (modes.empty()) return;
    auto it = std::find(modes.begin(), modes.end(), s.round_mode);
    const auto i = static_cast<long>(it == modes.end() ? 0 : it - modes.begin());
    const long n = static_cast<long>(modes.size());
    model_->setRoundMode(modes[static_cast<size_t>(((i + delta) % n + n) % n)]);
}

bool ExplorerController::rangeFromData() {
    if (!lastResult_) return false;
    model_->setRange(lastResult_->data_min, lastResult_->data_max);
    return true;
}

void ExplorerController::openDataFile(const QString& path) {
    // A data file replaces whatever file was shown, a model tensor included: keeping the
    // tensor's name would make the file read as a model with that tensor. The generator
    // stays, for when the file is closed again.
    DataSource source = model_->dataSource();
    source.path = path;
    source.tensor.clear();
    model_->setDataSource(source);
}

template <typename Edit>
void ExplorerController::editViewState(Edit edit) {
    ViewState v = model_->viewState();
    edit(v);
    model_->setViewState(v);
}

void ExplorerController::setCurrentTab(int tab) {
    editViewState([tab](ViewState& v) { v.tab = tab; });
}

void ExplorerController::setErrorLogScale(bool on) {
    editViewState([on](ViewState& v) { v.errorLogScale = on; });
}

void ExplorerController::setDarkTheme(bool dark) {
    editViewState([dark](ViewState& v) { v.dark = dark; });
}

}  // namespace qs::ui
