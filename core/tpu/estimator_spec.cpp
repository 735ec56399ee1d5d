#include "core/tpu/estimator_spec.h"

#include <algorithm>
#include <array>

namespace qs::tpu {

namespace {

const PyValue kNone;
const std::string kTf1Module = "tensorflow.python.tpu.tpu_embedding";

constexpr std::array<std::string_view, 7> kSupportedOptimizers{
    "ProximalAdagradParameters", "AdagradParameters",  "AdamParameters",
    "FtrlParameters",            "StochasticGradientDescentParameters",
    "MomentumParameters",        "RMSPropParameters"};

// Classes TF exports under tf.compat.v1.tpu.experimental.
bool exported(std::string_view name) {
    return name == "AdagradParameters" || name == "AdamParameters" || name == "FtrlParameters" ||
           name == "StochasticGradientDescentParameters";
}

// repr() of a namedtuple: "TableConfig(vocabulary_size=4, dimension=2, ...)".
std::string namedTupleRepr(const PyInstance& in) {
    std::string s = in.cls.name + "(";
    for (size_t i = 0; i < in.args.size(); ++i) {
        if (i) s += ", ";
        s += in.args[i].first + "=" + in.args[i].second.repr();
    }
    return s + ")";
}

std::vector<PyParam> commonTail(bool with_accumulation) {
    std::vector<PyParam> p;
    if (with_accumulation) p.push_back({"use_gradient_accumulation", PyValue(true)});
    for (std::string_view n : {"clip_weight_min", "clip_weight_max", "weight_decay_factor",
                               "multiply_weight_decay_factor_by_learning_rate"})
        p.push_back({n, kNone});
    return p;
}

std::vector<PyParam> paramsOf(std::string_view name) {
    const PyParam lr{"learning_rate", std::nullopt};
    std::vector<PyParam> p{lr};
    auto add = [&](std::vector<PyParam> more) { p.insert(p.end(), more.begin(), more.end()); };
    const std::vector<PyParam> clip{{"clip_gradient_min", kNone}, {"clip_gradient_max", kNone}};
    if (name == "AdagradParameters") {
        add({{"initial_accumulator", PyValue(0.1)}});
        add(commonTail(true));
    } else if (name == "ProximalAdagradParameters") {
        add({{"initial_accumulator", PyValue(0.1)},
             {"l1_regularization_strength", PyValue(0.0)},
             {"l2_regularization_strength", PyValue(0.0)}});
        add(commonTail(true));
    } else if (name == "AdamParameters") {
        add({{"beta1", PyValue(0.9)},
             {"beta2", PyValue(0.999)},
             {"epsilon", PyValue(1e-08)},
             {"lazy_adam", PyValue(true)},
             {"sum_inside_sqrt", PyValue(true)}});
        add(commonTail(true));
    } else if (name == "FtrlParameters") {
        add({{"learning_rate_power", PyValue(-0.5)},
             {"initial_accumulator_value", PyValue(0.1)},
             {"l1_regularization_strength", PyValue(0.0)},
             {"l2_regularization_strength", PyValue(0.0)}});
        add(commonTail(true));
        add({{"multiply_linear_by_learning_rate", PyValue(false)},
             {"beta", PyValue(0)},
             {"allow_zero_accumulator", PyValue(false)}});
    } else if (name == "StochasticGradientDescentParameters") {
        add(commonTail(false));
    } else if (name == "MomentumParameters") {
        add({{"momentum", std::nullopt}, {"use_nesterov", PyValue(false)}});
        add(commonTail(true));
    } else if (name == "RMSPropParameters") {
        add({{"rho", std::nullopt}, {"momentum", std::nullopt}, {"epsilon", std::nullopt}});
        add(commonTail(true));
    }
    add(clip);
    return p;
}

std::string l12Message(std::string_view which, const PyValue& v) {
    return std::string(which) + "_regularization_strength must be greater than or equal to 0. got " +
           v.pyStr() + ".";
}

// --- feature columns ---------------------------------------------------------------------

struct ColumnKind {
    std::string_view kind;
    std::string_view module;
    std::string_view cls;
};
constexpr std::string_view kFcV2 = "tensorflow.python.feature_column.feature_column_v2";
constexpr std::string_view kFcV1 = "tensorflow.python.feature_column.feature_column";
constexpr std::string_view kTpuFcV2 = "tensorflow.python.tpu.feature_column_v2";
constexpr std::string_view kTpuFcV1 = "tensorflow.python.tpu.feature_column";
constexpr std::array<ColumnKind, 11> kColumnKinds{{
    {"tpu_embedding_column", kTpuFcV2, "_TPUEmbeddingColumnV2"},
    {"tpu_shared_embedding_column", kTpuFcV2, "_TPUSharedEmbeddingColumnV2"},
    {"embedding_column", kFcV2, "EmbeddingColumn"},
    {"shared_embedding_column", kFcV2, "SharedEmbeddingColumn"},
    {"numeric_column", kFcV2, "NumericColumn"},
    {"categorical_column_with_identity", kFcV2, "IdentityCategoricalColumn"},
    {"categorical_column_with_vocabulary_list", kFcV2, "VocabularyListCategoricalColumn"},
    {"categorical_column_with_hash_bucket", kFcV2, "HashedCategoricalColumn"},
    {"bucketized_column", kFcV2, "BucketizedColumn"},
    {"indicator_column", kFcV2, "IndicatorColumn"},
    {"weighted_categorical_column", kFcV2, "WeightedCategoricalColumn"},
}};

std::string classRepr(std::string_view module, std::string_view cls) {
    return "<class '" + std::string(module) + "." + std::string(cls) + "'>";
}

// _SUPPORTED_FEATURE_COLUMNS + _TPU_EMBEDDING_COLUMN_CLASSES + _EMBEDDING_COLUMN_CLASSES.
std::string supportedColumnClasses() {
    return "(" + classRepr(kFcV1, "_NumericColumn") + ", " + classRepr(kFcV2, "NumericColumn") +
           ", " + classRepr(kTpuFcV1, "_TPUEmbeddingColumn") + ", " +
           classRepr(kTpuFcV1, "_TPUSharedEmbeddingColumn") + ", " +
           classRepr(kTpuFcV2, "_TPUEmbeddingColumnV2") + ", " +
           classRepr(kTpuFcV2, "_TPUSharedEmbeddingColumnV2") + ", " +
           classRepr(kFcV1, "_EmbeddingColumn") + ", " + classRepr(kFcV2, "EmbeddingColumn") +
           ", " + classRepr(kFcV1, "_SharedEmbeddingColumn") + ")";
}

bool isSupportedColumn(const PyValue& c) {
    if (c.kind() != PyValue::Kind::Instance) return false;
    const PyClass& cls = c.instance()->cls;
    return (cls.module == kTpuFcV2 &&
            (cls.name == "_TPUEmbeddingColumnV2" || cls.name == "_TPUSharedEmbeddingColumnV2")) ||
           (cls.module == kFcV2 && (cls.name == "NumericColumn" || cls.name == "EmbeddingColumn"));
}

bool isTpuColumn(const PyValue& c) {
    return c.kind() == PyValue::Kind::Instance && c.instance()->cls.module == kTpuFcV2;
}

std::string supportedOptimizerClasses() {
    std::string s = "(";
    for (size_t i = 0; i < kSupportedOptimizers.size(); ++i) {
        if (i) s += ", ";
        s += tf1Class(kSupportedOptimizers[i]).typeRepr();
    }
    return s + ")";
}

// dict.items() of argument `argument`, which must be a dict.
Result<const PyValue::Entries*> itemsOf(const PyValue& d, const char* argument) {
    if (d.kind() != PyValue::Kind::Dict) {
        std::string message = "'";  // (built in steps: GCC 12 warns wrongly on "'" + string&&)
        message += d.typeName();
        message += "' object has no attribute 'items'";
        return Error{"AttributeError", std::move(message), argument};
    }
    return &d.entries();
}

}  // namespace

PyClass tf1Class(std::string_view name) {
    const std::string n(name);
    return {n, kTf1Module,
            exported(name) ? "tf.compat.v1.tpu.experimental." + n : "tpu_embedding." + n};
}

bool isOptimizationParametersName(std::string_view name) {
    return std::find(kSupportedOptimizers.begin(), kSupportedOptimizers.end(), name) !=
           kSupportedOptimizers.end();
}

Result<PyValue> makeTf1TableConfig(const Kwargs& kwargs) {
    const PyClass cls = tf1Class("TableConfig");
    auto bound = bindInstance(cls, "__new__",
                            {{"vocabulary_size", std::nullopt},
                             {"dimension", std::nullopt},
                             {"initializer", kNone},
                             {"combiner", PyValue("mean")},
                             {"hot_id_replication", PyValue(false)},
                             {"learning_rate", kNone},
                             {"learning_rate_fn", kNone},
                             {"optimization_parameters", kNone}},
                            kwargs);
    if (!bound) return bound.error();
    PyInstance in = std::move(bound).value();
    if (auto st = failUnlessIntAtLeast(in, "vocabulary_size", 1, "Invalid vocabulary_size ", "."); !st) return st.error();
    if (auto st = failUnlessIntAtLeast(in, "dimension", 1, "Invalid dimension ", "."); !st) return st.error();
    PyValue& init = in.args[2].second;
    if (!init.isNone() && !init.isCallable())
        return valueError("initializer must be callable if specified.", "initializer");
    // The default: truncated_normal_initializer(mean=0.0, stddev=1/sqrt(dimension)), stored
    // in the namedtuple (so its repr shows the object).
    if (init.isNone())
        init = PyValue::object("tensorflow.python.ops.init_ops.TruncatedNormal",
                               "<tensorflow.python.ops.init_ops.TruncatedNormal object>", true);
    const PyValue& comb = in.arg("combiner");
    if (!(comb == PyValue("mean") || comb == PyValue("sum") || comb == PyValue("sqrtn") ||
          comb.isNone()))
        return valueError("Invalid combiner " + comb.pyStr(), "combiner");
    const PyValue& lr = in.arg("learning_rate");
    const PyValue& lrFn = in.arg("learning_rate_fn");
    if (!lr.isNone() && !lrFn.isNone())
        return valueError("At most one of learning_rate and learning_rate_fn can be None; got " +
                          lr.pyStr() + " and " + lrFn.pyStr());
    const PyValue& opt = in.arg("optimization_parameters");
    if (!opt.isNone()) {
        const bool isParams = opt.kind() == PyValue::Kind::Instance &&
                              opt.instance()->cls.module == kTf1Module &&
                              isOptimizationParametersName(opt.instance()->cls.name);
        if (!isParams)
            return valueError(
                "`optimization_parameters` must inherit from `_OptimizationParameters`. "
                    "`type(optimization_parameters)`=" + opt.typeRepr(),
                "optimization_parameters");
    }
    in.repr_text = namedTupleRepr(in);
    return PyValue::instance(std::move(in));
}

Result<PyValue> makeTf1FeatureConfig(const Kwargs& kwargs) {
    const PyClass cls = tf1Class("FeatureConfig");
    auto bound = bindInstance(cls, "__new__",
                            {{"table_id", std::nullopt},
                             {"max_sequence_length", PyValue(0)},
                             {"weight_key", kNone}},
                            kwargs);
    if (!bound) return bound.error();
    PyInstance in = std::move(bound).value();
    if (auto st = failUnlessIntAtLeast(in, "max_sequence_length", 0, "Invalid max_sequence_length ", "."); !st)
        return st.error();
    in.repr_text = namedTupleRepr(in);
    return PyValue::instance(std::move(in));
}

Result<PyValue> makeOptimizationParameters(std::string_view name, const Kwargs& kwargs) {
    if (!isOptimizationParametersName(name))
        return valueError("unknown optimization parameters class " + std::string(name));
    const PyClass cls = tf1Class(name);
    auto bound = bindInstance(cls, "__init__", paramsOf(name), kwargs);
    if (!bound) return bound.error();
    PyInstance in = std::move(bound).value();
    if (name == "StochasticGradientDescentParameters") {
        const bool clip = !in.arg("clip_gradient_min").isNone() ||
                          !in.arg("clip_gradient_max").isNone();
        in.attrs.emplace_back("use_gradient_accumulation", PyValue(clip));
    }
    // _OptimizationParameters.__init__ builds, but never raises, the ValueError "When using
    // gradient clipping limits, gradient accumulation must be enabled." (TF's bug): nothing.
    if (name == "AdagradParameters" || name == "ProximalAdagradParameters") {
        if (auto st = failIf(in, "initial_accumulator", "<=", PyValue(0),
                             "Adagrad initial_accumulator must be positive");
            !st)
            return st.error();
        if (name == "ProximalAdagradParameters") {
            for (std::string_view w : {"l1", "l2"}) {
                const std::string argument = std::string(w) + "_regularization_strength";
                if (auto st = failIf(in, argument, "<", PyValue(0.0), l12Message(w, in.arg(argument))); !st)
                    return st.error();
            }
        }
    } else if (name == "AdamParameters") {
        for (std::string_view b : {"beta1", "beta2"}) {
            const std::string msg =
                std::string(b) + " must be between 0. and 1; got " + in.arg(b).pyStr() + ".";
            if (auto st = failOutside(in, b, 0.0, 1.0, msg); !st) return st.error();
        }
        const PyValue& eps = in.arg("epsilon");
        if (auto st = failIf(in, "epsilon", "<=", PyValue(0.0),
                             "epsilon must be positive; got " + eps.pyStr() + ".");
            !st)
            return st.error();
        // Raised when lazy_adam is turned off: the error of that argument.
        if (!in.arg("use_gradient_accumulation").truthy() && !in.arg("lazy_adam").truthy())
            return valueError("When disabling Lazy Adam, gradient accumulation must be used.", "lazy_adam");
    } else if (name == "FtrlParameters") {
        // TF: "<argument> must be <relation> 0. got <value>." when `argument op 0` holds.
        const auto signCheck = [&in](const char* argument, const char* op, const char* relation) {
            return failIf(in, argument, op, PyValue(0.0),
                          std::string(argument) + " must be " + relation + " 0. got " + in.arg(argument).pyStr() + ".");
        };
        if (auto st = signCheck("learning_rate_power", ">", "less than or equal to"); !st) return st.error();
        if (auto st = signCheck("initial_accumulator_value", "<", "greater than or equal to"); !st) return st.error();
        for (std::string_view w : {"l1", "l2"}) {
            const std::string argument = std::string(w) + "_regularization_strength";
            if (auto st = failIf(in, argument, "<", PyValue(0.0), l12Message(w, in.arg(argument))); !st)
                return st.error();
        }
    }
    return PyValue::instance(std::move(in));
}

PyValue makeFeatureColumn(std::string_view kind, const std::string& key, int64_t dimension,
                          int64_t num_buckets) {
    PyInstance in;
    const auto it = std::find_if(kColumnKinds.begin(), kColumnKinds.end(),
                                 [&](const ColumnKind& k) { return k.kind == kind; });
    if (it != kColumnKinds.end()) in.cls = {std::string(it->cls), std::string(it->module), ""};
    else in.cls = {std::string(kind), "", ""};
    in.args = {{"key", PyValue(key)},
               {"dimension", PyValue(dimension)},
               {"num_buckets", PyValue(num_buckets)}};
    in.attrs = {{"kind", PyValue(std::string(kind))}};
    // Python code for the column (the api field is the whole expression here).
    const std::string buckets = num_buckets > 0 ? std::to_string(num_buckets) : "...";
    const std::string cat = "tf.feature_column.categorical_column_with_identity(" +
                            pyStrRepr(key) + ", num_buckets=" + buckets + ")";
    const std::string dim = std::to_string(dimension);
    std::string code;
    if (kind == "tpu_embedding_column")
        code = "tf.compat.v1.tpu.experimental.embedding_column(" + cat + ", dimension=" + dim + ")";
    else if (kind == "tpu_shared_embedding_column")
        code = "tf.compat.v1.tpu.experimental.shared_embedding_columns([" + cat +
               "], dimension=" + dim + ")[0]";
    else if (kind == "embedding_column")
        code = "tf.feature_column.embedding_column(" + cat + ", dimension=" + dim + ")";
    else if (kind == "numeric_column")
        code = "tf.feature_column.numeric_column(" + pyStrRepr(key) + ")";
    else
        code = "tf.feature_column." + std::string(kind) + "(" + pyStrRepr(key) + ")";
    in.code = code;
    return PyValue::instance(std::move(in));
}

Result<PyValue> makeEmbeddingConfigSpec(const Kwargs& kwargs) {
    const PyClass cls{"EmbeddingConfigSpec",
                      "tensorflow_estimator.python.estimator.tpu._tpu_estimator_embedding",
                      "tf.compat.v1.estimator.tpu.experimental.EmbeddingConfigSpec"};
    auto bound = bindInstance(cls, "__new__",
                            {{"feature_columns", kNone},
                             {"optimization_parameters", kNone},
                             {"clipping_limit", kNone},
                             {"pipeline_execution_with_tensor_core", PyValue(false)},
                             {"experimental_gradient_multiplier_fn", kNone},
                             {"feature_to_config_dict", kNone},
                             {"table_to_config_dict", kNone},
                             {"partition_strategy", PyValue("div")},
                             {"profile_data_directory", kNone}},
                            kwargs);
    if (!bound) return bound.error();
    PyInstance in = std::move(bound).value();
    const PyValue& columns = in.arg("feature_columns");
    const PyValue& features = in.arg("feature_to_config_dict");
    const PyValue& tables = in.arg("table_to_config_dict");
    const bool pair = features.truthy() && tables.truthy();
    if ((!columns.truthy() && !pair) || (columns.truthy() && pair))
        return valueError("Exactly one of `feature_columns` and the pair `feature_to_config_dict` "
                          "and `table_to_config_dict` must be be specified.");
    const PyValue& strategy = in.arg("partition_strategy");
    if (!(strategy == PyValue("div") || strategy == PyValue("mod")))
        return valueError("Invalid partition_strategy " + strategy.pyStr() +
                              ". Must be one of \"mod\" or \"div\".",
                          "partition_strategy");
    if (columns.truthy()) {
        if (columns.kind() != PyValue::Kind::List && columns.kind() != PyValue::Kind::Tuple)
            return typeError("'" + columns.typeName() + "' object is not iterable", "feature_columns");
        for (const PyValue& c : columns.items())
            if (!isSupportedColumn(c))
                return typeError("All feature columns must be supported types in " +
                                     supportedColumnClasses() + ". Got " + c.typeRepr(),
                                 "feature_columns");
        const PyValue& opt = in.arg("optimization_parameters");
        const bool ok = opt.kind() == PyValue::Kind::Instance &&
                        opt.instance()->cls.module == kTf1Module &&
                        isOptimizationParametersName(opt.instance()->cls.name);
        if (!ok)
            return valueError("optimization_parameters must be an instance of type " +
                                  supportedOptimizerClasses() + ". Got " + opt.typeRepr() + ".",
                              "optimization_parameters");
    } else {
        // Errors of a feature's or a table's config are errors of the dict holding it.
        auto fitems = itemsOf(features, "feature_to_config_dict");
        if (!fitems) return fitems.error();
        for (const auto& [feature, config] : **fitems) {
            if (!(config.kind() == PyValue::Kind::Instance &&
                  config.instance()->cls == tf1Class("FeatureConfig")))
                return typeError("Config for feature " + feature +
                                     " must be of type `FeatureConfig`. Got " + config.typeRepr(),
                                 "feature_to_config_dict");
            const PyValue& tableId = config.instance()->arg("table_id");
            if (tableId.kind() == PyValue::Kind::List || tableId.kind() == PyValue::Kind::Dict)
                return typeError("unhashable type: '" + tableId.typeName() + "'", "feature_to_config_dict");
            if (!tableId.isStr() || !tables.find(tableId.str()))
                return valueError("Feature " + feature + " refers to table " + tableId.pyStr() +
                                      " which is not in the table_to_config_dict.",
                                  "feature_to_config_dict");
        }
        auto titems = itemsOf(tables, "table_to_config_dict");
        if (!titems) return titems.error();
        for (const auto& [table, config] : **titems)
            if (!(config.kind() == PyValue::Kind::Instance &&
                  config.instance()->cls == tf1Class("TableConfig")))
                return typeError("Config for table " + table +
                                     " must be of type `TableConfig`. Got " + config.typeRepr(),
                                 "table_to_config_dict");
    }
    return PyValue::instance(std::move(in));
}

Result<EmbeddingConfigs> getConfigsFromFeatureColumns(const PyValue& feature_columns) {
    const std::string allowed = "(" + classRepr(kTpuFcV2, "_TPUEmbeddingColumnV2") + ", " +
                                classRepr(kTpuFcV2, "_TPUSharedEmbeddingColumnV2") + ")";
    for (const PyValue& c : feature_columns.items())
        if (!isTpuColumn(c))
            return typeError("Unsupported feature column " + c.typeRepr() +
                                 ". Supported types are " + allowed + ".",
                             "feature_columns");
    EmbeddingConfigs out;
    for (const PyValue& c : feature_columns.items()) {
        const PyInstance& col = *c.instance();
        const std::string key = col.arg("key").str();
        const bool shared = col.cls.name == "_TPUSharedEmbeddingColumnV2";
        // The embedding variable: the categorical column's name, or the shared collection's
        // default name "<sorted names joined by _>_shared_embedding".
        const std::string table = "tbl_" + (shared ? key + "_shared_embedding" : key);
        for (const auto& [f, cfg] : out.feature_to_config)
            if (f == key)
                return valueError("Feature column " + key +
                                      " is used with multiple embeddings and this is not supported.",
                                  "feature_columns");
        auto fc = makeTf1FeatureConfig({{"table_id", PyValue(table)}});
        if (!fc) return fc.error();
        out.feature_to_config.emplace_back(key, *fc);
        auto tc = makeTf1TableConfig({{"vocabulary_size", col.arg("num_buckets")},
                                      {"dimension", col.arg("dimension")}});
        if (!tc) return tc.error();
        bool seen = false;
        for (auto& [t, cfg] : out.table_to_config) seen = seen || t == table;
        if (!seen) out.table_to_config.emplace_back(table, *tc);
    }
    return out;
}

}  // namespace qs::tpu
