// Configurations side by side on the same data: what the comparison tab draws and what
// `quantscope-cli analyze compare` writes, computed by this one function. Each configuration
// runs through computeExplorer (so its statistics are the explorer's, fraction_clipped against
// each slice's own range), then every transfer curve is resampled over one shared input window
// and every error histogram over one shared span, so the overlays compare like with like.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/analysis/error_stats.h"
#include "core/analysis/histogram.h"
#include "core/analysis/progress.h"
#include "core/analysis/quant_spec.h"
#include "core/analysis/transfer_curve.h"
#include "core/status.h"
#include "core/tensor.h"

namespace qs::analysis {

// One configuration: its transfer curve over the shared window, its error histogram over the
// shared span and its statistics on the data. `failure` is the op's own error when the
// configuration cannot run (the others still do).
struct ComparisonEntry {
    QuantSpec spec;
    TransferCurve curve;
    Histogram error_hist;
    ErrorStats stats;
    SliceQuant slice;    // slice 0: the range the op used
    int64_t slices = 0;  // slices quantized separately (1 per tensor)
    Error failure;       // kind empty when the configuration ran

    bool failed() const { return !failure.kind.empty(); }
    std::string errorText() const { return failed() ? failure.kind + ": " + failure.message : std::string(); }
};
struct ComparisonAnalysis {
    std::vector<ComparisonEntry> entries;      // in the order of the configurations
    double window_first = 0, window_last = 0;  // the transfer curves' shared input window
    double error_span = 0;                     // error histograms over ±error_span
};

// Errors only for no data, and "Cancelled" when progress (after each configuration) returns
// false; a configuration the op rejects carries its error instead.
Result<ComparisonAnalysis> computeComparison(const TensorRef<float>& data, const std::vector<QuantSpec>& specs,
                                             const Exec& exec = {}, const ProgressCallback& progress = {});

}  // namespace qs::analysis
