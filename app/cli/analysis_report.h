// The numbers of `quantscope-cli analyze` as JSON and CSV: one function per analysis of
// core/analysis (bit_sweep, clip_sweep, calibration, and the explorer's statistics for a
// comparison) turning its result into a JsonOut document and a table. The column lists are
// the ones `analyze --help` documents; the JSON carries them plus what does not fit a table
// (the theory in words, the closed-form optima, notes).
#pragma once

#include <string>
#include <vector>

#include "app/cli/json_out.h"
#include "core/analysis/bit_sweep.h"
#include "core/analysis/calibration.h"
#include "core/analysis/clip_sweep.h"
#include "core/analysis/comparison.h"
#include "core/analysis/error_stats.h"
#include "core/analysis/explorer.h"
#include "core/analysis/quant_spec.h"
#include "core/data/csv_writer.h"

namespace qs::cli {

// Where an analysis came from, repeated at the top of every JSON document.
struct AnalysisSource {
    std::string case_path;
    QuantSpec spec;
};
struct DataSummary {
    std::string label;  // the file name or the generator's description
    int64_t values = 0;
};

// The spec with the attributes its op uses, in TF's names (QuantizeV2: T, mode, ...;
// QDQ: signed_input, num_bits, ...; TPU: num_buckets, lower, upper).
JsonOut specJson(const QuantSpec& spec);
JsonOut statsJson(const analysis::ErrorStats& stats);

// bits,mse,sqnr_db,theory_sqnr_db,levels,levels_in_range,levels_used,step
JsonOut bitSweepJson(const AnalysisSource& source, const DataSummary& data,
                     const analysis::BitSweep& sweep);
data::TextTable bitSweepTable(const analysis::BitSweep& sweep);

// alpha,mse,gaussian_mse,laplace_mse
JsonOut clipSweepJson(const AnalysisSource& source, const DataSummary& data,
                      const analysis::ClipSweep& sweep,
                      const std::vector<analysis::OptimalClipRow>& optimal);
data::TextTable clipSweepTable(const analysis::ClipSweep& sweep);

// method,min,max,<stats columns>
JsonOut calibrationJson(const AnalysisSource& source, const DataSummary& data,
                        const analysis::CalibrationOptions& options,
                        const std::vector<analysis::Calibration>& methods);
data::TextTable calibrationTable(const std::vector<analysis::Calibration>& methods);

// case,op,output_min,output_max,step,<stats columns>; one entry per configuration.
struct Configuration {
    AnalysisSource source;
    analysis::ComparisonEntry result;  // what the comparison tab shows for it
};
JsonOut comparisonJson(const DataSummary& data, const std::vector<Configuration>& configs);
data::TextTable comparisonTable(const std::vector<Configuration>& configs);

}  // namespace qs::cli
