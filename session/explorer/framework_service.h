// Runs the Frameworks tab's comparison (core/analysis/framework_compare.h) off the UI thread
// on a JobRunner: a new request stops the running one and drops its outcome, the core's
// fraction done arrives as progress(), cancelRunning() ends the running one with cancelled(),
// a failure (the op's error or an exception) arrives as a message. The view only asks and
// shows; it computes nothing over the data itself.
#pragma once

#include <QObject>
#include <QString>
#include <memory>

#include "core/analysis/framework_compare.h"
#include "core/data/dataset.h"
#include "session/jobs/job_runner.h"

namespace qs::ui {

using FrameworkComparisonPtr = std::shared_ptr<const qs::analysis::FrameworkComparison>;

class FrameworkService : public QObject {
    Q_OBJECT
public:
    explicit FrameworkService(QObject* parent = nullptr);

    // Compares the setup's schemes over all of `data` (replacing a request not yet started).
    void request(const qs::analysis::FrameworkSetup& setup, std::shared_ptr<const qs::data::Dataset> data);
    void cancelRunning() { runner_.cancel(); }
    bool busy() const { return runner_.busy(); }

signals:
    void compared(qs::ui::FrameworkComparisonPtr result);
    void failed(const QString& message);
    void progress(double fraction);  // 0..1 through the running comparison
    void cancelled();                // cancelRunning() stopped it: no result

private:
    JobRunner runner_;
};

}  // namespace qs::ui

Q_DECLARE_METATYPE(qs::ui::FrameworkComparisonPtr)
