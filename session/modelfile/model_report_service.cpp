#include "session/modelfile/model_report_service.h"

#include "session/explorer/explorer_model.h"

namespace qs::ui {

qs::QuantSpec modelReportKey(const qs::QuantSpec& spec) {
    qs::QuantSpec key = qs::analysis::reportSpecFor(spec, {}, -1);  // per tensor, ranges from data
    key.axis = qs::usesAxis(spec.op) && spec.axis >= 0 ? 0 : -1;
    key.min_range = key.max_range = 0;
    key.range_source = qs::RangeSource::Given;
    return key;
}

ModelReportService::ModelReportService(QObject* parent)
    : QObject(parent), runner_(tr("the model report failed")) {
    qRegisterMetaType<ModelReportPtr>();
    timer_.setSingleShot(true);
    timer_.setInterval(150);
    connect(&timer_, &QTimer::timeout, this, &ModelReportService::start);
    connect(&runner_, &JobRunner::started, this, &ModelReportService::started);
    connect(&runner_, &JobRunner::progress, this, &ModelReportService::progress);
    connect(&runner_, &JobRunner::failed, this, [this](const QString& message, quint64) { emit failed(message); });
}

ModelReportService::~ModelReportService() = default;  // the runner cancels and waits

void ModelReportService::setModel(std::shared_ptr<const qs::modelfile::ModelFile> model) {
    model_ = std::move(model);
    report_.reset();
    if (!model_) {
        timer_.stop();
        runner_.discard();
        submittedModel_.reset();
        submittedKey_.reset();
        emit reportReady(nullptr);
        return;
    }
    recompute();
}

void ModelReportService::setExplorerModel(ExplorerModel* explorer) {
    if (explorer_) disconnect(explorer_, nullptr, this, nullptr);
    explorer_ = explorer;
    if (!explorer) return;
    auto follow = [this] {
        spec_ = explorer_->spec();
        followCalibration();
        schedule();
    };
    connect(explorer, &ExplorerModel::specChanged, this, follow);
    connect(explorer, &ExplorerModel::calibrationOptionsChanged, this, [this, follow] {
        submittedKey_.reset();  // the key holds the spec only: force the rerun
        follow();
    });
    spec_ = explorer->spec();
    followCalibration();
    schedule();
}

void ModelReportService::followCalibration() {
    // The calibration tab's percentile and symmetry; the report keeps its own KL bins
    // (reportCalibrationOptions: a 2048-bin search per tensor would dominate the report).
    const qs::analysis::CalibrationOptions& tab = explorer_->analysis().calibration;
    options_.calibration.percentile = tab.percentile;
    options_.calibration.symmetric = tab.symmetric;
}

void ModelReportService::setSpec(const qs::QuantSpec& spec) {
    spec_ = spec;
    schedule();
}

void ModelReportService::setOptions(const qs::analysis::ModelReportOptions& options) {
    options_ = options;
    submittedKey_.reset();
    schedule();
}

void ModelReportService::schedule() {
    if (!model_) return;
    if (submittedKey_ && *submittedKey_ == modelReportKey(spec_) && submittedModel_ == model_ && !timer_.isActive())
        return;  // a change the report does not see (a range edit)
    timer_.start();
}

void ModelReportService::recompute() {
    if (!model_) return;
    timer_.stop();
    start();
}

void ModelReportService::cancel() {
    timer_.stop();
    submittedKey_.reset();  // the next change reruns, whatever it is
    runner_.dropQueued();
    runner_.cancel();
}

void ModelReportService::start() {
    if (!model_) return;
    submittedKey_ = modelReportKey(spec_);
    submittedModel_ = model_;
    auto model = model_;
    const qs::QuantSpec spec = spec_;
    qs::analysis::ModelReportOptions options = options_;
    runner_.submit(
        [this, model, spec, options](const JobContext& context) mutable -> JobRunner::Delivery {
            options.progress = context.progressCallback();
            auto result = qs::analysis::computeModelReport(*model, spec, options);
            if (!result) {
                const qs::Error error = result.error();
                if (error.cancelled) return [this] { emit cancelled(); };
                return [this, error] { emit failed(QString::fromStdString(error.kind + ": " + error.message)); };
            }
            auto report = std::make_shared<const qs::analysis::ModelReport>(std::move(result).value());
            return [this, report] {
                report_ = report;
                emit reportReady(report);
            };
        },
        JobRunner::Running::Discard);
}

}  // namespace qs::ui
