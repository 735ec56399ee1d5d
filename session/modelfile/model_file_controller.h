// The model file the window has open, without widgets: opens it off the UI thread (a
// JobRunner: listing reads headers only, but a file on a slow disk or a hostile header must
// not freeze the window), holds the ModelPtr, and turns "use this tensor" into the
// explorer's data through the explorer's own data path: the data source becomes
// {model path, tensor name} and DataService loads it like a .npy (off the thread, with
// cancel). For a tensor with channels (stored per channel, or a weight of rank >= 2) the
// op's axis is preset to modelfile::channelAxis() in the same undo step.
//
// The selection is the explorer's data source, so undo, redo, sessions and lessons move it
// too; when the data source names a model this controller does not have open (a session,
// a lesson, undo past an "Open model"), it opens that model so the dock can list it.
#pragma once

#include <QObject>
#include <QString>

#include "core/analysis/quant_spec.h"
#include "core/model_analysis/stored_quant.h"
#include "core/modelfile/model_file.h"
#include "session/jobs/job_runner.h"
#include "session/modelfile/model_report_service.h"
#include "session/modelfile/stored_quant_service.h"

namespace qs::ui {

class ExplorerController;

class ModelFileController : public QObject {
    Q_OBJECT
public:
    explicit ModelFileController(ExplorerController* explorer, QObject* parent = nullptr);
    ~ModelFileController() override;  // cancels and waits for an open in progress

    // Opens `path` (a model file or a SavedModel folder) off the UI thread; opened() or
    // openFailed() follows. An open in progress is dropped.
    void open(const QString& path);
    bool opening() const { return runner_.busy(); }
    // The open model and the path it was opened from (null / empty before the first open).
    qs::modelfile::ModelPtr model() const { return model_; }
    QString path() const { return path_; }

    // Makes tensor `name` of the open model the explorer's data (one undo step, with the
    // axis preset). False with `error` set when there is no such tensor or it cannot be
    // loaded (a dtype no reader converts); the load itself reports through DataService.
    bool selectTensor(const QString& name, QString* error = nullptr);
    // The same with exactly `spec` instead of the preset axis (the model report's row: the
    // explorer then shows that row's numbers).
    bool selectTensorWithSpec(const QString& name, const qs::QuantSpec& spec, QString* error = nullptr);
    // The tensor the explorer shows when its data comes from this model; empty otherwise.
    QString selectedTensor() const;
    // The axis selectTensor presets for `info` (-1: per tensor), by the open model's format.
    int presetAxis(const qs::modelfile::TensorInfo& info) const;

    // Stored quantization's "Apply to explorer": the explorer runs rule `rule` of `cmp` (a
    // comparison of a tensor of the open model) on the floats the rule quantized, as one undo
    // step: the spec analysis::explorerSpecOf gives, and as data the float original's tensor
    // of the same name (`originalPath`, when the comparison had one) or the stored tensor
    // itself. False with `error` for a rule the explorer cannot run (another framework's
    // scheme, the file's own scale, a rule that failed) or no such tensor.
    bool applyStoredRule(const qs::analysis::StoredQuantComparison& cmp, int rule, const QString& originalPath,
                         QString* error = nullptr);

    // The jobs over the open model's tensors, whose views only draw their results: the
    // whole-model report (under the explorer's op settings) and stored quantization's
    // comparison of a tensor's codes with the rules that could have made them.
    ModelReportService* reportService() { return &reportService_; }
    StoredQuantService* storedQuantService() { return &storedQuantService_; }

    // Writes tensor `name` as float32 .npy to `npyPath` off the UI thread (the workbench
    // reads tables from files); tensorExported() or exportFailed() follows.
    void exportTensor(const QString& name, const QString& npyPath);

signals:
    void openingStarted(const QString& path);
    void opened();  // model() and path() are the new ones
    void openFailed(const QString& message);
    // The explorer's data now comes from `name` of this model (empty: from elsewhere).
    void selectionChanged(const QString& name);
    // Something the user should read in the status bar ("axis preset to 3").
    void notice(const QString& text);
    void tensorExported(const QString& name, const QString& npyPath);
    void exportFailed(const QString& message);

private:
    void followDataSource();
    bool select(const QString& name, const qs::QuantSpec* spec, QString* error);

    ExplorerController* explorer_;
    qs::modelfile::ModelPtr model_;
    QString path_;
    QString pendingPath_;  // being opened
    JobRunner runner_;
    JobRunner exportRunner_;
    ModelReportService reportService_;
    StoredQuantService storedQuantService_;
};

}  // namespace qs::ui
