// One case in the vectors' schema (op, attrs, input_min, input_max, num_bits) mapped to the
// explorer's qs::QuantSpec, for `quantscope-cli export --case` and `analyze --case`. The file holds either the
// case object itself or {"cases": [one case]}. Attributes take TF's defaults when absent
// (QDQ V2/V4: range_given false; V3: true), string attributes are parsed with the core's
// parsers (TF's wording), and anything malformed is an InputError whose message is one
// line naming the file and the field.
#pragma once

#include <QByteArray>
#include <span>
#include <string>
#include <string_view>

#include "core/analysis/quant_spec.h"
#include "core/status.h"

namespace qs::cli {

// The ops a case may name, with the explorer op each maps to:
// QuantizeV2, QuantizeAndDequantizeV2, QuantizeAndDequantizeV3, QuantizeAndDequantizeV4,
// TPUSimulatedQuantization.
std::span<const std::string_view> caseSpecOps();

// Error kind "InputError"; messages such as
//   case.json: field "attrs.mode" Mode string must be 'MIN_COMBINED', 'MIN_FIRST', or 'SCALED', is 'FOO'
//   case.json: holds 3 cases; give exactly one (ready one-case files ... share/quantscope/cases)
//   case.json: field "op" names an unknown op "Foo" (supported: QuantizeV2, ...)
Result<QuantSpec> caseSpecFromJson(const QByteArray& json, const std::string& path);
Result<QuantSpec> readCaseSpec(const std::string& path);

}  // namespace qs::cli
