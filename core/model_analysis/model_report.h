// The whole-model quantization report: every weight tensor of a model file through the
// explorer's current op, one row per tensor (and per channel), worst SQNR first. It answers
// "which tensors would suffer under this quantization" across a model.
//
// What the report quantizes, and with which range:
//  - Every tensor with at least 2 elements whose values are numbers the explorer explores:
//    float tensors (float16/bfloat16/float64 converted to the nearest float32) and integer
//    tensors with stored quantization (dequantized, tensor_values.h). Everything else is
//    listed in `skipped` with the reason (integers without quantization are indices or
//    shapes, not weights; a load or op error is a reason too, so one bad tensor never stops
//    the report).
//  - The op and its attributes are the spec's (type, mode, round mode, narrow range, bits,
//    buckets...). The spec's given range means nothing across tensors, so each tensor's
//    range comes from its own data, as a per-tensor (or per-channel) calibration would feed
//    it: QuantizeV2 gets min_range/max_range = the tensor's min/max (per channel:
//    RangeSource::FromData, each slice's own); QDQ runs as with range_given = false (TF's op
//    takes the data's min/max itself; per tensor the report gives it that min/max with
//    range_given true, which yields the same outputs: the op's range then covers the data
//    and clamps nothing); the TPU op gets lower/upper = the data's min/max.
//    Min/max ignore NaN (as applySpec's per-slice ranges do).
//  - spec.axis >= 0 (QuantizeV2 and QDQ) means per channel: each tensor is quantized along
//    its own modelfile::channelAxis() (the explorer's axis number belongs to the explorer's
//    data, not to these tensors); rank-1 tensors stay per tensor.
//
// The numbers of a row, over its elements (x the value, y = Q(x) as TF returns it):
//  elements, min/max (non-NaN), MSE and SQNR = 10 log10(Σx² / Σ(x−y)²) (+inf when lossless;
//  pairs with a NaN are left out, as errorStats does), the clipped fraction (x outside the
//  range its slice quantized to, output_min..output_max), levels used (distinct y values;
//  a per-channel tensor's row gives the mean over its channels; -1 when more than 65,536
//  distinct values were seen: not counted) of the levels the op has.
//  Sums are in double, per 64K-element block in index order and blocks combined in order,
//  so the figures do not depend on the thread count.
//
// Calibration (options.calibrate): calibrate() of calibration.h, per tensor (one range for
// the whole tensor, also when the report runs per channel), finds the percentile,
// MSE-optimal and KL ranges on a deterministic sample of at most
// options.calibration_samples values (searchSample: one value per equal block); min-max
// is the row's own quantizer (per tensor: the tensor's min/max; per channel: each channel's
// own min/max), so the best is never worse than the row's own SQNR. The three searched
// ranges are then run over the whole tensor and the best is the one of highest SQNR there
// (choosing on the sample would over-weight or miss rare outliers). Cost per tensor:
// calibrate() on the sample (about the same for every tensor: the KL search over 2048 bins
// and the MSE search dominate) plus three runs of the op over the tensor.

// Tensors are loaded one at a time (memory-mapped where the format stores them raw; float32
// aligned in the mapping is used in place), so memory stays at about two copies of the
// largest tensor (three per channel with channels last, which the op sees transposed to
// channels first: the same values per channel in the same order, in long runs) plus the
// file pages the kernel may drop at will.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "core/analysis/calibration.h"
#include "core/analysis/quant_spec.h"
#include "core/data/csv_writer.h"
#include "core/modelfile/model_file.h"
#include "core/status.h"
#include "core/tensor.h"

namespace qs::analysis {

// The report's calibration options: the calibration tab's, but a 512-bin KL histogram. KL's
// search is O(bins²) logarithms whatever the tensor's size: at 2048 bins it took most of a
// report over a model of small tensors (person_detect.tflite); 512 bins cut it 16-fold.
inline CalibrationOptions reportCalibrationOptions() {
    CalibrationOptions o;
    o.bins = 512;
    return o;
}

struct ModelReportOptions {
    bool calibrate = true;
    int64_t calibration_samples = 65536;  // the sample calibrate() runs on (>= 2)
    CalibrationOptions calibration = reportCalibrationOptions();  // percentile, KL bins, symmetry
    bool channel_rows = true;             // per-channel rows when the report runs per channel
    Exec exec = Exec::allCores();
    // Called with the fraction done (0..1, by elements) after each stage of each tensor;
    // returning false cancels: computeModelReport then fails with kind "Cancelled".
    std::function<bool(double fraction)> progress;
};

// The figures of one row (a tensor or one channel of it).
struct ReportStats {
    int64_t elements = 0;
    float min = 0, max = 0;      // of the non-NaN values (0, 0 when there are none)
    double mse = 0;
    double sqnr_db = 0;          // +inf when lossless, NaN when every pair has a NaN
    double clipped_fraction = 0;
    double levels_used = 0;      // distinct outputs (mean over channels for a per-channel tensor); -1 not counted
    int64_t levels_available = 0;
    int64_t nan_pairs = 0;
};

struct ChannelRow {
    int64_t channel = 0;
    ReportStats stats;
};

struct BestCalibration {
    CalibrationMethod method = CalibrationMethod::MinMax;
    float min = 0, max = 0;  // the range it found (per channel: the tensor's min/max)
    double sqnr_db = 0;      // over the whole tensor with that range
    int64_t sample = 0;      // values the range search ran on
    // Min-max of a per-channel row: each channel's own range, the row's own quantizer.
    bool per_channel = false;
};
// "min-max per channel" for a per-channel min-max, else calibrationMethodName().
std::string bestCalibrationName(const BestCalibration& best);

struct TensorReportRow {
    std::string name;
    Shape shape;
    std::string dtype;            // as stored ("float32", "int8"...)
    bool dequantized = false;     // integer codes with stored quantization
    int axis = -1;                // the channel axis quantized along; -1 per tensor
    ReportStats stats;
    std::optional<BestCalibration> calibration;  // none when not asked or it failed
    std::string calibration_note;                // why there is none (calibrate's error)
    std::vector<ChannelRow> channels;            // worst SQNR first; empty per tensor
    // Stored as 32-bit integer codes: the biases that int8 schemes keep at 32 bits. Their
    // SQNR under an 8-bit op says nothing about the model, so they rank after the others.
    bool int32_codes = false;
};

struct SkippedTensor {
    std::string name;
    std::string reason;
};

struct ModelReport {
    std::string file;    // the model's label
    std::string format;  // ModelFile::format()
    QuantSpec spec;      // the op settings the report ran with (its range fields unused)
    bool per_channel = false;
    // Worst SQNR first (NaN last, then by name), the int32_codes rows after all others.
    std::vector<TensorReportRow> rows;
    std::vector<SkippedTensor> skipped; // in file order
    int64_t elements = 0;               // Σ elements of the rows
    int64_t bytes_float32 = 0;          // elements × 4: what the report processed
};

// Errors: only "Cancelled" (through options.progress); every tensor's own failure becomes a
// skipped entry.
Result<ModelReport> computeModelReport(const modelfile::ModelFile& model, const QuantSpec& spec,
                                       const ModelReportOptions& options = {});

// The spec a tensor of shape `shape` is quantized with (see above): ranges from the data are
// set by computeModelReport; this gives the op settings, axis (channel axis or -1) included.
// A tensor whose channel axis holds more than kMaxReportChannels channels, or channels of
// one value each, is quantized per tensor (a per-channel row set that size helps nobody and
// would cost memory per channel).
inline constexpr int64_t kMaxReportChannels = 65536;
QuantSpec reportSpecFor(const QuantSpec& spec, const Shape& shape, int channelAxis);

// The exact spec a row's numbers come from (what the explorer runs to show that row on the
// tensor's data): reportSpecFor along the row's axis, with the range the report gave it
// (per tensor: the tensor's min/max; per channel: each channel's own).
QuantSpec reportRowSpec(const QuantSpec& reportSpec, const TensorReportRow& row);

// The rows as CSV (csv_writer): one line per tensor (channel empty) followed by its channel
// lines, in the report's order. Columns:
//   tensor,channel,shape,dtype,axis,elements,min,max,mse,sqnr_db,clipped_fraction,
//   levels_used,levels_available,best_calibration,best_calibration_sqnr_db
// (best_calibration: bestCalibrationName)
data::TextTable modelReportTable(const ModelReport& report);

// The report as a JSON document (UTF-8, numbers as the shortest text that reads back,
// non-finite numbers as the strings "nan", "inf", "-inf", levels_used -1 as null):
//   {"file", "format", "spec": {"op", attributes in TF's names...}, "per_channel",
//    "elements", "bytes_float32",
//    "tensors": [{"name", "shape", "dtype", "dequantized", "int32_codes", "axis", "elements",
//                 "min", "max", "mse", "sqnr_db", "clipped_fraction", "levels_used",
//                 "levels_available", "nan_pairs", "best_calibration": null | {"method", "min",
//                 "max", "sqnr_db", "sample", "per_channel"},
//                 "channels": [{"channel", "elements", "min", ...}]}],
//    "skipped": [{"name", "reason"}]}
std::string modelReportJson(const ModelReport& report);

}  // namespace qs::analysis
