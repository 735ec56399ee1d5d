#include "app/cli/case_attrs.h"

#include <string>

namespace qs::cli {

namespace {

AttrValue caseValue(const QJsonValue& v, const OpAttribute& a, const std::string& field) {
    switch (a.kind) {
        case AttrKind::Bool:
            if (!v.isBool()) throw CaseFormatError{field, "must be true or false"};
            return v.toBool();
        case AttrKind::Int: return CaseReader::toInteger(v, field);
        case AttrKind::Float: return CaseReader::toNumber(v, field);
        case AttrKind::Enum: break;
    }
    if (!v.isString()) throw CaseFormatError{field, "must be a string"};
    return AttrValue{};  // parsed by the caller
}

}  // namespace

Status readCaseAttribute(const CaseReader& c, const OpAttribute& a, QuantSpec& spec) {
    const std::string name(a.name);
    const AttrUse use = a.use(spec.op);
    if (use == AttrUse::None) return okStatus();
    if (use == AttrUse::Fixed) {
        a.set(spec, *a.tf_default(spec.op));
        return okStatus();
    }
    if (use == AttrUse::Input) {  // top-level, or in attrs as some files put it
        if (c.has(name.c_str())) a.set(spec, caseValue(c.value(name.c_str()), a, name));
        else if (c.hasAttr(name.c_str())) a.set(spec, caseValue(c.attr(name.c_str()), a, "attrs." + name));
        else throw CaseFormatError{name, "is missing"};
        return okStatus();
    }
    const std::string field = "attrs." + name;
    const QJsonValue v = c.attr(name.c_str());
    if (v.isUndefined()) {
        const auto def = a.tf_default(spec.op);
        if (!def) throw CaseFormatError{field, "is missing"};
        a.set(spec, *def);
        return okStatus();
    }
    if (a.kind != AttrKind::Enum) {
        a.set(spec, caseValue(v, a, field));
        return okStatus();
    }
    caseValue(v, a, field);  // a string
    const Result<int64_t> parsed = a.parse(v.toString().toStdString(), spec.op);
    if (!parsed) return parsed.error();
    a.set(spec, *parsed);
    return okStatus();
}

Status readCaseAttributes(const CaseReader& c, QuantSpec& spec, bool withInputs) {
    for (const OpAttribute& a : opAttributes()) {
        if (!a.tf || (!withInputs && a.use(spec.op) == AttrUse::Input)) continue;
        if (Status s = readCaseAttribute(c, a, spec); !s) return s;
    }
    return okStatus();
}

}  // namespace qs::cli
