// A case's op attributes read by the attribute table (core/analysis/op_attributes.h): each
// attribute the op takes, TF's default when the case leaves it out. Shared by the explorer's
// case reader (case_spec) and the evaluators, so both read the same keys with the same
// defaults and the same errors.
#pragma once

#include "app/cli/case_reader.h"
#include "core/analysis/op_attributes.h"
#include "core/status.h"

namespace qs::cli {

// One attribute of spec.op into `spec`: malformed JSON (a number for a mode, a required
// attribute missing) throws CaseFormatError naming "attrs.<name>" (an input: "<name>", read
// top-level or from attrs); a value TF rejects (mode "FOO") is returned as TF's error.
Status readCaseAttribute(const CaseReader& c, const OpAttribute& attribute, QuantSpec& spec);

// Every TF attribute of spec.op in the table's order, stopping at TF's first error. Inputs
// (V3's num_bits) only when `withInputs`: the evaluator reads tensors itself.
Status readCaseAttributes(const CaseReader& c, QuantSpec& spec, bool withInputs = true);

}  // namespace qs::cli
