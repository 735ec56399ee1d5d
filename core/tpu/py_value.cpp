#include "core/tpu/py_value.h"

#include <algorithm>
#include <cmath>

#include "core/tpu/simulated_quantization.h"  // pyFloatRepr

namespace qs::tpu {

PyValue PyValue::list(Items items) {
    PyValue v;
    v.kind_ = Kind::List;
    v.items_ = std::move(items);
    return v;
}

PyValue PyValue::tuple(Items items) {
    PyValue v;
    v.kind_ = Kind::Tuple;
    v.items_ = std::move(items);
    return v;
}

PyValue PyValue::dict(Entries entries) {
    PyValue v;
    v.kind_ = Kind::Dict;
    v.entries_ = std::move(entries);
    return v;
}

PyValue PyValue::callable(std::string code) {
    PyValue v;
    v.kind_ = Kind::Callable;
    v.text_ = std::move(code);
    v.type_ = "function";
    v.callable_ = true;
    return v;
}

PyValue PyValue::object(std::string type, std::string repr, bool is_callable) {
    PyValue v;
    v.kind_ = Kind::Object;
    v.type_ = type.empty() ? std::string("object") : std::move(type);
    v.text_ = std::move(repr);
    v.callable_ = is_callable;
    return v;
}

PyValue PyValue::instance(PyInstance inst) {
    PyValue v;
    v.kind_ = Kind::Instance;
    v.inst_ = std::make_shared<const PyInstance>(std::move(inst));
    return v;
}

bool PyValue::isCallable() const {
    return kind_ == Kind::Callable || (kind_ == Kind::Object && callable_);
}

double PyValue::asDouble() const {
    return kind_ == Kind::Float ? float_ : static_cast<double>(int_);
}

const PyValue* PyValue::find(std::string_view key) const {
    for (const auto& [k, v] : entries_)
        if (k == key) return &v;
    return nullptr;
}

bool PyValue::truthy() const {
    switch (kind_) {
        case Kind::None: return false;
        case Kind::Bool:
        case Kind::Int: return int_ != 0;
        case Kind::Float: return float_ != 0.0;  // NaN is true
        case Kind::Str: return !text_.empty();
        case Kind::List:
        case Kind::Tuple: return !items_.empty();
        case Kind::Dict: return !entries_.empty();
        default: return true;
    }
}

std::string PyValue::typeName() const {
    switch (kind_) {
        case Kind::None: return "NoneType";
        case Kind::Bool: return "bool";
        case Kind::Int: return "int";
        case Kind::Float: return "float";
        case Kind::Str: return "str";
        case Kind::List: return "list";
        case Kind::Tuple: return "tuple";
        case Kind::Dict: return "dict";
        case Kind::Callable: return "function";
        case Kind::Object: {
            const size_t dot = type_.rfind('.');
            return dot == std::string::npos ? type_ : type_.substr(dot + 1);
        }
        case Kind::Instance: return inst_->cls.name;
    }
    return "object";
}

std::string PyValue::typeRepr() const {
    if (kind_ == Kind::Object) return std::string("<class '") + type_ + "'>";
    if (kind_ == Kind::Instance) return inst_->cls.typeRepr();
    return std::string("<class '") + typeName() + "'>";
}

std::string pyStrRepr(std::string_view s) {
    const bool useDouble = s.find('\'') != std::string_view::npos &&
                           s.find('"') == std::string_view::npos;
    const char q = useDouble ? '"' : '\'';
    std::string out(1, q);
    for (const char c : s) {
        const auto u = static_cast<unsigned char>(c);
        if (c == q || c == '\\') {
            out += '\\';
            out += c;
        } else if (c == '\n') {
            out += "\\n";
        } else if (c == '\r') {
            out += "\\r";
        } else if (c == '\t') {
            out += "\\t";
        } else if (u < 0x20 || u == 0x7f) {
            static const char* hex = "0123456789abcdef";
            out += "\\x";
            out += hex[u >> 4];
            out += hex[u & 15];
        } else {
            out += c;  // UTF-8 bytes of printable characters pass through, as in Python 3
        }
    }
    out += q;
    return out;
}

std::string PyValue::repr() const {
    switch (kind_) {
        case Kind::None: return "None";
        case Kind::Bool: return int_ ? "True" : "False";
        case Kind::Int: return std::to_string(static_cast<long long>(int_));
        case Kind::Float: return pyFloatRepr(float_);
        case Kind::Str: return pyStrRepr(text_);
        case Kind::List:
        case Kind::Tuple: {
            const bool isList = kind_ == Kind::List;
            std::string s(1, isList ? '[' : '(');
            for (size_t i = 0; i < items_.size(); ++i) {
                if (i) s += ", ";
                s += items_[i].repr();
            }
            if (!isList && items_.size() == 1) s += ',';
            s += isList ? ']' : ')';
            return s;
        }
        case Kind::Dict: {
            std::string s = "{";
            for (size_t i = 0; i < entries_.size(); ++i) {
                if (i) s += ", ";
                s += pyStrRepr(entries_[i].first) + ": " + entries_[i].second.repr();
            }
            return s + "}";
        }
        case Kind::Callable:
        case Kind::Object: return text_.empty() ? std::string("<") + type_ + " object>" : text_;
        case Kind::Instance:
            // object.__repr__ is "<module.Class object at 0x7f...>"; the address is not
            // reproducible, so it is left out.
            return inst_->repr_text.empty() ? std::string("<") + inst_->cls.qualified() + " object>"
                                            : inst_->repr_text;
    }
    return "";
}

std::string PyValue::pyStr() const { return kind_ == Kind::Str ? text_ : repr(); }

bool PyValue::operator==(const PyValue& o) const {
    if (isNumber() && o.isNumber()) return asDouble() == o.asDouble();
    if (kind_ != o.kind_) return false;
    switch (kind_) {
        case Kind::None: return true;
        case Kind::Str: return text_ == o.text_;
        case Kind::List:
        case Kind::Tuple: return items_ == o.items_;
        case Kind::Dict: return entries_ == o.entries_;
        case Kind::Callable:
        case Kind::Object: return type_ == o.type_ && text_ == o.text_;
        case Kind::Instance: return inst_ == o.inst_;  // identity
        default: return false;
    }
}

const PyValue& PyInstance::arg(std::string_view name) const {
    static const PyValue kNone;
    for (const auto& [k, v] : args)
        if (k == name) return v;
    return kNone;
}

const PyValue* PyInstance::attr(std::string_view name) const {
    for (const auto& [k, v] : attrs)
        if (k == name) return &v;
    return nullptr;
}

Result<Kwargs> bindKwargs(std::string_view class_name, std::string_view method,
                          const std::vector<PyParam>& params, const Kwargs& kwargs) {
    const std::string fn = std::string(class_name) + "." + std::string(method) + "()";
    for (const auto& [k, v] : kwargs) {
        bool known = false;
        for (const PyParam& p : params) known = known || p.name == k;
        if (!known) return typeError(fn + " got an unexpected keyword argument '" + k + "'", k);
    }
    Kwargs bound;
    std::vector<std::string> missing;
    for (const PyParam& p : params) {
        const PyValue* given = nullptr;
        for (const auto& [k, v] : kwargs)
            if (k == p.name) given = &v;  // a repeated keyword: the last one wins
        if (given) bound.emplace_back(std::string(p.name), *given);
        else if (p.def) bound.emplace_back(std::string(p.name), *p.def);
        else missing.push_back(std::string("'") + std::string(p.name) + "'");
    }
    if (!missing.empty()) {
        std::string names;
        for (size_t i = 0; i < missing.size(); ++i) {
            if (i > 0) names += missing.size() == 2 ? " and " : (i + 1 == missing.size() ? ", and " : ", ");
            names += missing[i];
        }
        const size_t n = missing.size();
        // The error of the first missing argument (the field to fill in first).
        return typeError(fn + " missing " + std::to_string(n) + " required positional argument" +
                             (n == 1 ? "" : "s") + ": " + names,
                         missing.front().substr(1, missing.front().size() - 2));
    }
    return bound;
}

Result<PyInstance> bindInstance(const PyClass& cls, std::string_view method, const std::vector<PyParam>& params,
                                const Kwargs& kwargs) {
    auto bound = bindKwargs(cls.name, method, params, kwargs);
    if (!bound) return bound.error();
    PyInstance in;
    in.cls = cls;
    in.args = std::move(bound).value();
    for (const auto& [k, v] : kwargs)
        if (std::find(in.given.begin(), in.given.end(), k) == in.given.end()) in.given.push_back(k);
    return in;
}

Status failIf(const PyInstance& in, std::string_view argument, std::string_view op, const PyValue& bound,
              std::string message) {
    auto r = pyCompare(in.arg(argument), op, bound);
    if (!r) return aboutField(r.error(), std::string(argument));
    if (*r) return valueError(std::move(message), std::string(argument));
    return okStatus();
}

Status failUnlessIntAtLeast(const PyInstance& in, std::string_view argument, int64_t least, const std::string& before,
                            const std::string& after) {
    const PyValue& v = in.arg(argument);
    if (v.isInt() && v.asInt() >= least) return okStatus();
    return valueError(before + v.pyStr() + after, std::string(argument));
}

Status failOutside(const PyInstance& in, std::string_view argument, double lo, double hi, const std::string& message) {
    if (auto st = failIf(in, argument, "<", PyValue(lo), message); !st) return st;
    return failIf(in, argument, ">=", PyValue(hi), message);
}

Result<bool> pyCompare(const PyValue& a, std::string_view op, const PyValue& b) {
    if (!a.isNumber() || !b.isNumber())
        return typeError(std::string("'") + std::string(op) + "' not supported between instances of '" +
                         a.typeName() + "' and '" + b.typeName() + "'");
    // int/int compares exactly; mixed compares by value (our ints fit in a double's range).
    if (a.isInt() && b.isInt()) {
        const int64_t x = a.asInt(), y = b.asInt();
        if (op == "<") return x < y;
        if (op == "<=") return x <= y;
        if (op == ">") return x > y;
        return x >= y;
    }
    const double x = a.asDouble(), y = b.asDouble();
    if (op == "<") return x < y;
    if (op == "<=") return x <= y;
    if (op == ">") return x > y;
    return x >= y;
}

std::string pythonExpr(const PyValue& v) {
    switch (v.kind()) {
        case PyValue::Kind::Float: {
            const double f = v.asDouble();
            if (std::isnan(f)) return "float('nan')";
            if (std::isinf(f)) return f > 0 ? "float('inf')" : "-float('inf')";
            return v.repr();
        }
        case PyValue::Kind::List:
        case PyValue::Kind::Tuple: {
            const bool isList = v.kind() == PyValue::Kind::List;
            std::string s(1, isList ? '[' : '(');
            for (size_t i = 0; i < v.items().size(); ++i) {
                if (i) s += ", ";
                s += pythonExpr(v.items()[i]);
            }
            if (!isList && v.items().size() == 1) s += ',';
            s += isList ? ']' : ')';
            return s;
        }
        case PyValue::Kind::Dict: {
            std::string s = "{";
            for (size_t i = 0; i < v.entries().size(); ++i) {
                if (i) s += ", ";
                s += pyStrRepr(v.entries()[i].first) + ": " + pythonExpr(v.entries()[i].second);
            }
            return s + "}";
        }
        case PyValue::Kind::Callable:
        case PyValue::Kind::Object: return v.str().empty() ? std::string("object()") : v.str();
        case PyValue::Kind::Instance: {
            const PyInstance& in = *v.instance();
            if (!in.code.empty()) return in.code;
            std::string s = in.cls.api + "(";
            bool first = true;
            for (const auto& [k, val] : in.args) {
                bool given = false;
                for (const std::string& g : in.given) given = given || g == k;
                if (!given) continue;
                if (!first) s += ", ";
                first = false;
                s += k + "=" + pythonExpr(val);
            }
            return s + ")";
        }
        default: return v.repr();
    }
}

}  // namespace qs::tpu
