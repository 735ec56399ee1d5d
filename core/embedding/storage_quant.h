// Manual storage quantization. TF's documentation of QuantizationConfig notes that the
// table itself stays float32 (simulated quantization happens only on the gathered rows),
// so a user who wants the memory saving must quantize the variable by hand. This exports
// the table quantized with the same formula (spec 5.2): the bucket index
//   code = floor((clip(x, lower, upper) - lower) / quantum + 0.5)   (float32, as simulated)
// stored as the narrowest unsigned type that holds num_buckets - 1 (uint8 / uint16 /
// uint32), and the parameters needed to reconstruct value = code * quantum + lower, which
// equals the simulated quantization of x bit for bit.
#pragma once

#include <cstdint>
#include <functional>
#include <string>

#include "core/analysis/error_stats.h"
#include "core/status.h"
#include "core/tensor.h"
#include "core/tpu/lookup.h"
#include "core/tpu/simulated_quantization.h"

namespace qs::embedding {

struct StorageQuantization {
    tpu::QuantizationConfig config;
    int code_bits = 8;               // 8, 16 or 32: the code dtype's width
    int information_bits = 1;        // ceil(log2(num_buckets)): what a packed store would need
    int64_t rows = 0, dim = 0;
    int64_t bytes_float32 = 0;       // rows * dim * 4
    int64_t bytes_codes = 0;         // rows * dim * code_bits / 8 (+ the 12-byte parameters)
    int64_t bytes_packed = 0;        // ceil(rows * dim * information_bits / 8) (+ 12)
    double saved_fraction = 0;       // 1 - bytes_codes / bytes_float32
    analysis::ErrorStats reconstruction;  // table vs its reconstruction
};

// Numbers only (no files): what the export would write and its error. num_buckets > 2^32
// is InvalidArgument (no code type holds it).
Result<StorageQuantization> analyzeStorageQuantization(
    const tpu::RowMatrix& table, const tpu::QuantizationConfig& config, const Exec& exec = {},
    const std::function<bool(double)>& progress = {});

// The sizes and checks of analyzeStorageQuantization for a rows x dim table of `values`
// elements, without looking at the values (reconstruction left empty): its errors, in its
// order. For a caller that measures the reconstruction itself (core/embedding/table_pass.h).
Result<StorageQuantization> describeStorageQuantization(int64_t rows, int64_t dim, int64_t values,
                                                        const tpu::QuantizationConfig& config);

// Writes `codes_npy` (shape [rows, dim], dtype |u1, <u2 or <u4 as numpy writes them) and `params_json`:
//   {"format": "quantscope-storage-quantization", "version": 1,
//    "num_buckets": n, "lower": l, "upper": u,            (the config, shortest doubles)
//    "lower_f32": ..., "quantum_f32": ...,                (the float32 constants used)
//    "dtype": "uint8", "shape": [rows, dim],
//    "reconstruction": "value = float32(code) * quantum_f32 + lower_f32",
//    "mse": ..., "max_abs_error": ..., "bytes_float32": ..., "bytes_codes": ...}
// Each file is replaced atomically (data/output_file.h), so a failure never leaves a partial
// file and keeps the previous one. IO errors: DataError "cannot write PATH: <strerror>".
Result<StorageQuantization> exportStorageQuantization(
    const tpu::RowMatrix& table, const tpu::QuantizationConfig& config,
    const std::string& codes_npy, const std::string& params_json, const Exec& exec = {},
    const std::function<bool(double)>& progress = {});

}  // namespace qs::embedding
