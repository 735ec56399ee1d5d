#include "ui/analysis/analysis_tabs.h"

#include <QTabWidget>
#include <algorithm>
#include <QTimer>

#include "session/explorer/analysis_data.h"
#include "session/explorer/data_service.h"
#include "session/explorer/explorer_controller.h"
#include "session/explorer/explorer_model.h"
#include "ui/analysis/bit_sweep_view.h"
#include "ui/analysis/calibration_panel.h"
#include "ui/analysis/clip_sweep_view.h"
#include "ui/analysis/comparison_view.h"
#include "ui/status/job_status.h"
#include "ui/views/view_text.h"

namespace qs::ui {

AnalysisTabs::AnalysisTabs(ExplorerController* explorer, QTabWidget* tabs, QObject* parent)
    : QObject(parent),
      model_(explorer->model()),
      data_(explorer->dataService()),
      compute_(explorer->computeService()),
      tabs_(tabs),
      service_(explorer->analysisService()) {
    bits_ = new BitSweepView;
    clip_ = new ClipSweepView;
    calibration_ = new CalibrationPanel(model_);
    comparison_ = new ComparisonView(model_);
    tabs_->addTab(bits_, tr("Bit sweep"));
    tabs_->addTab(clip_, tr("Clipping sweep"));
    tabs_->addTab(calibration_, tr("Calibration"));
    tabs_->addTab(comparison_, tr("Compare"));

    using K = AnalysisKind;
    connect(model_, &ExplorerModel::specChanged, this,
            [this] { markDirty({K::BitSweep, K::ClipSweep, K::Calibration}); });
    connect(data_, &DataService::loaded, this,
            [this] { markDirty({K::BitSweep, K::ClipSweep, K::Calibration, K::Comparison}); });
    // The explorer goes first: try again whenever its computation or a load ends. Queued,
    // so ComputeService has started its next queued request (busy() is then accurate).
    connect(compute_, &ComputeService::resultReady, this, &AnalysisTabs::schedule, Qt::QueuedConnection);
    connect(compute_, &ComputeService::failed, this, &AnalysisTabs::schedule, Qt::QueuedConnection);
    connect(compute_, &ComputeService::cancelled, this, &AnalysisTabs::schedule, Qt::QueuedConnection);
    connect(data_, &DataService::cancelled, this, &AnalysisTabs::schedule, Qt::QueuedConnection);
    connect(data_, &DataService::failed, this, &AnalysisTabs::schedule, Qt::QueuedConnection);
    connect(tabs_, &QTabWidget::currentChanged, this, &AnalysisTabs::schedule);
    connect(model_, &ExplorerModel::viewStateChanged, this, [this] {
        const Theme theme = model_->viewState().dark ? Theme::Dark : Theme::Light;
        calibration_->setTheme(theme);
        comparison_->setTheme(theme);
    });

    connect(service_, &AnalysisService::started, this, [this](AnalysisKind kind) {
        statusOf(kind)->setRunning(tr("Computing the %1…").arg(analysisName(kind)));
    });
    connect(service_, &AnalysisService::progress, this,
            [this](AnalysisKind kind, double fraction) { statusOf(kind)->setProgress(fraction); });
    connect(service_, &AnalysisService::cancelled, this, &AnalysisTabs::showCancelled);
    for (AnalysisKind kind : {K::BitSweep, K::ClipSweep, K::Calibration, K::Comparison}) {
        connect(statusOf(kind), &JobStatus::cancelRequested, this, [this, kind] { cancel(kind); });
        connect(statusOf(kind), &JobStatus::rerunRequested, this, [this, kind] { rerun(kind); });
    }
    // A result reaches its view only if it answers the latest request of its kind.
    auto showIn = [this](AnalysisKind kind, auto* view) {
        return [this, kind, view](auto result, quint64 serial) {
            if (serial != serial_[index(kind)]) return;  // a newer request is on its way
            view->setResult(std::move(result));
            // A streamed data set's analyses ran on its sample: the status line says so.
            const DatasetPtr data = data_->dataset();
            view->status()->setInfo(data ? sampleNote(*data) : QString());
            emit resultShown(kind);
        };
    };
    connect(service_, &AnalysisService::bitSweepReady, this, showIn(K::BitSweep, bits_));
    connect(service_, &AnalysisService::clipSweepReady, this, showIn(K::ClipSweep, clip_));
    connect(service_, &AnalysisService::calibrationReady, this, showIn(K::Calibration, calibration_));
    connect(service_, &AnalysisService::comparisonReady, this, showIn(K::Comparison, comparison_));
    connect(service_, &AnalysisService::failed, this, &AnalysisTabs::showFailure);
    connect(service_, &AnalysisService::idle, this, &AnalysisTabs::schedule);

    connect(clip_, &ClipSweepView::applyRequested, this,
            [this](float lo, float hi) { applyRange(lo, hi, tr("Apply α*")); });
    connect(calibration_, &CalibrationPanel::applyRequested, this,
            [this](float lo, float hi, const QString& method) { applyRange(lo, hi, tr("Apply %1 range").arg(method)); });
    connect(calibration_, &CalibrationPanel::optionsChanged, this, [this] { markDirty({K::Calibration}); });
    connect(comparison_, &ComparisonView::addCurrentRequested, this,
            [this] { comparison_->addConfig(model_->spec()); });
    connect(comparison_, &ComparisonView::loadRequested, this,
            [this](const qs::QuantSpec& spec) { model_->editSpec(spec, tr("Load configuration")); });
    connect(comparison_, &ComparisonView::configsChanged, this, [this] { markDirty({K::Comparison}); });
}

AnalysisTabs::~AnalysisTabs() = default;

qs::analysis::DataKind AnalysisTabs::dataKindOf(const QString& generator) {
    const QString kind = generator.section(QLatin1Char(':'), 0, 0).trimmed();
    if (kind == QLatin1String("uniform")) return qs::analysis::DataKind::Uniform;
    if (kind == QLatin1String("sine")) return qs::analysis::DataKind::Sine;
    return qs::analysis::DataKind::Other;
}

std::optional<AnalysisKind> AnalysisTabs::visibleKind() const {
    QWidget* w = tabs_->currentWidget();
    if (w == bits_) return AnalysisKind::BitSweep;
    if (w == clip_) return AnalysisKind::ClipSweep;
    if (w == calibration_) return AnalysisKind::Calibration;
    if (w == comparison_) return AnalysisKind::Comparison;
    return std::nullopt;
}

JobStatus* AnalysisTabs::statusOf(AnalysisKind kind) const {
    switch (kind) {
        case AnalysisKind::BitSweep: return bits_->status();
        case AnalysisKind::ClipSweep: return clip_->status();
        case AnalysisKind::Calibration: return calibration_->status();
        case AnalysisKind::Comparison: return comparison_->status();
    }
    return nullptr;
}

PlotFrame* AnalysisTabs::plotOf(AnalysisKind kind) const {
    switch (kind) {
        case AnalysisKind::BitSweep: return bits_;
        case AnalysisKind::ClipSweep: return clip_;
        case AnalysisKind::Calibration: return calibration_->plotFrame();
        case AnalysisKind::Comparison: return comparison_->plotFrame();
    }
    return nullptr;
}

void AnalysisTabs::markDirty(std::initializer_list<AnalysisKind> kinds) {
    bool stale = false;
    for (AnalysisKind k : kinds) {
        dirty_[index(k)] = true;
        cancelled_[index(k)] = false;  // an edit is a new request: a cancelled tab runs again
        for (AnalysisKind pending : service_->pendingKinds()) stale = stale || pending == k;
    }
    // The running analysis answers settings that are gone: stop it now rather than let it
    // hold the pool while the explorer recomputes.
    if (stale) stopPending(std::nullopt);
    schedule();
}

void AnalysisTabs::stopPending(std::optional<AnalysisKind> except) {
    const std::vector<AnalysisKind> pending = service_->pendingKinds();
    bool stopped = false;
    for (AnalysisKind k : pending) {
        if (k == except) continue;
        dirty_[index(k)] = true;  // its outcome will not arrive: it runs again when shown
        statusOf(k)->setInfo(tr("Stopped before it finished; computes again when shown."));
        stopped = true;
    }
    if (stopped && !except) service_->abandon();
}

void AnalysisTabs::cancel(AnalysisKind kind) {
    if (service_->runningKind() != kind) return;
    service_->cancelRunning();
    statusOf(kind)->setBusy(tr("Cancelling the %1…").arg(analysisName(kind)));
}

void AnalysisTabs::showCancelled(AnalysisKind kind, quint64 serial) {
    if (serial != serial_[index(kind)]) return;
    dirty_[index(kind)] = true;
    cancelled_[index(kind)] = true;
    const bool hasResult = [&] {
        switch (kind) {
            case AnalysisKind::BitSweep: return bits_->result() != nullptr;
            case AnalysisKind::ClipSweep: return clip_->result() != nullptr;
            case AnalysisKind::Calibration: return calibration_->result() != nullptr;
            case AnalysisKind::Comparison: return comparison_->result() != nullptr;
        }
        return false;
    }();
    if (hasResult) {
        statusOf(kind)->setCancelled(tr("Cancelled. The result shown is the previous one, for other settings."));
        plotOf(kind)->setStale(true, tr("Cancelled: previous result (other settings)"));
    } else {
        statusOf(kind)->setCancelled(tr("Cancelled. Nothing computed for the current settings."));
    }
    emit analysisCancelled(kind);
}

void AnalysisTabs::rerun(AnalysisKind kind) {
    cancelled_[index(kind)] = false;
    dirty_[index(kind)] = true;
    schedule();
}

void AnalysisTabs::schedule() {
    if (scheduled_) return;
    scheduled_ = true;
    QTimer::singleShot(0, this, [this] {
        scheduled_ = false;
        runVisible();
    });
}

void AnalysisTabs::runVisible() {
    const auto kind = visibleKind();
    if (!kind || !dirty_[index(*kind)] || cancelled_[index(*kind)]) return;
    const DatasetPtr data = data_->dataset();
    if (!data) return;  // the first load schedules again
    JobStatus* status = statusOf(*kind);
    if (compute_->busy() || data_->loading()) {
        status->setBusy(tr("Waiting for the explorer's computation…"));
        return;
    }
    dirty_[index(*kind)] = false;
    // The new request replaces whatever runs (the service cancels it and drops its outcome):
    // another tab's analysis is marked out of date and catches up when shown.
    stopPending(kind);
    const qs::QuantSpec& spec = model_->spec();
    quint64& serial = serial_[index(*kind)];
    switch (*kind) {
        case AnalysisKind::BitSweep:
            serial = service_->requestBitSweep(spec, data, dataKindOf(model_->dataSource().isFile()
                                                                          ? QString() : model_->dataSource().generator));
            break;
        case AnalysisKind::ClipSweep: serial = service_->requestClipSweep(spec, data); break;
        case AnalysisKind::Calibration:
            serial = service_->requestCalibration(spec, data, calibration_->options());
            break;
        case AnalysisKind::Comparison:
            if (comparison_->configs().empty()) {
                ++serial;  // drops a result still on its way
                comparison_->setResult(nullptr);
                status->setInfo(tr("Add the explorer's configuration with “Add current”, change it, add again "
                                   "(up to four)."));
                emit resultShown(*kind);
                return;
            }
            if (data->streamed() && std::any_of(comparison_->configs().begin(), comparison_->configs().end(),
                                                [](const qs::QuantSpec& c) { return c.axis >= 0; })) {
                ++serial;
                comparison_->setResult(nullptr);
                status->setInfo(tr("Off for this data set: a per-channel configuration needs every value in its "
                                   "channel, and the data set is larger than the memory budget (streamed from its "
                                   "file). Per-tensor configurations compare on a uniform sample."));
                emit resultShown(*kind);
                return;
            }
            serial = service_->requestComparison(comparison_->configs(), data);
            break;
    }
    if (service_->busy() && service_->runningKind() != kind)
        status->setBusy(tr("Starting once the %1 has stopped…").arg(analysisName(*service_->runningKind())));
}

void AnalysisTabs::showFailure(AnalysisKind kind, const QString& message, quint64 serial) {
    if (serial != serial_[index(kind)]) return;
    statusOf(kind)->setError(message);
    plotOf(kind)->setStale(true, message);
}

void AnalysisTabs::applyRange(float min, float max, const QString& what) {
    const qs::QuantSpec& spec = model_->spec();
    if (text::rangeIsGiven(spec)) {
        model_->setRange(min, max);
        return;
    }
    // QDQ computing its range from the data (or per-channel ranges from data): applying a
    // range makes it a given one, in the same undo step.
    qs::QuantSpec next = spec;
    next.min_range = min;
    next.max_range = max;
    next.range_given = true;
    next.range_source = qs::RangeSource::Given;
    model_->editSpec(next, what);
}

}  // namespace qs::ui
