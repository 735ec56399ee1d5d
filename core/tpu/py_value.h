// A Python value as TF's configuration classes receive it (tpu_embedding_v2_utils.py,
// tpu_embedding.py, _tpu_estimator_embedding.py). Those classes accept any object and
// validate with isinstance / callable / comparisons, so their error messages depend on the
// value's Python type and on str()/repr() of it. PyValue keeps exactly that information:
// None, bool, int, float, str, list, tuple, dict (string keys, insertion order), a callable,
// an opaque object (type path + repr text) and an instance of one of the modelled classes
// (class + bound constructor arguments), so "must be an int", "is not callable", "has
// invalid type <class 'str'>" and TypeErrors of comparisons come out as in Python 3.10+.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/status.h"

namespace qs::tpu {

// A Python class: `module.name`, and the public name a user writes to build it
// ("tf.tpu.experimental.embedding.Adagrad"; "tpu_embedding.TableConfig" for classes TF
// does not export, with `from tensorflow.python.tpu import tpu_embedding`).
struct PyClass {
    std::string name;    // "Adagrad"
    std::string module;  // "tensorflow.python.tpu.tpu_embedding_v2_utils"
    std::string api;     // "tf.tpu.experimental.embedding.Adagrad"
    bool operator==(const PyClass&) const = default;
    std::string typeRepr() const { return std::string("<class '") + qualified() + "'>"; }
    std::string qualified() const { return module.empty() ? name : module + "." + name; }
};

struct PyInstance;

class PyValue {
public:
    enum class Kind { None, Bool, Int, Float, Str, List, Tuple, Dict, Callable, Object, Instance };
    using Items = std::vector<PyValue>;
    using Entries = std::vector<std::pair<std::string, PyValue>>;

    PyValue() = default;  // None
    PyValue(std::nullptr_t) {}
    PyValue(bool b) : kind_(Kind::Bool), int_(b) {}
    PyValue(int v) : kind_(Kind::Int), int_(v) {}
    PyValue(int64_t v) : kind_(Kind::Int), int_(v) {}
    PyValue(double v) : kind_(Kind::Float), float_(v) {}
    PyValue(const char* s) : kind_(Kind::Str), text_(s) {}
    PyValue(std::string s) : kind_(Kind::Str), text_(std::move(s)) {}

    static PyValue list(Items items);
    static PyValue tuple(Items items);
    static PyValue dict(Entries entries);
    // A function; `code` is how Python code refers to it ("my_initializer") and what we print
    // for it (CPython prints "<function f at 0x7f...>", an address we cannot reproduce).
    static PyValue callable(std::string code);
    // Any other object: its type ("module.Class", "object" when unknown), the text str()/repr()
    // give, and whether it is callable (e.g. an initializer object).
    static PyValue object(std::string type, std::string repr, bool is_callable = false);
    static PyValue instance(PyInstance inst);

    Kind kind() const { return kind_; }
    bool isNone() const { return kind_ == Kind::None; }
    // isinstance(v, int): bool is a subclass of int.
    bool isInt() const { return kind_ == Kind::Int || kind_ == Kind::Bool; }
    bool isBool() const { return kind_ == Kind::Bool; }
    bool isNumber() const { return isInt() || kind_ == Kind::Float; }
    bool isStr() const { return kind_ == Kind::Str; }
    bool isCallable() const;  // callable(v)

    int64_t asInt() const { return int_; }      // Int or Bool
    double asDouble() const;                      // Int, Bool or Float
    const std::string& str() const { return text_; }  // Str; Callable/Object: code / repr
    const Items& items() const { return items_; }      // List or Tuple
    const Entries& entries() const { return entries_; }  // Dict
    const PyInstance* instance() const { return inst_.get(); }
    const std::string& objectType() const { return type_; }  // Object
    const PyValue* find(std::string_view key) const;          // Dict lookup

    bool truthy() const;             // bool(v)
    std::string typeName() const;    // type(v).__name__: "int", "NoneType", "Adagrad"
    std::string typeRepr() const;    // str(type(v)): "<class 'int'>"
    std::string repr() const;        // repr(v)
    std::string pyStr() const;       // str(v), what f"{v}" and "{}".format(v) print
    bool operator==(const PyValue& o) const;  // Python ==, for `in` tests (1 == 1.0 == True)

private:
    Kind kind_ = Kind::None;
    int64_t int_ = 0;
    double float_ = 0.0;
    std::string text_;
    std::string type_;
    bool callable_ = false;
    Items items_;
    Entries entries_;
    std::shared_ptr<const PyInstance> inst_;
};

using Kwargs = std::vector<std::pair<std::string, PyValue>>;

// An object of a modelled class: the arguments it was built with (every parameter of the
// signature, defaults filled in, in signature order), derived attributes (e.g. the
// optimizers' clip_gradient_min/max) and what TF logged while building it.
struct PyInstance {
    PyClass cls;
    Kwargs args;
    std::vector<std::string> given;  // names passed explicitly (what toPython writes back)
    Kwargs attrs;
    std::vector<std::string> warnings;
    // __repr__ of the class when it defines one ("" means object.__repr__).
    std::string repr_text;
    // The Python expression that builds it, when it is not `<api>(<given keywords>)`.
    std::string code;

    const PyValue& arg(std::string_view name) const;   // None when absent
    const PyValue* attr(std::string_view name) const;
};

// One parameter of a constructor signature; no default = required.
struct PyParam {
    std::string_view name;
    std::optional<PyValue> def;
};

// Binds keyword arguments to a signature as CPython does, with its TypeErrors:
// "<Class>.__init__() got an unexpected keyword argument 'x'" (checked first), then
// "<Class>.__init__() missing 1 required positional argument: 'dim'" /
// "missing 2 required positional arguments: 'a' and 'b'" / "'a', 'b', and 'c'".
// `method` is "__init__" or "__new__" (namedtuple-based classes). The error's field is the
// unexpected keyword, or the first missing argument.
Result<Kwargs> bindKwargs(std::string_view class_name, std::string_view method,
                          const std::vector<PyParam>& params, const Kwargs& kwargs);

// `cls(**kwargs)` bound as bindKwargs does, as an instance of `cls`: every parameter with its
// value, and which keywords were passed.
Result<PyInstance> bindInstance(const PyClass& cls, std::string_view method, const std::vector<PyParam>& params,
                                const Kwargs& kwargs);

// `a <op> b` for op in <, <=, >, >=: numbers compare by value; anything else is CPython's
// TypeError "'<=' not supported between instances of 'str' and 'int'".
Result<bool> pyCompare(const PyValue& a, std::string_view op, const PyValue& b);

// `if <argument> <op> bound: raise ValueError(message)` on an instance's argument: both the
// ValueError and a failed comparison (CPython's TypeError) are errors of that argument.
Status failIf(const PyInstance& in, std::string_view argument, std::string_view op, const PyValue& bound,
              std::string message);

// `if not isinstance(<argument>, int) or <argument> < least: raise ValueError(before + str(v)
// + after)` (bool is an int), an error of that argument.
Status failUnlessIntAtLeast(const PyInstance& in, std::string_view argument, int64_t least, const std::string& before,
                            const std::string& after = {});

// `if <argument> < lo or <argument> >= hi: raise ValueError(message)`, the same way.
Status failOutside(const PyInstance& in, std::string_view argument, double lo, double hi, const std::string& message);

// repr() of a Python str: single quotes unless the text holds ' and no ".
std::string pyStrRepr(std::string_view s);

// The Python expression that rebuilds `v` (instances: `<api>(kw=..., ...)` with every argument
// that differs from its default; callables/objects: their code text).
std::string pythonExpr(const PyValue& v);

}  // namespace qs::tpu
