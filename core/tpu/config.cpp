#include "core/tpu/config.h"

#include <algorithm>

namespace qs::tpu {

namespace {

const PyValue kNone;
const std::string kTf2Module = "tensorflow.python.tpu.tpu_embedding_v2_utils";

// The parameters every TF2 optimizer shares after its own, in each class's order.
std::vector<PyParam> optimizerParams(OptimizerKind kind) {
    const PyParam lr{"learning_rate", PyValue(kind == OptimizerKind::SGD ? 0.01 : 0.001)};
    const PyParam accum{"use_gradient_accumulation", PyValue(true)};
    const PyParam cwmin{"clip_weight_min", kNone}, cwmax{"clip_weight_max", kNone};
    const PyParam wdf{"weight_decay_factor", kNone};
    const PyParam mwdf{"multiply_weight_decay_factor_by_learning_rate", kNone};
    const PyParam slot{"slot_variable_creation_fn", kNone};
    const PyParam clip{"clipvalue", kNone};
    const PyParam packing{"low_dimensional_packing_status", PyValue(false)};
    switch (kind) {
        case OptimizerKind::SGD:
            return {lr, accum, cwmin, cwmax, wdf, mwdf, clip, packing};
        case OptimizerKind::Adagrad:
            return {lr, {"initial_accumulator_value", PyValue(0.1)}, accum, cwmin, cwmax, wdf,
                    mwdf, slot, clip, packing};
        case OptimizerKind::AdagradMomentum:
            return {lr, {"momentum", PyValue(0.0)}, {"use_nesterov", PyValue(false)},
                    {"exponent", PyValue(2)}, {"beta2", PyValue(1)}, {"epsilon", PyValue(1e-10)},
                    accum, cwmin, cwmax, wdf, mwdf, slot, clip, packing};
        case OptimizerKind::FTRL:
            return {lr, {"learning_rate_power", PyValue(-0.5)},
                    {"l1_regularization_strength", PyValue(0.0)},
                    {"l2_regularization_strength", PyValue(0.0)}, {"beta", PyValue(0.0)},
                    {"initial_accumulator_value", PyValue(0.1)}, accum, cwmin, cwmax, wdf, mwdf,
                    slot, clip, {"multiply_linear_by_learning_rate", PyValue(false)},
                    {"allow_zero_accumulator", PyValue(false)}, packing};
        case OptimizerKind::Adam:
            return {lr, {"beta_1", PyValue(0.9)}, {"beta_2", PyValue(0.999)},
                    {"epsilon", PyValue(1e-07)}, {"lazy_adam", PyValue(true)},
                    {"sum_inside_sqrt", PyValue(true)}, accum, cwmin, cwmax, wdf, mwdf, slot, clip,
                    packing};
    }
    return {};
}

// clipvalue as optimizer_clip models it, when it is None, a number or a tuple of numbers
// and None; nullopt for other Python values.
std::optional<ClipValue> asClipValue(const PyValue& v) {
    auto num = [](const PyValue& x) { return PyNumber{x.asDouble(), x.isInt()}; };
    if (v.isNone()) return ClipValue::none();
    if (v.isNumber()) return ClipValue::number(num(v));
    if (v.kind() != PyValue::Kind::Tuple) return std::nullopt;
    ClipValue c;
    c.kind = ClipValue::Kind::Tuple;
    for (const PyValue& x : v.items()) {
        if (x.isNone()) c.tuple.emplace_back(std::nullopt);
        else if (x.isNumber()) c.tuple.emplace_back(num(x));
        else return std::nullopt;
    }
    return c;
}

// _Optimizer.__init__'s clipvalue handling -> (clip_gradient_min, clip_gradient_max).
Result<std::pair<PyValue, PyValue>> clipGradient(OptimizerKind kind, bool accumulate,
                                                 const PyValue& clip) {
    if (const auto c = asClipValue(clip)) {
        // The numeric forms go through optimizer_clip (the same checks and texts).
        auto limits = gradientClipLimits(kind, accumulate, *c);  // its errors name clipvalue
        if (!limits) return limits.error();
        if (clip.isNone()) return std::pair{kNone, kNone};
        if (clip.kind() == PyValue::Kind::Tuple) return std::pair{clip.items()[0], clip.items()[1]};
        return std::pair{PyValue(*limits->min), clip};  // (-1. * c, c): c keeps its type
    }
    if (!accumulate)
        return valueError(
            "When `use_gradient_accumulation` is False, gradient clipping cannot be used and "
            "`clipvalue` should be left as None. Received value " +
            clip.pyStr() + " for argument `clipvalue`.",
            "clipvalue");
    if (clip.kind() == PyValue::Kind::Tuple) {  // a tuple holding other objects
        const size_t n = clip.items().size();
        if (n > 2) return valueError("too many values to unpack (expected 2)", "clipvalue");
        if (n < 2)
            return valueError("not enough values to unpack (expected 2, got " + std::to_string(n) +
                                  ")",
                              "clipvalue");
        return std::pair{clip.items()[0], clip.items()[1]};
    }
    if (clip.isStr() || clip.kind() == PyValue::Kind::List)
        return typeError("can't multiply sequence by non-int of type 'float'", "clipvalue");
    return typeError("unsupported operand type(s) for *: 'float' and '" + clip.typeName() + "'",
                     "clipvalue");
}

// TF2's "Argument `x` must be an int and must be >= n. Received: v".
Status intAtLeast(const PyInstance& in, const char* argument, int64_t least, const char* note = "") {
    return failUnlessIntAtLeast(in, argument, least,
                                std::string("Argument `") + argument + "`" + note + " must be an int and must be >= " +
                                    std::to_string(least) + ". Received: ");
}

std::string tensorShapeRepr(const PyValue& shape) {
    if (shape.isNone()) return "TensorShape(None)";
    std::string s = "TensorShape([";
    if (shape.isInt()) {
        s += std::to_string(shape.asInt());
    } else {
        for (size_t i = 0; i < shape.items().size(); ++i) {
            if (i) s += ", ";
            s += shape.items()[i].isNone() ? std::string("None")
                                           : std::to_string(shape.items()[i].asInt());
        }
    }
    return s + "])";
}

// as_dimension(d) for one dimension of TensorShape(...).
Status checkDimension(const PyValue& d) {
    if (d.isNone()) return okStatus();
    if (!d.isInt())
        return typeError("Dimension value must be integer or None or have an __index__ method, "
                         "got value '" + d.repr() + "' with type '" + d.typeRepr() + "'");
    if (d.asInt() < 0) return valueError("Dimension " + std::to_string(d.asInt()) + " must be >= 0");
    return okStatus();
}

Status checkTensorShape(const PyValue& shape) {
    if (shape.kind() == PyValue::Kind::List || shape.kind() == PyValue::Kind::Tuple) {
        for (const PyValue& d : shape.items())
            if (auto st = checkDimension(d); !st) return st;
        return okStatus();
    }
    return checkDimension(shape);  // None, or a single dimension
}

}  // namespace

PyClass tf2Class(std::string_view name) {
    return {std::string(name), kTf2Module, "tf.tpu.experimental.embedding." + std::string(name)};
}

bool isInstanceOf(const PyValue& v, const PyClass& cls) {
    return v.kind() == PyValue::Kind::Instance && v.instance()->cls == cls;
}

Result<PyValue> makeQuantizationConfigValue(const Kwargs& kwargs) {
    const PyClass cls = tf2Class("QuantizationConfig");
    auto bound = bindInstance(cls, "__init__",
                            {{"num_buckets", std::nullopt}, {"lower", std::nullopt},
                             {"upper", std::nullopt}},
                            kwargs);
    if (!bound) return bound.error();
    PyInstance in = std::move(bound).value();
    const PyValue& n = in.arg("num_buckets");
    if (auto st = failIf(in, "num_buckets", "<", PyValue(2),
                         "num_buckets is " + n.pyStr() +
                             ", must be at least 2 for simulated quantization.");
        !st)
        return st.error();
    in.repr_text = "QuantizationConfig(num_buckets=" + n.repr() + ", lower=" +
                   in.arg("lower").repr() + ", upper=" + in.arg("upper").repr() + ")";
    return PyValue::instance(std::move(in));
}

Result<PyValue> makeOptimizer(OptimizerKind kind, const Kwargs& kwargs) {
    const PyClass cls = tf2Class(optimizerName(kind));
    auto bound = bindInstance(cls, "__init__", optimizerParams(kind), kwargs);
    if (!bound) return bound.error();
    PyInstance in = std::move(bound).value();
    const PyValue& accumulate = in.arg("use_gradient_accumulation");

    // _Optimizer.__init__
    auto clip = clipGradient(kind, accumulate.truthy(), in.arg("clipvalue"));
    if (!clip) return clip.error();
    in.attrs.emplace_back("clip_gradient_min", clip->first);
    in.attrs.emplace_back("clip_gradient_max", clip->second);
    const PyValue& slot = in.arg("slot_variable_creation_fn");
    if (!slot.isNone() && !slot.isCallable())
        return valueError("Argument `slot_variable_creation_fn` must be either None or a "
                          "callable. Received: " + slot.pyStr(),
                          "slot_variable_creation_fn");

    switch (kind) {
        case OptimizerKind::SGD: break;
        case OptimizerKind::Adagrad:
        case OptimizerKind::FTRL: {
            const PyValue& init = in.arg("initial_accumulator_value");
            if (auto st = failIf(in, "initial_accumulator_value", "<=", PyValue(0),
                                 "Argument `initial_accumulator_value` must be a positive "
                                 "float. Received: " + init.pyStr());
                !st)
                return st.error();
            break;
        }
        case OptimizerKind::AdagradMomentum:
            if (auto st = failIf(in, "epsilon", "<=", PyValue(0),
                                 "Adagrad momentum: epsilon must be positive");
                !st)
                return st.error();
            if (auto st = failIf(in, "exponent", "<=", PyValue(0),
                                 "Adagrad momentum: Precondition exponent must >0");
                !st)
                return st.error();
            break;
        case OptimizerKind::Adam: {
            const PyValue& b1 = in.arg("beta_1");
            for (const char* name : {"beta_1", "beta_2"}) {
                // `if beta < 0. or beta >= 1.`; both messages print beta_1 (TF's bug).
                const std::string msg = std::string("Argument `") + name +
                                        "` must be >= 0 and < 1. Received: " + b1.pyStr() + ".";
                if (auto st = failOutside(in, name, 0.0, 1.0, msg); !st) return st.error();
            }
            const PyValue& eps = in.arg("epsilon");
            if (auto st = failIf(in, "epsilon", "<=", PyValue(0.0),
                                 "epsilon must be positive; got " + eps.pyStr() + ".");
                !st)
                return st.error();
            // Raised when lazy_adam is turned off: the error of that argument.
            if (!accumulate.truthy() && !in.arg("lazy_adam").truthy())
                return valueError(
                    "When disabling lazy Adam (`lazy_adam=False`), gradient accumulation must "
                    "be used. Set `use_gradient_accumulation` to False.",
                    "lazy_adam");
            break;
        }
    }
    return PyValue::instance(std::move(in));
}

Result<PyValue> makeTableConfig(const Kwargs& kwargs) {
    const PyClass cls = tf2Class("TableConfig");
    auto bound = bindInstance(cls, "__init__",
                            {{"vocabulary_size", std::nullopt},
                             {"dim", std::nullopt},
                             {"initializer", kNone},
                             {"optimizer", kNone},
                             {"combiner", PyValue("mean")},
                             {"name", kNone},
                             {"quantization_config", kNone},
                             {"layout", kNone},
                             {"dtype", PyValue("float32")}},
                            kwargs);
    if (!bound) return bound.error();
    PyInstance in = std::move(bound).value();
    if (auto st = intAtLeast(in, "vocabulary_size", 1); !st) return st.error();
    if (auto st = intAtLeast(in, "dim", 1, " (embedding dimension)"); !st) return st.error();
    const PyValue& vocab = in.arg("vocabulary_size");
    const PyValue& dim = in.arg("dim");
    const PyValue& init = in.arg("initializer");
    if (!init.isNone() && !init.isCallable())
        return valueError("Argument `initializer` must be a callable (or None). Received: " +
                              init.pyStr(),
                          "initializer");
    const PyValue& combiner = in.arg("combiner");
    if (!(combiner == PyValue("mean") || combiner == PyValue("sum") ||
          combiner == PyValue("sqrtn")))
        return valueError("Argument `combiner` must be one of ('mean', 'sum', 'sqrtn'). Received: " +
                              combiner.pyStr(),
                          "combiner");
    const PyValue& dtype = in.arg("dtype");
    if (!(dtype == PyValue("float32") || dtype == PyValue("int32")))
        return valueError("Argument `dtype` must be one of (tf.float32, tf.int32). Received: " +
                              dtype.pyStr(),
                          "dtype");
    if (in.arg("name").isNone())
        in.warnings.emplace_back(
            "Name of the table config must be specified for running on SparseCore. Different "
            "table configs must have unique names.");
    // __repr__: the default initializer prints as None.
    in.repr_text = "TableConfig(vocabulary_size=" + vocab.repr() + ", dim=" + dim.repr() +
                   ", initializer=" + init.repr() + ", optimizer=" + in.arg("optimizer").repr() +
                   ", combiner=" + combiner.repr() + ", name=" + in.arg("name").repr() +
                   ", quantization_config=" + in.arg("quantization_config").repr() + ")";
    return PyValue::instance(std::move(in));
}

Result<PyValue> makeFeatureConfig(const Kwargs& kwargs) {
    const PyClass cls = tf2Class("FeatureConfig");
    auto bound = bindInstance(cls, "__init__",
                            {{"table", std::nullopt},
                             {"max_sequence_length", PyValue(0)},
                             {"validate_weights_and_indices", PyValue(true)},
                             {"output_shape", kNone},
                             {"name", kNone}},
                            kwargs);
    if (!bound) return bound.error();
    PyInstance in = std::move(bound).value();
    const PyValue& table = in.arg("table");
    if (!isInstanceOf(table, tf2Class("TableConfig")))
        return valueError("Argument `table` has invalid type " + table.typeRepr() +
                              ". Expected `tf.tpu.experimental.embedding.TableConfig`.",
                          "table");
    if (auto st = intAtLeast(in, "max_sequence_length", 0); !st) return st.error();
    const PyValue& len = in.arg("max_sequence_length");
    const PyValue& shape = in.arg("output_shape");
    if (auto st = checkTensorShape(shape); !st) return aboutField(st.error(), "output_shape");
    const PyValue& validate = in.arg("validate_weights_and_indices");
    if (!validate.isBool())
        return valueError("Argument `validate_weights_and_indices` must be a boolean. Received: " +
                              validate.pyStr(),
                          "validate_weights_and_indices");
    in.repr_text = "FeatureConfig(table=" + table.repr() + ", max_sequence_length=" + len.repr() +
                   ", validate_weights_and_indices=" + validate.repr() +
                   ", output_shape=" + tensorShapeRepr(shape) + ", name=" + in.arg("name").repr() +
                   ")";
    return PyValue::instance(std::move(in));
}

// --- typed views -----------------------------------------------------------------------

Result<Optimizer> Optimizer::make(OptimizerKind kind, const Kwargs& kwargs) {
    auto v = makeOptimizer(kind, kwargs);
    if (!v) return v.error();
    return *from(*v);
}

std::optional<Optimizer> Optimizer::from(const PyValue& v) {
    if (v.kind() != PyValue::Kind::Instance || v.instance()->cls.module != kTf2Module)
        return std::nullopt;
    const auto kind = optimizerKindFromName(v.instance()->cls.name);
    if (!kind) return std::nullopt;
    Optimizer o;
    o.kind_ = *kind;
    o.value_ = v;
    return o;
}

PyValue Optimizer::clipGradientMin() const {
    const PyValue* a = value_.instance()->attr("clip_gradient_min");
    return a ? *a : PyValue();
}

PyValue Optimizer::clipGradientMax() const {
    const PyValue* a = value_.instance()->attr("clip_gradient_max");
    return a ? *a : PyValue();
}

Result<TableConfig> TableConfig::make(const Kwargs& kwargs) {
    auto v = makeTableConfig(kwargs);
    if (!v) return v.error();
    return *from(*v);
}

std::optional<TableConfig> TableConfig::from(const PyValue& v) {
    if (!isInstanceOf(v, tf2Class("TableConfig"))) return std::nullopt;
    TableConfig t;
    t.value_ = v;
    return t;
}

std::optional<QuantizationConfig> TableConfig::quantization() const {
    const PyValue& q = arg("quantization_config");
    if (!isInstanceOf(q, tf2Class("QuantizationConfig"))) return std::nullopt;
    const PyInstance& in = *q.instance();
    if (!in.arg("num_buckets").isInt() || !in.arg("lower").isNumber() ||
        !in.arg("upper").isNumber())
        return std::nullopt;
    auto c = makeQuantizationConfig(in.arg("num_buckets").asInt(), in.arg("lower").asDouble(),
                                    in.arg("upper").asDouble());
    if (!c) return std::nullopt;
    return *c;
}

int64_t TableConfig::descriptorVocabularySize(int64_t num_hosts) const {
    return std::max(vocabularySize(), num_hosts);
}

Result<FeatureConfig> FeatureConfig::make(const Kwargs& kwargs) {
    auto v = makeFeatureConfig(kwargs);
    if (!v) return v.error();
    FeatureConfig f;
    f.value_ = *v;
    return f;
}

// --- Python code ---------------------------------------------------------------------------

std::string toPython(const PyValue& config) { return pythonExpr(config); }
std::string toPython(const Optimizer& optimizer) { return pythonExpr(optimizer.value()); }
std::string toPython(const TableConfig& table) { return pythonExpr(table.value()); }
std::string toPython(const FeatureConfig& feature) { return pythonExpr(feature.value()); }

namespace {
void collectImports(const PyValue& v, std::vector<std::string>& out) {
    auto add = [&](std::string line) {
        if (std::find(out.begin(), out.end(), line) == out.end()) out.push_back(std::move(line));
    };
    switch (v.kind()) {
        case PyValue::Kind::Instance: {
            const PyInstance& in = *v.instance();
            const std::string& api = in.code.empty() ? in.cls.api : in.code;
            if (api.rfind("tf.", 0) == 0) add("import tensorflow as tf");
            else if (api.rfind("tpu_embedding.", 0) == 0)
                add("from tensorflow.python.tpu import tpu_embedding");
            for (const auto& [k, a] : v.instance()->args) collectImports(a, out);
            break;
        }
        case PyValue::Kind::List:
        case PyValue::Kind::Tuple:
            for (const PyValue& x : v.items()) collectImports(x, out);
            break;
        case PyValue::Kind::Dict:
            for (const auto& [k, x] : v.entries()) collectImports(x, out);
            break;
        default: break;
    }
}
}  // namespace

std::vector<std::string> pythonImports(const PyValue& config) {
    std::vector<std::string> out;
    collectImports(config, out);
    std::sort(out.begin(), out.end(), [](const std::string& a, const std::string& b) {
        return (a.rfind("import", 0) == 0) > (b.rfind("import", 0) == 0) ||
               ((a.rfind("import", 0) == 0) == (b.rfind("import", 0) == 0) && a < b);
    });
    return out;
}

}  // namespace qs::tpu
