#include "session/workbench/embedding_document.h"

#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <cmath>

#include "session/files/json_file.h"
#include "session/files/native_file.h"
#include "session/workbench/py_json.h"

namespace qs::ui {

namespace {

const QString kFormat = QStringLiteral("quantscope-embedding");

// Reads the fields of one JSON object at `where` ("tables[1]"), keeping the first problem
// with its full path.
class Reader {
public:
    Reader(QJsonObject o, QString where, QString* error)
        : o_(std::move(o)), where_(std::move(where)), error_(error) {}
    bool ok() const { return *error_ == QString(); }

    QString path(const QString& key) const { return where_.isEmpty() ? key : where_ + u'.' + key; }
    bool has(const char* key) const { return o_.contains(QLatin1String(key)); }
    QJsonValue raw(const char* key) const { return o_.value(QLatin1String(key)); }

    // A Python value as entered: anything py_json.h reads (absent keeps `def`).
    QJsonValue python(const char* key, const QJsonValue& def) {
        const QJsonValue v = raw(key);
        if (v.isUndefined()) return def;
        checkPython(v, path(QLatin1String(key)));
        return v;
    }
    // Keywords of a Python call: every value a Python value; `skip` is not a keyword.
    QJsonObject keywords(const char* key, const QJsonObject& def, const char* skip = nullptr) {
        const QJsonValue v = raw(key);
        if (v.isUndefined()) return def;
        if (!v.isObject()) return fail(key, QStringLiteral("expected an object")), def;
        const QJsonObject o = v.toObject();
        for (auto it = o.begin(); it != o.end(); ++it)
            if (!skip || it.key() != QLatin1String(skip))
                checkPython(it.value(), path(QLatin1String(key)) + u'.' + it.key());
        return o;
    }
    QString string(const char* key, const QString& def) {
        const QJsonValue v = raw(key);
        if (v.isUndefined()) return def;
        if (!v.isString()) return fail(key, QStringLiteral("expected a string")), def;
        return v.toString();
    }
    bool boolean(const char* key, bool def) {
        const QJsonValue v = raw(key);
        if (v.isUndefined()) return def;
        if (!v.isBool()) return fail(key, QStringLiteral("expected true or false")), def;
        return v.toBool();
    }
    double number(const char* key, double def) {
        const QJsonValue v = raw(key);
        if (v.isUndefined()) return def;
        if (!v.isDouble()) return fail(key, QStringLiteral("expected a number")), def;
        return v.toDouble();
    }
    // An integer in [lo, hi], checked before the cast (a huge double cast is undefined).
    qint64 integer(const char* key, qint64 def, double lo, double hi) {
        const QJsonValue v = raw(key);
        if (v.isUndefined()) return def;
        const double d = v.toDouble();
        if (!v.isDouble() || !std::isfinite(d) || d != std::trunc(d))
            return fail(key, QStringLiteral("expected an integer")), def;
        if (d < lo || d > hi)
            return fail(key, QStringLiteral("%1 is out of range [%2, %3]").arg(d).arg(lo).arg(hi)), def;
        return static_cast<qint64>(d);
    }
    QJsonObject object(const char* key) {
        const QJsonValue v = raw(key);
        if (v.isUndefined()) return {};
        if (!v.isObject()) return fail(key, QStringLiteral("expected an object")), QJsonObject{};
        return v.toObject();
    }
    QJsonArray array(const char* key) {
        const QJsonValue v = raw(key);
        if (v.isUndefined()) return {};
        if (!v.isArray()) return fail(key, QStringLiteral("expected a list")), QJsonArray{};
        return v.toArray();
    }
    void fail(const char* key, const QString& problem) { failAt(path(QLatin1String(key)), problem); }
    void failAt(const QString& where, const QString& problem) {
        if (ok()) *error_ = where + QStringLiteral(": ") + problem;
    }

private:
    void checkPython(const QJsonValue& v, const QString& where) {
        try {
            (void)pyFromJson(v, where.toStdString());  // a TF error is a value as entered
        } catch (const PyJsonFormatError& e) {
            failAt(QString::fromStdString(e.field),
                   QStringLiteral("expected a Python value (%1)").arg(QString::fromStdString(e.problem)));
        }
    }

    QJsonObject o_;
    QString where_;
    QString* error_;
};

constexpr double kMaxInt = 2147483647.0;

QJsonObject tableToJson(const EmbeddingTable& t) {
    QJsonObject o;
    o[QStringLiteral("name")] = t.name;
    o[QStringLiteral("vocabulary_size")] = t.vocabulary_size;
    o[QStringLiteral("dim")] = t.dim;
    o[QStringLiteral("combiner")] = t.combiner;
    QJsonObject opt = t.optimizer.keywords;
    opt[QStringLiteral("type")] = t.optimizer.type;
    o[QStringLiteral("optimizer")] = opt;
    o[QStringLiteral("quantization_config")] =
        t.quantization ? QJsonValue(QJsonObject{{QStringLiteral("num_buckets"), t.quantization->num_buckets},
                                                {QStringLiteral("lower"), t.quantization->lower},
                                                {QStringLiteral("upper"), t.quantization->upper}})
                       : QJsonValue(QJsonValue::Null);
    const EmbeddingInitializer& i = t.initializer;
    o[QStringLiteral("initializer")] = QJsonObject{
        {QStringLiteral("kind"), i.kind},     {QStringLiteral("mean"), i.mean},
        {QStringLiteral("stddev"), i.stddev}, {QStringLiteral("minval"), i.minval},
        {QStringLiteral("maxval"), i.maxval}, {QStringLiteral("value"), i.value},
        {QStringLiteral("seed"), static_cast<double>(i.seed)}};
    o[QStringLiteral("data_file")] = t.data_file;
    return o;
}

EmbeddingTable tableFromJson(const QJsonObject& json, const QString& where, QString* error) {
    Reader r(json, where, error);
    EmbeddingTable t;
    t.name = r.string("name", t.name);
    t.vocabulary_size = r.python("vocabulary_size", t.vocabulary_size);
    t.dim = r.python("dim", t.dim);
    t.combiner = r.python("combiner", t.combiner);
    if (r.has("optimizer")) {
        QJsonObject kw = r.keywords("optimizer", {}, "type");
        Reader opt(kw, r.path(QStringLiteral("optimizer")), error);
        t.optimizer.type = opt.string("type", t.optimizer.type);
        kw.remove(QStringLiteral("type"));
        t.optimizer.keywords = kw;
    }
    const QJsonValue q = r.raw("quantization_config");
    if (q.isObject()) {
        Reader qr(q.toObject(), r.path(QStringLiteral("quantization_config")), error);
        EmbeddingQuantization quant;
        quant.num_buckets = qr.python("num_buckets", quant.num_buckets);
        quant.lower = qr.python("lower", quant.lower);
        quant.upper = qr.python("upper", quant.upper);
        t.quantization = quant;
    } else if (!q.isNull() && !q.isUndefined()) {
        r.fail("quantization_config", QStringLiteral("expected null or {num_buckets, lower, upper}"));
    }
    if (r.has("initializer")) {
        Reader ir(r.object("initializer"), r.path(QStringLiteral("initializer")), error);
        EmbeddingInitializer& i = t.initializer;
        i.kind = ir.string("kind", i.kind);
        if (!QStringList{QStringLiteral("truncated_normal"), QStringLiteral("uniform"),
                         QStringLiteral("zeros"), QStringLiteral("constant")}
                 .contains(i.kind))
            ir.fail("kind", QStringLiteral("'%1' is not one of truncated_normal, uniform, zeros, constant")
                                .arg(i.kind));
        i.mean = ir.number("mean", i.mean);
        i.stddev = ir.number("stddev", i.stddev);
        i.minval = ir.number("minval", i.minval);
        i.maxval = ir.number("maxval", i.maxval);
        i.value = ir.number("value", i.value);
        i.seed = ir.integer("seed", i.seed, 0, 9007199254740992.0);
    }
    t.data_file = r.string("data_file", t.data_file);
    return t;
}

QJsonObject featureToJson(const EmbeddingFeature& f) {
    return QJsonObject{{QStringLiteral("name"), f.name},
                       {QStringLiteral("table"), f.table},
                       {QStringLiteral("max_sequence_length"), f.max_sequence_length},
                       {QStringLiteral("validate_weights_and_indices"), f.validate_weights_and_indices},
                       {QStringLiteral("output_shape"), f.output_shape},
                       {QStringLiteral("ids"), f.ids},
                       {QStringLiteral("ids_file"), f.ids_file}};
}

EmbeddingFeature featureFromJson(const QJsonObject& json, const QString& where, int tables,
                                 QString* error) {
    Reader r(json, where, error);
    EmbeddingFeature f;
    f.name = r.string("name", f.name);
    f.table = static_cast<int>(r.integer("table", f.table, -1, kMaxInt));
    if (f.table >= tables)
        r.fail("table", QStringLiteral("%1 is not a table index (there are %2 tables)").arg(f.table).arg(tables));
    f.max_sequence_length = r.python("max_sequence_length", f.max_sequence_length);
    f.validate_weights_and_indices = r.python("validate_weights_and_indices", f.validate_weights_and_indices);
    f.output_shape = r.python("output_shape", f.output_shape);
    f.ids = r.string("ids", f.ids);
    f.ids_file = r.string("ids_file", f.ids_file);
    return f;
}

}  // namespace

EmbeddingDocument EmbeddingDocument::example() {
    EmbeddingDocument doc;
    EmbeddingTable t;
    t.name = QStringLiteral("table_0");
    doc.tables.push_back(t);
    EmbeddingFeature f;
    f.name = QStringLiteral("feature_0");
    doc.features.push_back(f);
    return doc;
}

QJsonObject embeddingDocumentToJson(const EmbeddingDocument& doc) {
    QJsonArray tables, features;
    for (const EmbeddingTable& t : doc.tables) tables.append(tableToJson(t));
    for (const EmbeddingFeature& f : doc.features) features.append(featureToJson(f));
    const EstimatorOptions& e = doc.estimator;
    return QJsonObject{
        {QStringLiteral("format"), kFormat},
        {QStringLiteral("version"), kEmbeddingFormatVersion},
        {QStringLiteral("tables"), tables},
        {QStringLiteral("features"), features},
        {QStringLiteral("estimator"),
         QJsonObject{{QStringLiteral("enabled"), e.enabled},
                     {QStringLiteral("partition_strategy"), e.partition_strategy},
                     {QStringLiteral("pipeline_execution_with_tensor_core"), e.pipeline_execution_with_tensor_core},
                     {QStringLiteral("clipping_limit"), e.clipping_limit},
                     {QStringLiteral("optimization_parameters"), e.optimization_parameters}}},
        {QStringLiteral("sharding"), QJsonObject{{QStringLiteral("num_hosts"), doc.num_hosts}}},
        {QStringLiteral("view"),
         QJsonObject{{QStringLiteral("table"), doc.view.table},
                     {QStringLiteral("feature"), doc.view.feature},
                     {QStringLiteral("first_row"), static_cast<double>(doc.view.first_row)},
                     {QStringLiteral("rows"), static_cast<double>(doc.view.rows)}}}};
}

std::optional<EmbeddingDocument> embeddingDocumentFromJson(const QJsonObject& json, QString* error) {
    QString why;
    Reader r(json, QString(), &why);
    if (r.string("format", QString()) != kFormat) {
        if (error) *error = QStringLiteral("not a QuantScope embedding configuration (\"format\" is not \"%1\")").arg(kFormat);
        return std::nullopt;
    }
    const qint64 version = r.integer("version", -1, 1, kMaxInt);
    if (r.ok() && version > kEmbeddingFormatVersion) {
        if (error)
            *error = QStringLiteral("version %1 is newer than this QuantScope reads (%2); "
                                    "open it with a newer QuantScope")
                         .arg(version).arg(kEmbeddingFormatVersion);
        return std::nullopt;
    }
    if (r.ok() && version < 1) r.fail("version", QStringLiteral("is missing"));

    EmbeddingDocument doc;
    const QJsonArray tables = r.array("tables");
    for (qsizetype i = 0; i < tables.size() && r.ok(); ++i) {
        const QString where = QStringLiteral("tables[%1]").arg(i);
        if (!tables.at(i).isObject()) r.failAt(where, QStringLiteral("expected an object"));
        else doc.tables.push_back(tableFromJson(tables.at(i).toObject(), where, &why));
    }
    const QJsonArray features = r.array("features");
    for (qsizetype i = 0; i < features.size() && r.ok(); ++i) {
        const QString where = QStringLiteral("features[%1]").arg(i);
        if (!features.at(i).isObject()) r.failAt(where, QStringLiteral("expected an object"));
        else
            doc.features.push_back(featureFromJson(features.at(i).toObject(), where,
                                                   static_cast<int>(doc.tables.size()), &why));
    }
    if (r.has("estimator")) {
        Reader e(r.object("estimator"), QStringLiteral("estimator"), &why);
        EstimatorOptions& o = doc.estimator;
        o.enabled = e.boolean("enabled", o.enabled);
        o.partition_strategy = e.python("partition_strategy", o.partition_strategy);
        o.pipeline_execution_with_tensor_core =
            e.python("pipeline_execution_with_tensor_core", o.pipeline_execution_with_tensor_core);
        o.clipping_limit = e.python("clipping_limit", o.clipping_limit);
        o.optimization_parameters = e.keywords("optimization_parameters", o.optimization_parameters, "type");
        if (e.ok() && !o.optimization_parameters.value(QStringLiteral("type")).isString())
            e.failAt(QStringLiteral("estimator.optimization_parameters.type"), QStringLiteral("expected a string"));
    }
    if (r.has("sharding")) {
        Reader s(r.object("sharding"), QStringLiteral("sharding"), &why);
        doc.num_hosts = static_cast<int>(s.integer("num_hosts", doc.num_hosts, 1, 65536));
    }
    if (r.has("view")) {
        Reader v(r.object("view"), QStringLiteral("view"), &why);
        doc.view.table = static_cast<int>(v.integer("table", doc.view.table, -1, kMaxInt));
        doc.view.feature = static_cast<int>(v.integer("feature", doc.view.feature, -1, kMaxInt));
        doc.view.first_row = v.integer("first_row", doc.view.first_row, 0, 9007199254740992.0);
        doc.view.rows = v.integer("rows", doc.view.rows, 1, kMaxInt);
    }
    if (!r.ok()) {
        if (error) *error = why;
        return std::nullopt;
    }
    return doc;
}

bool saveEmbeddingDocument(const QString& path, const EmbeddingDocument& doc, QString* error) {
    return writeJsonObjectFile(path, embeddingDocumentToJson(doc), error);
}

namespace {
// A read file's configuration; relative data paths are taken relative to the file's folder.
std::optional<EmbeddingDocument> configurationOfFile(const ReadJsonFile& file, QString* error) {
    const auto resolve = [](EmbeddingDocument& doc, const QDir& folder) {
        const auto resolved = [&folder](const QString& path) {
            return path.isEmpty() || QFileInfo(path).isAbsolute() ? path : folder.filePath(path);
        };
        for (EmbeddingTable& t : doc.tables) t.data_file = resolved(t.data_file);
        for (EmbeddingFeature& f : doc.features) f.ids_file = resolved(f.ids_file);
    };
    return documentOfFile<EmbeddingDocument>(file, embeddingDocumentFromJson, resolve, error);
}
}  // namespace

std::optional<EmbeddingDocument> loadEmbeddingDocument(const std::string& nativePath, QString* error) {
    return configurationOfFile(readJsonFileFor(nativePath, QStringLiteral("embedding configuration"), error),
                               error);
}

std::optional<EmbeddingDocument> loadEmbeddingDocument(const QString& path, QString* error) {
    return configurationOfFile(readJsonFileFor(path, QStringLiteral("embedding configuration"), error), error);
}

}  // namespace qs::ui
