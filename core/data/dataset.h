// What every data source of the explorer returns: float32 values in row-major order with
// a shape, plus the names the GUI shows. Generators and file readers both produce it, so
// the views never care where the numbers came from.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "core/data/float_stream.h"
#include "core/status.h"
#include "core/tensor.h"

namespace qs::data {

struct Dataset {
    std::vector<float> values;  // row-major, numElements(shape) of them; empty when streamed
    Shape shape;
    // "normal(n=1000000, mean=0, std=1, seed=1)" for generated data, the file name otherwise.
    std::string label;
    std::vector<std::string> column_names;  // CSV header (empty when the file has none)
    std::vector<std::string> row_names;     // the words of a .vec file, one per row
    // Set instead of `values` for a file larger than the memory budget (a LoadOptions
    // choice): the values are read from the file chunk by chunk, `values` stays empty.
    FloatStreamPtr stream;

    bool streamed() const { return stream != nullptr; }
    int64_t size() const { return streamed() ? stream->size() : static_cast<int64_t>(values.size()); }
    // The values as a stream whatever their home: `stream`, or a view of `values` (valid
    // while this Dataset lives).
    FloatStreamPtr asStream() const { return streamed() ? stream : memoryStream(values, {}, label); }
    // The values in memory. A streamed data set has none (an empty span): check streamed()
    // and read it through asStream() instead.
    TensorRef<float> ref() const { return {std::span<const float>(values), shape}; }
};

// Options shared by the file readers. `progress` is called now and then with the fraction
// of the file done (0..1, non-decreasing, the last call is 1); returning false cancels the
// load, which then fails with kind "Cancelled". Called on the loading thread.
struct LoadOptions {
    std::function<bool(double fraction)> progress;
    // When set, a .npy whose values would take more bytes than this (as float32) is not read
    // but opened as a stream (Dataset::stream); unset, every file is read into memory.
    std::optional<int64_t> stream_above_bytes = std::nullopt;
};

// Bad files and bad generator specs. Messages say what and where: file, line, column/field.
inline Error dataError(std::string message) { return {"DataError", std::move(message)}; }
inline Error cancelledError(std::string message) { return cancellation(std::move(message)); }

}  // namespace qs::data
