// The part of a .npy array the model readers of .npy and .npz share: its header as a
// TensorInfo (any numeric dtype), and its stored bytes as a loaded tensor in the layout
// TensorData promises (little-endian, row-major): a view where the file already is, a
// byte-swapped and/or transposed copy where it is not.
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "core/modelfile/model_file.h"

namespace qs::modelfile {

struct NpyTensor {
    TensorInfo info;
    size_t dataOffset = 0;   // from the start of the .npy bytes
    bool fortran = false;    // column-major (only matters for rank >= 2)
    bool bigEndian = false;  // '>' with elements wider than a byte
};

// Reads the header at the start of `head` (only the header need be there). `where` prefixes
// errors ("model.npz: member 'w.npy': "). `available` is how many bytes the whole .npy
// has (file or member size): an array needing more is a DataError "truncated data: shape
// [..] of float32 needs N bytes, the file has M". dtypes that are not plain numbers are
// listed as DType::Other under numpy's name ("complex64", "str", "object", ...).
Result<NpyTensor> describeNpy(std::string_view head, uint64_t available, const std::string& where,
                              std::string name);

// `stored`: the array's byteSize() bytes as the file has them, kept alive by `owner`.
// `where` prefixes errors (out of memory for a copy).
Result<TensorData> npyTensorData(const NpyTensor& npy, std::string_view stored, std::shared_ptr<const void> owner,
                                 const std::string& where);

}  // namespace qs::modelfile
