// What every successful data read must satisfy, whatever the bytes were.
#pragma once

#include "core/data/dataset.h"
#include "tests/fuzz/fuzz_input.h"

namespace qs::fuzz {

inline void checkDataset(const qs::data::Dataset& d) {
    const auto n = qs::checkedNumElements(d.shape);
    if (!n || *n != static_cast<int64_t>(d.values.size()))
        propertyFailed("dataset of shape " + qs::shapeString(d.shape) + " holds " +
                       std::to_string(d.values.size()) + " values");
    if (!d.row_names.empty() && (d.shape.empty() || static_cast<size_t>(d.shape[0]) != d.row_names.size()))
        propertyFailed("row names do not match the rows");
    if (!d.column_names.empty() && (d.shape.size() < 1 || (d.shape.size() == 2 && static_cast<size_t>(d.shape[1]) != d.column_names.size())))
        propertyFailed("column names do not match the columns");
}

}  // namespace qs::fuzz
