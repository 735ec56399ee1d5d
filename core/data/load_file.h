// One entry point for the explorer's "open data file": picks the reader by extension
// (case-insensitive): .npy -> readNpy (or, over options.stream_above_bytes, a stream over
// the file: NpyFileStream); .csv, .tsv, .txt -> readCsv; .vec -> readVec.
#pragma once

#include <string>
#include <vector>

#include "core/data/dataset.h"
#include "core/status.h"

namespace qs::data {

// DataError for an unknown extension (listing the supported ones) and for missing or
// unreadable files ("cannot open PATH: No such file or directory"); Cancelled when
// options.progress returns false.
Result<Dataset> loadDataFile(const std::string& path, const LoadOptions& options = {});

const std::vector<std::string>& supportedExtensions();  // ".npy", ".csv", ".tsv", ".txt", ".vec"

}  // namespace qs::data
