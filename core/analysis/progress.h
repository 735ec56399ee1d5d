// Progress and cancellation for the analyses that take long on large data (bit and clipping
// sweeps, calibration, comparison, the framework comparison), Qt-free. The caller passes a
// callback; the analysis calls it with the fraction done after each unit of work (a sweep
// point, a search candidate, a configuration), so the fraction is determinate and never goes
// down. Returning false cancels: the analysis stops at its next unit and fails with kind
// "Cancelled" (no partial result). Without a callback nothing is reported and nothing cancels.
#pragma once

#include <algorithm>
#include <functional>
#include <string>

#include "core/status.h"

namespace qs::analysis {

using ProgressCallback = std::function<bool(double fraction)>;

inline Error analysisCancelled(const std::string& what) { return cancellation(what + " was cancelled"); }

// The share [from, to] of an analysis's progress that one of its phases reports into.
class ProgressPart {
public:
    ProgressPart() = default;
    explicit ProgressPart(const ProgressCallback* callback, double from = 0.0, double to = 1.0)
        : callback_(callback && *callback ? callback : nullptr), from_(from), to_(to) {}

    // `done` of `total` units of this phase; false when the caller cancelled.
    bool step(double done, double total) const {
        if (!callback_) return true;
        const double f = total > 0 ? std::clamp(done / total, 0.0, 1.0) : 1.0;
        return (*callback_)(from_ + f * (to_ - from_));
    }
    // The share [a, b] (fractions of this phase) of this phase.
    ProgressPart part(double a, double b) const {
        ProgressPart p = *this;
        p.from_ = from_ + a * (to_ - from_);
        p.to_ = from_ + b * (to_ - from_);
        return p;
    }

private:
    const ProgressCallback* callback_ = nullptr;
    double from_ = 0.0, to_ = 1.0;
};

}  // namespace qs::analysis
