// The explorer's value types: where the samples come from, what the user looks at and the
// analysis tabs' choices, with the limits the controls hold. Plain values (no QObject), so
// services, sessions and the CLI use them without the model.
#pragma once

#include <QString>
#include <QtGlobal>
#include <limits>
#include <vector>

#include "core/analysis/calibration.h"
#include "core/analysis/quant_spec.h"

namespace qs::ui {

// The range and channel the explorer's controls can hold (the attributes' limits are in
// core/analysis/op_attributes.h). Sessions and lessons outside them are refused with the
// field's name, so the form always shows the values the op runs with.
namespace limits {
// min_range / max_range: any finite float32. "From data" and the range handles can set
// ranges far beyond what one types (data of magnitude 1e10), and the form must show them.
inline constexpr double kMaxRangeMagnitude = std::numeric_limits<float>::max();
inline constexpr int kMaxChannel = 2147483647;
}  // namespace limits

// Where the samples come from: a generator spec ("normal:n=100000,seed=1", the CLI's
// syntax) or a file, which wins when set: a data file (.npy, CSV, .vec), or, when `tensor`
// is set too, the tensor of that name in the model file `path` (core/modelfile).
struct DataSource {
    QString generator = QStringLiteral("normal:n=1000000,seed=1");
    QString path;
    QString tensor;
    bool isFile() const { return !path.isEmpty(); }
    bool isModelTensor() const { return isFile() && !tensor.isEmpty(); }
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

// The analysis tabs' choices: part of the work like the parameters, so undoable and saved
// in sessions (an older session without them opens with these defaults).
struct AnalysisState {
    static constexpr int kMaxCompared = 4;
    std::vector<qs::QuantSpec> compared;           // the Compare tab's configurations
    qs::analysis::CalibrationOptions calibration;  // the Calibration tab's (percentile, ...)
    bool scaledR14 = false;                        // Frameworks: also SCALED as r1.4 documents it
    bool operator==(const AnalysisState&) const = default;
};

}  // namespace qs::ui
