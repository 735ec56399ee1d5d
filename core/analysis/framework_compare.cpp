#include "core/analysis/framework_compare.h"

#include <algorithm>
#include <array>
#include <cmath>

namespace qs::analysis {

namespace {

// Whether the spec's codes are signed (the other frameworks quantize to the same sign): T's
// sign, signed_input; the TPU's buckets count as signed.
bool codesSigned(const QuantSpec& spec) {
    switch (opDescriptor(spec.op).family) {
        case OpFamily::QuantizeV2: return qtypeInfo(spec.T).isSigned;
        case OpFamily::Qdq: return spec.signed_input;
        case OpFamily::TpuSimulated: return true;
    }
    return true;
}

// Per pair and reason, the first element that disagrees for that reason.
std::vector<DiffExample> diffExamples(std::span<const float> data, const SchemeComparison& cmp,
                                      const std::vector<PreparedScheme>& prepared) {
    std::vector<DiffExample> examples;
    for (const PairDiff& d : cmp.diffs) {
        if (d.differing == 0) continue;
        const auto a = static_cast<size_t>(d.a), b = static_cast<size_t>(d.b);
        const auto& oa = cmp.outputs[a].output;
        const auto& ob = cmp.outputs[b].output;
        std::array<bool, kDiffReasonCount> seen{};
        int wanted = 0;
        for (int64_t n : d.by_reason) wanted += n > 0;
        for (size_t i = static_cast<size_t>(d.first_index); i < oa.size() && wanted > 0; ++i) {
            if (oa[i] == ob[i] || (std::isnan(oa[i]) && std::isnan(ob[i]))) continue;
            const float x = data[i];
            const Explanation e = explainDifference(x, prepared[a], prepared[b]);
            auto& s = seen[static_cast<size_t>(e.reason)];
            if (s) continue;
            s = true;
            --wanted;
            examples.push_back({x, prepared[a].step(), cmp.outputs[a].label + " vs " + cmp.outputs[b].label + " — " + e.text});
        }
    }
    return examples;
}

}  // namespace

FrameworkSetup frameworkSetupFor(const QuantSpec& spec, float dataMin, float dataMax, bool withR14) {
    FrameworkSetup in;
    in.range_given = spec.range_source == RangeSource::Given;
    in.min = in.range_given ? spec.min_range : dataMin;
    in.max = in.range_given ? spec.max_range : dataMax;
    in.op_bits = wholeBitWidth(spec);
    in.bits = std::clamp(in.op_bits, 2, 16);
    const bool isSigned = codesSigned(spec);
    in.is_signed = isSigned;
    Scheme tf;
    tf.kind = SchemeKind::Tf;
    tf.tf = spec;
    in.schemes.push_back(tf);
    for (SchemeKind k : {SchemeKind::PyTorch, SchemeKind::Onnx, SchemeKind::TfliteInt8, SchemeKind::TfliteSymmetric}) {
        Scheme s;
        s.kind = k;
        s.is_signed = isSigned;
        in.schemes.push_back(s);
    }
    if (withR14) {
        Scheme s;
        s.kind = SchemeKind::ScaledR14;
        s.tf = spec;
        if (opDescriptor(spec.op).uses.T == AttrUse::None) s.tf.T = isSigned ? QType::QInt8 : QType::QUInt8;
        in.schemes.push_back(s);
    }
    return in;
}

Result<std::vector<PreparedScheme>> prepareSchemes(const FrameworkSetup& setup) {
    std::vector<PreparedScheme> prepared;
    for (const Scheme& s : setup.schemes) {
        auto p = PreparedScheme::make(s, setup.min, setup.max, setup.bits);
        if (!p) return p.error();
        prepared.push_back(std::move(p).value());
    }
    return prepared;
}

Result<FrameworkComparison> compareFrameworks(std::span<const float> data, const FrameworkSetup& setup,
                                              const ProgressCallback& progress) {
    auto cmp = compareSchemes(data, setup.min, setup.max, setup.bits, setup.schemes, {}, progress);
    if (!cmp) return cmp.error();
    auto prepared = prepareSchemes(setup);
    if (!prepared) return prepared.error();
    FrameworkComparison out;
    out.setup = setup;
    out.examples = diffExamples(data, *cmp, *prepared);
    out.comparison = std::move(cmp).value();
    return out;
}

}  // namespace qs::analysis
