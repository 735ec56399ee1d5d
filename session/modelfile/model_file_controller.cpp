#include "session/modelfile/model_file_controller.h"

#include <QFileInfo>

#include "core/analysis/quant_spec.h"
#include "core/data/npy_writer.h"
#include "core/modelfile/tensor_values.h"
#include "session/explorer/explorer_controller.h"
#include "session/explorer/explorer_model.h"
#include "session/files/native_file.h"

namespace qs::ui {

namespace {
QString absolute(const QString& path) { return path.isEmpty() ? path : QFileInfo(path).absoluteFilePath(); }
}  // namespace

ModelFileController::ModelFileController(ExplorerController* explorer, QObject* parent)
    : QObject(parent),
      explorer_(explorer),
      runner_(tr("could not open the model")),
      exportRunner_(tr("could not write the tensor")) {
    connect(&runner_, &JobRunner::failed, this, [this](const QString& message) {
        pendingPath_.clear();
        emit openFailed(message);
    });
    connect(&exportRunner_, &JobRunner::failed, this, &ModelFileController::exportFailed);
    connect(explorer_->model(), &ExplorerModel::dataSourceChanged, this, &ModelFileController::followDataSource);
    reportService_.setExplorerModel(explorer_->model());
}

ModelFileController::~ModelFileController() = default;

void ModelFileController::open(const QString& path) {
    pendingPath_ = absolute(path);
    emit openingStarted(pendingPath_);
    runner_.submit(
        [this, path = pendingPath_](const JobContext&) -> JobRunner::Delivery {
            auto model = qs::modelfile::openModel(nativePath(path));
            if (!model)
                return [this, message = QString::fromStdString(model.error().message)] {
                    pendingPath_.clear();
                    emit openFailed(message);
                };
            return [this, path, model = *model] {
                pendingPath_.clear();
                model_ = model;
                path_ = path;
                emit opened();
                emit selectionChanged(selectedTensor());
            };
        },
        JobRunner::Running::Discard);
}

QString ModelFileController::selectedTensor() const {
    const DataSource& source = explorer_->model()->dataSource();
    if (!model_ || !source.isModelTensor() || absolute(source.path) != path_) return {};
    return source.tensor;
}

int ModelFileController::presetAxis(const qs::modelfile::TensorInfo& info) const {
    if (!model_) return -1;
    return qs::modelfile::channelAxis(model_->format(), info);
}

bool ModelFileController::selectTensor(const QString& name, QString* error) { return select(name, nullptr, error); }

bool ModelFileController::selectTensorWithSpec(const QString& name, const qs::QuantSpec& spec, QString* error) {
    return select(name, &spec, error);
}

bool ModelFileController::select(const QString& name, const qs::QuantSpec* given, QString* error) {
    auto fail = [error](const QString& m) {
        if (error) *error = m;
        return false;
    };
    if (!model_) return fail(tr("no model is open"));
    const int64_t index = model_->find(name.toStdString());
    if (index < 0) return fail(tr("%1: no tensor '%2'").arg(QFileInfo(path_).fileName(), name));
    const qs::modelfile::TensorInfo& info = model_->tensors()[static_cast<size_t>(index)];
    if (info.dtype == qs::modelfile::DType::Other)
        return fail(tr("%1: tensor '%2' holds %3 values, which QuantScope cannot explore")
                        .arg(QFileInfo(path_).fileName(), name, QString::fromStdString(info.dtype_name)));

    ExplorerModel* model = explorer_->model();
    DataSource source = model->dataSource();
    source.path = path_;
    source.tensor = name;
    if (given) {
        if (source == model->dataSource() && *given == model->spec()) return true;
        model->setDataSourceAndSpec(source, *given, tr("Tensor %1").arg(name));
        return true;
    }
    if (source == model->dataSource()) return true;  // already shown (the dock following undo)

    qs::QuantSpec spec = model->spec();
    const int axis = presetAxis(info);
    const auto* axisRow = qs::findOpAttribute("axis");
    if (qs::usesAxis(spec.op) && axisRow) {
        // Per channel along the tensor's channels; per tensor for vectors and scalars.
        spec.axis = axis >= 0 && axis <= axisRow->max ? axis : -1;
        // QuantizeV2 per channel takes a range per channel: each channel's own min and max
        // (what a per-channel calibration feeds), not the form's one range for all, which
        // was chosen for other data.
        if (spec.axis >= 0 && qs::opDescriptor(spec.op).uses.range_source != qs::AttrUse::None)
            spec.range_source = qs::RangeSource::FromData;
        emit notice(spec.axis >= 0 ? tr("%1: per channel on axis %2").arg(name).arg(spec.axis)
                                   : tr("%1: per tensor").arg(name));
    } else if (axis >= 0) {
        emit notice(tr("%1: %2 has no axis; the tensor is quantized as a whole")
                        .arg(name, QString::fromUtf8(qs::quantOpName(spec.op).data())));
    }
    model->setDataSourceAndSpec(source, spec, tr("Tensor %1").arg(name));
    return true;
}

bool ModelFileController::applyStoredRule(const qs::analysis::StoredQuantComparison& cmp, int rule,
                                          const QString& originalPath, QString* error) {
    auto fail = [error](const QString& m) {
        if (error) *error = m;
        return false;
    };
    if (!model_ || model_->find(cmp.tensor) < 0)
        return fail(tr("the open model has no tensor '%1'").arg(QString::fromStdString(cmp.tensor)));
    const auto spec = qs::analysis::explorerSpecOf(cmp, rule);
    if (!spec) {
        const QString label = rule >= 0 && rule < static_cast<int>(cmp.rules.size())
                                  ? QString::fromStdString(cmp.rules[static_cast<size_t>(rule)].label)
                                  : tr("rule %1").arg(rule);
        return fail(tr("%1: the explorer runs TensorFlow's ops only; this rule is not one it can apply").arg(label));
    }
    ExplorerModel* model = explorer_->model();
    DataSource source = model->dataSource();
    source.path = originalPath.isEmpty() ? path_ : absolute(originalPath);
    source.tensor = QString::fromStdString(cmp.tensor);
    const QString label = QString::fromStdString(cmp.rules[static_cast<size_t>(rule)].label);
    model->setDataSourceAndSpec(source, *spec, tr("Apply %1").arg(label));
    emit notice(tr("The explorer runs %1 on %2").arg(label, originalPath.isEmpty() ? tr("the stored tensor")
                                                                                   : tr("the float original")));
    return true;
}

void ModelFileController::followDataSource() {
    const DataSource& source = explorer_->model()->dataSource();
    if (source.isModelTensor()) {
        const QString wanted = absolute(source.path);
        if (wanted != path_ && wanted != pendingPath_) {
            open(wanted);  // opened() reports the selection
        } else if (wanted == path_ && !pendingPath_.isEmpty()) {
            // Back to the open model before another one finished opening (undo right after
            // a change of file): that open would replace the model the data comes from.
            runner_.discard();
            pendingPath_.clear();
        }
    }
    emit selectionChanged(selectedTensor());
}

void ModelFileController::exportTensor(const QString& name, const QString& npyPath) {
    const qs::modelfile::ModelPtr model = model_;
    if (!model) return emit exportFailed(tr("no model is open"));
    const int64_t index = model->find(name.toStdString());
    if (index < 0) return emit exportFailed(tr("no tensor '%1'").arg(name));
    exportRunner_.submit(
        [this, model, index, name, npyPath](const JobContext&) -> JobRunner::Delivery {
            auto data = qs::modelfile::toDataset(*model, static_cast<size_t>(index));
            qs::Status written = data ? qs::data::writeNpy(nativePath(npyPath), data->values, data->shape)
                                      : qs::Status(data.error());
            if (!written)
                return [this, message = QString::fromStdString(written.error().message)] {
                    emit exportFailed(message);
                };
            return [this, name, npyPath] { emit tensorExported(name, npyPath); };
        },
        JobRunner::Running::Finish);
}

}  // namespace qs::ui
