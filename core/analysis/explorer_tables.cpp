#include "core/analysis/explorer_tables.h"

#include <limits>

#include "core/analysis/view_data.h"

namespace qs::analysis {

data::NumberColumns transferColumns(const ExplorerResult* result) {
    if (!result) return data::NumberColumns::named({"input", "code", "output", "error"});
    TransferTable table = transferTable(result->curve);
    return {{"input", "code", "output", "error"},
            {std::move(table.input), std::move(table.code), std::move(table.output), std::move(table.error)}};
}

data::NumberColumns histogramColumns(const ExplorerResult* result) {
    auto t = data::NumberColumns::named({"bin_lo", "bin_hi", "count", "clipped"});
    if (!result) return t;
    const Histogram& h = result->data_hist;
    const HistogramSplit split = splitClipped(*result);
    for (int i = 0; i < h.bins(); ++i) {
        const size_t k = static_cast<size_t>(i);
        t.addRow({h.edge(i), h.edge(i + 1), static_cast<double>(h.counts[k]), split.is_clipped[k] ? 1.0 : 0.0});
    }
    return t;
}

data::NumberColumns errorHistogramColumns(const ExplorerResult* result) {
    auto t = data::NumberColumns::named({"bin_lo", "bin_hi", "count", "uniform_count"});
    if (!result) return t;
    const Histogram& h = result->error_hist;
    const std::vector<double>& uniform = result->error_uniform_counts;
    for (int i = 0; i < h.bins(); ++i) {
        const size_t k = static_cast<size_t>(i);
        t.addRow({h.edge(i), h.edge(i + 1), static_cast<double>(h.counts[k]),
                  k < uniform.size() ? uniform[k] : std::numeric_limits<double>::quiet_NaN()});
    }
    return t;
}

data::NumberColumns channelColumns(const ExplorerResult* result) {
    auto t = data::NumberColumns::named({"channel", "data_min", "data_max", "output_min", "output_max", "scale",
                                         "step", "zero_point", "rmse", "max_abs_error", "sqnr_db", "clipped"});
    if (!result) return t;
    for (size_t i = 0; i < result->channels.size(); ++i) {
        const ChannelSummary& ch = result->channels[i];
        t.addRow({static_cast<double>(i), ch.data_min, ch.data_max, ch.quant.output_min, ch.quant.output_max,
                  ch.quant.scale, ch.quant.step, static_cast<double>(ch.quant.zero_code), ch.stats.rmse,
                  ch.stats.max_abs_error, ch.stats.sqnr_db, static_cast<double>(ch.clipped)});
    }
    return t;
}

}  // namespace qs::analysis
