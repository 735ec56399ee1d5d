// Stored quantization against the rules that could have made it: for a tensor a file stores
// as integer codes (TFLite int8 weights with their scales, an int8 copy of a float tensor
// such as the safetensors pair), which TF op or framework recipe, fed the same floats,
// stores exactly these codes?
//
// The floats are the float original when one is given (the same tensor in another file);
// otherwise the stored codes dequantized, and the comparison is then a round-trip check
// (does quantizing the dequantized values give the codes back?). Every rule takes its range
// from those floats (per channel along the stored axis when the file quantized per channel)
// and the code bounds from the stored dtype, and is compared code by code:
//   - TF QuantizeV2 SCALED (narrow_range off/on; ensure_minimum_range TF's 0.01 and 0);
//   - TF QuantizeAndDequantizeV4, narrow range, its integer levels recovered;
//   - the Frameworks tab's schemes (framework_schemes.h): PyTorch, ONNX, TFLite asymmetric,
//     TFLite symmetric weights, and TFLite's symmetric weights with the reciprocal multiply
//     (x · (1/scale)) its converter uses;
//   - with a float original and a stored scale: the file's own scale and zero point under
//     TFLite's and ONNX's rounding.
#pragma once

#include <atomic>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/analysis/quant_spec.h"
#include "core/modelfile/model_file.h"
#include "core/status.h"
#include "core/tensor.h"

namespace qs::analysis {

// One candidate rule over the whole tensor.
struct StoredCodeRule {
    std::string label;
    std::string error;               // the rule cannot run here (the op's own message); empty if it ran
    int64_t differing = 0;           // elements whose code differs from the stored one
    int64_t max_code_diff = 0;       // largest |stored - rule| code difference
    int64_t channels_differing = 0;  // channels (slices) with at least one differing code
    int64_t first_differing = -1;    // flat index of the first differing element
    std::optional<QuantSpec> tf;     // a TF op's rule: its op and attributes (no range yet)
    bool exact() const { return error.empty() && differing == 0; }
};

struct StoredQuantComparison {
    std::string tensor;
    Shape shape;
    std::string dtype;           // the codes' dtype name ("int8", ...)
    int axis = -1;               // the axis channels lie along (the stored one), -1: per tensor
    SliceLayout layout;          // elements -> channels
    int64_t channels = 1;
    int bits = 8;                // of the stored dtype
    bool is_signed = true;
    bool round_trip = true;      // the rules quantized the dequantized codes, not an original
    std::string input_source;    // where the rules' floats came from, in words
    std::string dequantization;  // how codes became values ("stored scale and zero point" ...)
    std::vector<int32_t> codes;       // as stored
    std::vector<float> dequantized;   // the codes as values
    std::vector<float> input;         // what every rule quantized
    int32_t code_min = 0, code_max = 0;
    std::vector<int64_t> code_counts;  // histogram: code_counts[c - code_min]
    std::vector<StoredCodeRule> rules;
    int exact_rule = -1;  // the first rule that reproduces every code, -1: none
    int best_rule = -1;   // exact_rule, else the one with the fewest differing codes
    std::string summary;  // one sentence naming the exact (or closest) rule
};

// Whether a tensor holds codes this comparison reads: int8, uint8, int16 or uint16.
bool hasStoredCodes(const modelfile::TensorInfo& info);
// Codes with stored quantization (TFLite's int8 weights, ONNX's QDQ weights).
bool isStoredQuantized(const modelfile::TensorInfo& info);
// The stored codes of a tensor hasStoredCodes() accepts, widened to int32 (empty otherwise).
std::vector<int32_t> storedCodes(const modelfile::TensorData& t);

// `original` (optional) is the same tensor as floats from another file (same shape); its
// label names it in input_source. Errors (DataError naming the tensor): codes of another
// dtype, no stored scale and no original, an original of another shape or not float, a
// stored quantization that does not fit the tensor. `cancel` (optional) is polled between
// rules (each rule is a pass over every code): a Cancelled error once it is set.
Result<StoredQuantComparison> compareStoredQuantization(const modelfile::TensorData& stored,
                                                        const modelfile::TensorData* original = nullptr,
                                                        const std::string& originalLabel = {},
                                                        const std::atomic<bool>* cancel = nullptr);

// The explorer's spec that runs rule `rule` as the comparison ran it, so the explorer shows
// what made the codes: the rule's TF op and attributes, per channel along the stored axis on
// each channel's own range (QuantizeV2: range_source from_data; QDQ: range_given off, the
// op's own per-slice min/max), or per tensor on the range of the compared floats (given).
// nullopt for a rule that is not a TF op (the other frameworks' schemes, the file's own
// scale), that could not run, or an index out of range.
std::optional<QuantSpec> explorerSpecOf(const StoredQuantComparison& cmp, int rule);

// The input floats of one channel with their stored codes, dequantized values and the error
// value − x (in float32, as the values are), at most `maxPoints` of them, evenly spread over
// the channel (the stored-quantization view's transfer scatter).
struct CodePoints {
    std::vector<double> x, code, value, error;
};
CodePoints channelCodePoints(const StoredQuantComparison& cmp, int64_t channel, size_t maxPoints);

}  // namespace qs::analysis
