// The Frameworks tab's computation, Qt-free: which schemes to compare for the explorer's spec
// (TF's op as set up, then the affine schemes met elsewhere with the op's signedness, on the
// requested range or the data's, at the op's bit width clamped to 2..16), the per-element
// comparison over all the data (compareSchemes), and one example element per pair and reason.
#pragma once

#include <span>
#include <string>
#include <vector>

#include "core/analysis/framework_schemes.h"
#include "core/analysis/quant_spec.h"
#include "core/status.h"

namespace qs::analysis {

// What the comparison runs: the schemes on one range and bit width.
struct FrameworkSetup {
    std::vector<Scheme> schemes;
    float min = 0, max = 0;
    int bits = 8;              // the op's bit width, clamped to 2..16
    int op_bits = 8;           // the op's own: the type's, num_bits, or log2 num_buckets
    bool is_signed = true;     // the op's signedness, which the affine schemes take
    bool range_given = false;  // the requested range; otherwise the data's
};

// withR14 adds SCALED "as documented in r1.4" (not what the kernel does) at the end.
FrameworkSetup frameworkSetupFor(const QuantSpec& spec, float dataMin, float dataMax, bool withR14);

// Every scheme of the setup prepared on its range and bits (the curves); the first error.
Result<std::vector<PreparedScheme>> prepareSchemes(const FrameworkSetup& setup);

// An element where two schemes disagree, with explainDifference's sentence.
struct DiffExample {
    double x = 0;     // the input element
    double step = 0;  // scheme A's step (how far to zoom)
    std::string text;  // "A vs B — why"
};

struct FrameworkComparison {
    FrameworkSetup setup;
    SchemeComparison comparison;
    std::vector<DiffExample> examples;  // per pair and reason, the first element that differs so
};
// progress as compareSchemes (the examples after it are quick); "Cancelled" when it returns false.
Result<FrameworkComparison> compareFrameworks(std::span<const float> data, const FrameworkSetup& setup,
                                              const ProgressCallback& progress = {});

}  // namespace qs::analysis
