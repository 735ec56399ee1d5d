// The tables of the explorer's four plot views (transfer, histogram, error histogram, per
// channel): what a view's "Export CSV" writes and what `quantscope-cli export --csv` writes,
// from one place, so that the window and the headless CLI write the same bytes. Pure C++
// (no Qt); a view's csvTable() and the CLI both call these.
#pragma once

#include "core/analysis/explorer.h"
#include "core/data/csv_writer.h"

namespace qs::analysis {

// Each table has its header only when `result` is null (a view that has shown nothing yet).
// input,code,output,error: every point of the transfer curve (TransferTable).
data::NumberColumns transferColumns(const ExplorerResult* result);
// bin_lo,bin_hi,count,clipped: the data's histogram; clipped is 1 for a bin holding a value
// the quantizer clipped.
data::NumberColumns histogramColumns(const ExplorerResult* result);
// bin_lo,bin_hi,count,uniform_count: the error x − Q(x) over ±one step; uniform_count is NaN
// past the uniform model's bins.
data::NumberColumns errorHistogramColumns(const ExplorerResult* result);
// channel,data_min,...,clipped: one row per channel (none without an axis).
data::NumberColumns channelColumns(const ExplorerResult* result);

}  // namespace qs::analysis
