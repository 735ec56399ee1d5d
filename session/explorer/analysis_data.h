// What the analyses that need every value in memory at once (bit sweep, clipping sweep,
// calibration's percentiles, the comparisons, the Frameworks tab, lesson checks) run on:
// the data set itself, or for a data set streamed from a file larger than the memory budget
// a uniform sample of it (core/data/stream_sample.h) read through the stream and labelled
// so, never its n values.
#pragma once

#include <QString>
#include <functional>
#include <memory>

#include "core/data/dataset.h"

namespace qs::ui {

// `data` when it is in memory; for a streamed one, the sample as an in-memory data set of
// shape {count} whose label says what it is. The sample of the most recent streamed data set
// is kept (one at a time), so the tabs that ask in turn read the file once. Thread-safe; runs
// on a worker. progress (0..1; false cancels, error kind "Cancelled") while sampling.
qs::Result<std::shared_ptr<const qs::data::Dataset>> analysisDataset(
    const std::shared_ptr<const qs::data::Dataset>& data, const std::function<bool(double)>& progress = {});

// `analyse` run on analysisDataset(data), with one 0..1 progress for both: reading a streamed
// data set's sample (the first time; it is then kept) takes the first 30 %, the analysis the
// rest. Returning false from progress cancels either (error kind "Cancelled").
template <typename Analyse>
auto analyseData(const std::shared_ptr<const qs::data::Dataset>& data, const std::function<bool(double)>& progress,
                 Analyse&& analyse) -> decltype(analyse(*data, progress)) {
    const double sampling = data && data->streamed() ? 0.3 : 0.0;
    auto input = analysisDataset(data, [&](double f) { return !progress || progress(sampling * f); });
    if (!input) return input.error();
    const std::function<bool(double)> rest = [&](double f) {
        return !progress || progress(sampling + (1.0 - sampling) * f);
    };
    return analyse(**input, rest);
}

// For the tab's status line: "On a uniform sample: 4,194,304 of 536,870,912 values (the data
// is streamed from its file)"; empty for a data set in memory.
QString sampleNote(const qs::data::Dataset& data);

}  // namespace qs::ui
